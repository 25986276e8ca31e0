#include "hw/top/trace_chrome.h"

#include <charconv>
#include <cstring>
#include <cinttypes>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "isa/error.h"

namespace npu::hw {

namespace {

bool needs_escape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

// The index of the first character of s at or after i that needs escaping (s.size() if none):
// 16 at a time where SSE2 is (every x86-64), most strings having none.
size_t next_escape(std::string_view s, size_t i) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    // c < 0x20 unsigned: min(c, 0x1F) == c.
    const __m128i control = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1F)), v);
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), control);
    if (const int m = _mm_movemask_epi8(hit)) return i + static_cast<size_t>(__builtin_ctz(static_cast<unsigned>(m)));
  }
#endif
  while (i < s.size() && !needs_escape(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

}  // namespace

// The escaped form of s at p (room for 6 bytes per character: "\u001f"); returns its end.
char* write_json_escaped(char* p, std::string_view s) {
  size_t run = 0;  // start of the characters not yet copied (copied in runs)
  for (size_t i = next_escape(s, 0); i < s.size(); i = next_escape(s, i + 1)) {
    std::memcpy(p, s.data() + run, i - run);
    p += i - run;
    run = i + 1;
    const unsigned char c = static_cast<unsigned char>(s[i]);
    *p++ = '\\';
    switch (c) {
      case '"': *p++ = '"'; break;
      case '\\': *p++ = '\\'; break;
      case '\n': *p++ = 'n'; break;
      case '\t': *p++ = 't'; break;
      default: {
        static const char hex[] = "0123456789abcdef";
        const char u[5] = {'u', '0', '0', hex[c >> 4], hex[c & 15]};
        std::memcpy(p, u, 5);
        p += 5;
      }
    }
  }
  std::memcpy(p, s.data() + run, s.size() - run);
  return p + (s.size() - run);
}

std::string json_escape(std::string_view s) {
  std::string out(6 * s.size(), '\0');
  out.resize(static_cast<size_t>(write_json_escaped(out.data(), s) - out.data()));
  return out;
}

namespace {

// Writes one event into a buffer sized for it by the caller (no bounds checks per piece).
class EventText {
 public:
  explicit EventText(char* p) : p_(p) {}
  template <size_t N>
  EventText& operator<<(const char (&literal)[N]) {
    std::memcpy(p_, literal, N - 1);
    p_ += N - 1;
    return *this;
  }
  EventText& operator<<(uint64_t v) {
    p_ = std::to_chars(p_, p_ + 20, v).ptr;
    return *this;
  }
  EventText& escaped(std::string_view s) {
    p_ = write_json_escaped(p_, s);
    return *this;
  }
  char* end() const { return p_; }

 private:
  char* p_;
};

}  // namespace

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

// Each event is composed in one reused buffer and written with one fwrite (a printf per event
// with a temporary string per escaped field was most of the writer's cost).
void ChromeTraceWriter::instr(const TraceEvent& e) {
  if (!f_) return;
  const uint64_t pid = static_cast<uint64_t>(e.core) + 1, tid = static_cast<uint64_t>(e.unit);
  const bool wait = e.stall > 0 && e.reason != StallReason::None && e.reason != StallReason::Memory;
  const std::string_view reason = stall_reason_name(e.reason);
  // Bound: the literals and 16 numbers of both events (well under 1024 bytes), and every string
  // at most 6 times its length once escaped (the wait repeats disasm, label and source).
  const size_t need = 1024 + 6 * (e.mnemonic.size() + 2 * (e.disasm.size() + e.label.size() + e.source.size()) +
                                  e.wait_what.size() + 3 * reason.size());
  if (need > line_capacity_) {
    line_ = std::make_unique<char[]>(need);
    line_capacity_ = need;
  }
  EventText t(line_.get());
  auto open_event = [&] {  // begin_event()'s separator, into the buffer
    if (!first_) t << ",\n";
    first_ = false;
    t << "{\"ph\":\"X\",\"pid\":";
  };
  if (wait) {
    const uint64_t w0 = e.start - e.stall;
    open_event();
    t << pid << ",\"tid\":" << (kWaitTid + tid) << ",\"ts\":" << w0
      << ",\"dur\":" << (e.start - w0) << ",\"name\":\"";
    t.escaped(reason);
    if (!e.wait_what.empty()) t << " ";
    t.escaped(e.wait_what) << "\",\"cat\":\"wait\",\"args\":{\"cycle\":" << w0 << ",\"end_cycle\":" << e.start
                           << ",\"pc\":" << uint64_t{e.pc} << ",\"disasm\":\"";
    t.escaped(e.disasm) << "\",\"label\":\"";
    t.escaped(e.label) << "\",\"reason\":\"";
    t.escaped(reason) << "\",\"source\":\"";
    t.escaped(e.source) << "\"}}";
  }
  open_event();
  t << pid << ",\"tid\":" << tid << ",\"ts\":" << e.start
    << ",\"dur\":" << (e.end - e.start) << ",\"name\":\"";
  if (e.dispatch) t << "dispatch ";
  t.escaped(e.mnemonic);
  if (e.dispatch)
    t << "\",\"cat\":\"dispatch\",\"args\":{";
  else
    t << "\",\"cat\":\"exec\",\"args\":{";
  t << "\"cycle\":" << e.start << ",\"end_cycle\":" << e.end << ",\"dispatch_cycle\":" << e.dispatch_cycle
    << ",\"pc\":" << uint64_t{e.pc} << ",\"disasm\":\"";
  t.escaped(e.disasm) << "\",\"label\":\"";
  t.escaped(e.label) << "\",\"bytes\":" << e.bytes << ",\"flops\":" << e.flops << ",\"l2_hits\":" << e.l2_hits
                     << ",\"l2_misses\":" << e.l2_misses << ",\"l2_bypass\":" << e.l2_bypass
                     << ",\"hbm_bytes\":" << e.hbm_bytes << ",\"stall_cycles\":" << e.stall
                     << ",\"stall_reason\":\"";
  t.escaped(reason) << "\",\"source\":\"";
  t.escaped(e.source) << "\"}}";
  std::fwrite(line_.get(), 1, static_cast<size_t>(t.end() - line_.get()), f_);
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
