#pragma once
// Streaming writer of the instruction timeline in the Chrome Trace Event format (JSON object
// form), which Perfetto UI (ui.perfetto.dev) opens:
//   pid = core + 1 (process named "cluster3.aiv1"), tid = pipe (thread named SCALAR, MTE1, MTE2,
//   MTE3, CUBE, VECTOR, FIXP), tid 16 + pipe = that unit's waits ("MTE2 waits": flag,
//   cross-core, barrier, queue full); pid = cores + 1 "memory": counters "HBM GB/s" and
//   "L2 hit rate %".
// One "X" event per executed instruction per unit, args: cycle, end_cycle, dispatch_cycle, pc,
// disasm, label, bytes, l2_hits, l2_misses, l2_bypass, stall_cycles, stall_reason, source (the
// instruction's file:line, isa::Program::where). ts and dur are
// integer core cycles (the viewer's "microseconds"; otherData.time_unit says "cycle"): integers
// are exact in any JSON parser's doubles, so events that touch in cycles never overlap. Every event is written when it arrives, one per line, so memory
// stays bounded; close() ends the JSON.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "base/output_file.h"

#include "hw/top/trace_event.h"

namespace npu::hw {

class ChromeTraceWriter {
 public:
  // selected[core][pipe]: which unit tracks to name (the caller filters the events).
  // Throws npu::Error if the file cannot be created.
  ChromeTraceWriter(const std::string& path, const TraceLayout& layout,
                    const std::vector<std::vector<bool>>& selected, bool memory_tracks);
  ~ChromeTraceWriter();
  ChromeTraceWriter(const ChromeTraceWriter&) = delete;
  ChromeTraceWriter& operator=(const ChromeTraceWriter&) = delete;

  void instr(const TraceEvent& e);          // the X event, and the wait before it if any
  // A counter sample at `cycle` on the memory process.
  void counter(uint64_t cycle, const char* name, const char* key1, double v1, const char* key2 = nullptr,
               double v2 = 0);
  // Completes the file and moves it into place (idempotent); throws npu::Error on a write error.
  // Destroyed without close(), the writer leaves no file and any previous one untouched.
  void close();

  static constexpr int kWaitTid = 16;

 private:
  void begin_event();
  std::string ts(uint64_t cycle) const;
  std::string dur_str(uint64_t c0, uint64_t c1) const;

  std::string path_;
  const TraceLayout& layout_;
  std::unique_ptr<AtomicOutputFile> out_;  // written under a temporary name until close()
  std::FILE* f_ = nullptr;                 // out_'s stream
  bool first_ = true;
  int memory_pid_ = 0;
  std::unique_ptr<char[]> line_;  // the event being composed (reused; grown as needed)
  size_t line_capacity_ = 0;
};

// JSON string literal contents (quotes and control characters escaped).
std::string json_escape(std::string_view s);
// The same written at p, which has room for 6 bytes per character of s; returns its end.
char* write_json_escaped(char* p, std::string_view s);

}  // namespace npu::hw
