// Instruction timeline (npusim run --trace, Chrome Trace Event JSON) and per-instruction CSV
// (--instr-csv) on every flagship kernel: events on one track never overlap, every process and
// thread is named, the busy time of the X events per pipe equals busy_cycles, and two runs give
// byte-identical CSV files.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include <nlohmann/json.hpp>

#include "cli/lib/case_spec.h"
#include "cli/lib/sim_stats_json.h"
#include "hw/config/loader.h"
#include "hw/top/trace_csv.h"
#include "hw/top/trace_labels.h"
#include "testbench/support/kernel_cases.h"
#include "testbench/support/trace_test_support.h"

namespace npu::test {
namespace {

using nlohmann::json;

class TraceTimeline : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceTimeline, TracksNeverOverlapAndBusyMatchesStats) {
  hw::HwConfig cfg = load_repo_config("tiny");
  hw::TraceOptions t;
  t.json_path = temp_path(GetParam() + ".json");
  hw::RunResult r = run_traced(GetParam(), cfg, t);
  const json trace = json::parse(read_text(t.json_path));
  ASSERT_TRUE(trace.contains("traceEvents"));

  std::map<int, std::string> process;
  std::map<std::pair<int, int>, std::string> thread;
  // Per track: (start cycle, end cycle), and (ts, ts + dur) added as a viewer does, in doubles.
  std::map<std::pair<int, int>, std::vector<std::pair<uint64_t, uint64_t>>> cycles;
  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> times;
  std::map<std::pair<std::string, std::string>, uint64_t> busy;  // (core, pipe) -> cycles
  int x_events = 0, counters = 0;
  for (const json& e : trace["traceEvents"]) {
    const std::string ph = e["ph"];
    if (ph == "M" && e["name"] == "process_name") process[e["pid"]] = e["args"]["name"];
    if (ph == "M" && e["name"] == "thread_name") thread[{e["pid"], e["tid"]}] = e["args"]["name"];
    if (ph == "C") ++counters;
    if (ph == "C" && e["name"] == "HBM GB/s") {  // the channels' occupancy: never above the peak
      EXPECT_LE(e["args"]["read"].get<double>() + e["args"]["write"].get<double>(),
                cfg.hbm.bandwidth_gbps * (1 + 1e-6))
          << "at ts " << e["ts"];  // (1e-6: the %.6g the counter is printed with)
    }
    if (ph == "C" && e["name"] == "L2 hit rate %") {
      EXPECT_LE(e["args"]["hit_rate"].get<double>(), 100.0);
    }
    if (ph != "X") continue;
    ++x_events;
    const std::pair<int, int> track{e["pid"], e["tid"]};
    const uint64_t c0 = e["args"]["cycle"], c1 = e["args"]["end_cycle"];
    ASSERT_LE(c0, c1);
    cycles[track].emplace_back(c0, c1);
    const double ts = e["ts"], dur = e["dur"];
    times[track].emplace_back(ts, ts + dur);
    if (e["cat"] != "wait") busy[{process[e["pid"]], thread[track]}] += c1 - c0;
  }
  EXPECT_GT(x_events, 0);
  EXPECT_GT(counters, 0);  // HBM bandwidth / L2 hit rate samples
  for (auto& [track, v] : cycles) {
    EXPECT_TRUE(process.count(track.first)) << "pid " << track.first << " has no process_name";
    EXPECT_TRUE(thread.count(track)) << "pid " << track.first << " tid " << track.second << " has no thread_name";
    std::sort(v.begin(), v.end());
    for (size_t i = 1; i < v.size(); ++i)
      EXPECT_LE(v[i - 1].second, v[i].first) << process[track.first] << " " << thread[track] << ": cycles ["
                                             << v[i - 1].first << ", " << v[i - 1].second << ") and ["
                                             << v[i].first << ", " << v[i].second << ") overlap";
    std::vector<std::pair<double, double>>& tv = times[track];
    std::sort(tv.begin(), tv.end());
    for (size_t i = 1; i < tv.size(); ++i) EXPECT_LE(tv[i - 1].second, tv[i].first) << thread[track];
  }
  for (const hw::CoreRecord& core : r.stats.cores) {
    const std::string name = core.id.name();
    for (const hw::PipeRecord& p : core.pipes) {
      const std::string pipe(isa::pipe_name(p.pipe));
      EXPECT_EQ(busy[std::make_pair(name, pipe)], p.counters.busy_cycles) << name << " " << pipe;
    }
  }
}

TEST_P(TraceTimeline, CsvIsDeterministic) {
  hw::HwConfig cfg = load_repo_config("tiny");
  hw::TraceOptions a, b;
  a.csv_path = temp_path(GetParam() + ".a.csv");
  b.csv_path = temp_path(GetParam() + ".b.csv");
  run_traced(GetParam(), cfg, a);
  run_traced(GetParam(), cfg, b);
  const std::string ta = read_text(a.csv_path), tb = read_text(b.csv_path);
  EXPECT_EQ(ta.substr(0, ta.find('\n')), hw::CsvTraceWriter::header());
  EXPECT_GT(std::count(ta.begin(), ta.end(), '\n'), 10);
  EXPECT_TRUE(ta == tb) << "two runs wrote different CSV files";
}

INSTANTIATE_TEST_SUITE_P(Kernels, TraceTimeline, ::testing::ValuesIn(traced_kernels()),
                         [](const auto& info) { return info.param; });

// Per-label statistics: the busy cycles of every label add up to the pipes' busy cycles.
TEST(TraceLabels, LabelBusyAddsUpToStats) {
  hw::HwConfig cfg = load_repo_config("tiny");
  hw::TraceOptions t;
  t.label_stats = true;
  const std::string kernel = traced_kernels().back();
  hw::RunResult r = run_traced(kernel, cfg, t);
  const std::vector<hw::LabelRecord>& labels = r.stats.labels;
  ASSERT_FALSE(labels.empty());
  std::map<std::pair<isa::CoreType, int>, uint64_t> by_type;  // (core type, pipe)
  for (const hw::LabelRecord& l : labels) {
    EXPECT_GT(l.cycles, 0u) << l.label;
    EXPECT_FALSE(l.bound.empty()) << l.label;
    for (int p = 0; p < isa::kNumPipes; ++p)
      if (l.busy_cycles[p]) by_type[{l.core_type, p}] += l.busy_cycles[p];
  }
  std::map<std::pair<isa::CoreType, int>, uint64_t> stats;
  for (const hw::CoreRecord& core : r.stats.cores)
    for (const hw::PipeRecord& p : core.pipes)
      if (p.counters.busy_cycles > 0) stats[{core.id.type, static_cast<int>(p.pipe)}] += p.counters.busy_cycles;
  EXPECT_EQ(by_type, stats);
  const std::string report = hw::format_label_report(labels, r.stats.clock_ghz);
  EXPECT_NE(report.find("Labels ("), std::string::npos) << report;
}

}  // namespace
}  // namespace npu::test

