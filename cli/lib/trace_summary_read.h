#pragma once
// Reading a trace back for `npusim trace-summary`: the Chrome trace JSON of `npusim run
// --trace` or the CSV of `--instr-csv` (told apart by content), as one list of unit events.
// Wait events of the JSON are not read: every instruction carries its own stall and reason.
#include <cstdint>
#include <string>
#include <vector>

namespace npu::cli {

// Largest cycle value the readers accept (2^63 - 1, far beyond any simulated run): sums and
// spans of cycles then stay inside 64 bits.
inline constexpr uint64_t kMaxTraceCycle = INT64_MAX;

// What the readers guarantee for every event: cycles <= kMaxTraceCycle, start <= end, a known
// stall reason, and stall <= start when the event waits (the wait begins at or after cycle 0).
struct SummaryEvent {
  int core = 0;                 // index into TraceData::cores
  int unit = 0;                 // isa::Pipe value (SCALAR = 0)
  bool dispatch = false;        // SCALAR dispatching an instruction to a pipe
  uint32_t pc = 0;
  std::string mnemonic;         // first word of the disassembly
  std::string disasm;
  int label = 0;                // index into TraceData::labels ("" = none, index 0)
  uint64_t dispatch_cycle = 0, start = 0, end = 0, stall = 0;
  std::string reason;           // "", flag_wait, cross_core, memory, queue_full, barrier
  std::string source;           // "kernels/x.s:12 (via ...)" (isa::Program::where), "" if unknown
  bool waits() const { return stall > 0 && !reason.empty() && reason != "memory"; }
};

// One sample of a counter of the memory process (JSON traces only): "HBM GB/s" {read, write},
// "L2 hit rate %" {hit_rate}, valid from `cycle` to the next sample of the same counter.
struct CounterSample {
  std::string name;
  uint64_t cycle = 0;
  std::vector<std::pair<std::string, double>> values;  // key order of the file
};

struct TraceData {
  std::string format;                   // "json" or "csv"
  std::vector<std::string> cores;       // "cluster0.aic", first-seen order
  std::vector<std::string> labels{""};
  std::vector<SummaryEvent> events;     // file order
  std::vector<CounterSample> counters;  // file order (JSON only)
};

// Member-wise equality (the readers' results are compared in tests).
bool operator==(const SummaryEvent& a, const SummaryEvent& b);
bool operator==(const CounterSample& a, const CounterSample& b);
bool operator==(const TraceData& a, const TraceData& b);

// Throws npu::Error naming the file and the CSV line or the JSON event (index, and line when the
// file has one event per line, as npusim writes it) on anything it cannot read.
TraceData read_trace_file(const std::string& path);
// How the event lines of npusim's own JSON traces are read: Fast takes the lines of the form
// npusim writes without a JSON document (trace_json_line.h) and gives every other line to
// nlohmann::json; Generic gives every line to nlohmann::json. Both give the same result and the
// same errors (tests compare them); Generic is there for those tests.
enum class TraceLineParser { Fast, Generic };
// Same, from text already in memory (`name` is used in messages).
TraceData parse_trace_text(const std::string& text, const std::string& name,
                           TraceLineParser lines = TraceLineParser::Fast);

}  // namespace npu::cli
