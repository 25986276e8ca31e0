// npusim trace-summary on a small hand-made trace (golden text), the readers of both formats,
// and the escaping of the trace writers.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <sstream>

#include "cli/lib/trace_summary_read.h"
#include "cli/lib/trace_summary_render.h"
#include "hw/top/trace_chrome.h"
#include "hw/top/trace_csv.h"
#include "hw/top/trace_vcd.h"
#include "isa/isa.h"
#include "isa/error.h"
#include "testbench/support/thrown_message.h"

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

// Waits that differ only in their core are one row naming the cores: four AIVs wait 20 cycles
// at one wait_flag, a fifth waits 5 (its own row, after the longer one).
TEST(TraceSummary, IdenticalWaitsOnSeveralCoresAreOneRow) {
  std::string csv = "core,pipe,pc,disassembly,label,dispatch_cycle,start_cycle,end_cycle,stall_cycles,stall_reason,kind\n";
  for (const char* core : {"cluster0.aiv0", "cluster0.aiv1", "cluster1.aiv0", "cluster1.aiv1"})
    csv += std::string(core) + ",VECTOR,3,\"wait_flag mte2, vector, 0\",,2,22,23,20,flag_wait,exec\n";
  csv += "cluster2.aiv0,VECTOR,3,\"wait_flag mte2, vector, 0\",,2,7,8,5,flag_wait,exec\n";
  const std::string s = render_trace_summary(parse_trace_text(csv, "w.csv"), "w.csv");
  EXPECT_NE(s.find("Longest flag waits (wait_flag, cc_wait):\n"
                   "        20 cycles  4 AIVs (cluster{0..1}.aiv{0..1}) VECTOR flag_wait  [2, 22)  pc 3  "
                   "wait_flag mte2, vector, 0\n"
                   "         5 cycles  cluster2.aiv0 VECTOR   flag_wait  [2, 7)  pc 3  wait_flag mte2, vector, 0\n\n"),
            std::string::npos)
      << s;
  // One wait on an AIC and an AIV: both types in one row.
  std::string mixed = csv.substr(0, csv.find('\n') + 1);
  for (const char* core : {"cluster0.aic", "cluster0.aiv0"})
    mixed += std::string(core) + ",SCALAR,1,\"wait_flag mte2, s, 0\",,2,9,10,7,flag_wait,exec\n";
  const std::string m = render_trace_summary(parse_trace_text(mixed, "m.csv"), "m.csv");
  EXPECT_NE(m.find("         7 cycles  2 cores (cluster0.aic, cluster0.aiv0) SCALAR flag_wait  [2, 9)  pc 1"),
            std::string::npos)
      << m;
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

std::string read_error(const std::string& text, const std::string& name) {
  return npu::test::thrown_message([&] { parse_trace_text(text, name); });
}

const std::string kCsvHeader =
    "core,pipe,pc,disassembly,label,dispatch_cycle,start_cycle,end_cycle,stall_cycles,stall_reason,kind\n";
std::string csv_row(const std::string& pc, const std::string& dispatch, const std::string& start,
                    const std::string& end, const std::string& stall, const std::string& reason) {
  return "cluster0.aic,SCALAR," + pc + ",nop,," + dispatch + "," + start + "," + end + "," + stall + "," + reason +
         ",exec\n";
}

// Every numeric CSV field is range-checked (no std::stoull exception, no wrap) and the events
// are consistent; each error names the file, the line and the column.
TEST(TraceSummary, CsvFieldErrors) {
  const std::string max = "9223372036854775807";  // kMaxTraceCycle = 2^63 - 1
  EXPECT_EQ(read_error(kCsvHeader + csv_row("0", "0", "0", "18446744073709551616", "0", ""), "t.csv"),
            "t.csv:2: end_cycle: 18446744073709551616 is out of range (0.." + max + ")");
  EXPECT_EQ(read_error(kCsvHeader + csv_row("0", "0", "0", "18446744073709551615", "0", ""), "t.csv"),
            "t.csv:2: end_cycle: 18446744073709551615 is out of range (0.." + max + ")");
  EXPECT_EQ(read_error(kCsvHeader + csv_row("0", "0", "-5", "1", "0", ""), "t.csv"),
            "t.csv:2: start_cycle: expected an unsigned integer, got '-5'");
  EXPECT_EQ(read_error(kCsvHeader + csv_row("4294967296", "0", "0", "1", "0", ""), "t.csv"),
            "t.csv:2: pc: 4294967296 is out of range (0..4294967295)");
  EXPECT_EQ(read_error(kCsvHeader + csv_row("0", "0", "", "1", "0", ""), "t.csv"),
            "t.csv:2: start_cycle: expected an unsigned integer, got ''");
  EXPECT_EQ(read_error(kCsvHeader + "\n" + csv_row("0", "0", "5", "4", "0", ""), "t.csv"),
            "t.csv:3: end cycle 4 is before the start cycle 5");
  EXPECT_EQ(read_error(kCsvHeader + csv_row("0", "0", "5", "6", "6", "flag_wait"), "t.csv"),
            "t.csv:2: a flag_wait stall of 6 cycles before start cycle 5 would begin before cycle 0");
  EXPECT_EQ(read_error(kCsvHeader + csv_row("0", "0", "5", "6", "1", "coffee"), "t.csv"),
            "t.csv:2: unknown stall reason 'coffee' (expected none, flag_wait, cross_core, memory, queue_full or barrier)");
  EXPECT_EQ(read_error(kCsvHeader + "cluster0.aic,SCALAR,0,\"nop,,0,0,1,0,,exec\n", "t.csv"),
            "t.csv:2: unterminated quoted field");
  EXPECT_EQ(read_error(kCsvHeader + "cluster0.aic,SCALAR,0,nop,,0,0,1,0,,later\n", "t.csv"),
            "t.csv:2: kind: expected dispatch or exec, got 'later'");
  EXPECT_EQ(read_error(kCsvHeader + "cluster0.aic,SCALAR,0\n", "t.csv"), "t.csv:2: expected 11 fields, got 3");
  // A memory stall lies inside [start, end): it may exceed the start cycle.
  EXPECT_EQ(read_error(kCsvHeader + csv_row("0", "0", "1", "20", "10", "memory"), "t.csv"), "(no error)");
}

// An event ending at the largest accepted cycle renders: the column width (span / width rounded
// up) is computed without wrapping, so nothing divides by zero. 2^63 - 1 cycles over 10 columns:
// 922337203685477581 cycles per column, the SCALAR pipe busy all the time.
TEST(TraceSummary, EventEndingAtTheLargestCycleRenders) {
  const TraceData d = parse_trace_text(kCsvHeader + csv_row("0", "0", "0", "9223372036854775807", "0", ""), "t.csv");
  SummaryOptions o;
  o.width = 10;
  const std::string s = render_trace_summary(d, "t.csv", o);
  EXPECT_NE(s.find("cycles 0..9223372036854775807, one column = 922337203685477581 cycles"), std::string::npos) << s;
  EXPECT_NE(s.find("aic  SCALAR |@@@@@@@@@@| 100.0 %"), std::string::npos) << s;
}

// Every member of a JSON event that is read is checked for presence, type and range; errors
// name the event (and its line when npusim's one-event-per-line layout is read).
TEST(TraceSummary, JsonEventErrors) {
  const std::string head = "{\"displayTimeUnit\":\"ns\",\"otherData\":{},\n\"traceEvents\":[\n";
  const std::string proc = "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"cluster0.aic\"}},\n";
  auto x = [](const std::string& args, const std::string& tid, const std::string& cat) {
    return "{\"ph\":\"X\",\"pid\":1,\"tid\":" + tid + ",\"cat\":" + cat + ",\"args\":{" + args + "}},\n";
  };
  const std::string max = "9223372036854775807";
  EXPECT_EQ(read_error(head + "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\"},\n]}\n", "t.json"),
            "t.json:3: traceEvents[0]: args: missing");
  EXPECT_EQ(read_error(head + "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{}},\n]}\n", "t.json"),
            "t.json:3: traceEvents[0]: args.name: missing");
  EXPECT_EQ(read_error(head + "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":[1]},\n]}\n", "t.json"),
            "t.json:3: traceEvents[0]: args: expected an object, got array");
  EXPECT_EQ(read_error(head + "{\"ph\":\"M\",\"pid\":\"1\",\"name\":\"process_name\",\"args\":{\"name\":\"a\"}},\n]}\n", "t.json"),
            "t.json:3: traceEvents[0]: pid: expected an integer, got string");
  // X events: {args members, tid, cat, the message after "t.json:4: traceEvents[1]: "}.
  const std::vector<std::array<std::string, 4>> cases = {
      {"\"cycle\":-5,\"end_cycle\":1", "0", "\"exec\"", "args.cycle: -5 is out of range (0.." + max + ")"},
      {"\"cycle\":0,\"end_cycle\":18446744073709551615", "0", "\"exec\"",
       "args.end_cycle: 18446744073709551615 is out of range (0.." + max + ")"},
      {"\"cycle\":0,\"end_cycle\":18446744073709551616", "0", "\"exec\"",
       "args.end_cycle: expected an integer, got 1.8446744073709552e+19"},
      {"\"cycle\":0.5,\"end_cycle\":1", "0", "\"exec\"", "args.cycle: expected an integer, got 0.5"},
      {"\"end_cycle\":1", "0", "\"exec\"", "args.cycle: missing"},
      {"\"cycle\":0,\"end_cycle\":1,\"pc\":\"7\"", "0", "\"exec\"", "args.pc: expected an integer, got string"},
      {"\"cycle\":0,\"end_cycle\":1,\"pc\":4294967296", "0", "\"exec\"", "args.pc: 4294967296 is out of range (0..4294967295)"},
      {"\"cycle\":0,\"end_cycle\":1,\"disasm\":5", "0", "\"exec\"", "args.disasm: expected a string, got number"},
      {"\"cycle\":3,\"end_cycle\":2", "0", "\"exec\"", "end cycle 2 is before the start cycle 3"},
      {"\"cycle\":3,\"end_cycle\":4,\"stall_cycles\":4,\"stall_reason\":\"barrier\"", "0", "\"exec\"",
       "a barrier stall of 4 cycles before start cycle 3 would begin before cycle 0"},
      {"\"cycle\":0,\"end_cycle\":1", "99", "\"exec\"", "tid: 99 is out of range (0..6)"},
      {"\"cycle\":0,\"end_cycle\":1", "0", "3", "cat: expected a string, got number"},
  };
  for (const auto& [args, tid, cat, msg] : cases)
    EXPECT_EQ(read_error(head + proc + x(args, tid, cat) + "]}\n", "t.json"), "t.json:4: traceEvents[1]: " + msg) << args;
  EXPECT_EQ(read_error(head + proc + "{\"ph\":\"X\",\n]}\n", "t.json").substr(0, 46),
            "t.json:4: traceEvents[1]: not valid JSON ([jso");
  EXPECT_EQ(read_error(head + "{\"ph\":5},\n]}\n", "t.json"), "t.json:3: traceEvents[0]: ph: expected a string, got number");
  // The whole-document form (any other JSON layout): the event index only.
  EXPECT_EQ(read_error("[{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\"}]", "t.json"), "t.json: traceEvents[0]: args: missing");
  EXPECT_EQ(read_error("[3]", "t.json"), "t.json: traceEvents[0]: expected an event object, got number");
  EXPECT_EQ(read_error("{\"traceEvents\":{}}", "t.json"),
            "t.json: not a trace (expected an array of events or an object with a traceEvents array)");
  EXPECT_EQ(read_error("{\"other\":[]}", "t.json"),
            "t.json: not a trace (expected an array of events or an object with a traceEvents array)");
}

