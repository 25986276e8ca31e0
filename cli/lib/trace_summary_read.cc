#include "cli/lib/trace_summary_read.h"

#include <charconv>
#include <climits>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cli/lib/trace_json_line.h"
#include "hw/core/trace_observer.h"
#include "base/csv.h"
#include "base/file_io.h"
#include "isa/error.h"
#include "isa/types.h"

namespace npu::cli {

namespace {

// The JSON and CSV traces `npusim run` writes; parsing holds several times this in memory.
constexpr uint64_t kMaxTraceFileBytes = 1ull << 30;

int unit_index(const std::string& name, const std::string& where) {
  for (int p = 0; p < isa::kNumPipes; ++p)
    if (isa::pipe_name(static_cast<isa::Pipe>(p)) == name) return p;
  throw Error(where + ": unknown pipe '" + name + "'");
}

class Interner {
 public:
  explicit Interner(std::vector<std::string>& v) : v_(v) {
    for (size_t i = 0; i < v.size(); ++i) ids_[v[i]] = static_cast<int>(i);
  }
  int operator()(const std::string& s) {
    auto [it, fresh] = ids_.emplace(s, static_cast<int>(v_.size()));
    if (fresh) v_.push_back(s);
    return it->second;
  }

 private:
  std::vector<std::string>& v_;
  std::map<std::string, int> ids_;
};

std::string first_word(const std::string& s) { return s.substr(0, s.find(' ')); }

std::string range_text(int64_t lo, int64_t hi) { return "(" + std::to_string(lo) + ".." + std::to_string(hi) + ")"; }

// Checks the renderer relies on (its subtractions cannot wrap): a known stall reason, start <=
// end, and a wait that begins at or after cycle 0. where() names the event, built only on an error.
template <class Where>
void check_event(const SummaryEvent& e, const Where& where) {
  bool known = false;
  for (int r = 0; r <= static_cast<int>(hw::StallReason::Barrier); ++r)
    known |= e.reason == hw::stall_reason_name(static_cast<hw::StallReason>(r));
  if (!known)
    throw Error(where() + ": unknown stall reason '" + e.reason +
                "' (expected none, flag_wait, cross_core, memory, queue_full or barrier)");
  if (e.end < e.start)
    throw Error(where() + ": end cycle " + std::to_string(e.end) + " is before the start cycle " + std::to_string(e.start));
  if (e.waits() && e.stall > e.start)
    throw Error(where() + ": a " + e.reason + " stall of " + std::to_string(e.stall) +
                " cycles before start cycle " + std::to_string(e.start) + " would begin before cycle 0");
}

// A decimal field in 0..max ("where: field: ...").
uint64_t csv_number(const std::string& s, const std::string& where, const std::string& field, uint64_t max) {
  uint64_t v = 0;
  const char* end = s.data() + s.size();
  auto [p, ec] = std::from_chars(s.data(), end, v);
  if (s.empty() || p != end || (ec != std::errc() && ec != std::errc::result_out_of_range))
    throw Error(where + ": " + field + ": expected an unsigned integer, got '" + s + "'");
  if (ec == std::errc::result_out_of_range || v > max)
    throw Error(where + ": " + field + ": " + s + " is out of range " + range_text(0, static_cast<int64_t>(max)));
  return v;
}

TraceData parse_csv(const std::string& text, const std::string& name) {
  TraceData d;
  d.format = "csv";
  Interner core(d.cores), label(d.labels);
  std::istringstream in(text);
  std::string line;
  uint64_t lineno = 0;
  std::vector<std::string> header, f;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    const std::string where = name + ":" + std::to_string(lineno);
    if (!csv_split(line, f)) throw Error(where + ": unterminated quoted field");
    if (header.empty()) {
      header = f;
      if (header.size() < 10 || header[0] != "core" || header[2] != "pc")
        throw Error(where + ": not an npusim instruction CSV (expected the header core,pipe,pc,...)");
      continue;
    }
    if (f.size() < 10)
      throw Error(where + ": expected " + std::to_string(header.size()) + " fields, got " + std::to_string(f.size()));
    auto number = [&](size_t i, uint64_t max) { return csv_number(f[i], where, header[i], max); };
    SummaryEvent e;
    e.core = core(f[0]);
    e.unit = unit_index(f[1], where);
    e.pc = static_cast<uint32_t>(number(2, UINT32_MAX));
    e.disasm = f[3];
    e.mnemonic = first_word(f[3]);
    e.label = label(f[4]);
    e.dispatch_cycle = number(5, kMaxTraceCycle);
    e.start = number(6, kMaxTraceCycle);
    e.end = number(7, kMaxTraceCycle);
    e.stall = number(8, kMaxTraceCycle);
    e.reason = f[9];
    if (f.size() > 10 && f[10] != "dispatch" && f[10] != "exec")
      throw Error(where + ": kind: expected dispatch or exec, got '" + f[10] + "'");
    e.dispatch = f.size() > 10 && f[10] == "dispatch";
    if (f.size() > 11) e.source = f[11];
    check_event(e, [&] { return where; });
    d.events.push_back(std::move(e));
  }
  if (header.empty()) throw Error(name + ": empty file");
  return d;
}

using nlohmann::json;

// Where a JSON event is, for messages: "trace.json:12: traceEvents[7]" (the line only when the
// file is read line by line). Built only on an error.
struct EventLoc {
  const std::string& name;
  uint64_t line;  // 0: unknown
  size_t index;
  std::string str() const {
    return name + (line ? ":" + std::to_string(line) : "") + ": traceEvents[" + std::to_string(index) + "]";
  }
};

const json* member(const json& o, const char* key) {
  auto it = o.find(key);
  return it == o.end() ? nullptr : &*it;
}
const FlatJson* member(const FlatJson& o, const char* key) { return o.find(key); }

// Typed, checked access to the members of one event (V: nlohmann::json, or FlatJson for the
// lines it reads): every key that is read is checked for presence (unless it has a default),
// type and range.
template <class V>
class EventReader {
 public:
  explicit EventReader(const EventLoc& loc) : loc_(loc) {}

