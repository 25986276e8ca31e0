// kernels/linear_w8a8.s compute-bound: M = N = K = 2048 on ascend910b, 24 clusters, against the
// int8 cube peak computed from the config (clusters * m0 * n0 * k0.s8 MACs per cycle). Issue
// 10's target is >= 80 %; measured 65238 cycles against 45490 (1800 launch + 43690 at peak):
// 69.7 %, NOT met (10.3 points short; 65185 before the decode work in gemm_aic.inc, which adds a
// few scalar instructions per chunk here; 72315 = 62.9 % with the per-token pass after every AIC,
// 81026 = 56.1 % before chunk rows of whole L2 lines). The AIVs now dequantise each unit as its
// AIC drains it (short tiles, so only the last unit's last tile is serial), and what is left is
// the AICs' own chain: their MTE2 stage loads (38 % of the critical chain; the first 192 KiB
// stage arrives cold from HBM, later ones wait on the shared L2 / HBM), the FixPipe drains of
// the one-slot 128 x 256 blocks between cube phases, and ~4.4k cycles of the last unit's
// load, cast and y store (docs/quant.md). The assertion guards what is reached. Minutes of
// CPU (a run with data and the golden; `--timing-only` takes seconds).
#include <gtest/gtest.h>

#include "testbench/support/repo_config.h"
#include "testbench/support/w8a8_case.h"

namespace npu::test {
namespace {

TEST(W8a8Long, ComputeBoundShapeAgainstTheInt8CubePeak) {
  const W8a8Perf p = measure_w8a8("ascend910b", W8a8Shape{2048, 2048, 2048, 24, 1});
  EXPECT_GE(p.cube_peak / p.cycles, 0.695);
}

}  // namespace
}  // namespace npu::test
