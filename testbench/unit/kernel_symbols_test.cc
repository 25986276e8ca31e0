// The CFG_ constants kernels are assembled with (hw/config/kernel_symbols.h): each reads its
// config key, and docs/kernels.md lists every one.
#include <gtest/gtest.h>

#include "hw/config/kernel_symbols.h"
#include "isa/error.h"
#include "testbench/support/cli_support.h"
#include "testbench/support/repo_config.h"

namespace npu::test {
namespace {

int64_t value(const std::vector<isa::TargetSymbol>& syms, const std::string& name) {
  for (const isa::TargetSymbol& s : syms)
    if (s.name == name) return s.value;
  ADD_FAILURE() << "no " << name;
  return -1;
}

TEST(KernelSymbols, TakeTheTargetConfigsFigures) {
  // configs/ascend910b.yaml vs configs/ascend950.yaml (buffers.ub.size 192 / 248 KiB, l0c 128 /
  // 256 KiB, chip.arch a2 / a5).
  const auto b = hw::kernel_symbols(load_repo_config("ascend910b"));
  const auto c = hw::kernel_symbols(load_repo_config("ascend950"));
  EXPECT_EQ(value(b, "CFG_UB_BYTES"), 192 * 1024);
  EXPECT_EQ(value(c, "CFG_UB_BYTES"), 248 * 1024);
  EXPECT_EQ(value(b, "CFG_L0C_BYTES"), 128 * 1024);
  EXPECT_EQ(value(c, "CFG_L0C_BYTES"), 256 * 1024);
  EXPECT_EQ(value(b, "CFG_ARCH"), 2);
  EXPECT_EQ(value(c, "CFG_ARCH"), 5);
  // A --set override reaches the constant.
  const auto o = hw::kernel_symbols(load_repo_config("ascend910b", {"buffers.l1.size=256KiB"}));
  EXPECT_EQ(value(o, "CFG_L1_BYTES"), 256 * 1024);
}

TEST(KernelSymbols, EveryOneIsDocumented) {
  const std::string doc = slurp(source_path("docs/kernels.md"));
  ASSERT_EQ(hw::kernel_symbol_defs().size(), hw::kernel_symbols(load_repo_config("tiny")).size());
  for (const hw::KernelSymbolDef& d : hw::kernel_symbol_defs())
    EXPECT_NE(doc.find(std::string("`") + d.name + "`"), std::string::npos) << d.name << " is not in docs/kernels.md";
}

TEST(KernelSymbols, AProgramAssembledForAnotherConfigIsRefusedByTheHarness) {
  const hw::HwConfig tiny = load_repo_config("tiny"), a950 = load_repo_config("ascend950");
  isa::Program p;
  p.name = "k";
  p.target_config = "tiny";
  p.target_symbols = {{"CFG_UB_BYTES", 192 * 1024}};
  EXPECT_NO_THROW(hw::check_kernel_target(p, tiny));
  try {
    hw::check_kernel_target(p, a950);
    FAIL() << "expected a mismatch";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "kernel 'k' was assembled for config 'tiny' with CFG_UB_BYTES = 196608, but config "
                           "'ascend950' has 253952\nre-assemble the kernel for 'ascend950' (npusim asm --config, or "
                           "run its .s source)");
  }
}

}  // namespace
}  // namespace npu::test
