// An interrupted `npusim run` loses nothing: SIGINT / SIGTERM while the trace, CSV and VCD are
// being written leave no partial file at their paths and no temporary behind, the previous
// files (and a previous --out directory) stay as they were, and the exit status is the signal's.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

namespace fs = std::filesystem;

// True once a file named PREFIX* in `s` has bytes: the run is writing its trace.
bool has_started_writing(const ScratchDir& s, const std::string& prefix) {
  for (const std::string& name : s.entries())
    if (name.rfind(prefix, 0) == 0 && fs::file_size(s.path(name)) > 0) return true;
  return false;
}

// Waits for the child; SIGKILLs it after ~20 s (then the test fails instead of hanging).
int wait_bounded(pid_t pid) {
  int st = 0;
  for (int i = 0; i < 2000; ++i) {
    if (::waitpid(pid, &st, WNOHANG) == pid) return st;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &st, 0);
  ADD_FAILURE() << "npusim did not end after the signal";
  return st;
}

void check_interrupt(int sig) {
  ScratchDir s;
  // The endless vector loop of testbench/system/data/run_loop.s; the limit only bounds a run the
  // signal failed to stop.
  std::ofstream(s.path("loop.yaml")) << "kernel: " << source_path("testbench/system/data/run_loop.s") << "\n"
                                     << "block_dim: 1\nvars: {N: 0}\nparams: {n: N, mode: 0}\n"
                                        "tensors:\n  y: {dtype: f32, shape: [64], role: output}\n";
  const std::vector<std::string> previous = {"trace.json", "instr.csv", "wave.vcd"};
  for (const std::string& f : previous) std::ofstream(s.path(f)) << "previous " << f;
  fs::create_directory(s.path("out"));
  std::ofstream(s.path("out/stats.json")) << "previous run";
  const std::vector<std::string> before = s.entries();

  const pid_t pid = spawn_npusim({"run", s.path("loop.yaml"), "--config", source_path("configs/ascend910b.yaml"),
                                  "--max-instructions", "200000000", "--trace", s.path("trace.json"), "--instr-csv",
                                  s.path("instr.csv"), "--vcd", s.path("wave.vcd"), "--out", s.path("out")});
  ASSERT_GT(pid, 0);
  bool started = false;
  for (int i = 0; i < 2000 && !started; ++i) {  // poll, ~20 s at most
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    started = has_started_writing(s, "trace.json.tmp.") && has_started_writing(s, "instr.csv.tmp.");
  }
  EXPECT_TRUE(started) << "the run never started writing its trace";
  ASSERT_EQ(::kill(pid, sig), 0);
  const int st = wait_bounded(pid);
  EXPECT_TRUE(WIFSIGNALED(st)) << "status " << st;
  EXPECT_EQ(WTERMSIG(st), sig);

  EXPECT_EQ(s.entries(), before);  // no temporary, no staging directory, nothing new
  for (const std::string& f : previous) EXPECT_EQ(slurp(s.path(f)), "previous " + f);
  EXPECT_EQ(slurp(s.path("out/stats.json")), "previous run");
  EXPECT_EQ(fs::directory_iterator(s.path("out"))->path().filename(), "stats.json");
}

TEST(RunInterruptCli, SigintLeavesThePreviousFilesAndNoTemporaries) { check_interrupt(SIGINT); }
TEST(RunInterruptCli, SigtermLeavesThePreviousFilesAndNoTemporaries) { check_interrupt(SIGTERM); }

}  // namespace
}  // namespace npu::test
