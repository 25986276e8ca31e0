// `npusim sweep` end to end (docs/sweeps.md) on small timing-only points of the flagship RMSNorm
// case (kernels/cases/rmsnorm_bf16.yaml, a fraction of a second each): the grid and zip order,
// that a point is exactly `npusim run` with the point's options, resuming, failed points, strict
// spec errors, shards joined by GNU parallel + merge, plots and `npusim diff`.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "testbench/support/cli_support.h"

namespace fs = std::filesystem;

namespace {

using npu::test::slurp;
using npu::test::npusim_bin;
using npu::test::source_path;

// CSV rows as fields (the results have no quoted fields here).
std::vector<std::vector<std::string>> csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    rows.emplace_back();
    std::istringstream l(line);
    for (std::string f; std::getline(l, f, ',');) rows.back().push_back(f);
    if (!line.empty() && line.back() == ',') rows.back().push_back("");
  }
  return rows;
}

int col(const std::vector<std::vector<std::string>>& t, const std::string& name) {
  for (size_t i = 0; i < t[0].size(); ++i)
    if (t[0][i] == name) return static_cast<int>(i);
  ADD_FAILURE() << "no column " << name;
  return 0;
}

class Sweep : public npu::test::CliScratchTest {
 protected:
  // 2 (T zipped with blocks) x 2 (gamma policy) = 4 timing-only points, plus `extra` lines.
  std::string spec(const std::string& extra = "", const std::string& name = "s.yaml") {
    return write(name, "description: test sweep\n"
                       "case: " + source_path("kernels/cases/rmsnorm_bf16.yaml") + "\n"
                       "timing_only: true\n"
                       "axes:\n"
                       "  T: {var: T, values: [8, 16]}\n"
                       "  gamma: {cache: gamma, values: [normal, none_cacheable]}\n"
                       "  blocks: {block_dim: [4, 8]}\n"
                       "zip: [[T, blocks]]\n" + extra);
  }
  std::vector<std::vector<std::string>> results(const std::string& dir) { return csv(slurp(dir + "/results.csv")); }
};

TEST_F(Sweep, RunsTheGridInOrderAndEachPointIsNpusimRun) {
  ASSERT_EQ(npusim("sweep " + spec() + " --out " + path("out")), 0) << err_;
  const auto t = results(path("out"));
  ASSERT_EQ(t.size(), 5u);  // header + 4 points
  // Grid order: the first group (T with blocks) slowest.
  const std::vector<std::vector<std::string>> want = {{"8", "normal", "4"}, {"8", "none_cacheable", "4"},
                                                      {"16", "normal", "8"}, {"16", "none_cacheable", "8"}};
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(t[i + 1][col(t, "point")], std::to_string(i));
    EXPECT_EQ((std::vector<std::string>{t[i + 1][col(t, "T")], t[i + 1][col(t, "gamma")], t[i + 1][col(t, "blocks")]}),
              want[i]);
    EXPECT_EQ(t[i + 1][col(t, "status")], "ok");
    EXPECT_EQ(t[i + 1][col(t, "verdict")], "TIMING ONLY");
  }
  // none_cacheable: every gamma access bypasses L2 (T rows x 4096 bf16 / 64-byte lines... read
  // per row: 8 rows -> 128 line accesses, as the normal point's hits + misses).
  const int hits = col(t, "l2_hits.gamma"), misses = col(t, "l2_misses.gamma"), byp = col(t, "l2_bypasses.gamma");
  EXPECT_EQ(t[2][hits], "0");
  EXPECT_EQ(std::stoi(t[2][byp]), std::stoi(t[1][hits]) + std::stoi(t[1][misses]));
  EXPECT_EQ(t[1][byp], "0");
  // Point 3 is exactly `npusim run` with its options: same cycles and HBM bytes.
  ASSERT_EQ(npusim("run " + source_path("kernels/cases/rmsnorm_bf16.yaml") +
                   " --var T=16 --cache gamma=none_cacheable --block-dim 8 --timing-only -q --out " + path("one")), 0)
      << err_;
  nlohmann::json s = nlohmann::json::parse(slurp(path("one/stats.json")));
  EXPECT_EQ(t[4][col(t, "cycles")], std::to_string(s["total_cycles"].get<uint64_t>()));
  EXPECT_EQ(t[4][col(t, "hbm_read_bytes")], std::to_string(static_cast<uint64_t>(s["hbm"]["bytes_read"].get<double>())));
  // The point directory holds the run's outputs, its resolved config and the completion record.
  const std::string pdir = path("out/points/") + t[4][col(t, "hash")];
  for (const char* f : {"stats.json", "config.yaml", "report.txt", "point.json"})
    EXPECT_TRUE(fs::is_regular_file(pdir + "/" + f)) << f;
  EXPECT_EQ(slurp(pdir + "/config.yaml"), slurp(path("one/config.yaml")));
  // The JSON lines hold the same rows, numbers as numbers.
  std::istringstream jl(slurp(path("out/results.jsonl")));
  std::string line;
  for (int i = 0; std::getline(jl, line); ++i) {
    nlohmann::json r = nlohmann::json::parse(line);
    EXPECT_EQ(r["point"], i);
    EXPECT_EQ(r["T"], i < 2 ? 8 : 16);
    EXPECT_EQ(std::to_string(r["cycles"].get<uint64_t>()), t[i + 1][col(t, "cycles")]);
  }
}

