// Every case file shipped in kernels/cases/ parses and binds to its kernel (assembled for
// configs/ascend910b.yaml, or configs/ascend950.yaml for the a5 cases, whose text says to run them
// with --config configs/ascend950.yaml):
// a kernel whose parameters change breaks this test, not a user's run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "cli/lib/case_spec.h"
#include "hw/config/loader.h"
#include "isa/error.h"
#include "testbench/support/shipped_case.h"

namespace npu::cli {
namespace {

TEST(CaseFiles, KernelCasesParseAndBind) {
  const char* src = std::getenv("NPUSIM_SOURCE_DIR");
  std::filesystem::path dir = std::filesystem::path(src ? src : NPUSIM_SOURCE_DIR) / "kernels" / "cases";
  const std::filesystem::path configs = dir.parent_path().parent_path() / "configs";
  const hw::HwConfig a2 = hw::load_config((configs / "ascend910b.yaml").string());
  const hw::HwConfig a5 = hw::load_config((configs / "ascend950.yaml").string());
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".yaml") continue;
    ++n;
    const bool is_a5 = test::shipped_case_config(e.path().string()) == "ascend950";
    try {
      CaseSpec s = parse_case_file(e.path().string());
      isa::Program p = load_case_kernel(s, is_a5 ? a5 : a2);
      EXPECT_FALSE(p.params.empty()) << e.path();
      EXPECT_TRUE(s.golden.present) << e.path();
    } catch (const Error& err) {
      ADD_FAILURE() << err.what();
    }
  }
  EXPECT_GE(n, 3);  // rmsnorm_bf16, linear_bf16, rmsnorm_linear
}

}  // namespace
}  // namespace npu::cli
