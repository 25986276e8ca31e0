#pragma once
// The one exception type npusim throws for bad input and kernel faults. The CLI catches it,
// prints what() and exits with status 2; nothing aborts.
#include <stdexcept>
#include <string>

namespace npu {

struct Error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace npu
