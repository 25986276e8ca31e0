// Launch sequences (docs/case-format.md, "Launch sequences"): the same linear kernel three times
// on tiny.yaml, with the L2 carried between launches (warm) or flushed (cold).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

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