TEST_F(Sweep, ResumesSkippingCompletePointsOnly) {
  ASSERT_EQ(npusim("sweep " + spec() + " --out " + path("out")), 0) << err_;
  const auto t = results(path("out"));
  const std::string p0 = path("out/points/") + t[1][col(t, "hash")], p1 = path("out/points/") + t[2][col(t, "hash")];
  // Point 0 complete but with a doctored stats.json: a resume must not run it again.
  nlohmann::json s = nlohmann::json::parse(slurp(p0 + "/stats.json"));
  s["total_cycles"] = 12345;
  std::ofstream(p0 + "/stats.json") << s.dump();
  // Point 1 as an interrupted run leaves it: outputs committed, no point.json yet.
  fs::remove(p1 + "/point.json");
  std::ofstream(p1 + "/stats.json") << "{}";
  ASSERT_EQ(npusim("sweep " + spec() + " --out " + path("out")), 0) << err_;
  const auto r = results(path("out"));
  EXPECT_EQ(r[1][col(r, "cycles")], "12345");                 // skipped
  EXPECT_EQ(r[2][col(r, "cycles")], t[2][col(t, "cycles")]);  // run again
  EXPECT_TRUE(fs::is_regular_file(p1 + "/point.json"));
}

TEST_F(Sweep, SigintStopsWithNoHalfPointCountedAndAResumeCompletes) {
  // 20 points of the AT-10 kernel at N = 768 (tens of milliseconds each, 2 at a time): stopped
  // once the first is complete. Enough points that a loaded host, which may delay the test's
  // polling by a few points, still interrupts the sweep before its end.
  const std::string s = write("i.yaml", "case: " + source_path("kernels/cases/rmsnorm_linear.yaml") +
                                            "\ntiming_only: true\nvar: {N: 768}\nrepeat: {var: SEED, count: 20}\naxes:\n"
                                            "  w: {cache: w, values: [normal]}\n");
  const pid_t pid = npu::test::spawn_npusim({"sweep", s, "--out", path("out"), "--jobs", "2"});
  auto complete = [&] {
    int n = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(path("out/points"), ec))
      n += fs::is_regular_file(e.path() / "point.json");
    return n;
  };
  int st = 0;
  bool ended = false;
  for (int i = 0; i < 6000 && !complete() && !ended; ++i) {  // the first point (bounded wait)
    ended = ::waitpid(pid, &st, WNOHANG) == pid;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_FALSE(ended) << "the sweep ended before it could be interrupted";
  ::kill(pid, SIGINT);
  ASSERT_EQ(::waitpid(pid, &st, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(st) && WTERMSIG(st) == SIGINT) << "status " << st;
  EXPECT_FALSE(fs::exists(path("out/results.csv")));
  const int done = complete();
  EXPECT_GE(done, 1);
  EXPECT_LT(done, 20);
  // No staging directory is left, and every complete point has its whole run output.
  for (const auto& e : fs::directory_iterator(path("out/points"))) {
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
    if (fs::is_regular_file(e.path() / "point.json")) EXPECT_TRUE(fs::is_regular_file(e.path() / "stats.json"));
  }
  ASSERT_EQ(npusim("sweep " + s + " --out " + path("out")), 0) << err_;
  const auto t = results(path("out"));
  ASSERT_EQ(t.size(), 21u);
  for (size_t i = 1; i < t.size(); ++i) EXPECT_EQ(t[i][col(t, "status")], "ok") << i;
  EXPECT_EQ(complete(), 20);
}

TEST_F(Sweep, AFailedPointIsARowWithItsErrorAndExitStatus2) {
  // block_dim 40 exceeds the 910B's 24 clusters: found when the point runs.
  const std::string s = write("f.yaml", "case: " + source_path("kernels/cases/rmsnorm_bf16.yaml") +
                                            "\ntiming_only: true\naxes:\n  blocks: {block_dim: [8, 40]}\n");
  EXPECT_EQ(npusim("sweep " + s + " --out " + path("out")), 2);
  EXPECT_NE(err_.find("point 1 (blocks=40) failed"), std::string::npos) << err_;
  const auto t = results(path("out"));
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t[1][col(t, "status")], "ok");
  EXPECT_EQ(t[2][col(t, "status")], "failed");
  EXPECT_NE(t[2][col(t, "error")].find("exceeds chip.clusters = 24"), std::string::npos) << t[2][col(t, "error")];
}

