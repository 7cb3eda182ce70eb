#include "xml_document.h"

#include "../common/input_error.h"

#include <cctype>
#include <cstdint>
#include <optional>
#include <fmt/format.h>

namespace ringsim {

const std::string* XmlElement::attribute(std::string_view key) const {
  for (const auto& [name, value] : attributes)
    if (name == key) return &value;
  return nullptr;
}

namespace {

constexpr std::size_t kMaxDepth = 256;

bool is_name_char(char c) {
  const auto byte = static_cast<unsigned char>(c);
  return std::isalnum(byte) != 0 || c == '_' || c == '-' || c == '.' || c == ':' || byte >= 0x80;
}

// A cursor over the text that knows its line.
class XmlCursor {
 public:
  XmlCursor(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  bool done() const { return at_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[at_]; }
  bool starts_with(std::string_view prefix) const { return text_.substr(at_).starts_with(prefix); }
  int line() const { return line_; }

  void advance(std::size_t count = 1) {
    for (std::size_t i = 0; i < count && !done(); ++i, ++at_)
      if (text_[at_] == '\n') ++line_;
  }
  void skip_space() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) advance();
  }
  // Moves past TERMINATOR; fails naming WHAT when the text ends first.
  void skip_past(std::string_view terminator, std::string_view what) {
    const int start = line_;
    const auto end = text_.find(terminator, at_);
    if (end == std::string_view::npos) fail(start, fmt::format("expected \"{}\" closing the {} begun here", terminator, what));
    advance(end + terminator.size() - at_);
  }
  std::string name(std::string_view what) {
    const std::size_t start = at_;
    while (!done() && is_name_char(peek())) advance();
    if (at_ == start) fail(line_, fmt::format("expected {}, found {}", what, shown(peek())));
    return std::string(text_.substr(start, at_ - start));
  }
  void expect(char c, std::string_view what) {
    if (peek() != c) fail(line_, fmt::format("expected '{}' {}, found {}", c, what, shown(peek())));
    advance();
  }
  std::string quoted_value(const std::string& attribute);

  [[noreturn]] void fail(int line, const std::string& message) const {
    throw InputError(fmt::format("{}:{}: {}", file_, line, message));
  }
  std::string shown(char c) const { return done() ? "the end of the file" : fmt::format("'{}'", c); }

