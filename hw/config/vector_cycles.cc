#include <array>
#include <string>

#include "hw/config/hw_config.h"
#include "isa/error.h"

namespace npu::hw {
namespace {

constexpr int kNumDtypes = 10;  // isa::Dtype values (checked below)

// The map keys "<class>" and "<class>.<dtype>" of every class and dtype, built once, so a
// lookup (once per vector instruction) allocates nothing.
struct Keys {
  std::array<std::string, isa::kNumTimingClasses> cls;
  std::array<std::array<std::string, kNumDtypes>, isa::kNumTimingClasses> cls_dt;
  Keys() {
    for (int c = 0; c < isa::kNumTimingClasses; ++c) {
      cls[c] = std::string(isa::timing_class_name(static_cast<isa::TimingClass>(c)));
      for (int d = 0; d < kNumDtypes; ++d)
        cls_dt[c][d] = cls[c] + "." + std::string(isa::dtype_name(static_cast<isa::Dtype>(d)));
    }
  }
};

const Keys& keys() {
  static const Keys k;
  return k;
}

}  // namespace

double VectorConfig::cycles(isa::TimingClass c, isa::Dtype d) const {
  static_assert(static_cast<int>(isa::Dtype::E8M0) + 1 == kNumDtypes, "kNumDtypes is stale");
  const Keys& k = keys();
  const int ci = static_cast<int>(c);
  auto it = cycles_per_repeat.find(k.cls_dt[ci][static_cast<int>(d)]);
  if (it == cycles_per_repeat.end()) it = cycles_per_repeat.find(k.cls[ci]);
  if (it == cycles_per_repeat.end())
    throw Error("vector.cycles_per_repeat has no entry for " + k.cls[ci] + " (not a vector timing class?)");
  return it->second;
}

}  // namespace npu::hw
