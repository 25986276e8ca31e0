// `npusim bench` (docs/performance.md): the README job is measured in its own process and as a
// process of its own. Host times are never asserted (they vary with the host); what is: both
// kinds of row are there, a process row's simulated figures are the in-process run's (cycles
// are deterministic), and the child's phases are the job's, from "process start" to "exit".
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/file_io.h"
#include "testbench/support/cli_support.h"

namespace {

using nlohmann::json;

class BenchCli : public npu::test::CliScratchTest {};


const json& row(const json& rows, const std::string& workload, bool timing_only) {
  for (const json& r : rows)
    if (r["workload"] == workload && r["timing_only"] == timing_only) return r;
  static const json none;
  ADD_FAILURE() << "no row " << workload << (timing_only ? " (timing)" : " (full)");
  return none;
}

TEST_F(BenchCli, TheReadmeJobAsAProcessHasTheSameFiguresAndItsOwnPhases) {
  // The README job as `npusim run` gives it (its cycles are deterministic).
  ASSERT_EQ(npusim("run " + npu::test::source_path("kernels/cases/rmsnorm_linear.yaml") + " --timing-only -q --out " +
                   path("readme")),
            0)
      << err_;
  const uint64_t readme_cycles =
      json::parse(npu::read_input_file(path("readme") + "/stats.json"))["total_cycles"].get<uint64_t>();
  ASSERT_EQ(npusim("bench --repeat 1 --json " + path("b.json")), 0) << err_;
  const json rows = json::parse(npu::read_input_file(path("b.json")));  // out_: bench's report
  const std::string job = "run: README rmsnorm_linear 16x4096x1536";
  for (bool timing_only : {false, true}) {
    const json& in = row(rows, job, timing_only);
    const json& proc = row(rows, job + " (process)", timing_only);
    ASSERT_FALSE(in.is_null() || proc.is_null());
    EXPECT_EQ(in["cycles"].get<uint64_t>(), readme_cycles);
    for (const char* key : {"cycles", "instructions", "macs", "gm_lines"}) EXPECT_EQ(proc[key], in[key]) << key;
    EXPECT_GT(proc["host_seconds"].get<double>(), 0.0);
    std::vector<std::string> names;
    for (const json& p : proc["main_thread_phases"]) {
      names.push_back(p["phase"]);
      EXPECT_GE(p["wall_seconds"].get<double>(), 0.0) << names.back();
    }
    ASSERT_GE(names.size(), 4u);
    EXPECT_EQ(names.front(), "process start");
    EXPECT_EQ(names.back(), "exit");
    for (const char* phase : {"config", "kernel", "elaboration", "simulation", "statistics", "teardown"})
      EXPECT_NE(std::find(names.begin(), names.end(), phase), names.end()) << phase;
  }
  EXPECT_NE(out_.find(job + " (process)"), std::string::npos) << out_;
}

}  // namespace
