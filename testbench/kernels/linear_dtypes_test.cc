// kernels/linear_f16.s and kernels/linear_f32.s: linear.s's program with fp16 and fp32 data (the
// library's sizes are bytes, so one 32-byte fractal column block holds 16 fp16 or 8 fp32 values
// and the cube's k0 follows the dtype). y must pass the linear golden with the same output dtype
// (an independent fp64 reference of x . W^T, rounded RNE once) on the ISS and on the SystemC
// model, bit-identically, at odd shapes.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "testbench/support/kernel_cases.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

struct Shape {
  int64_t M, K, N;
  int block_dim;
};

KernelOutcome run(Engine e, const std::string& dt, const Shape& s) {
  std::string body = fmt::format("params: {{M: {}, K: {}, N: {}}}\ntensors:\n", s.M, s.K, s.N);
  body += "  x: " + tensor_yaml(dt.c_str(), {s.M, s.K}, uniform(-1, 1, 1)) + "\n";
  body += "  w: " + tensor_yaml(dt.c_str(), {s.N, s.K}, uniform(-0.1, 0.1, 2)) + "\n";
  body += "  y: " + tensor_yaml(dt.c_str(), {s.M, s.N}, "role: output") + "\n";
  body += "golden: {name: linear, out_dtype: " + dt + ", inputs: {x: x, w: w}, outputs: {out: y}}\n";
  return run_case_text(e, tiny_config(), "linear_" + dt, s.block_dim, body, false);
}

// M = 20 (x's C0 stride pads to 32 rows), K = 272 (a chunk tail), N = 200 (a 72-column N tail),
// two AICs; one row on one AIC; a square block.
const Shape kShapes[] = {{20, 272, 200, 2}, {1, 512, 160, 1}, {128, 256, 128, 2}};

TEST(LinearDtypes, GoldenOnBothEnginesBitIdentical) {
  for (const std::string dt : {"f16", "f32"})
    for (const Shape& s : kShapes) {
      SCOPED_TRACE(fmt::format("{} M {} K {} N {} bd {}", dt, s.M, s.K, s.N, s.block_dim));
      const KernelOutcome iss = run(Engine::Iss, dt, s), sc = run(Engine::SystemC, dt, s);
      EXPECT_TRUE(iss.pass()) << iss.report();
      EXPECT_TRUE(sc.pass()) << sc.report();
      std::string why;
      EXPECT_TRUE(same_outputs(iss, sc, &why)) << why;
    }
}

}  // namespace
}  // namespace npu::test
