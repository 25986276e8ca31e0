// Co-simulation: the flagship kernels on the SystemC model (hw/top/run.h) must write outputs
// bit-identical to the functional ISS (both execute isa/sem; a difference means a
// synchronisation bug in the kernel or a timing-dependent data effect in the model), and
// both must pass the golden comparison. configs/tiny.yaml, block_dim 2, small shapes. The SystemC
// cycles must respect the lower bound of testbench/support/kernel_perf.h.
#include <gtest/gtest.h>

#include "hw/config/hw_config.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/kernel_perf.h"

namespace npu::test {
namespace {

template <class Case>
void expect_cosim(const KernelOutcome& iss, const KernelOutcome& sc, const Case& c) {
  const std::string name = c.name();
  EXPECT_TRUE(iss.pass()) << name << " (iss)\n" << iss.report();
  EXPECT_TRUE(sc.pass()) << name << " (systemc)\n" << sc.report();
  std::string why;
  EXPECT_TRUE(same_outputs(iss, sc, &why)) << name << ": " << why;
  EXPECT_GT(sc.info.cycles, 0u) << name;
  const PerfBound lb = lower_bound(tiny_config(), c);
  EXPECT_GE(double(sc.info.cycles), lb.cycles()) << name << ": below the lower bound";
  std::printf("[cosim] %s: %llu cycles on %s (lower bound %.0f)\n", name.c_str(),
              static_cast<unsigned long long>(sc.info.cycles), tiny_config().chip.name.c_str(), lb.cycles());
}

TEST(KernelCosim, RmsNorm) {
  RmsNormCase c;
  c.rows = 13;
  c.D = 640;
  c.variant = 1;
  c.has_gamma = c.has_beta = c.out_rstd = true;
  c.block_dim = 2;
  expect_cosim(run_rmsnorm(Engine::Iss, tiny_config(), c), run_rmsnorm(Engine::SystemC, tiny_config(), c), c);
}

TEST(KernelCosim, RmsNormChunked) {
  RmsNormCase c;
  c.rows = 3;
  c.D = 8192 + 512;
  c.block_dim = 1;
  expect_cosim(run_rmsnorm(Engine::Iss, tiny_config(), c), run_rmsnorm(Engine::SystemC, tiny_config(), c), c);
}

TEST(KernelCosim, Linear) {
  const auto c = gemm_case<LinearCase>(20, 1024, 320, 2);
  expect_cosim(run_linear(Engine::Iss, tiny_config(), c), run_linear(Engine::SystemC, tiny_config(), c), c);
}

TEST(KernelCosim, LinearManyBlocks) {
  const auto c = gemm_case<LinearCase>(150, 512, 512, 2);
  expect_cosim(run_linear(Engine::Iss, tiny_config(), c), run_linear(Engine::SystemC, tiny_config(), c), c);
}

TEST(KernelCosim, RmsNormLinear) {
  const auto c = gemm_case<RmsNormLinearCase>(16, 1024, 256, 2);
  expect_cosim(run_rmsnorm_linear(Engine::Iss, tiny_config(), c),
               run_rmsnorm_linear(Engine::SystemC, tiny_config(), c), c);
}

}  // namespace
}  // namespace npu::test
