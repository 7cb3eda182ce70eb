// One fuzz target per trace format: the reader gets the bytes as the file's text.
#pragma once

#include "../../sim/validate/trace_readers.h"
#include "input_contract.h"

#include <string>
#include <string_view>

namespace ringsim::fuzz {

// The name the reader reports errors against (the readers take text and a file name).
inline const std::string kTraceName = "trace.txt";

inline int read_trace_text(const std::uint8_t* data, std::size_t size,
                           MeasuredTrace (*read)(std::string_view, const std::string&)) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  expect_value_or_located_error(kTraceName, [&] { read(text, kTraceName); });
  return 0;
}

}  // namespace ringsim::fuzz
