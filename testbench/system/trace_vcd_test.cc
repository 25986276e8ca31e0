// VCD waveform (npusim run --vcd): the busy cycles a VCD reader counts per pipe equal the
// busy_cycles of the statistics, for every flagship kernel; window and selection bound the file.
#include <gtest/gtest.h>

#include <regex>

#include "hw/config/loader.h"
#include "isa/error.h"
#include "testbench/support/repo_config.h"
#include "testbench/support/trace_test_support.h"

namespace npu::test {
namespace {

uint64_t period_of(const VcdFile& f) {
  std::smatch m;
  for (const std::string& c : f.comments) {
    static const std::regex re("one core cycle = ([0-9]+) time units");
    if (std::regex_search(c, m, re)) return std::stoull(m[1]);
  }
  return 0;
}

class TraceVcd : public ::testing::TestWithParam<std::string> {};

TEST_P(TraceVcd, BusyCyclesPerPipeEqualStats) {
  hw::HwConfig cfg = load_repo_config("tiny");
  hw::TraceOptions t;
  t.vcd_path = temp_path(GetParam() + ".vcd");
  hw::RunResult r = run_traced(GetParam(), cfg, t);
  VcdFile f = read_vcd(t.vcd_path);
  // tiny: 1.8 GHz, SystemC resolution 1 ps: a cycle is sc_time(1/1.8 ns) = 556 ps.
  EXPECT_EQ(f.timescale, "1 ps");
  const uint64_t period = period_of(f);
  ASSERT_EQ(period, 556u);
  const uint64_t end = r.total_cycles * period;
  int pipes = 0;
  for (const hw::CoreRecord& core : r.stats.cores) {
    const std::string name = core.id.name();
    for (const hw::PipeRecord& p : core.pipes) {
      const std::string sig = name + "." + std::string(isa::pipe_name(p.pipe)) + ".busy";
      ASSERT_TRUE(f.signals.count(sig)) << sig;
      const uint64_t busy_time = vcd_nonzero_time(f.signals[sig], end);
      EXPECT_EQ(busy_time % period, 0u) << sig;
      EXPECT_EQ(busy_time / period, p.counters.busy_cycles) << sig;
      ++pipes;
    }
  }
  EXPECT_GT(pipes, 0);
  // Every busy signal is back to 0 at the end, queues are empty, no transfer is left in flight.
  for (const auto& [name, s] : f.signals) {
    if (s.changes.empty()) continue;
    const bool drains = name.find(".busy") != std::string::npos || name.find(".queue") != std::string::npos ||
                        name.find("bytes_in_flight") != std::string::npos || name == "mte.active";
    if (drains) {
      EXPECT_EQ(s.changes.back().second, 0u) << name;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Kernels, TraceVcd, ::testing::ValuesIn(traced_kernels()),
                         [](const auto& info) { return info.param; });

// The window keeps every change inside [START, END) cycles; the selection keeps only the units
// whose names match.
TEST(TraceVcdFilter, WindowAndSelection) {
  hw::HwConfig cfg = load_repo_config("tiny");
  const std::string kernel = traced_kernels().at(0);
  hw::TraceOptions t;
  t.vcd_path = temp_path("window.vcd");
  hw::parse_trace_window("200:900", t);
  hw::parse_trace_select("cluster1.*,hbm.ch0", t);
  run_traced(kernel, cfg, t);
  VcdFile f = read_vcd(t.vcd_path);
  const uint64_t period = period_of(f);
  ASSERT_GT(period, 0u);
  bool any_core = false;
  for (const auto& [name, s] : f.signals) {
    EXPECT_TRUE(name.rfind("cluster1.", 0) == 0 || name == "hbm.ch0.bytes_in_flight") << name;
    any_core |= name.rfind("cluster1.", 0) == 0;
    for (const auto& [time, v] : s.changes)
      if (time != 0) {  // time 0: the initial values ($dumpvars)
        EXPECT_GE(time, 200 * period) << name;
        EXPECT_LT(time, 900 * period) << name;
      }
  }
  EXPECT_TRUE(any_core);
}

TEST(TraceOptions, BadWindowAndSelection) {
  hw::TraceOptions t;
  try {
    hw::parse_trace_window("900:200", t);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--trace-window '900:200': END must be greater than START");
  }
  try {
    hw::parse_trace_window("12", t);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--trace-window '12': expected START:END in cycles (e.g. 1000:5000, :5000, 1000:)");
  }
  try {
    hw::parse_trace_select("a,,b", t);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "--trace-select 'a,,b': empty pattern");
  }
  hw::parse_trace_window(":50", t);
  EXPECT_EQ(t.window_start, 0u);
  EXPECT_EQ(t.window_end, 50u);
  EXPECT_TRUE(hw::trace_selected({"cluster0.aic"}, "cluster0.aic.MTE2"));
  EXPECT_TRUE(hw::trace_selected({"*.MTE?"}, "cluster3.aiv1.MTE2"));
  EXPECT_FALSE(hw::trace_selected({"cluster1.aic"}, "cluster10.aic.CUBE"));
  EXPECT_FALSE(hw::trace_selected({"l2.*"}, "hbm.ch0"));
  EXPECT_TRUE(hw::trace_selected({}, "anything"));
}

}  // namespace
}  // namespace npu::test
