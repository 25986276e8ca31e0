#include "hw/top/trace_chrome.h"

#include <cinttypes>

#include "isa/error.h"

namespace npu::hw {

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

ChromeTraceWriter::ChromeTraceWriter(const std::string& path, const TraceLayout& layout,
                                     const std::vector<std::vector<bool>>& selected, bool memory_tracks)
    : path_(path), layout_(layout) {
  out_ = std::make_unique<AtomicOutputFile>(path);
  f_ = out_->stream();
  // No displayTimeUnit: viewers read ts as microseconds whatever it says (Perfetto ignores it).
  std::fprintf(f_, "{\"otherData\":{\"generator\":\"npusim\",\"clock_ghz\":%.17g,\"time_unit\":\"cycle\","
                   "\"note\":\"ts and dur are core cycles: read the viewer's microseconds as cycles\"},\n"
                   "\"traceEvents\":[\n",
               layout.clock_ghz);
  auto meta = [&](int pid, int tid, const char* what, const std::string& name, int sort) {
    begin_event();
    if (tid < 0)
      std::fprintf(f_, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"%s\",\"args\":{\"name\":\"%s\"}}", pid, what,
                   json_escape(name).c_str());
    else
      std::fprintf(f_, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"%s\",\"args\":{\"name\":\"%s\"}}", pid, tid,
                   what, json_escape(name).c_str());
    begin_event();
    if (tid < 0)
      std::fprintf(f_, "{\"ph\":\"M\",\"pid\":%d,\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%d}}", pid,
                   sort);
    else
      std::fprintf(f_, "{\"ph\":\"M\",\"pid\":%d,\"tid\":%d,\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%d}}",
                   pid, tid, sort);
  };
  for (size_t c = 0; c < layout.cores.size(); ++c) {
    bool any = false;
    for (bool b : selected[c]) any |= b;
    if (!any) continue;
    const int pid = static_cast<int>(c) + 1;
    meta(pid, -1, "process_name", layout.cores[c].name, pid);
    for (int p = 0; p < isa::kNumPipes; ++p) {
      if (!selected[c][p]) continue;
      const std::string pipe(isa::pipe_name(static_cast<isa::Pipe>(p)));
      meta(pid, p, "thread_name", pipe, 2 * p);
      meta(pid, kWaitTid + p, "thread_name", pipe + " waits", 2 * p + 1);
    }
  }
  memory_pid_ = static_cast<int>(layout.cores.size()) + 1;
  if (memory_tracks) meta(memory_pid_, -1, "process_name", "memory", memory_pid_);
}

ChromeTraceWriter::~ChromeTraceWriter() = default;

void ChromeTraceWriter::begin_event() {
  if (!first_) std::fputs(",\n", f_);
  first_ = false;
}

std::string ChromeTraceWriter::ts(uint64_t cycle) const { return std::to_string(cycle); }

void ChromeTraceWriter::instr(const TraceEvent& e) {
  if (!f_) return;
  const int pid = e.core + 1, tid = static_cast<int>(e.unit);
  const bool wait = e.stall > 0 && e.reason != StallReason::None && e.reason != StallReason::Memory;
  if (wait) {
    const uint64_t w0 = e.start - e.stall;
    begin_event();
    std::string name = stall_reason_name(e.reason);
    if (!e.wait_what.empty()) name += " " + std::string(e.wait_what);
    std::fprintf(f_,
                 "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"dur\":%s,\"name\":\"%s\",\"cat\":\"wait\","
                 "\"args\":{\"cycle\":%" PRIu64 ",\"end_cycle\":%" PRIu64 ",\"pc\":%u,\"disasm\":\"%s\",\"label\":\"%s\","
                 "\"reason\":\"%s\",\"source\":\"%s\"}}",
                 pid, kWaitTid + tid, ts(w0).c_str(), dur_str(w0, e.start).c_str(), json_escape(name).c_str(), w0,
                 e.start, e.pc, json_escape(e.disasm).c_str(), json_escape(e.label).c_str(),
                 stall_reason_name(e.reason), json_escape(e.source).c_str());
  }
  begin_event();
  std::string name = e.dispatch ? "dispatch " + std::string(e.mnemonic) : std::string(e.mnemonic);
  std::fprintf(f_,
               "{\"ph\":\"X\",\"pid\":%d,\"tid\":%d,\"ts\":%s,\"dur\":%s,\"name\":\"%s\",\"cat\":\"%s\",\"args\":{"
               "\"cycle\":%" PRIu64 ",\"end_cycle\":%" PRIu64 ",\"dispatch_cycle\":%" PRIu64
               ",\"pc\":%u,\"disasm\":\"%s\",\"label\":\"%s\","
               "\"bytes\":%" PRIu64 ",\"flops\":%" PRIu64 ",\"l2_hits\":%" PRIu64 ",\"l2_misses\":%" PRIu64
               ",\"l2_bypass\":%" PRIu64 ",\"hbm_bytes\":%" PRIu64 ",\"stall_cycles\":%" PRIu64
               ",\"stall_reason\":\"%s\",\"source\":\"%s\"}}",
               pid, tid, ts(e.start).c_str(), dur_str(e.start, e.end).c_str(), json_escape(name).c_str(),
               e.dispatch ? "dispatch" : "exec", e.start, e.end, e.dispatch_cycle, e.pc,
               json_escape(e.disasm).c_str(), json_escape(e.label).c_str(), e.bytes, e.flops, e.l2_hits,
               e.l2_misses, e.l2_bypass, e.hbm_bytes, e.stall, stall_reason_name(e.reason),
               json_escape(e.source).c_str());
}

std::string ChromeTraceWriter::dur_str(uint64_t c0, uint64_t c1) const { return std::to_string(c1 - c0); }

void ChromeTraceWriter::counter(uint64_t cycle, const char* name, const char* key1, double v1, const char* key2,
                                double v2) {
  if (!f_) return;
  begin_event();
  if (key2)
    std::fprintf(f_,
                 "{\"ph\":\"C\",\"pid\":%d,\"ts\":%s,\"name\":\"%s\",\"args\":{\"%s\":%.6g,\"%s\":%.6g},"
                 "\"cat\":\"cycle %" PRIu64 "\"}",
                 memory_pid_, ts(cycle).c_str(), name, key1, v1, key2, v2, cycle);
  else
    std::fprintf(f_, "{\"ph\":\"C\",\"pid\":%d,\"ts\":%s,\"name\":\"%s\",\"args\":{\"%s\":%.6g},\"cat\":\"cycle %" PRIu64 "\"}",
                 memory_pid_, ts(cycle).c_str(), name, key1, v1, cycle);
}

void ChromeTraceWriter::close() {
  if (!f_) return;
  std::fputs("\n]}\n", f_);
  f_ = nullptr;
  out_->commit();
}

}  // namespace npu::hw