namespace npu::test {
namespace {

// Tracing observes: the statistics of a traced run equal those of an untraced one.
TEST_P(TraceTimeline, TracingChangesNoStatistic) {
  hw::HwConfig cfg = load_repo_config("tiny");
  hw::RunResult off = run_traced(GetParam(), cfg, hw::TraceOptions{});
  hw::TraceOptions t;
  t.vcd_path = temp_path(GetParam() + ".all.vcd");
  t.json_path = temp_path(GetParam() + ".all.json");
  t.csv_path = temp_path(GetParam() + ".all.csv");
  t.label_stats = true;
  hw::RunResult on = run_traced(GetParam(), cfg, t);
  EXPECT_FALSE(on.stats.labels.empty());
  // The case pipeline keeps per-label statistics of a labelled kernel on every run: compare the
  // rest (the files written are what differs).
  on.stats.labels.clear();
  off.stats.labels.clear();
  EXPECT_EQ(on.total_cycles, off.total_cycles);
  EXPECT_EQ(cli::sim_stats_json(on.stats), cli::sim_stats_json(off.stats));
}

}  // namespace
}  // namespace npu::test

namespace npu::test {
namespace {

// The worked example of docs/tracing.md: the broken variant of docs/tracing/scale.s (one buffer)
// is slower than the double-buffered one, and the trace shows why: the load of a tile waits for
// the vector op of the previous one (a VECTOR -> MTE2 flag wait on MTE2 in every tile but the
// first two).
TEST(TraceDocsExample, BrokenDoubleBufferingIsSlower) {
  const hw::HwConfig cfg = load_repo_config("ascend910b");
  uint64_t cycles[2] = {0, 0};
  size_t mte2_flag_waits[2] = {0, 0};
  for (int db = 0; db < 2; ++db) {
    // The shipped case of the example (16 tiles per AIV), as `npusim run --var DB=...` runs it.
    const cli::CaseSpec spec = cli::parse_case_file(source_path("docs/tracing/scale.yaml"), {"DB=" + std::to_string(db)});
    hw::TraceOptions trace;
    trace.csv_path = temp_path("scale" + std::to_string(db) + ".csv");
    cycles[db] = *run_test_case(Engine::SystemC, cfg, spec, false, trace).sim.total_cycles;
    const std::string csv = read_text(trace.csv_path);
    for (size_t p = csv.find(",MTE2,"); p != std::string::npos; p = csv.find(",MTE2,", p + 1)) {
      const size_t eol = csv.find('\n', p);
      if (csv.substr(p, eol - p).find("wait_flag vector, mte2") != std::string::npos &&
          csv.substr(p, eol - p).find(",flag_wait,") != std::string::npos)
        ++mte2_flag_waits[db];
    }
  }
  EXPECT_GT(cycles[0], cycles[1] + cycles[1] / 20) << "broken " << cycles[0] << " vs double-buffered " << cycles[1];
  // Broken: on each of the 2 AIVs, loads 1..15 wait for the previous tile's vector op (load 0
  // may also wait a few cycles, for the preset set_flag that the VECTOR pipe executes), so
  // 30..32 waits. Double-buffered: the loads run ahead of the vector ops; only those preset
  // waits remain (at most one per AIV).
  EXPECT_GE(mte2_flag_waits[0], 30u);
  EXPECT_LE(mte2_flag_waits[0], 32u);
  EXPECT_LE(mte2_flag_waits[1], 2u);
}

}  // namespace
}  // namespace npu::test
