// GTKWave's vcd2fst converts the VCD of every flagship kernel (long tier: it may install the
// gtkwave package from Debian first, which needs the network and root).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "hw/config/loader.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/trace_test_support.h"

namespace npu::test {
namespace {

bool have_vcd2fst() { return std::system("command -v vcd2fst > /dev/null 2>&1") == 0; }

class TraceVcd2Fst : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (!have_vcd2fst())
      std::system("(apt-get install -y -q gtkwave || (apt-get update -q && apt-get install -y -q gtkwave)) "
                  "> /dev/null 2>&1");
    if (!have_vcd2fst()) GTEST_SKIP() << "vcd2fst (Debian package gtkwave) is not installed and could not be installed";
  }
};

TEST_P(TraceVcd2Fst, Converts) {
  hw::HwConfig cfg = load_repo_config("tiny");
  hw::TraceOptions t;
  t.vcd_path = temp_path(GetParam() + ".vcd");
  run_traced(GetParam(), cfg, t);
  const std::string fst = temp_path(GetParam() + ".fst");
  std::filesystem::remove(fst);
  const std::string cmd = "vcd2fst -v '" + t.vcd_path + "' -f '" + fst + "' > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  ASSERT_TRUE(std::filesystem::exists(fst));
  EXPECT_GT(std::filesystem::file_size(fst), 100u);
}

INSTANTIATE_TEST_SUITE_P(Kernels, TraceVcd2Fst, ::testing::ValuesIn(traced_kernels()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace npu::test
