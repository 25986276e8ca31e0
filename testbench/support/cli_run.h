#pragma once
// Running the built `npusim` binary from a system test (testbench/system/*_cli_test.cc).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace npu::test {

std::string npusim_bin();  // $NPUSIM_BIN, else <build>/bin/npusim
std::string system_data(const std::string& file);  // testbench/system/data/<file> of source_dir()
std::string slurp(const std::string& path);        // the file's bytes ("" when unreadable)

// Runs `npusim ARGS` through the shell with stdout and stderr captured in files of
// `scratch_dir`; returns the exit status (-1 when killed by a signal) with the streams in *out
// and *err.
int run_npusim(const std::string& args, const std::string& scratch_dir, std::string* out, std::string* err);

// A fixture with a fresh scratch directory per test (<TempDir>/npusim_<prefix>_<test>_<pid>),
// removed afterwards, and npusim() to run the binary with its streams in out_ / err_.
class CliScratchTest : public ::testing::Test {
 protected:
  explicit CliScratchTest(std::string prefix) : prefix_(std::move(prefix)) {}
  void SetUp() override;
  void TearDown() override;
  std::string path(const std::string& f) const { return (dir_ / f).string(); }
  int npusim(const std::string& args) { return run_npusim(args, dir_.string(), &out_, &err_); }

  std::filesystem::path dir_;
  std::string out_, err_;

 private:
  std::string prefix_;
};

}  // namespace npu::test
