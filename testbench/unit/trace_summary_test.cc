// npusim trace-summary on a small hand-made trace (golden text), the readers of both formats,
// and the escaping of the trace writers.
#include <gtest/gtest.h>

#include "cli/lib/trace_summary_read.h"
#include "cli/lib/trace_summary_render.h"
#include "hw/top/trace_chrome.h"
#include "hw/top/trace_csv.h"
#include "isa/error.h"

namespace npu::cli {
namespace {

// Two AICs. cluster0: the scalar unit dispatches a load (MTE2, cycles 2-42, 10 of them a memory
// stall), a set_flag MTE2->CUBE behind it (42-43), the CUBE's wait_flag (dispatched at 6,
// released at 42 by that set_flag: a 36-cycle wait) and an mmad (43-60); `end` waits 52 cycles
// for the pipes. cluster1 only loads (2-30).
const char* kSmallCsv =
    "core,pipe,pc,disassembly,label,dispatch_cycle,start_cycle,end_cycle,stall_cycles,stall_reason,kind\n"
    "cluster0.aic,SCALAR,0,\"mov_gm_l1 0x0, x, 1, 4096\",load,2,0,2,0,,dispatch\n"
    "cluster0.aic,SCALAR,1,\"set_flag mte2, cube, 0\",load,4,2,4,0,,dispatch\n"
    "cluster0.aic,SCALAR,2,\"wait_flag mte2, cube, 0\",mm,6,4,6,0,,dispatch\n"
    "cluster0.aic,SCALAR,3,\"mmad.bf16 0x0, 0x0, 0x0, 16, 16, 16\",mm,8,6,8,0,,dispatch\n"
    "cluster0.aic,MTE2,0,\"mov_gm_l1 0x0, x, 1, 4096\",load,2,2,42,10,memory,exec\n"
    "cluster0.aic,CUBE,2,\"wait_flag mte2, cube, 0\",mm,6,42,43,36,flag_wait,exec\n"
    "cluster0.aic,MTE2,1,\"set_flag mte2, cube, 0\",load,4,42,43,0,,exec\n"
    "cluster0.aic,CUBE,3,\"mmad.bf16 0x0, 0x0, 0x0, 16, 16, 16\",mm,8,43,60,0,,exec\n"
    "cluster0.aic,SCALAR,4,end,mm,60,60,60,52,barrier,exec\n"
    "cluster1.aic,SCALAR,0,\"mov_gm_l1 0x0, x, 1, 4096\",load,2,0,2,0,,dispatch\n"
    "cluster1.aic,MTE2,0,\"mov_gm_l1 0x0, x, 1, 4096\",load,2,2,30,0,,exec\n"
    "cluster1.aic,SCALAR,1,end,load,30,30,30,28,barrier,exec\n";

// Derivations: SCALAR busy 8 + 2 = 10 of 2 x 60 cycles = 8.3 %; MTE2 40 + 1 + 28 = 69 of 120 =
// 57.5 %; CUBE 1 + 17 = 18 of 60 (one core has CUBE events) = 30 %. First MTE2 column [0, 3):
// 1 + 1 busy of 6 = 1/3 -> '-' (third ninth). Label load spans 41 (cluster0) + 28 = 69 cycles,
// all MTE only; mm spans 42-60 = 18, all compute. Chain: mmad <- wait_flag (back to back on
// CUBE) <- set_flag at 42 (releases it) <- mov_gm_l1 (back to back on MTE2) <- its dispatch;
// each cycle once: SCALAR 2, MTE2 41, CUBE 17 of 60.
const char* kExpected = R"(trace small.csv (csv): 7 instructions on 2 cores, cycles 0..60

Pipe utilisation over time (cycles 0..60, one column = 3 cycles; mean over the cores of each type):
  aic  SCALAR |%+-                 |   8.3 %
  aic  MTE2   |-@@@@@@@@@++++:     |  57.5 %
  aic  CUBE   |              @@@@@@|  30.0 %

MTE / compute overlap per label (share of the label's span, summed over cores):
  label            cores        span     both  MTE only  compute  neither
  load                 2          69    0.0 %   100.0 %    0.0 %    0.0 %
  mm                   1          18    0.0 %     0.0 %  100.0 %    0.0 %

Longest flag waits (wait_flag, cc_wait):
        36 cycles  cluster0.aic CUBE      flag_wait  [6, 42)  pc 2  wait_flag mte2, cube, 0  (mm)

Critical chain (what the last instruction waited for, back to the start):
  5 instructions from cycle 0 to 60; busy 60 cycles of 60: MTE2 68.3 %, CUBE 28.3 %, SCALAR 3.3 %
  [       0,        2)  cluster0.aic SCALAR       1  dispatch  (load)
  [       2,       43)  cluster0.aic MTE2         2  mov_gm_l1, set_flag  (load)
  [      42,       60)  cluster0.aic CUBE         2  mmad.bf16, wait_flag  (mm)
)";

TEST(TraceSummary, GoldenTextOfSmallCsv) {
  SummaryOptions o;
  o.width = 20;
  EXPECT_EQ(render_trace_summary(parse_trace_text(kSmallCsv, "small.csv"), "small.csv", o), kExpected);
}

// The same trace as Chrome trace JSON (as `npusim run --trace` writes it) reads the same.
TEST(TraceSummary, JsonAndCsvReadAlike) {
  const TraceData csv = parse_trace_text(kSmallCsv, "small.csv");
  std::string json = "{\"displayTimeUnit\":\"ns\",\"otherData\":{},\n\"traceEvents\":[\n";
  json += "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"cluster0.aic\"}},\n";
  json += "{\"ph\":\"M\",\"pid\":2,\"name\":\"process_name\",\"args\":{\"name\":\"cluster1.aic\"}},\n";
  for (const SummaryEvent& e : csv.events) {
    json += "{\"ph\":\"X\",\"pid\":" + std::to_string(e.core + 1) + ",\"tid\":" + std::to_string(e.unit) +
            ",\"ts\":0,\"dur\":0,\"name\":\"x\",\"cat\":\"" + (e.dispatch ? "dispatch" : "exec") +
            "\",\"args\":{\"cycle\":" + std::to_string(e.start) + ",\"end_cycle\":" + std::to_string(e.end) +
            ",\"dispatch_cycle\":" + std::to_string(e.dispatch_cycle) + ",\"pc\":" + std::to_string(e.pc) +
            ",\"disasm\":\"" + hw::json_escape(e.disasm) + "\",\"label\":\"" + csv.labels[e.label] +
            "\",\"stall_cycles\":" + std::to_string(e.stall) + ",\"stall_reason\":\"" + e.reason + "\"}},\n";
  }
  json += "{\"ph\":\"X\",\"pid\":1,\"tid\":20,\"ts\":0,\"dur\":0,\"name\":\"w\",\"cat\":\"wait\",\"args\":{}}\n]}\n";
  const TraceData j = parse_trace_text(json, "small.json");
  SummaryOptions o;
  o.width = 20;
  std::string a = render_trace_summary(csv, "t", o), b = render_trace_summary(j, "t", o);
  a.replace(a.find("(csv)"), 5, "(x)");
  b.replace(b.find("(json)"), 6, "(x)");
  EXPECT_EQ(a, b);
}

TEST(TraceSummary, ErrorsNameTheFile) {
  try {
    parse_trace_text("core,pipe,pc,disassembly,label,dispatch_cycle,start_cycle,end_cycle,stall_cycles,stall_reason\n"
                     "cluster0.aic,WARP,0,nop,,0,0,1,0,\n",
                     "bad.csv");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "bad.csv:2: unknown pipe 'WARP'");
  }
  try {
    parse_trace_text("a,b,c\n1,2,3\n", "other.csv");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "other.csv:1: not an npusim instruction CSV (expected the header core,pipe,pc,...)");
  }
  EXPECT_THROW(read_trace_file("/nonexistent/trace.json"), Error);
}

TEST(TraceWriters, Escaping) {
  EXPECT_EQ(hw::csv_field("mov r1, r2"), "\"mov r1, r2\"");
  EXPECT_EQ(hw::csv_field("end"), "end");
  EXPECT_EQ(hw::csv_field("a\"b"), "\"a\"\"b\"");
  EXPECT_EQ(hw::json_escape("a\"b\\c\n"), "a\\\"b\\\\c\\n");
  // 1.8 GHz: cycle 9 = 5000 ps exactly; cycle 1 = 555.6 -> 556 ps; monotonic in cycles.
  hw::TraceLayout l;
  l.clock_ghz = 1.8;
  EXPECT_EQ(l.ps(9), 5000u);
  EXPECT_EQ(l.ps(1), 556u);
  for (uint64_t c = 0; c < 1000; ++c) EXPECT_LT(l.ps(c), l.ps(c + 1));
}

}  // namespace
}  // namespace npu::cli