TEST_F(Sweep, SpecErrorsAreLocated) {
  const std::string kase = source_path("kernels/cases/rmsnorm_bf16.yaml");
  const std::string s = write("bad.yaml", "case: " + kase + "\n"
                                          "axes:\n"
                                          "  T: {var: T, values: [8, 16]}\n"
                                          "  b: {block_dim: [4, 8, 16]}\n"
                                          "  c: {cache: gamma}\n"
                                          "  d: {var: T, set: x, values: [1]}\n"
                                          "zip: [[T, b]]\n"
                                          "jobs: 2\n");
  EXPECT_EQ(npusim("sweep " + s + " --out " + path("out")), 2);
  EXPECT_NE(err_.find(s + ":5:3: error: axes.c: missing key 'values'"), std::string::npos) << err_;
  EXPECT_NE(err_.find(s + ":6:15: error: axes.d.set: an axis varies one thing ('var' is already given)"),
            std::string::npos) << err_;
  EXPECT_NE(err_.find(s + ":7:11: error: zip[0]: axis 'b' has 3 values but 'T' has 2"), std::string::npos) << err_;
  EXPECT_NE(err_.find(s + ":8:1: error: jobs: unknown key"), std::string::npos) << err_;
  EXPECT_FALSE(fs::exists(path("out")));
  // A value the case refuses names the point, before anything runs.
  const std::string p = write("p.yaml", "case: " + kase + "\naxes:\n  w: {cache: nosuch, values: [normal]}\n");
  EXPECT_EQ(npusim("sweep " + p + " --out " + path("out")), 2);
  EXPECT_NE(err_.find("point 0 (w=normal)"), std::string::npos) << err_;
  EXPECT_NE(err_.find("--cache nosuch=normal: error: no tensor 'nosuch'"), std::string::npos) << err_;
  EXPECT_FALSE(fs::exists(path("out")));
}

