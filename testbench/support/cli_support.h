#pragma once
// Shared by the tests that run the built npusim binary (NPUSIM_BIN) as a user would: paths into
// the source tree, a scratch directory per test, running a command with its output captured, and
// starting one in the background (to send it signals).
#include <gtest/gtest.h>
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbench/support/paths.h"

namespace npu::test {

std::string slurp(const std::string& path);        // the file's bytes ("" when unreadable)

// stats.json lists items as objects (docs/stats.md): the item of `list` whose `key` is `value`;
// throws std::runtime_error (failing the test) when there is none.
const nlohmann::json& stats_item(const nlohmann::json& list, const std::string& key, const std::string& value);

// A fresh directory named after the running test, removed again on destruction.
class ScratchDir {
 public:
  ScratchDir();
  ~ScratchDir();
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  const std::filesystem::path& dir() const { return dir_; }
  std::vector<std::string> entries() const;  // names in the directory, sorted

 private:
  std::filesystem::path dir_;
};

struct CliResult {
  int status = -1;  // exit status, -1 when killed by a signal
  std::string out, err;
};
// Runs `npusim ARGS` (a shell command line) in directory `cwd` (default: the caller's) with
// stdout / stderr captured in files of `scratch`. In a sanitizer build a sanitizer's exit code
// fails the test with the report, whatever status the test expects.
CliResult run_npusim(const std::string& args, const ScratchDir& scratch, const std::string& cwd = "");

// `npusim ARGS...` in the background (stdout / stderr to /dev/null): its pid.
pid_t spawn_npusim(const std::vector<std::string>& args);

// A fixture with a scratch directory and npusim() to run the binary with its streams in out_ /
// err_. Commands run in the empty subdirectory path("work"), so a test can check that a command
// left no stray file where it ran.
class CliScratchTest : public ::testing::Test {
 protected:
  CliScratchTest();
  std::string path(const std::string& f) const { return scratch_.path(f); }
  // Writes text to path(f) and returns that path.
  std::string write(const std::string& f, const std::string& text) const;
  int npusim(const std::string& args);

  ScratchDir scratch_;
  const std::filesystem::path& dir_ = scratch_.dir();
  std::string out_, err_;
};

}  // namespace npu::test