  [[noreturn]] void fail(const std::string& path, const std::string& what) const {
    throw Error(loc_.str() + ": " + path + ": " + what);
  }
  const V* find(const V& o, const char* key) const { return member(o, key); }
  const V& object(const V& o, const char* key) const {
    const V* v = find(o, key);
    if (!v) fail(key, "missing");
    if (!v->is_object()) fail(key, std::string("expected an object, got ") + v->type_name());
    return *v;
  }
  std::string string(const V& o, const char* prefix, const char* key, std::optional<std::string> fallback) const {
    const V* v = find(o, key);
    if (!v && fallback) return *fallback;
    if (!v) fail(std::string(prefix) + key, "missing");
    if (!v->is_string()) fail(std::string(prefix) + key, std::string("expected a string, got ") + v->type_name());
    return v->template get<std::string>();
  }
  int64_t integer(const V& o, const char* prefix, const char* key, std::optional<int64_t> fallback, int64_t lo,
                  int64_t hi) const {
    const V* v = find(o, key);
    if (!v && fallback) return *fallback;
    if (!v) fail(std::string(prefix) + key, "missing");
    if (v->is_number_unsigned()) {
      const uint64_t u = v->template get<uint64_t>();
      if (u > static_cast<uint64_t>(hi)) fail(std::string(prefix) + key, std::to_string(u) + " is out of range " + range_text(lo, hi));
      return static_cast<int64_t>(u);
    }
    if (!v->is_number_integer()) fail(std::string(prefix) + key, "expected an integer, got " + (v->is_number() ? v->dump() : v->type_name()));
    const int64_t i = v->template get<int64_t>();
    if (i < lo || i > hi) fail(std::string(prefix) + key, std::to_string(i) + " is out of range " + range_text(lo, hi));
    return i;
  }
  uint64_t cycle(const V& o, const char* key, std::optional<uint64_t> fallback) const {
    std::optional<int64_t> f;
    if (fallback) f = static_cast<int64_t>(*fallback);
    return static_cast<uint64_t>(integer(o, "args.", key, f, 0, static_cast<int64_t>(kMaxTraceCycle)));
  }

