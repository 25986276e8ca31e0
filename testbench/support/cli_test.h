#pragma once
// A fixture for tests that run the built `npusim` (NPUSIM_BIN) as a user would: a fresh scratch
// directory per test, and the exit status, stdout and stderr of each command.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

namespace npu::test {

std::string npusim_source_dir();  // $NPUSIM_SOURCE_DIR, else the configured source tree
std::string npusim_bin();         // $NPUSIM_BIN, else build/bin/npusim

class CliTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A path inside the scratch directory.
  std::string path(const std::string& f) const { return (dir_ / f).string(); }
  // Writes text to path(f) and returns that path.
  std::string write(const std::string& f, const std::string& text) const;
  // Runs `npusim ARGS` (a shell command line) in the scratch directory; returns the exit
  // status (-1 when killed by a signal), with stdout and stderr in out_ and err_.
  int npusim(const std::string& args);

  std::filesystem::path dir_;
  std::string out_, err_;
};

}  // namespace npu::test
