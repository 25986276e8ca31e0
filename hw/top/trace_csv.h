#pragma once
// Per-instruction CSV (npusim run --instr-csv): one row per instruction per unit that spent
// cycles on it, in the order the simulation retires them (deterministic: two runs of the same
// case give identical files, so they diff cleanly). Columns:
//   core,pipe,pc,disassembly,label,dispatch_cycle,start_cycle,end_cycle,stall_cycles,stall_reason,kind,source
// kind: "exec" (the unit executed it) or "dispatch" (the SCALAR unit pushed it into the queue
// of another pipe; the row's pipe is SCALAR). Stalls other than "memory" precede start_cycle.
#include <cstdio>
#include <memory>
#include <string>

#include "base/output_file.h"

#include "hw/top/trace_event.h"

namespace npu::hw {

class CsvTraceWriter {
 public:
  CsvTraceWriter(const std::string& path, const TraceLayout& layout);  // throws npu::Error
  ~CsvTraceWriter();
  CsvTraceWriter(const CsvTraceWriter&) = delete;
  CsvTraceWriter& operator=(const CsvTraceWriter&) = delete;
  void instr(const TraceEvent& e);
  // Moves the file into place (idempotent); throws npu::Error on a write error. Destroyed
  // without close(), the writer leaves no file and any previous one untouched.
  void close();

  static const char* header();

 private:
  std::string path_;
  const TraceLayout& layout_;
  std::unique_ptr<AtomicOutputFile> out_;  // written under a temporary name until close()
  std::FILE* f_ = nullptr;                 // out_'s stream
  std::string row_;                        // the row being composed (reused)
};

// A CSV field, quoted when it holds a comma, quote or newline (quotes doubled).
std::string csv_field(std::string_view s);
void append_csv_field(std::string& out, std::string_view s);

}  // namespace npu::hw