// npusim's traces (the header line `npusim run --trace` writes, then one event per line) are read
// line by line: a trace cut after a whole line (no closing "]}") still reads.
TEST(TraceSummary, NpusimTraceIsReadLineByLine) {
  const std::string text =
      "{\"otherData\":{\"generator\":\"npusim\",\"clock_ghz\":1.8,\"time_unit\":\"cycle\"},\n\"traceEvents\":[\n"
      "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"cluster0.aic\"}},\n"
      "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"ts\":2,\"dur\":1,\"name\":\"nop\",\"cat\":\"exec\",\"args\":{\"cycle\":2,"
      "\"end_cycle\":3,\"pc\":0,\"disasm\":\"nop\",\"label\":\"a\",\"stall_cycles\":0,\"stall_reason\":\"\"}},\n"
      "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"ts\":3,\"dur\":1,\"name\":\"end\",\"cat\":\"exec\",\"args\":{\"cycle\":3,"
      "\"end_cycle\":4,\"pc\":1,\"disasm\":\"end\",\"label\":\"a\",\"stall_cycles\":0,\"stall_reason\":\"\"}},\n";
  for (TraceLineParser lines : {TraceLineParser::Fast, TraceLineParser::Generic}) {
    const TraceData d = parse_trace_text(text, "cut.json", lines);
    ASSERT_EQ(d.events.size(), 2u);
    EXPECT_EQ(d.events[1].disasm, "end");
    EXPECT_EQ(d.events[1].end, 4u);
  }
}

