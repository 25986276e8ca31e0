// VcdWriter (hw/top/vcd_writer.h): the VCD text npusim writes, checked by hand on a small case
// and against SystemC 2.3's own VCD writer (sc_trace, the writer npusim's VCDs came from before)
// on random signals and changes: every byte after the header's $version block is the same.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <systemc>

#include "hw/mem/sim_kernel.h"
#include "hw/top/vcd_writer.h"
#include "testbench/support/trace_test_support.h"

namespace npu::hw {
namespace {

struct Step {
  uint64_t tick;
  size_t id;
  uint64_t value;
};

std::string write_with_vcd_writer(const std::vector<std::string>& names, const std::vector<int>& bits,
                                  const std::vector<Step>& steps, uint64_t end_tick, const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr);
  VcdWriter w(f, names, bits, "a comment", "test", "1 ps");
  for (const Step& s : steps) w.set(s.tick, s.id, s.value);
  w.finish(end_tick);
  std::fclose(f);
  return test::read_text(path);
}

// SystemC's writer on the same changes: one traced variable per signal and a thread applying the
// changes at their times, then one more tick (SystemC writes a time step when time moves on).
class Replay : public sc_core::sc_module {
 public:
  Replay(sc_core::sc_module_name n, const std::vector<int>& bits, const std::vector<Step>& steps)
      : sc_module(n), bits_(bits), steps_(steps), bools_(bits.size() + 1), words_(bits.size() + 1) {
    SC_HAS_PROCESS(Replay);
    SC_THREAD(run);
  }
  void trace(sc_core::sc_trace_file* tf, const std::vector<std::string>& names) {
    for (size_t i = 0; i < names.size(); ++i) {
      if (bits_[i] == 1)
        sc_core::sc_trace(tf, bools_[i].v, names[i]);
      else
        sc_core::sc_trace(tf, words_[i], names[i], bits_[i]);
    }
  }

 private:
  struct Bool {
    bool v = false;
  };
  void run() {
    for (const Step& s : steps_) {
      const uint64_t now = sc_core::sc_time_stamp().value();
      if (s.tick > now) sc_core::wait(sc_core::sc_time::from_value(s.tick - now));
      if (bits_[s.id] == 1)
        bools_[s.id].v = s.value != 0;
      else
        words_[s.id] = s.value;
    }
    sc_core::wait(sc_core::sc_time::from_value(1));
  }
  std::vector<int> bits_;
  std::vector<Step> steps_;
  std::vector<Bool> bools_;
  std::vector<sc_dt::uint64> words_;
};

std::string write_with_systemc(const std::vector<std::string>& names, const std::vector<int>& bits,
                               const std::vector<Step>& steps, const std::string& base) {
  {
    SimContext ctx;
    Replay module("replay", bits, steps);
    sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    const sc_core::sc_actions was = sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
    tf->set_time_unit(sc_core::sc_get_time_resolution().to_seconds(), sc_core::SC_SEC);
    sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, was);
    tf->write_comment("a comment");
    module.trace(tf, names);
    sc_core::sc_start();
    resync_sanitizer_stack();
    sc_core::sc_close_vcd_trace_file(tf);
  }
  return test::read_text(base + ".vcd");
}

// The text from $timescale on (SystemC's header also has a $date and its own $version).
std::string from_timescale(const std::string& vcd) {
  const size_t at = vcd.find("$timescale");
  EXPECT_NE(at, std::string::npos);
  return at == std::string::npos ? vcd : vcd.substr(at);
}

