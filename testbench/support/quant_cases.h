#pragma once
// The quantisation kernels (kernels/quant_int8.s AT-05, kernels/dequant.s AT-06) as test cases,
// in the style of kernel_cases.h: inputs generated as in pypto-gym (x ~ U(-1, 1)), run on the ISS
// or the SystemC model, every output compared with its golden (testbench/golden) under the
// docs/numerics.md rule (s8: within one step; fp32 scales; bf16).
#include <cstdint>
#include <string>

#include "testbench/support/kernel_cases.h"
#include "testbench/support/kernel_perf.h"

namespace npu::test {

struct QuantCase {
  int64_t M = 1, K = 512;
  bool f32 = false;       // x in fp32 instead of bf16
  bool specials = true;   // plant the special rows (below) where M has them
  int block_dim = 1;
  uint64_t seed = 1;
  std::string name() const;  // "M7_K512_bf16_bd2"
};
// Special rows (those below M): row 3 all zero (amax = 0); row 5 one huge element (1000);
// row 9 a tiny amax (+-1e-38: scale_q overflows, q saturates to 127 / -128, scale 0);
// row 12 +-2 as its amax (q = 127 / -127). Outputs "q" (s8) and "scale" (f32 [M]).
KernelOutcome run_quant_int8(Engine e, const hw::HwConfig& cfg, const QuantCase& c,
                             bool timing_only = false);

struct DequantCase {
  int64_t M = 1, N = 256;
  bool has_bias = true;
  int block_dim = 1;
  uint64_t seed = 1;
  std::string name() const;  // "M7_N256_bias_bd2"
};
// acc ~ U(-2^21, 2^21) s32 (row 0 at the int32 extremes), x_scale ~ U(0.001, 0.01),
// w_scale ~ U(1e-4, 1e-3), bias ~ U(-1, 1) fp32. Output "y" (bf16).
KernelOutcome run_dequant(Engine e, const hw::HwConfig& cfg, const DequantCase& c,
                          bool timing_only = false);

// Vector-only kernels: the bound is the HBM time of the inputs (lower bound) or of every
// tensor moved once (roofline); see kernel_perf.h.
PerfBound lower_bound(const hw::HwConfig& cfg, const QuantCase& c);
PerfBound roofline(const hw::HwConfig& cfg, const QuantCase& c);
PerfBound lower_bound(const hw::HwConfig& cfg, const DequantCase& c);
PerfBound roofline(const hw::HwConfig& cfg, const DequantCase& c);

}  // namespace npu::test
