// One fuzz target per print reader of `ringsim import`: the reader gets the bytes as the print's text.
#pragma once

#include "../../sim/import/print_readers.h"
#include "input_contract.h"

#include <string>
#include <string_view>

namespace ringsim::fuzz {

// The name the reader reports errors against.
inline const std::string kPrintName = "print.txt";

inline int read_print_text(const std::uint8_t* data, std::size_t size, PrintFacts (*read)(std::string_view, const std::string&)) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expect_value_or_located_error(kPrintName, [&] { read(text, kPrintName); });
  return 0;
}

}  // namespace ringsim::fuzz
