#include "hostlist.h"

#include <fmt/format.h>
#include <utility>

namespace ringsim {
namespace {

constexpr std::size_t kMaxPatternLength = 256;

// The commas of EXPRESSION outside brackets split it into hostlist items.
std::vector<std::string_view> items_of(std::string_view expression) {
  std::vector<std::string_view> items;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < expression.size(); ++i) {
    if (expression[i] == '[') ++depth;
    else if (expression[i] == ']') --depth;
    else if (expression[i] == ',' && depth == 0) {
      items.push_back(expression.substr(start, i - start));
      start = i + 1;
    }
  }
  items.push_back(expression.substr(start));
  return items;
}

bool all_digits(std::string_view s) {
  return !s.empty() && s.size() <= 9 && s.find_first_not_of("0123456789") == std::string_view::npos;
}

// "01-16" -> {1, 16}; nullopt unless both ends are numbers and the end is not below the start.
std::optional<std::pair<long, long>> range_ends(std::string_view range) {
  const auto dash = range.find('-');
  const std::string_view low = range.substr(0, dash);
  const std::string_view high = dash == std::string_view::npos ? low : range.substr(dash + 1);
  if (!all_digits(low) || !all_digits(high)) return std::nullopt;
  const long first = std::stol(std::string(low)), last = std::stol(std::string(high));
  if (last < first) return std::nullopt;
  return std::pair{first, last};
}

// How many hosts ITEM names, the product of its bracket groups' sizes, at most LIMIT + 1: counted before
// any name is built, so that several groups ("a[1-16]b[1-16]c[1-16]...") cannot build millions of names
// only to refuse them. A malformed group stops the count; expand_item then says what is wrong with it.
std::size_t hosts_named(std::string_view item, std::size_t limit) {
  std::size_t count = 1;
  for (auto open = item.find('['); open != std::string_view::npos;) {
    const auto close = item.find(']', open);
    if (close == std::string_view::npos) break;
    std::size_t group = 0;
    for (std::string_view range : items_of(item.substr(open + 1, close - open - 1))) {
      const auto ends = range_ends(range);
      if (!ends) return count;
      group += static_cast<std::size_t>(ends->second - ends->first) + 1;
    }
    count = group > limit || count * group > limit ? limit + 1 : count * group;
    open = item.find('[', close);
  }
  return count;
}

// "01-03,7" -> "01", "02", "03", "7".
std::optional<std::vector<std::string>> expand_ranges(std::string_view ranges, std::string& why, std::size_t limit) {
  std::vector<std::string> numbers;
  for (std::string_view range : items_of(ranges)) {
    const auto dash = range.find('-');
    const std::string_view low = range.substr(0, dash);
    const std::string_view high = dash == std::string_view::npos ? low : range.substr(dash + 1);
    if (!all_digits(low) || !all_digits(high)) {
      why = fmt::format("expected a range such as 01-16 inside brackets, found \"{}\"", range);
      return std::nullopt;
    }
    const long first = std::stol(std::string(low)), last = std::stol(std::string(high));
    if (last < first) {
      why = fmt::format("expected a range whose end is not below its start, found \"{}\"", range);
      return std::nullopt;
    }
    if (static_cast<std::size_t>(last - first) + numbers.size() >= limit) {
      why = fmt::format("expected at most {} hosts in a hostlist", limit);
      return std::nullopt;
    }
    for (long n = first; n <= last; ++n) numbers.push_back(fmt::format("{:0{}}", n, low.size()));
  }
  return numbers;
}

// One item: "r[1-2]n[01-04]" -> r1n01 ... r2n04.
std::optional<std::vector<std::string>> expand_item(std::string_view item, std::string& why, std::size_t limit) {
  const auto open = item.find('[');
  if (open == std::string_view::npos) {
    if (item.find(']') != std::string_view::npos) {
      why = fmt::format("expected '[' before ']' in \"{}\"", item);
      return std::nullopt;
    }
    return std::vector<std::string>{std::string(item)};
  }
  const auto close = item.find(']', open);
  if (close == std::string_view::npos) {
    why = fmt::format("expected ']' closing the '[' of \"{}\"", item);
    return std::nullopt;
  }
  const auto numbers = expand_ranges(item.substr(open + 1, close - open - 1), why, limit);
  if (!numbers) return std::nullopt;
  const auto rest = expand_item(item.substr(close + 1), why, limit);
  if (!rest) return std::nullopt;
  if (numbers->size() * rest->size() > limit) {
    why = fmt::format("expected at most {} hosts in a hostlist", limit);
    return std::nullopt;
  }
  std::vector<std::string> hosts;
  const std::string prefix(item.substr(0, open));
  for (const auto& number : *numbers)
    for (const auto& tail : *rest) hosts.push_back(prefix + number + tail);
  return hosts;
}

}  // namespace

std::optional<std::vector<std::string>> expand_hostlist(std::string_view expression, std::string& why, std::size_t limit) {
  std::vector<std::string> hosts;
  for (std::string_view item : items_of(expression)) {
    if (item.empty()) {
      why = fmt::format("expected host names separated by single commas, found \"{}\"", expression);
      return std::nullopt;
    }
    // A host name is at most 64 characters (Linux's HOST_NAME_MAX); its pattern, brackets included, a few more.
    if (item.size() > kMaxPatternLength) {
      why = fmt::format("expected a host name pattern of at most {} characters, found one of {}", kMaxPatternLength, item.size());
      return std::nullopt;
    }
    if (hosts_named(item, limit) > limit) {
      why = fmt::format("expected at most {} hosts in a hostlist", limit);
      return std::nullopt;
    }
    auto expanded = expand_item(item, why, limit);
    if (!expanded) return std::nullopt;
    if (hosts.size() + expanded->size() > limit) {
      why = fmt::format("expected at most {} hosts in a hostlist", limit);
      return std::nullopt;
    }
    hosts.insert(hosts.end(), expanded->begin(), expanded->end());
  }
  return hosts;
}

}  // namespace ringsim
