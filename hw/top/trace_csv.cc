#include "hw/top/trace_csv.h"

#include <charconv>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "isa/error.h"

namespace npu::hw {

namespace {

// Whether s holds a comma, quote, CR or LF: 16 characters at a time where SSE2 is (every
// x86-64). (string_view::find_first_of calls memchr on the four for every character.)
bool needs_quotes(std::string_view s) {
  size_t i = 0;
#if defined(__SSE2__)
  const __m128i comma = _mm_set1_epi8(','), quote = _mm_set1_epi8('"'), lf = _mm_set1_epi8('\n'),
                cr = _mm_set1_epi8('\r');
  for (; i + 16 <= s.size(); i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s.data() + i));
    const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, quote)),
                                     _mm_or_si128(_mm_cmpeq_epi8(v, lf), _mm_cmpeq_epi8(v, cr)));
    if (_mm_movemask_epi8(hit)) return true;
  }
#endif
  for (; i < s.size(); ++i)
    if (s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r') return true;
  return false;
}

void append_number(std::string& out, uint64_t v) {
  char digits[24];
  out.append(digits, static_cast<size_t>(std::to_chars(digits, digits + sizeof digits, v).ptr - digits));
}

}  // namespace

void append_csv_field(std::string& out, std::string_view s) {
  if (!needs_quotes(s)) {
    out.append(s);
    return;
  }
  out += '"';
  for (size_t from = 0;;) {  // each quote doubled
    const size_t q = s.find('"', from);
    if (q == std::string_view::npos) {
      out.append(s.substr(from));
      break;
    }
    out.append(s.substr(from, q + 1 - from));
    out += '"';
    from = q + 1;
  }
  out += '"';
}

std::string csv_field(std::string_view s) {
  std::string out;
  append_csv_field(out, s);
  return out;
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

// Each row is composed in one reused buffer and written with one fwrite (a printf of twelve
// fields per event, with a string per quoted field, was most of --instr-csv's cost).
void CsvTraceWriter::instr(const TraceEvent& e) {
  if (!f_) return;
  std::string& r = row_;
  r.clear();
  r += layout_.cores[e.core].name;
  r += ',';
  r += isa::pipe_name(e.unit);
  r += ',';
  append_number(r, e.pc);
  r += ',';
  append_csv_field(r, e.disasm);
  r += ',';
  append_csv_field(r, e.label);
  for (uint64_t v : {e.dispatch_cycle, e.start, e.end, e.stall}) {
    r += ',';
    append_number(r, v);
  }
  r += ',';
  r += stall_reason_name(e.reason);
  r += e.dispatch ? ",dispatch," : ",exec,";
  append_csv_field(r, e.source);
  r += '\n';
  std::fwrite(r.data(), 1, r.size(), f_);  // errors: sticky, reported by commit()
}

void CsvTraceWriter::close() {
  if (!f_) return;
  f_ = nullptr;
  out_->commit();
}

}  // namespace npu::hw
