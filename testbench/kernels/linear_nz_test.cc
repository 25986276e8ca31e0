// kernels/linear_nz.s: the fractal formats in a whole kernel. Both operands go GM -> L1 as
// ND -> NZ and are read by NZ tile loads; the output must pass the linear golden (an
// independent reference of the logical [M, K] x [N, K]^T product, golden/) on the ISS and on the
// SystemC model, bit-identically, and equal the same program's plain-ND run (nz = 0) bit for
// bit. Also: a bad NZ operand in a kernel is a located fault through the CLI (exit 2).
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "testbench/support/cli_support.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/paths.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

struct Shape {
  int64_t M, K, N;
  int block_dim;
};

// kernel linear_nz (nz = 0 / 1), or linear_wnz (nz = -1: W kept NZ in GM, the parameter declared nz).
KernelOutcome run(Engine e, const Shape& s, int nz) {
  std::string body = nz < 0 ? fmt::format("params: {{M: {}, K: {}, N: {}}}\ntensors:\n", s.M, s.K, s.N)
                            : fmt::format("params: {{M: {}, K: {}, N: {}, nz: {}}}\ntensors:\n", s.M, s.K, s.N, nz);
  body += "  x: " + tensor_yaml("bf16", {s.M, s.K}, uniform(-1, 1, 1)) + "\n";
  body += "  w: " + tensor_yaml("bf16", {s.N, s.K}, uniform(-0.1, 0.1, 2)) + "\n";
  body += "  y: " + tensor_yaml("bf16", {s.M, s.N}, "role: output") + "\n";
  body += "golden: {name: linear, inputs: {x: x, w: w}, outputs: {out: y}}\n";
  return run_case_text(e, tiny_config(), nz < 0 ? "linear_wnz" : "linear_nz", s.block_dim, body, false);
}

// Odd shapes: M = 20 (x's C0 stride pads to 32 rows), K = 272 (a 256 chunk and a 16 one),
// N = 200 (N tiles of 128 and 72 columns: W's C0 stride pads the 72 rows to 80), two AICs; and
// a single row with one AIC owning every tile.
const Shape kShapes[] = {{20, 272, 200, 2}, {1, 512, 160, 1}, {128, 256, 128, 2}};

TEST(LinearNz, GoldenOnBothEnginesBitIdentical) {
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(fmt::format("M {} K {} N {} bd {}", s.M, s.K, s.N, s.block_dim));
    const KernelOutcome iss = run(Engine::Iss, s, 1), sc = run(Engine::SystemC, s, 1);
    EXPECT_TRUE(iss.pass()) << iss.report();
    EXPECT_TRUE(sc.pass()) << sc.report();
    std::string why;
    EXPECT_TRUE(same_outputs(iss, sc, &why)) << why;
  }
}

// The NZ run and the ND run of the same program compute from the same L0 contents, so y is the
// same bits; the NZ run pays the conversion (mte.gm_l1_nz: at least 803 cycles of MTE2 per DMA
// where the ND copies of these chunks take a few hundred), and this kernel overlaps nothing.
TEST(LinearNz, NzEqualsNdAndCostsTheConversion) {
  const Shape s = kShapes[0];
  const KernelOutcome nz = run(Engine::SystemC, s, 1), nd = run(Engine::SystemC, s, 0);
  EXPECT_TRUE(nd.pass()) << nd.report();
  std::string why;
  EXPECT_TRUE(same_outputs(nz, nd, &why)) << why;
  EXPECT_GT(nz.info.cycles, nd.info.cycles);
  std::printf("[linear_nz] M %lld K %lld N %lld: nz %llu cycles, nd %llu\n", static_cast<long long>(s.M),
              static_cast<long long>(s.K), static_cast<long long>(s.N), static_cast<unsigned long long>(nz.info.cycles),
              static_cast<unsigned long long>(nd.info.cycles));
}

