#pragma once
// `npusim run --timing-only` against the full run (run_timing_only_test.cc, the quick tier at
// reduced shapes; run_timing_only_long_test.cc, the flagship shapes): the model runs without data
// effects, so every timing figure must be exactly the full run's: total cycles, per-core pipe
// counters, per-label statistics, L2 per tensor and HBM. Only the run's own description and the
// numerics (not judged) differ.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "testbench/support/cli_support.h"

namespace npu::test {

// npusim: runs `npusim ARGS` and returns its status (CliScratchTest::npusim); run_args: the case
// and its options; scratch: where the two output directories go.
inline void expect_timing_only_matches_full(const std::function<int(const std::string&)>& npusim,
                                            const ScratchDir& scratch, const std::string& run_args) {
  ASSERT_EQ(npusim("run " + run_args + " -q --out " + scratch.path("full")), 0);
  ASSERT_EQ(npusim("run " + run_args + " -q --timing-only --out " + scratch.path("timing")), 0);
  nlohmann::json full = nlohmann::json::parse(slurp(scratch.path("full/stats.json")));
  nlohmann::json timing = nlohmann::json::parse(slurp(scratch.path("timing/stats.json")));
  ASSERT_TRUE(full["total_cycles"].is_number()) << full.dump();
  EXPECT_GT(full["total_cycles"].get<uint64_t>(), 0u);
  EXPECT_EQ(full["numerics"]["all_pass"], true);
  EXPECT_TRUE(timing["numerics"]["all_pass"].is_null());
  EXPECT_EQ(timing["npusim_run"]["timing_only"], true);
  EXPECT_EQ(full["npusim_run"]["timing_only"], false);
  // Every other top-level key is identical (the hw layer's own "timing_only" flag aside).
  for (auto it = full.begin(); it != full.end(); ++it) {
    const std::string& k = it.key();
    if (k == "npusim_run" || k == "numerics" || k == "timing_only") continue;
    EXPECT_EQ(timing[k], it.value()) << run_args << ": stats key '" << k << "' differs";
  }
  EXPECT_TRUE(full.contains("labels")) << "the flagship kernels have labels: per-label figures are compared";
  // The output tensors are not computed, so none is written.
  EXPECT_TRUE(slurp(scratch.path("timing/y.npy")).empty());
  EXPECT_NE(slurp(scratch.path("timing/report.txt")).find("TIMING ONLY"), std::string::npos);
}

}  // namespace npu::test
