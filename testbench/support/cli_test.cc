#include "testbench/support/cli_test.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace npu::test {
namespace fs = std::filesystem;

std::string npusim_source_dir() {
  const char* s = std::getenv("NPUSIM_SOURCE_DIR");
  return s ? s : NPUSIM_SOURCE_DIR;
}

std::string npusim_bin() {
  const char* b = std::getenv("NPUSIM_BIN");
  return b ? b : std::string(NPUSIM_BINARY_DIR) + "/bin/npusim";
}

namespace {
std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}
}  // namespace

void CliTest::SetUp() {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  dir_ = fs::path(::testing::TempDir()) /
         ("npusim_cli_" + std::string(info->test_suite_name()) + "_" + info->name() + "_" + std::to_string(::getpid()));
  fs::remove_all(dir_);
  fs::create_directories(dir_ / "work");
}

void CliTest::TearDown() { fs::remove_all(dir_); }

std::string CliTest::write(const std::string& f, const std::string& text) const {
  std::ofstream(path(f), std::ios::binary) << text;
  return path(f);
}

int CliTest::npusim(const std::string& args) {
  // The captured streams live beside (not in) the working directory, so a test can check that
  // a command created no stray file there.
  const std::string cmd = "cd " + path("work") + " && " + npusim_bin() + " " + args + " > " + path("stdout.txt") +
                          " 2> " + path("stderr.txt");
  const int st = std::system(cmd.c_str());
  out_ = slurp(path("stdout.txt"));
  err_ = slurp(path("stderr.txt"));
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

}  // namespace npu::test
