// `npusim run --trace` as a user runs it, its file parsed as any viewer would (nlohmann::json,
// numbers as doubles): no two events of one (pid, tid) track overlap when ts + dur is added in
// floating point, every timestamp is an integer cycle, and the HBM bandwidth counter never
// exceeds the configured peak (configs/ascend910b.yaml hbm.bandwidth_gbps). Events and CSV rows
// name the source line of their instruction (args.source / the source column).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/lib/trace_summary_read.h"
#include "hw/config/loader.h"
#include "base/csv.h"
#include "testbench/support/cli_support.h"

namespace npu::test {
namespace {

using nlohmann::json;

// Line `line` (1-based) of `file`, without its comment ("" when there is none).
std::string source_line(const std::string& file, int line) {
  std::ifstream in(file);
  std::string text;
  for (int i = 0; i < line && std::getline(in, text);) ++i;
  return text.substr(0, text.find(';'));
}

class TraceChromeCli : public CliScratchTest {};

TEST_F(TraceChromeCli, RmsnormLinearTraceHasNoOverlapAndCountersWithinPeak) {
  const std::string config = source_path("configs/ascend910b.yaml");
  // A quarter of the case's K and N: ~0.5 s, and the GEMV still saturates HBM (peak samples).
  ASSERT_EQ(npusim("run " + source_path("kernels/cases/rmsnorm_linear.yaml") + " -q --config " + config +
                   " --var K=1024 --var N=384 --trace " + path("t.json") + " --instr-csv " + path("t.csv")),
            0)
      << err_;
  const std::string text = slurp(path("t.json"));
  const json trace = json::parse(text);
  EXPECT_EQ(trace["otherData"]["time_unit"], "cycle");
  // trace-summary and --html read it line by line, the lines without a JSON document: the same
  // events as through nlohmann::json.
  const cli::TraceData fast = cli::parse_trace_text(text, "t.json", cli::TraceLineParser::Fast);
  EXPECT_TRUE(fast == cli::parse_trace_text(text, "t.json", cli::TraceLineParser::Generic));
  EXPECT_GT(fast.events.size(), 1000u);
  EXPECT_FALSE(fast.counters.empty());
  const double peak = hw::load_config(config).hbm.bandwidth_gbps;

  std::map<std::pair<int, int>, std::vector<std::pair<double, double>>> tracks;
  double max_gbps = 0;
  size_t events = 0;
  std::map<int, std::string> process;
  std::map<std::pair<std::string, uint32_t>, std::string> source_of;  // (core, pc) -> args.source
  const std::regex loc(R"(^([^:]+):([0-9]+)( \(via .+:[0-9]+\))?$)");
  for (const json& e : trace["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") process[e["pid"]] = e["args"]["name"];
    if (e["ph"] == "C" && e["name"] == "HBM GB/s")
      max_gbps = std::max(max_gbps, e["args"]["read"].get<double>() + e["args"]["write"].get<double>());
    if (e["ph"] != "X") continue;
    ++events;
    const double ts = e["ts"], dur = e["dur"];
    EXPECT_EQ(ts, std::floor(ts));
    EXPECT_EQ(ts, e["args"]["cycle"].get<double>());  // the unit is the cycle
    tracks[{e["pid"], e["tid"]}].emplace_back(ts, ts + dur);
    // The source line is the instruction's: its text names the mnemonic, or it is a macro-body
    // line whose mnemonic is a parameter (`\OP \SRC, \DST, \I`).
    const std::string src = e["args"]["source"];
    std::smatch m;
    ASSERT_TRUE(std::regex_match(src, m, loc)) << src;
    if (e["cat"] == "exec") {
      const std::string text = source_line(m[1], std::stoi(m[2]));
      const std::string op = e["name"];
      EXPECT_TRUE(text.find(op) != std::string::npos || text.find('\\') != std::string::npos)
          << src << " is '" << text << "', not " << op;
    }
    source_of[{process[e["pid"]], e["args"]["pc"].get<uint32_t>()}] = src;
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

  // The CSV's last column is the same source as the trace's, row by row.
  std::istringstream csv(slurp(path("t.csv")));
  std::string row;
  std::getline(csv, row);
  EXPECT_EQ(row.substr(row.rfind(',') + 1), "source");
  size_t rows = 0;
  for (std::vector<std::string> f; std::getline(csv, row);) {
    ++rows;
    // A macro chain's source holds commas: the field is quoted.
    ASSERT_TRUE(csv_split(row, f) && f.size() == 12) << row;
    const uint32_t pc = static_cast<uint32_t>(std::stoul(f[2]));
    EXPECT_EQ(f[11], source_of[std::make_pair(f[0], pc)]) << row;
  }
  EXPECT_GT(rows, 1000u);
}

}  // namespace
}  // namespace npu::test