TEST(VcdWriter, WritesTheVcdLayout) {
  // Scopes from the dots, a scope's signals in order and then its sub-scopes by name ("B" before
  // "a"), [] in names as (), identifiers in signal order; a time-0 change in $dumpvars; at tick 5
  // two changes of one signal give its last value, a signal set back to its written value is not
  // written; a value wider than its bits is x.
  const std::vector<std::string> names = {"top.a.y", "top.B.x", "z[1]", "top.a.w"};
  const std::vector<int> bits = {8, 1, 4, 64};
  const std::string path = test::temp_path("layout.vcd");
  const std::string got = write_with_vcd_writer(
      names, bits, {{0, 0, 3}, {5, 1, 1}, {5, 1, 0}, {5, 1, 1}, {5, 0, 7}, {5, 0, 3}, {9, 2, 16}, {9, 3, ~0ull}}, 10,
      path);
  const std::string want =
      "$comment\na comment\n$end\n\n"
      "$version\n test\n$end\n\n"
      "$timescale\n     1 ps\n$end\n\n"
      "$scope module SystemC $end\n"
      "$var wire    4  aaaac  z(1) [3:0]  $end\n"
      "$scope module top $end\n"
      "$scope module B $end\n"
      "$var wire    1  aaaab  x       $end\n"
      "$upscope $end\n"
      "$scope module a $end\n"
      "$var wire    8  aaaaa  y [7:0]  $end\n"
      "$var wire   64  aaaad  w [63:0]  $end\n"
      "$upscope $end\n"
      "$upscope $end\n"
      "$upscope $end\n"
      "$enddefinitions  $end\n\n"
      "$comment\nAll initial values are dumped below at time 0 sec = 0 timescale units.\n$end\n\n"
      "$dumpvars\nb11 aaaaa\n0aaaab\nb0 aaaac\nb0 aaaad\n$end\n\n"
      "#5\n1aaaab\n\n"
      "#9\nbx aaaac\nb" + std::string(64, '1') + " aaaad\n\n"
      "#10\n";
  EXPECT_EQ(got, want);
}

TEST(VcdWriter, IdentifiersAndTimescales) {
  EXPECT_EQ(VcdWriter::identifier(0), "aaaaa");
  EXPECT_EQ(VcdWriter::identifier(25), "aaaaz");
  EXPECT_EQ(VcdWriter::identifier(26), "aaaba");
  EXPECT_EQ(VcdWriter::identifier(26 * 26 * 26 + 2), "abaac");
  EXPECT_EQ(VcdWriter::timescale(1e-12), "1 ps");
  EXPECT_EQ(VcdWriter::timescale(1e-15), "1 fs");
  EXPECT_EQ(VcdWriter::timescale(1e-7), "100 ns");
  EXPECT_EQ(VcdWriter::timescale(10), "10 s");
  EXPECT_THROW(VcdWriter::timescale(2e-12), std::exception);
}

TEST(VcdWriter, WritesWhatSystemCsWriterWrites) {
  std::mt19937_64 rng(7);
  const std::vector<std::string> scopes = {"cluster0", "cluster1", "cluster10", "cluster9", "hbm", "l2", "Mte", "mte"};
  for (int round = 0; round < 12; ++round) {
    std::vector<std::string> names;
    std::vector<int> bits;
    const size_t n = 1 + rng() % 40;
    for (size_t i = 0; i < n; ++i) {
      std::string name = scopes[rng() % scopes.size()];
      for (int d = int(rng() % 3); d > 0; --d) name += "." + scopes[rng() % scopes.size()];
      names.push_back(name + ".s" + std::to_string(i));
      static const int kWidths[] = {1, 1, 8, 16, 32, 64, 3};
      bits.push_back(kWidths[rng() % 7]);
    }
    // Changes at non-decreasing ticks, some at 0, several per tick, values sometimes past the
    // width (SystemC writes x) and sometimes the previous one back.
    std::vector<Step> steps;
    uint64_t tick = rng() % 2 ? 0 : rng() % 5;
    for (int k = int(rng() % 300); k > 0; --k) {
      if (rng() % 3 == 0) tick += 1 + rng() % 1000;
      const size_t id = rng() % n;
      uint64_t v = rng() % 4 == 0 ? rng() : rng() % 6;
      if (bits[id] == 1) v = v != 0;
      steps.push_back({tick, id, v});
    }
    const uint64_t end = (steps.empty() ? 0 : steps.back().tick) + 1;
    const std::string ours = write_with_vcd_writer(names, bits, steps, end, test::temp_path("ours.vcd"));
    const std::string theirs = write_with_systemc(names, bits, steps, test::temp_path("theirs"));
    EXPECT_EQ(from_timescale(ours), from_timescale(theirs)) << "round " << round;
  }
}

}  // namespace
}  // namespace npu::hw
