// The progress line of `npusim run` (cli/lib/progress.h): shown on a terminal (a pseudo-terminal
// here, 200 columns, with NPUSIM_PROGRESS_DELAY_MS=0 so a short run shows it), erased before the
// report, never with -q or when stderr is not a terminal, and slicing the simulation for it
// changes no cycle; in a launch sequence it names the launch and estimates the time left; it
// fits the terminal's width.
// Before <pty.h>: its termios macros (B0, ...) would clash with the ISA's names.
#include "cli/lib/progress.h"

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
    winsize size{};
    size.ws_row = 50;
    size.ws_col = 200;
    const pid_t pid = forkpty(&master, nullptr, nullptr, &size);
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

using Figures = cli::ProgressLine::Figures;

TEST(ProgressLineFormat, LeavesOutTheLeastUsefulPartsFirstToFitTheWidth) {
  Figures f;
  f.phase = "simulation";
  f.launch = 2;
  f.launches = 4;
  f.cycle = 1200000;
  f.instructions = 3456789;
  f.cores_ended = 12;
  f.cores_total = 48;
  f.elapsed_s = 4.2;
  f.left_s = 6.0;
  const std::string all =
      "npusim: simulation  launch 2/4  1200000 cycles  3456789 instructions  cores 12/48 ended  4.2 s  ~6.0 s left";
  EXPECT_EQ(cli::ProgressLine::format(f, 200), all);
  EXPECT_EQ(cli::ProgressLine::format(f, all.size()), all);
  // One column less: the instruction count goes, then the cores, the estimate, the cycles, the launch.
  EXPECT_EQ(cli::ProgressLine::format(f, all.size() - 1),
            "npusim: simulation  launch 2/4  1200000 cycles  cores 12/48 ended  4.2 s  ~6.0 s left");
  EXPECT_EQ(cli::ProgressLine::format(f, 60), "npusim: simulation  launch 2/4  1200000 cycles  4.2 s");
  EXPECT_EQ(cli::ProgressLine::format(f, 45), "npusim: simulation  launch 2/4  4.2 s");
  EXPECT_EQ(cli::ProgressLine::format(f, 20), "npusim: simulation  ");
  // A single launch before the simulation: the phase and the time only.
  EXPECT_EQ(cli::ProgressLine::format(Figures{"inputs", 0, 0, 0, 0, 0, 0, 0.5, -1}, 79), "npusim: inputs  0.5 s");
}

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
  const std::string cores = std::to_string(stats["cores"].size());
  EXPECT_TRUE(std::regex_search(out, std::regex("npusim: compare  " + cycles + " cycles  [1-9][0-9]* instructions  cores " +
                                                cores + "/" + cores + " ended  [0-9.]+ s")))
      << out;
  EXPECT_EQ(out.find(" left"), std::string::npos) << "no estimate for a single launch";
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

TEST_F(ProgressCli, NamesTheLaunchOfASequenceAndEstimatesTheTimeLeft) {
  // The linear kernel three times on tiny.yaml (as system.Launches).
  const std::string c = write("seq.yaml", "kernel: " + source_path("kernels/linear.s") +
                                              "\nblock_dim: 2\nvars: {M: 16, K: 512, N: 256}\nparams: {M: M, K: K, N: N}\n"
                                              "launches: [{repeat: 3}]\ntensors:\n"
                                              "  x: {dtype: bf16, shape: [M, K], init: {uniform: [-1, 1], seed: 1}}\n"
                                              "  w: {dtype: bf16, shape: [N, K], init: {uniform: [-0.1, 0.1], seed: 3}}\n"
                                              "  y: {dtype: bf16, shape: [M, N], role: output}\n"
                                              "golden: {name: linear, inputs: {x: x, w: w}, outputs: {out: y}}\n");
  int status = -1;
  const std::string out = on_terminal({c, "--config", source_path("configs/tiny.yaml")}, status);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  for (int k = 1; k <= 3; ++k)
    EXPECT_NE(out.find("npusim: simulation  launch " + std::to_string(k) + "/3"), std::string::npos) << k << out;
  // From the second launch on: the mean time of the launches done times the launches left.
  EXPECT_TRUE(std::regex_search(out, std::regex("npusim: simulation  launch 2/3  (?:[^\r]*  )?[0-9.]+ s  ~[0-9.]+ s left")))
      << out;
  EXPECT_FALSE(std::regex_search(out, std::regex("launch 1/3[^\r]* left"))) << "no estimate before a launch is done";
}

TEST_F(ProgressCli, QuietShowsNothingOnATerminal) {
  int status = -1;
  const std::string out = on_terminal({case_path(), "-q"}, status);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << out;
  EXPECT_EQ(out, "");
}

}  // namespace
}  // namespace npu::test
