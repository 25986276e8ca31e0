#include <string>

#include "hw/config/hw_config.h"
#include "isa/error.h"

namespace npu::hw {

void VectorConfig::no_cycles(isa::TimingClass c) {
  throw Error("vector.cycles_per_repeat has no entry for " + std::string(isa::timing_class_name(c)) +
              " (not a vector timing class?)");
}

}  // namespace npu::hw
