// Launch sequences (docs/case-format.md, "Launch sequences"): the same linear kernel three times
// on tiny.yaml, with the L2 carried between launches (warm) or flushed (cold).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "base/csv.h"

#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

class Launches : public CliScratchTest {
 protected:
  // y[16, 256] = x[16, 512] . W[256, 512]^T on 2 clusters, W cached (the kernel marks it
  // none_cacheable): W is 256 KiB = 512 lines, x 16 KiB = 32 lines; tiny's 1 MiB L2 holds both.
  std::string case_text(const std::string& between, const std::string& launches = "[{repeat: 3}]") const {
    return "kernel: " + source_path("kernels/linear.s") +
           "\nblock_dim: 2\nvars: {M: 16, K: 512, N: 256}\nparams: {M: M, K: K, N: N}\n"
           "launches: " + launches + "\nl2_between_launches: " + between +
           "\ntensors:\n"
           "  x: {dtype: bf16, shape: [M, K], init: {uniform: [-1, 1], seed: 1}}\n"
           "  w: {dtype: bf16, shape: [N, K], init: {uniform: [-0.1, 0.1], seed: 3}, cache: normal}\n"
           "  y: {dtype: bf16, shape: [M, N], role: output}\n"
           "golden: {name: linear, inputs: {x: x, w: w}, outputs: {out: y}}\n";
  }
  nlohmann::json run_case(const std::string& between) {
    const std::string c = write(between + ".yaml", case_text(between));
    EXPECT_EQ(npusim("run " + c + " -q --config " + source_path("configs/tiny.yaml") + " --out " + path(between)), 0)
        << err_;
    return nlohmann::json::parse(slurp(path(between + "/stats.json")));
  }
  static uint64_t n(const nlohmann::json& j) { return static_cast<uint64_t>(j.get<double>()); }
};

TEST_F(Launches, WarmL2KeepsTheWeightsResidentAcrossLaunches) {
  const nlohmann::json warm = run_case("warm"), cold = run_case("cold");
  ASSERT_EQ(warm["launches"].size(), 3u);
  ASSERT_EQ(cold["launches"].size(), 3u);
  for (int i = 0; i < 3; ++i) {
    const nlohmann::json& w = stats_item(warm["launches"][i]["l2"]["regions"], "tensor", "w");
    const nlohmann::json& c = stats_item(cold["launches"][i]["l2"]["regions"], "tensor", "w");
    // Cold: every launch reads W's 512 lines from HBM. Warm: only the first; the next two find
    // all 512 in L2 (nothing evicted them: W + x + y use 560 of tiny's 2048 lines).
    EXPECT_EQ(n(c["read_misses"]), 512u) << i;
    EXPECT_EQ(n(c["read_hits"]), 0u) << i;
    EXPECT_EQ(n(w["read_misses"]), i == 0 ? 512u : 0u) << i;
    EXPECT_EQ(n(w["read_hits"]), i == 0 ? 0u : 512u) << i;
  }
  // The first launch is the same either way; the warm ones are faster and read nothing from HBM.
  EXPECT_EQ(warm["launches"][0]["total_cycles"], cold["launches"][0]["total_cycles"]);
  EXPECT_LT(warm["launches"][1]["total_cycles"].get<uint64_t>(), cold["launches"][1]["total_cycles"].get<uint64_t>());
  EXPECT_EQ(n(warm["launches"][1]["hbm"]["bytes_read"]), 0u);
  // Totals: cycles are the sum of the launches'; W's counters too (cold: 3 x 512 misses).
  for (const nlohmann::json* s : {&warm, &cold}) {
    uint64_t sum = 0;
    for (const nlohmann::json& l : (*s)["launches"]) sum += l["total_cycles"].get<uint64_t>();
    EXPECT_EQ((*s)["total_cycles"].get<uint64_t>(), sum);
  }
  EXPECT_EQ(n(stats_item(warm["l2"]["regions"], "tensor", "w")["read_hits"]), 1024u);
  EXPECT_EQ(n(stats_item(cold["l2"]["regions"], "tensor", "w")["read_misses"]), 1536u);
  EXPECT_EQ(n(cold["hbm"]["bytes_read"]), 3 * n(cold["launches"][0]["hbm"]["bytes_read"]));
  EXPECT_EQ(warm["npusim_run"]["l2_between_launches"], "warm");
  EXPECT_TRUE(warm["numerics"]["all_pass"].get<bool>());
}

