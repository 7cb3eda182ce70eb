// A small XML reader for the topology files NCCL writes and reads (NCCL_TOPO_DUMP_FILE,
// NCCL_TOPO_FILE): elements with attributes, comments, the <?xml ...?> declaration and a DOCTYPE. Text
// between elements is skipped (NCCL writes none); entities are the five predefined and numeric ones.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ringsim {

struct XmlElement {
  std::string name;
  std::vector<std::pair<std::string, std::string>> attributes;
  std::vector<XmlElement> children;
  int line = 0;  // where its start tag begins

  // The attribute's value, or nullptr.
  const std::string* attribute(std::string_view key) const;
};

// The root element of TEXT. Throws InputError "FILE:LINE: what was expected" for text that is not
// well-formed XML (an unclosed or mismatched tag, an unquoted attribute, nesting deeper than 256).
XmlElement parse_xml(std::string_view text, const std::string& file);

}  // namespace ringsim
