// kernels/linear_w8a8.s and kernels/rmsnorm_linear_quant.s (AT-11) over issue 10's numerics grid
// on the SystemC model of ascend910b (24 clusters): M in {1, 7, 16, 128, 300}, K in {512, 4096,
// 7168}, N in {256, 1536, 2048} (a spread of the combinations, not all 45; AT-11 in both RMSNorm
// variants: rsqrt; sqrt + div). Every point must pass the golden (y by the bf16 rule;
// AT-11 also q within one int8 step and x_scale by the fp32 rule) and stay above the lower bound
// (measure_w8a8 / measure_rlq, testbench/support/w8a8_case.h).
#include <gtest/gtest.h>

#include <tuple>
#include <vector>

#include "testbench/support/w8a8_case.h"

namespace npu::test {
namespace {

// The points, with the RMSNorm variant of each AT-11 run (linear_w8a8 has none: 0).
std::vector<W8a8Shape> grid(bool rlq) {
  std::vector<W8a8Shape> v;
  for (auto [m, k, n, variant] : std::vector<std::tuple<int64_t, int64_t, int64_t, int>>{
           {1, 512, 256, 0}, {1, 4096, 1536, 1}, {7, 7168, 256, 0}, {7, 512, 2048, 1}, {16, 4096, 1536, 1},
           {16, 7168, 2048, 0}, {128, 512, 1536, 1}, {128, 4096, 256, 0}, {300, 512, 2048, 0}, {300, 7168, 1536, 1}}) {
    W8a8Shape s{m, k, n, 24, 1};
    s.variant = rlq ? variant : 0;
    v.push_back(s);
  }
  return v;
}

class W8a8Grid : public ::testing::TestWithParam<W8a8Shape> {};
class RlqGrid : public ::testing::TestWithParam<W8a8Shape> {};

TEST_P(W8a8Grid, PassesTheGoldenOnSystemC) { measure_w8a8("ascend910b", GetParam()); }
TEST_P(RlqGrid, PassesTheGoldenOnSystemC) { measure_rlq("ascend910b", GetParam()); }

INSTANTIATE_TEST_SUITE_P(Grid, W8a8Grid, ::testing::ValuesIn(grid(false)),
                         [](const auto& info) { return info.param.name(); });
INSTANTIATE_TEST_SUITE_P(Grid, RlqGrid, ::testing::ValuesIn(grid(true)),
                         [](const auto& info) { return info.param.name(); });

}  // namespace
}  // namespace npu::test