// Trace files of a sequence: one time line with the launches one after another. The first launch
// of a cold sequence runs exactly what a single launch runs, so its rows equal the single run's;
// launch k's rows are shifted by the cycles of the launches before it (stats.json launches).
TEST_F(Launches, TracesShowTheLaunchesOneAfterAnother) {
  const std::string cfg = " --config " + source_path("configs/tiny.yaml");
  const std::string files = " --trace t.json --instr-csv t.csv --vcd t.vcd --trace-select 'cluster0.*,hbm.ch0'";
  const std::string seq = write("seq.yaml", case_text("cold"));
  ASSERT_EQ(npusim("run " + seq + " -q" + cfg + files + " --out " + path("seq")), 0) << err_;
  std::string single = case_text("cold", "[{}]");  // without `launches`: a plain single launch
  single.erase(single.find("launches: "), std::string("launches: [{}]\nl2_between_launches: cold\n").size());
  const std::string one = write("one.yaml", single);
  ASSERT_EQ(npusim("run " + one + " -q" + cfg + " --trace one.json --instr-csv one.csv --vcd one.vcd"
                   " --trace-select 'cluster0.*,hbm.ch0'"), 0) << err_;
  const nlohmann::json stats = nlohmann::json::parse(slurp(path("seq/stats.json")));
  std::vector<uint64_t> start{0};
  for (const nlohmann::json& l : stats["launches"]) start.push_back(start.back() + l["total_cycles"].get<uint64_t>());
  ASSERT_EQ(start.size(), 4u);

  // CSV: header + ",launch"; launch 0's rows = the single run's rows; every row inside its launch.
  std::vector<std::string> seq_rows, one_rows;
  {
    std::istringstream a(slurp(path("work/t.csv"))), b(slurp(path("work/one.csv")));
    for (std::string l; std::getline(a, l);) seq_rows.push_back(l);
    for (std::string l; std::getline(b, l);) one_rows.push_back(l);
  }
  ASSERT_GT(one_rows.size(), 10u);
  EXPECT_EQ(seq_rows[0], one_rows[0] + ",launch");
  EXPECT_EQ(seq_rows.size(), 3 * (one_rows.size() - 1) + 1);  // the same instructions each launch
  for (size_t i = 1; i < one_rows.size(); ++i) EXPECT_EQ(seq_rows[i], one_rows[i] + ",0") << i;
  for (size_t i = 1; i < seq_rows.size(); ++i) {
    std::vector<std::string> f;
    npu::csv_split(seq_rows[i], f);
    const size_t k = std::stoul(f.back());
    ASSERT_LT(k, 3u);
    EXPECT_GE(std::stoull(f[6]), start[k]) << seq_rows[i];    // start_cycle
    EXPECT_LE(std::stoull(f[7]), start[k + 1]) << seq_rows[i];  // end_cycle
  }

  // JSON: the launches listed and marked; three times the single run's instruction events.
  const nlohmann::json j = nlohmann::json::parse(slurp(path("work/t.json")));
  const nlohmann::json o = nlohmann::json::parse(slurp(path("work/one.json")));
  ASSERT_EQ(j["otherData"]["launches"].size(), 3u);
  size_t x = 0, x1 = 0, marks = 0;
  for (const nlohmann::json& e : j["traceEvents"]) {
    if (e["ph"] == "X") {
      ++x;
      EXPECT_LE(e["ts"].get<uint64_t>() + e["dur"].get<uint64_t>(), start[3]);
    }
    if (e["ph"] == "i") {
      EXPECT_EQ(e["ts"].get<uint64_t>(), start[marks]) << e;
      ++marks;
    }
  }
  for (const nlohmann::json& e : o["traceEvents"]) x1 += e["ph"] == "X";
  EXPECT_EQ(marks, 3u);
  EXPECT_EQ(x, 3 * x1);
  for (size_t k = 0; k < 3; ++k) EXPECT_EQ(j["otherData"]["launches"][k]["start_cycle"].get<uint64_t>(), start[k]);

  // VCD: one header naming the launches, times strictly increasing up to the sequence's end.
  std::istringstream v(slurp(path("work/t.vcd")));
  uint64_t last = 0, times = 0;
  bool ordered = true;
  std::string text;
  for (std::string l; std::getline(v, l);) {
    text += l + "\n";
    if (l.empty() || l[0] != '#') continue;
    const uint64_t t = std::stoull(l.substr(1));
    ordered &= times == 0 || t > last;
    last = t, ++times;
  }
  EXPECT_TRUE(ordered);
  EXPECT_NE(text.find("launch 2: linear at cycle " + std::to_string(start[2])), std::string::npos);
  EXPECT_EQ(text.find("$enddefinitions"), text.rfind("$enddefinitions"));  // one header
  EXPECT_GT(last, start[2] * 556);  // tiny.yaml's 1.8 GHz clock: 556 ps per cycle

  // Launches that trace other signals (another block_dim: other cores) cannot share a VCD:
  // refused with the reason, no file written; the JSON takes them.
  const std::string mixed = write("mixed.yaml", case_text("cold", "[{block_dim: 1}, {block_dim: 2}]"));
  EXPECT_EQ(npusim("run " + mixed + " -q" + cfg + " --vcd m.vcd --trace m.json"), 2);
  EXPECT_NE(err_.find("--vcd: launch 1: linear traces other signals than launch 0: linear"), std::string::npos) << err_;
  EXPECT_TRUE(slurp(path("work/m.json")).empty());
  EXPECT_TRUE(slurp(path("work/m.vcd")).empty());
  EXPECT_EQ(npusim("run " + mixed + " -q" + cfg + " --trace m.json"), 0) << err_;
  EXPECT_EQ(nlohmann::json::parse(slurp(path("work/m.json")))["otherData"]["launches"].size(), 2u);
  // No launch's own file is left behind.
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(path("work"))) left.push_back(e.path().filename().string());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"m.json", "one.csv", "one.json", "one.vcd", "t.csv", "t.json", "t.vcd"}));
}