 private:
  std::string_view text_;
  const std::string& file_;
  std::size_t at_ = 0;
  int line_ = 1;
};

// "&amp;" and the other predefined entities, "&#65;" and "&#x41;" (kept as bytes below 0x80 only).
std::string decoded_entity(std::string_view entity) {
  if (entity == "amp") return "&";
  if (entity == "lt") return "<";
  if (entity == "gt") return ">";
  if (entity == "quot") return "\"";
  if (entity == "apos") return "'";
  if (entity.size() > 1 && entity[0] == '#') {
    const bool hex = entity[1] == 'x';
    std::uint32_t code = 0;
    const std::string_view digits = entity.substr(hex ? 2 : 1);
    if (digits.empty() || digits.size() > 6) return {};
    for (const char c : digits) {
      const int digit = c >= '0' && c <= '9' ? c - '0' : hex && c >= 'a' && c <= 'f' ? c - 'a' + 10 : hex && c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
      if (digit < 0) return {};
      code = code * (hex ? 16 : 10) + static_cast<std::uint32_t>(digit);
    }
    if (code > 0 && code < 0x80) return std::string(1, static_cast<char>(code));
    return "?";
  }
  return {};
}

std::string XmlCursor::quoted_value(const std::string& attribute) {
  const char quote = peek();
  if (quote != '"' && quote != '\'')
    fail(line_, fmt::format("expected a quoted value after {}=, found {}", attribute, shown(quote)));
  advance();
  std::string value;
  while (!done() && peek() != quote) {
    if (peek() == '<') fail(line_, fmt::format("expected the closing {} of {}'s value, found '<'", quote, attribute));
    if (peek() == '&') {
      const auto end = text_.find(';', at_);
      const std::string decoded = end == std::string_view::npos || end - at_ > 10 ? std::string() : decoded_entity(text_.substr(at_ + 1, end - at_ - 1));
      if (decoded.empty()) fail(line_, fmt::format("expected an entity such as &amp; in {}'s value", attribute));
      value += decoded;
      advance(end + 1 - at_);
      continue;
    }
    value += peek();
    advance();
  }
  if (done()) fail(line_, fmt::format("expected the closing {} of {}'s value, found the end of the file", quote, attribute));
  advance();
  return value;
}

// After '<' and the name: attributes, then "/>" (true: no children) or ">".
bool read_attributes(XmlCursor& cursor, XmlElement& element) {
  while (true) {
    const bool spaced = cursor.peek() == ' ' || cursor.peek() == '\t' || cursor.peek() == '\n' || cursor.peek() == '\r';
    cursor.skip_space();
    if (cursor.starts_with("/>")) {
      cursor.advance(2);
      return true;
    }
    if (cursor.peek() == '>') {
      cursor.advance();
      return false;
    }
    if (!spaced) cursor.fail(cursor.line(), fmt::format("expected a space, '>' or '/>' in <{}>, found {}", element.name, cursor.shown(cursor.peek())));
    std::string key = cursor.name(fmt::format("an attribute name, '>' or '/>' in <{}>", element.name));
    cursor.skip_space();
    cursor.expect('=', fmt::format("after attribute {}", key));
    cursor.skip_space();
    if (element.attribute(key) != nullptr) cursor.fail(cursor.line(), fmt::format("attribute {} given twice in <{}>", key, element.name));
    std::string value = cursor.quoted_value(key);
    element.attributes.emplace_back(std::move(key), std::move(value));
  }
}

// Skips what is not an element: text, comments, declarations. False at an element's tag.
bool skip_markup(XmlCursor& cursor) {
  if (cursor.starts_with("<!--")) {
    cursor.skip_past("-->", "comment");
    return true;
  }
  if (cursor.starts_with("<?")) {
    cursor.skip_past("?>", "declaration");
    return true;
  }
  if (cursor.starts_with("<!")) {
    cursor.skip_past(">", "declaration");
    return true;
  }
  if (cursor.peek() != '<') {
    cursor.advance();
    return true;
  }
  return false;
}

}  // namespace

XmlElement parse_xml(std::string_view text, const std::string& file) {
  XmlCursor cursor(text, file);
  std::vector<XmlElement> open;  // the elements whose end tag is still to come, outermost first
  std::optional<XmlElement> root;
  while (!cursor.done()) {
    if (skip_markup(cursor)) continue;
    const int line = cursor.line();
    cursor.advance();  // '<'
    if (cursor.peek() == '/') {
      cursor.advance();
      const std::string name = cursor.name("an element's name after '</'");
      cursor.skip_space();
      cursor.expect('>', fmt::format("closing </{}", name));
      if (open.empty()) cursor.fail(line, fmt::format("</{}> closes no open element", name));
      if (open.back().name != name)
        cursor.fail(line, fmt::format("expected </{}> closing <{}> of line {}, found </{}>", open.back().name, open.back().name, open.back().line, name));
      XmlElement done = std::move(open.back());
      open.pop_back();
      if (open.empty()) root = std::move(done);
      else open.back().children.push_back(std::move(done));
      continue;
    }
    if (root) cursor.fail(line, fmt::format("expected nothing after the root element <{}>, found another element", root->name));
    XmlElement element;
    element.line = line;
    element.name = cursor.name("an element's name after '<'");
    if (open.size() >= kMaxDepth) cursor.fail(line, fmt::format("expected at most {} nested elements", kMaxDepth));
    const bool empty = read_attributes(cursor, element);
    if (!empty) open.push_back(std::move(element));
    else if (open.empty()) root = std::move(element);
    else open.back().children.push_back(std::move(element));
  }
  if (!open.empty())
    cursor.fail(cursor.line(), fmt::format("expected </{}> closing <{}> of line {}, found the end of the file", open.back().name,
                                           open.back().name, open.back().line));
  if (!root) cursor.fail(1, "expected an XML element such as <system version=\"1\">, found none");
  return std::move(*root);
}

}  // namespace ringsim