// The fast line reader (trace_json_line.h) takes only lines of the form npusim writes and leaves
// the rest to nlohmann::json: on every line here, valid or not, both readers give the same
// events or the same error.
TEST(TraceSummary, FastAndGenericLineReadersAgree) {
  const std::string head = "{\"displayTimeUnit\":\"ns\",\"otherData\":{},\n\"traceEvents\":[\n";
  const std::string proc = "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_name\",\"args\":{\"name\":\"cluster0.aic\"}},\n";
  auto x = [](const std::string& args) {
    return "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"ts\":0,\"dur\":1,\"name\":\"n\",\"cat\":\"exec\",\"args\":{" + args + "}}";
  };
  const std::string ok = "\"cycle\":7,\"end_cycle\":9,\"dispatch_cycle\":5,\"pc\":3,\"disasm\":\"mov_gm_l1 0x0, x\",";
  const std::vector<std::string> lines = {
      x(ok + "\"label\":\"l\",\"stall_cycles\":2,\"stall_reason\":\"memory\",\"source\":\"k.s:1 (via m.s:2)\""),
      x(ok + "\"label\":\"l\",\"stall_cycles\":0,\"stall_reason\":\"\",\"flops\":1.5e3,\"bytes\":0"),
      x(ok + "\"label\":\"a\\\"b\\u00e9\",\"stall_reason\":\"\""),            // escapes
      x(ok + "\"label\":\"\xc3\xa9\",\"stall_reason\":\"\""),                   // UTF-8
      x(ok + "\"label\":\"\xff\",\"stall_reason\":\"\""),                       // not UTF-8
      x(ok + "\"label\":\"a\tb\",\"stall_reason\":\"\""),                       // control character
      x(ok + "\"pc\":4,\"label\":\"l\",\"stall_reason\":\"\""),                 // duplicate key: the last
      x(ok + "\"extra\":{\"deeper\":{\"x\":1}},\"stall_reason\":\"\""),          // nested objects
      x(ok + "\"extra\":[1,2],\"flag\":true,\"none\":null,\"stall_reason\":\"\""),
      x(ok + "\"stall_reason\":\"\"") + " ",                                    // trailing space
      "{ \"ph\" : \"X\", \"pid\":1,\"tid\":0,\"cat\":\"exec\",\"args\":{\"cycle\":1,\"end_cycle\":2}}",
      x("\"cycle\":1.0,\"end_cycle\":2"), x("\"cycle\":1e2,\"end_cycle\":200"), x("\"cycle\":0,\"end_cycle\":1E+0"),
      x("\"cycle\":01,\"end_cycle\":2"), x("\"cycle\":-1,\"end_cycle\":2"), x("\"cycle\":-0,\"end_cycle\":2"),
      x("\"cycle\":1.,\"end_cycle\":2"), x("\"cycle\":1,\"end_cycle\":2e999"), x("\"cycle\":null,\"end_cycle\":2"),
      x("\"cycle\":9999999999999999999,\"end_cycle\":9999999999999999999"),     // 19 digits: out of range
      x("\"cycle\":18446744073709551615,\"end_cycle\":18446744073709551616"),
      x("\"cycle\":1,\"end_cycle\":2,\"pc\":\"7\""), x("\"cycle\":3,\"end_cycle\":2"),
      x("\"cycle\":1,\"end_cycle\":2,\"stall_reason\":\"sleepy\""),
      "{\"ph\":\"X\",\"pid\":2,\"tid\":0,\"cat\":\"exec\",\"args\":{\"cycle\":1,\"end_cycle\":2}}",  // unknown pid
      "{\"ph\":\"X\",\"pid\":1,\"tid\":99,\"cat\":\"exec\",\"args\":{\"cycle\":1,\"end_cycle\":2}}",
      "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"cat\":\"wait\",\"args\":{}}",
      "{\"ph\":\"X\",\"pid\":1,\"tid\":0,\"cat\":\"exec\",\"args\":7}",
      "{\"ph\":\"C\",\"pid\":73,\"ts\":1000,\"name\":\"HBM GB/s\",\"args\":{\"write\":0,\"read\":11.4658},\"cat\":\"c\"}",
      "{\"ph\":\"C\",\"pid\":73,\"ts\":1000,\"name\":\"L2 hit rate %\",\"args\":{\"hit_rate\":\"80\"}}",
      "{\"ph\":\"C\",\"pid\":73,\"ts\":1000,\"name\":\"x\",\"args\":{\"b\":2,\"a\":0.1,\"c\":3e-2}}",
      "{\"ph\":\"M\",\"pid\":3,\"name\":\"process_name\",\"args\":{\"name\":\"memory\"}}",
      "{\"ph\":\"M\",\"pid\":3,\"name\":\"thread_name\",\"args\":{}}",
      "{\"ph\":5}", "{}", "{\"ph\":\"X\"}x", "{\"ph\":\"X\",}", "{\"ph\":\"X\"", "{\"ph\":\"X\" }",
  };
  size_t fast_read = 0, line_events = 0;
  std::string valid;
  for (const std::string& line : lines) {
    const std::string text = head + proc + line + ",\n" + x(ok + "\"stall_reason\":\"\"") + "\n]}\n";
    std::string fast_error, generic_error;
    TraceData fast, generic;
    try {
      fast = parse_trace_text(text, "t.json", TraceLineParser::Fast);
    } catch (const Error& e) {
      fast_error = e.what();
    }
    try {
      generic = parse_trace_text(text, "t.json", TraceLineParser::Generic);
    } catch (const Error& e) {
      generic_error = e.what();
    }
    EXPECT_EQ(fast_error, generic_error) << line;
    EXPECT_TRUE(fast == generic) << line;
    fast_read += fast_error.empty();
    if (generic_error.empty()) {
      valid += line + ",\n";
      line_events += generic.events.size() - 1;  // less the closing line's event
    }
  }
  EXPECT_GT(fast_read, 10u);  // valid lines among them, not only errors
  // All the valid lines in one trace, twice over: the fast reader reuses its storage from line to
  // line (a member that was an object on one line is a number on the next).
  const std::string text = head + proc + valid + valid + x(ok + "\"stall_reason\":\"\"") + "\n]}\n";
  const TraceData all = parse_trace_text(text, "t.json", TraceLineParser::Fast);
  EXPECT_TRUE(all == parse_trace_text(text, "t.json", TraceLineParser::Generic));
  EXPECT_EQ(all.events.size(), 2 * line_events + 1);
}

