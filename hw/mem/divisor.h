#pragma once
// Division by a value fixed at elaboration (line size, set count, slice and channel counts) on
// the memory system's per-line path: a shift and a mask when it is a power of two, as every
// shipped geometry's is, a hardware division otherwise. Exact either way, so the timing is the
// same; only the host cost of a line changes (a 64-bit division is tens of cycles, and a line
// took a dozen of them through the interconnect, the slice and the tags).
#include <cstdint>

namespace npu::hw {

class Divisor {
 public:
  Divisor() = default;
  explicit Divisor(uint64_t d) : d_(d), shift_(d != 0 && (d & (d - 1)) == 0 ? __builtin_ctzll(d) : -1) {}
  uint64_t value() const { return d_; }
  uint64_t div(uint64_t n) const { return shift_ >= 0 ? n >> shift_ : n / d_; }
  uint64_t mod(uint64_t n) const { return shift_ >= 0 ? n & (d_ - 1) : n % d_; }

 private:
  uint64_t d_ = 1;
  int shift_ = 0;
};

}  // namespace npu::hw
