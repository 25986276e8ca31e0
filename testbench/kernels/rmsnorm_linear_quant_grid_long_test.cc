// kernels/rmsnorm_linear_quant.s (AT-11) over issue 10's numerics grid on the SystemC model of
// ascend910b (24 clusters): M in {1, 7, 16, 128, 300}, K in {512, 4096, 7168}, N in {256, 1536,
// 2048} (a spread of the combinations, not all 45), both RMSNorm variants (rsqrt; sqrt + div).
// Every point must pass the golden in y (bf16 rule), q (within one int8 step) and x_scale (fp32
// rule), and stay above the lower bound (measure_rlq, testbench/support/w8a8_case.h).
#include <gtest/gtest.h>

#include "testbench/support/w8a8_case.h"

namespace npu::test {
namespace {

class RlqGrid : public ::testing::TestWithParam<W8a8Shape> {};

TEST_P(RlqGrid, PassesTheGoldenOnSystemC) { measure_rlq("ascend910b", GetParam()); }

W8a8Shape at(int64_t m, int64_t k, int64_t n, int variant) {
  W8a8Shape s{m, k, n, 24, 1};
  s.variant = variant;
  return s;
}

INSTANTIATE_TEST_SUITE_P(Grid, RlqGrid,
                         ::testing::Values(at(1, 512, 256, 0), at(1, 4096, 1536, 1), at(7, 7168, 256, 0),
                                           at(7, 512, 2048, 1), at(16, 4096, 1536, 1), at(16, 7168, 2048, 0),
                                           at(128, 512, 1536, 1), at(128, 4096, 256, 0), at(300, 512, 2048, 0),
                                           at(300, 7168, 1536, 1)),
                         [](const auto& info) { return info.param.name(); });

}  // namespace
}  // namespace npu::test
