#include "hw/top/trace_csv.h"

#include <cinttypes>

#include "isa/error.h"

namespace npu::hw {

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos) return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

const char* CsvTraceWriter::header() {
  return "core,pipe,pc,disassembly,label,dispatch_cycle,start_cycle,end_cycle,stall_cycles,stall_reason,kind,source";
}

CsvTraceWriter::CsvTraceWriter(const std::string& path, const TraceLayout& layout) : path_(path), layout_(layout) {
  out_ = std::make_unique<AtomicOutputFile>(path);
  f_ = out_->stream();
  std::fprintf(f_, "%s\n", header());
}

CsvTraceWriter::~CsvTraceWriter() = default;

void CsvTraceWriter::instr(const TraceEvent& e) {
  if (!f_) return;
  std::fprintf(f_, "%s,%s,%u,%s,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%s,%s,%s\n",
               layout_.cores[e.core].name.c_str(), std::string(isa::pipe_name(e.unit)).c_str(), e.pc,
               csv_field(e.disasm).c_str(), csv_field(e.label).c_str(), e.dispatch_cycle, e.start, e.end, e.stall,
               stall_reason_name(e.reason), e.dispatch ? "dispatch" : "exec", csv_field(e.source).c_str());
}

void CsvTraceWriter::close() {
  if (!f_) return;
  f_ = nullptr;
  out_->commit();
}

}  // namespace npu::hw
