#include <string>

#include "hw/config/hw_config.h"
#include "isa/error.h"

namespace npu::hw {

double VectorConfig::cycles(isa::TimingClass c, isa::Dtype d) const {
  const std::string cls(isa::timing_class_name(c));
  auto it = cycles_per_repeat.find(cls + "." + std::string(isa::dtype_name(d)));
  if (it == cycles_per_repeat.end()) it = cycles_per_repeat.find(cls);
  if (it == cycles_per_repeat.end())
    throw Error("vector.cycles_per_repeat has no entry for " + cls + " (not a vector timing class?)");
  return it->second;
}

}  // namespace npu::hw