TEST(TraceWriters, Escaping) {
  EXPECT_EQ(hw::csv_field("mov r1, r2"), "\"mov r1, r2\"");
  EXPECT_EQ(hw::csv_field("end"), "end");
  EXPECT_EQ(hw::csv_field("a\"b"), "\"a\"\"b\"");
  // The CSV writer also scans 16 at a time: each character that forces quotes at every position
  // of a 40-character string (in the scanned blocks and the tail), quotes doubled.
  for (const char special : {',', '"', '\n', '\r'})
    for (size_t at = 0; at < 40; ++at) {
      std::string s(40, 'x');
      s[at] = special;
      const std::string inner = special == '"' ? s.substr(0, at) + "\"\"" + s.substr(at + 1) : s;
      EXPECT_EQ(hw::csv_field(s), "\"" + inner + "\"") << int(special) << " at " << at;
    }
  EXPECT_EQ(hw::csv_field(std::string(40, 'x')), std::string(40, 'x'));
  EXPECT_EQ(hw::json_escape("a\"b\\c\n"), "a\\\"b\\\\c\\n");
  // The writer scans 16 characters at a time: every character that needs escaping (and bytes of
  // 0x7F and above, which do not) at every position of a 40-character string, against the
  // definition character by character.
  auto expected = [](const std::string& s) {
    std::string o;
    for (unsigned char c : s) {
      if (c == '"') o += "\\\"";
      else if (c == '\\') o += "\\\\";
      else if (c == '\n') o += "\\n";
      else if (c == '\t') o += "\\t";
      else if (c < 0x20) o += "\\u00" + std::string(1, "0123456789abcdef"[c >> 4]) + "0123456789abcdef"[c & 15];
      else o += static_cast<char>(c);
    }
    return o;
  };
  for (int c : {0x00, 0x01, 0x09, 0x0A, 0x1F, 0x20, 0x22, 0x5C, 0x7F, 0x80, 0xC3, 0xFF})
    for (size_t at = 0; at < 40; ++at) {
      std::string s = "mov_gm_l1 0x0, x, 1, 4096 @ kernels/x.s:";
      s[at] = static_cast<char>(c);
      ASSERT_EQ(hw::json_escape(s), expected(s)) << "character " << c << " at " << at;
    }
}

// The GTKWave filter names every opcode of the ISA table, as GTKWave shows the VCD's 8-bit
// opcode signal in hex (two digits), and nothing else.
TEST(TraceWriters, GtkwaveFilterCoversEveryOpcode) {
  std::istringstream in(hw::gtkwave_opcode_filter());
  std::map<int, std::string> named;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    ASSERT_EQ(line.find(' '), 2u) << line;
    const int value = std::stoi(line.substr(0, 2), nullptr, 16);
    EXPECT_TRUE(named.emplace(value, line.substr(3)).second) << "opcode " << value << " twice";
  }
  EXPECT_EQ(named.size(), static_cast<size_t>(isa::kNumOps));
  for (int i = 0; i < isa::kNumOps; ++i) {
    const isa::InstrDef& d = isa::table()[i];
    ASSERT_LT(isa::opcode(d.op), 256) << d.mnemonic << " does not fit the 8-bit opcode signal";
    EXPECT_EQ(named[isa::opcode(d.op)], std::string(d.mnemonic));
  }
}

}  // namespace
}  // namespace npu::cli