 private:
  const EventLoc& loc_;
};

template <class V>
void json_event(const V& e, TraceData& d, Interner& core, Interner& label, std::map<int, int>& pid_core,
                const EventLoc& loc) {
  const EventReader<V> r(loc);
  if (!e.is_object()) throw Error(loc.str() + ": expected an event object, got " + e.type_name());
  const std::string ph = r.string(e, "", "ph", std::string());
  if (ph == "M") {
    if (r.string(e, "", "name", std::string()) != "process_name") return;
    const int pid = static_cast<int>(r.integer(e, "", "pid", std::nullopt, INT_MIN, INT_MAX));
    const std::string n = r.string(r.object(e, "args"), "args.", "name", std::nullopt);
    if (n != "memory") pid_core[pid] = core(n);
    return;
  }
  if (ph == "C") {
    CounterSample c;
    c.name = r.string(e, "", "name", std::nullopt);
    c.cycle = static_cast<uint64_t>(r.integer(e, "", "ts", std::nullopt, 0, static_cast<int64_t>(kMaxTraceCycle)));
    for (const auto& [key, v] : r.object(e, "args").items()) {
      if (!v.is_number()) r.fail("args." + key, std::string("expected a number, got ") + v.type_name());
      c.values.emplace_back(key, v.template get<double>());
    }
    d.counters.push_back(std::move(c));
    return;
  }
  if (ph != "X") return;
  const std::string cat = r.string(e, "", "cat", std::string());
  if (cat == "wait") return;
  const V& a = r.object(e, "args");
  SummaryEvent s;
  const int pid = static_cast<int>(r.integer(e, "", "pid", std::nullopt, INT_MIN, INT_MAX));
  auto pc = pid_core.find(pid);
  if (pc == pid_core.end()) throw Error(loc.str() + ": event of pid " + std::to_string(pid) + " before its process_name");
  s.core = pc->second;
  s.unit = static_cast<int>(r.integer(e, "", "tid", std::nullopt, 0, isa::kNumPipes - 1));
  s.dispatch = cat == "dispatch";
  s.pc = static_cast<uint32_t>(r.integer(a, "args.", "pc", 0, 0, UINT32_MAX));
  s.disasm = r.string(a, "args.", "disasm", std::string());
  s.mnemonic = first_word(s.disasm);
  s.label = label(r.string(a, "args.", "label", std::string()));
  s.start = r.cycle(a, "cycle", std::nullopt);
  s.end = r.cycle(a, "end_cycle", std::nullopt);
  s.dispatch_cycle = r.cycle(a, "dispatch_cycle", s.start);
  s.stall = r.cycle(a, "stall_cycles", 0);
  s.reason = r.string(a, "args.", "stall_reason", std::string());
  s.source = r.string(a, "args.", "source", std::string());
  check_event(s, [&] { return loc.str(); });
  d.events.push_back(std::move(s));
}

TraceData parse_json(const std::string& text, const std::string& name, bool fast_lines) {
  TraceData d;
  d.format = "json";
  Interner core(d.cores), label(d.labels);
  std::map<int, int> pid_core;
  // npusim writes a header line, then one event per line: read line by line (bounded memory per
  // event, and a trace cut short by an interrupted run still reads).
  if (text.rfind("{\"otherData\":", 0) == 0 || text.rfind("{\"displayTimeUnit\":", 0) == 0) {
    // Lines are parsed in place (no copy of the text or of a line); events reserved ahead.
    size_t lines = 0;
    for (const char* q = text.data(); (q = static_cast<const char*>(std::memchr(q, '\n', text.size() - size_t(q - text.data()))));
         ++q)
      ++lines;
    d.events.reserve(lines);
    uint64_t lineno = 0;
    size_t index = 0;
    FlatJson flat;  // reused: its storage outlives the lines
    for (size_t at = 0; at < text.size();) {
      size_t end = text.find('\n', at);
      if (end == std::string::npos) end = text.size();
      const char* first = text.data() + at;
      const char* last = text.data() + end;
      at = end + 1;
      ++lineno;
      if (lineno == 1 || first == last || *first != '{') continue;
      if (last[-1] == ',') --last;
      const EventLoc loc{name, lineno, index++};
      if (fast_lines && flat.parse(first, last)) {
        try {
          json_event(flat, d, core, label, pid_core, loc);
          continue;
        } catch (const Error&) {
          // The same line through nlohmann::json below gives the error its exact words.
        }
      }
      json e;
      try {
        e = json::parse(first, last);
      } catch (const json::exception& x) {
        throw Error(loc.str() + ": not valid JSON (" + x.what() + ")");
      }
      json_event(e, d, core, label, pid_core, loc);
    }
    return d;
  }
  json j;
  try {
    j = json::parse(text);
  } catch (const json::exception& x) {
    throw Error(name + ": not a readable trace JSON (" + x.what() + ")");
  }
  const json* evs = &j;
  if (j.is_object()) {
    auto it = j.find("traceEvents");
    evs = it == j.end() ? nullptr : &*it;
  }
  if (!evs || !evs->is_array())
    throw Error(name + ": not a trace (expected an array of events or an object with a traceEvents array)");
  for (size_t i = 0; i < evs->size(); ++i) json_event((*evs)[i], d, core, label, pid_core, EventLoc{name, 0, i});
  return d;
}

}  // namespace

bool operator==(const SummaryEvent& a, const SummaryEvent& b) {
  return std::tie(a.core, a.unit, a.dispatch, a.pc, a.mnemonic, a.disasm, a.label, a.dispatch_cycle, a.start, a.end,
                  a.stall, a.reason, a.source) ==
         std::tie(b.core, b.unit, b.dispatch, b.pc, b.mnemonic, b.disasm, b.label, b.dispatch_cycle, b.start, b.end,
                  b.stall, b.reason, b.source);
}
bool operator==(const CounterSample& a, const CounterSample& b) {
  return std::tie(a.name, a.cycle, a.values) == std::tie(b.name, b.cycle, b.values);
}
bool operator==(const TraceData& a, const TraceData& b) {
  return std::tie(a.format, a.cores, a.labels, a.events, a.counters) ==
         std::tie(b.format, b.cores, b.labels, b.events, b.counters);
}

TraceData parse_trace_text(const std::string& text, const std::string& name, TraceLineParser lines) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string::npos) throw Error(name + ": empty file");
  return text[i] == '{' || text[i] == '[' ? parse_json(text, name, lines == TraceLineParser::Fast)
                                          : parse_csv(text, name);
}

TraceData read_trace_file(const std::string& path) {
  std::string text;
  try {
    text = read_input_file(path, kMaxTraceFileBytes);
  } catch (const InputFileError& e) {
    throw Error("cannot read trace file '" + path + "': " + e.reason);
  }
  return parse_trace_text(text, path);
}

}  // namespace npu::cli
