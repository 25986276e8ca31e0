#pragma once
// Shared by the tests that run the built npusim binary (NPUSIM_BIN): a scratch directory per
// test, running a command with its output captured, and starting one in the background (to send
// it signals).
#include <sys/types.h>

#include <filesystem>
#include <string>
#include <vector>

namespace npu::test {

std::string npusim_bin();
std::string source_path(const std::string& rel);  // NPUSIM_SOURCE_DIR / rel
std::string slurp_file(const std::string& path);  // "" when it cannot be read

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
// Runs `npusim ARGS` (a shell command line) with stdout / stderr captured in files of `scratch`.
CliResult run_npusim(const std::string& args, const ScratchDir& scratch);

// `npusim ARGS...` in the background (stdout / stderr to /dev/null): its pid.
pid_t spawn_npusim(const std::vector<std::string>& args);

}  // namespace npu::test
