// The progress line of `npusim run` (cli/lib/progress.h): shown on a terminal (a pseudo-terminal
// here, with NPUSIM_PROGRESS_DELAY_MS=0 so a short run shows it), erased before the report, never
// with -q or when stderr is not a terminal, and slicing the simulation for it changes no cycle.
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <regex>

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

class ProgressCli : public CliScratchTest {
 protected:
  // Runs `npusim run ARGS` with stdout and stderr on a pseudo-terminal; returns what it printed.
  std::string on_terminal(const std::vector<std::string>& args, int& status) {
    int master = -1;
    const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
    if (pid == 0) {
      setenv("NPUSIM_PROGRESS_DELAY_MS", "0", 1);
      std::vector<std::string> argv{npusim_bin(), "run"};
      argv.insert(argv.end(), args.begin(), args.end());
      std::vector<char*> c;
      for (std::string& a : argv) c.push_back(a.data());
      c.push_back(nullptr);
      execv(c[0], c.data());
      _exit(127);
    }
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = read(master, buf, sizeof buf)) > 0;) out.append(buf, n);  // EIO at the child's end
    close(master);
    waitpid(pid, &status, 0);
    return out;
  }
  std::string case_path() const { return source_path("kernels/cases/rmsnorm_bf16.yaml"); }
};

TEST_F(ProgressCli, ShowsPhasesCyclesAndInstructionsOnATerminalThenErasesTheLine) {
  int status = -1;
  // 4096 rows: about 200000 cycles, so the simulation runs in several progress slices.
  const std::string out = on_terminal({case_path(), "--var", "T=4096", "--timing-only", "--out", path("tty")}, status);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_NE(out.find("\r\033[Knpusim: inputs"), std::string::npos) << out;
  EXPECT_NE(out.find("\r\033[Knpusim: simulation"), std::string::npos) << out;
  // After the simulation the line carries its final figures (the run's total cycles: stats.json).
  const auto stats = nlohmann::json::parse(slurp(path("tty/stats.json")));
  const std::string cycles = std::to_string(stats["total_cycles"].get<uint64_t>());
  EXPECT_TRUE(std::regex_search(out, std::regex("npusim: compare  " + cycles + " cycles  [1-9][0-9]* instructions  [0-9.]+ s")))
      << out;
  // Erased before the report starts.
  const size_t report = out.find("npusim run ");
  ASSERT_NE(report, std::string::npos);
  EXPECT_EQ(out.rfind("\r\033[K", report), report - 4) << out;
  EXPECT_EQ(out.find("npusim: ", report), std::string::npos) << "no progress after the report";

  // The same run with its output in files: no progress, and the same cycles (slicing for the
  // progress line changes nothing).
  ASSERT_EQ(npusim("run " + case_path() + " --var T=4096 --timing-only --out " + path("files")), 0) << err_;
  EXPECT_EQ(err_, "");
  EXPECT_GT(stats["total_cycles"].get<uint64_t>(), 2 * 100000u) << "more than two slices (hw::kProgressSliceCycles)";
  auto same = nlohmann::json::parse(slurp(path("files/stats.json")));
  EXPECT_EQ(same["total_cycles"], stats["total_cycles"]);
  EXPECT_EQ(same["cores"], stats["cores"]);
}

TEST_F(ProgressCli, QuietShowsNothingOnATerminal) {
  int status = -1;
  const std::string out = on_terminal({case_path(), "-q"}, status);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_EQ(out, "");
}

}  // namespace
}  // namespace npu::test