TEST_F(Sweep, ShardsRunByGnuParallelAndMergedEqualTheUnshardedSweep) {
  if (std::system("command -v parallel > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "GNU parallel is not installed (Debian package 'parallel', scripts/setup.sh installs it)";
  const std::string s = spec("repeat: {var: SEED, count: 2}\n");  // 8 points
  ASSERT_EQ(npusim("sweep " + s + " --out " + path("all")), 0) << err_;
  // The docs/sweeps.md one-liner: 3 shards, 2 at a time.
  const std::string cmd = "cd " + path("work") + " && parallel --will-cite -j2 " + npusim_bin() + " sweep " + s +
                          " --out " + path("shard") + "{} --shard {}/3 ::: 0 1 2 > /dev/null 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  ASSERT_EQ(npusim("sweep merge " + path("shard0") + " " + path("shard1") + " " + path("shard2") + " --out " +
                   path("merged")), 0) << err_;
  auto a = results(path("all")), m = results(path("merged"));
  ASSERT_EQ(a.size(), 9u);
  ASSERT_EQ(m.size(), a.size());
  const int wall = col(a, "wall_s");  // host time: the only column that may differ
  for (size_t i = 0; i < a.size(); ++i) {
    a[i][wall] = m[i][wall] = "";
    EXPECT_EQ(m[i], a[i]) << "row " << i;
  }
  // Each shard ran its own third: point i in shard i % 3.
  EXPECT_FALSE(fs::exists(path("shard1/results.csv"))) << "a shard's results are results.K-of-N.csv";
  EXPECT_EQ(csv(slurp(path("shard1/results.1-of-3.csv"))).size(), 1u + 3);
  // A shard alone is not the whole sweep.
  EXPECT_EQ(npusim("sweep merge " + path("shard0") + " --out " + path("part")), 2);
  EXPECT_NE(err_.find("5 of 8 points are complete in none of the directories"), std::string::npos) << err_;
}

TEST_F(Sweep, PlotsAndDiffs) {
  ASSERT_EQ(npusim("sweep " + spec() + " --out " + path("out")), 0) << err_;
  // Default: x = T (numeric: a line chart), one series per gamma policy (blocks moves with T).
  ASSERT_EQ(npusim("sweep plot " + path("out")), 0) << err_;
  const std::string svg = slurp(path("out/plot-cycles-vs-T.svg"));
  ASSERT_FALSE(svg.empty()) << out_;
  EXPECT_EQ(svg.rfind("<svg", 0), 0u);
  size_t lines = 0;
  for (size_t p = svg.find("<polyline"); p != std::string::npos; p = svg.find("<polyline", p + 1)) ++lines;
  EXPECT_EQ(lines, 2u);
  EXPECT_NE(svg.find("gamma=none_cacheable"), std::string::npos);
  // A categorical x gives bars: 2 policies x 2 T values.
  ASSERT_EQ(npusim("sweep plot " + path("out") + " --x gamma --y hbm_read_bytes --series T --out " + path("b.svg")), 0);
  const std::string bars = slurp(path("b.svg"));
  size_t rects = 0;
  for (size_t p = bars.find("<rect x"); p != std::string::npos; p = bars.find("<rect x", p + 1)) ++rects;
  EXPECT_EQ(rects, 4u + 2);  // 4 bars + 2 legend swatches
  EXPECT_EQ(npusim("sweep plot " + path("out") + " --y nosuch"), 2);
  EXPECT_NE(err_.find("no column 'nosuch'"), std::string::npos) << err_;

  // diff: point 0 (gamma normal) vs point 1 (none_cacheable).
  const auto t = results(path("out"));
  const std::string a = path("out/points/") + t[1][col(t, "hash")], b = path("out/points/") + t[2][col(t, "hash")];
  ASSERT_EQ(npusim("diff " + a + " " + b), 0) << err_;
  EXPECT_NE(out_.find("L2 gamma bypasses"), std::string::npos) << out_;
  EXPECT_NE(out_.find("+" + t[2][col(t, "l2_bypasses.gamma")]), std::string::npos) << out_;
  EXPECT_NE(out_.find(t[1][col(t, "cycles")]), std::string::npos) << out_;
  EXPECT_NE(out_.find("label rmsnorm (aiv) cycles"), std::string::npos) << out_;
  EXPECT_EQ(npusim("diff " + a + " " + path("nothing")), 2);
  EXPECT_NE(err_.find("nothing/stats.json: error: cannot read"), std::string::npos) << err_;
}

}  // namespace
