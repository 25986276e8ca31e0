// `npusim run --trace` as a user runs it, its file parsed as any viewer would (nlohmann::json,
// numbers as doubles): no two events of one (pid, tid) track overlap when ts + dur is added in
// floating point, every timestamp is an integer cycle, and the HBM bandwidth counter never
// exceeds the configured peak (configs/ascend910b.yaml hbm.bandwidth_gbps).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include <nlohmann/json.hpp>

#include "hw/config/loader.h"
#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

using nlohmann::json;

class TraceChromeCli : public CliScratchTest {};

TEST_F(TraceChromeCli, RmsnormLinearTraceHasNoOverlapAndCountersWithinPeak) {
  const std::string config = source_path("configs/ascend910b.yaml");
  // A quarter of the case's K and N: ~0.5 s, and the GEMV still saturates HBM (peak samples).
  ASSERT_EQ(npusim("run " + source_path("kernels/cases/rmsnorm_linear.yaml") + " -q --config " + config +
                   " --var K=1024 --var N=384 --trace " + path("t.json")),
            0)
      << err_;
  const json trace = json::parse(slurp(path("t.json")));
  EXPECT_EQ(trace["otherData"]["time_unit"], "cycle");
  const double peak = hw::load_config(config).hbm.bandwidth_gbps;

  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
  double max_gbps = 0;
  size_t events = 0;
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "C" && e["name"] == "HBM GB/s")
      max_gbps = std::max(max_gbps, e["args"]["read"].get<double>() + e["args"]["write"].get<double>());
    if (e["ph"] != "X") continue;
    ++events;
    const double ts = e["ts"], dur = e["dur"];
    EXPECT_EQ(ts, std::floor(ts));
    EXPECT_EQ(ts, e["args"]["cycle"].get<double>());  // the unit is the cycle
    tracks[{e["pid"], e["tid"]}].emplace_back(ts, ts + dur);
  }
  EXPECT_GT(events, 1000u);
  size_t back_to_back = 0;
  for (auto& [track, v] : tracks) {
    std::sort(v.begin(), v.end());
    for (size_t i = 1; i < v.size(); ++i) {
      EXPECT_LE(v[i - 1].second, v[i].first) << "pid " << track.first << " tid " << track.second;
      back_to_back += v[i - 1].second == v[i].first;
    }
  }
  EXPECT_GT(back_to_back, 100u);  // the case the fractional microseconds got wrong is exercised
  EXPECT_LE(max_gbps, peak * (1 + 1e-6));  // (1e-6: the counter is printed with %.6g)
  EXPECT_GT(max_gbps, 0.5 * peak);         // and the counter does show the GEMV's traffic
}

}  // namespace
}  // namespace npu::test