TEST_F(Launches, BadSequencesAreLocatedErrors) {
  const std::string cfg = " --config " + source_path("configs/tiny.yaml");
  struct Bad {
    std::string between, launches, error;
  };
  // Line 5 holds `launches`, line 6 `l2_between_launches` (case_text's layout).
  const Bad bad[] = {
      {"warm", "3", "t.yaml:5:11: error: launches: expected a non-empty sequence of {kernel, block_dim, params, repeat}, got '3'"},
      {"hot", "[{repeat: 2}]", "t.yaml:6:22: error: l2_between_launches: expected warm or cold, got 'hot'"},
      {"warm", "[{repeats: 2}]", "t.yaml:5:13: error: launches[0].repeats: unknown key (expected one of: kernel, block_dim, params, repeat)"},
      {"warm", "[{}, {repeat: 0}]", "t.yaml:5:25: error: launches[1].repeat: value 0 is below the minimum 1"},
      {"warm", "[{block_dim: 9}]", "t.yaml:5:24: error: launches[0].block_dim: 9 exceeds chip.clusters = 2"},
      {"warm", "[{params: {Q: 1}}]", "kernel 'linear' has no parameter 'Q'"},
  };
  for (const Bad& b : bad) {
    const std::string c = write("t.yaml", case_text(b.between, b.launches));
    EXPECT_EQ(npusim("run " + c + " -q" + cfg), 2) << b.launches;
    EXPECT_NE(err_.find(b.error), std::string::npos) << err_;
  }
}

}  // namespace
}  // namespace npu::test
