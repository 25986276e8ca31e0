// kernels/linear_w8a8.s compute-bound: M = N = K = 2048 on ascend910b, 24 clusters, against the
// int8 cube peak computed from the config (clusters * m0 * n0 * k0.s8 MACs per cycle). Issue
// 10's target is >= 80 %; measured 81026 cycles against 45490 (1800 launch + 43690 at peak):
// 56.1 %, NOT met: the
// AICs' MTE2 links are the bound (96 % busy; int8 doubles the cube rate but a 128 x 256 block
// still reads x and W once per block), and the AIVs' per-token pass over the fp32 workspace
// runs after every AIC (docs/quant.md). The assertion guards what is reached. ~3 min of CPU.
#include <gtest/gtest.h>

#include "testbench/support/kernel_harness.h"
#include "testbench/support/w8a8_case.h"

namespace npu::test {
namespace {

TEST(W8a8Long, ComputeBoundShapeAgainstTheInt8CubePeak) {
  const W8a8Perf p = measure_w8a8("ascend910b", W8a8Shape{2048, 2048, 2048, 24, 1});
  EXPECT_GE(p.cube_peak / p.cycles, 0.55);
}

}  // namespace
}  // namespace npu::test