// W kept NZ in GM (kernels/linear_wnz.s, `.param w, gm, bf16, nz`): `npusim run` stores W's
// values in the fractal layout (N = 200 pads W's blocks to 208 rows), the kernel copies column
// blocks into the same L1 NZ layout linear_nz.s's ND -> NZ load makes, so y passes the golden on
// both engines and is the same bits as linear_nz.s's; W's conversion is not paid.
TEST(LinearNz, WeightsKeptNzInGm) {
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(fmt::format("M {} K {} N {} bd {}", s.M, s.K, s.N, s.block_dim));
    const KernelOutcome iss = run(Engine::Iss, s, -1), sc = run(Engine::SystemC, s, -1), nz = run(Engine::SystemC, s, 1);
    EXPECT_TRUE(iss.pass()) << iss.report();
    EXPECT_TRUE(sc.pass()) << sc.report();
    std::string why;
    EXPECT_TRUE(same_outputs(iss, sc, &why)) << why;
    EXPECT_TRUE(same_outputs(sc, nz, &why)) << why;
    EXPECT_LT(sc.info.cycles, nz.info.cycles);
  }
}

class NzFaultCli : public CliScratchTest {};

// One tensor, two layouts: a launch sequence whose kernels declare the same tensor nd and nz is
// refused (GM holds one layout per tensor), naming the launch.
TEST_F(NzFaultCli, LaunchesDisagreeingOnATensorsLayoutAreRefused) {
  const std::string dir = source_path("kernels/");
  const std::string c = write("case.yaml", "kernel: " + dir + "linear_nz.s\nblock_dim: 1\n"
                                           "params: {M: 16, K: 32, N: 16, nz: 1}\n"
                                           "launches: [{}, {kernel: " + dir + "linear_wnz.s, params: {M: 16, K: 32, N: 16}}]\n"
                                           "tensors:\n  x: {dtype: bf16, shape: [16, 32], init: {fill: 1}}\n"
                                           "  w: {dtype: bf16, shape: [16, 32], init: {fill: 1}}\n"
                                           "  y: {dtype: bf16, shape: [16, 16], role: output}\n");
  ASSERT_EQ(npusim("run " + c + " --out " + path("out")), 2) << err_;
  EXPECT_NE(err_.find("error: launches[1]: tensor 'w' is nz in this kernel's parameters but nd in the case's kernel"),
            std::string::npos)
      << err_;
  EXPECT_FALSE(std::filesystem::exists(path("out")));
}

// An NZ destination stride that lets column blocks overlap: both engines stop with the core,
// PC, instruction and the operand, exit status 2, and write no output file.
TEST_F(NzFaultCli, OverlappingBlocksAreALocatedFault) {
  const std::string k = write("k.s",
                              ".kernel k\n"
                              ".param x, gm, bf16\n"
                              ".aic\n"
                              "    ldp r1, x\n"
                              "    mov_gm_l1_nz 0, r1, 4, 64, 64, 96\n"
                              "    end\n");
  const std::string c = write("case.yaml", "kernel: " + k +
                                               "\nblock_dim: 1\ntensors:\n  x: {dtype: bf16, shape: [4, 32], "
                                               "init: {fill: 1}}\n");
  for (const char* engine : {" --iss", ""}) {
    SCOPED_TRACE(engine[0] ? "iss" : "systemc");
    ASSERT_EQ(npusim("run " + c + engine + " --out " + path("out")), 2) << err_;
    EXPECT_NE(err_.find("cluster0.aic pc 1"), std::string::npos) << err_;
    EXPECT_NE(err_.find("(mov_gm_l1_nz 0x0, r1, 4, 64, 64, 96, normal): NZ dst_stride 96 is below rows x 32 = 128 "
                        "(column blocks would overlap)"),
              std::string::npos)
        << err_;
    EXPECT_FALSE(std::filesystem::exists(path("out")));
  }
}

}  // namespace
}  // namespace npu::test
