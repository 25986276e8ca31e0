#include "testbench/support/cli_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "testbench/support/kernel_harness.h"  // source_dir

namespace npu::test {

std::string npusim_bin() {
  const char* b = std::getenv("NPUSIM_BIN");
  return b ? b : std::string(NPUSIM_BINARY_DIR) + "/bin/npusim";
}

std::string system_data(const std::string& file) { return source_dir() + "/testbench/system/data/" + file; }

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int run_npusim(const std::string& args, const std::string& scratch_dir, std::string* out, std::string* err) {
  const std::string o = scratch_dir + "/stdout.txt", e = scratch_dir + "/stderr.txt";
  const int st = std::system((npusim_bin() + " " + args + " > " + o + " 2> " + e).c_str());
  *out = slurp(o);
  *err = slurp(e);
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

void CliScratchTest::SetUp() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  dir_ = std::filesystem::path(::testing::TempDir()) /
         ("npusim_" + prefix_ + "_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir_);
  std::filesystem::create_directories(dir_);
}

void CliScratchTest::TearDown() { std::filesystem::remove_all(dir_); }

}  // namespace npu::test
