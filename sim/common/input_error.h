// The one exception type for bad input: its message is the complete one-line diagnostic
// ("FILE: /json/path: what is wrong; what is expected"), printed as is, exit status 2.
#pragma once

#include <stdexcept>

namespace ringsim {

class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace ringsim
