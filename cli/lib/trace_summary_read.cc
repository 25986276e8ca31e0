#include "cli/lib/trace_summary_read.h"

#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

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

// CSV fields of one line (RFC 4180 quoting).
std::vector<std::string> csv_split(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      out.emplace_back();
    } else if (c != '\r') {
      out.back() += c;
    }
  }
  return out;
}

uint64_t to_u64(const std::string& s, const std::string& where) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
    throw Error(where + ": expected a number, got '" + s + "'");
  return std::stoull(s);
}

TraceData parse_csv(const std::string& text, const std::string& name) {
  TraceData d;
  d.format = "csv";
  Interner core(d.cores), label(d.labels);
  std::istringstream in(text);
  std::string line;
  int lineno = 0;
  std::vector<std::string> header;
  while (std::getline(in, line)) {
    ++lineno;
    if (line.empty()) continue;
    std::vector<std::string> f = csv_split(line);
    const std::string where = name + ":" + std::to_string(lineno);
    if (header.empty()) {
      header = f;
      if (header.size() < 10 || header[0] != "core" || header[2] != "pc")
        throw Error(where + ": not an npusim instruction CSV (expected the header core,pipe,pc,...)");
      continue;
    }
    if (f.size() < 10) throw Error(where + ": expected " + std::to_string(header.size()) + " fields");
    SummaryEvent e;
    e.core = core(f[0]);
    e.unit = unit_index(f[1], where);
    e.pc = static_cast<uint32_t>(to_u64(f[2], where));
    e.disasm = f[3];
    e.mnemonic = first_word(f[3]);
    e.label = label(f[4]);
    e.dispatch_cycle = to_u64(f[5], where);
    e.start = to_u64(f[6], where);
    e.end = to_u64(f[7], where);
    e.stall = to_u64(f[8], where);
    e.reason = f[9];
    e.dispatch = f.size() > 10 && f[10] == "dispatch";
    d.events.push_back(std::move(e));
  }
  if (header.empty()) throw Error(name + ": empty file");
  return d;
}

void json_event(const nlohmann::json& e, TraceData& d, Interner& core, Interner& label,
                std::map<int, int>& pid_core, const std::string& where) {
  const std::string ph = e.value("ph", std::string());
  if (ph == "M" && e.value("name", std::string()) == "process_name" && e.contains("pid")) {
    const std::string n = e["args"].value("name", std::string());
    if (n != "memory") pid_core[e["pid"].get<int>()] = core(n);
    return;
  }
  if (ph != "X" || e.value("cat", std::string()) == "wait") return;
  const auto& a = e.at("args");
  SummaryEvent s;
  auto pc = pid_core.find(e.at("pid").get<int>());
  if (pc == pid_core.end()) throw Error(where + ": event of pid " + std::to_string(e.at("pid").get<int>()) +
                                        " before its process_name");
  s.core = pc->second;
  s.unit = e.at("tid").get<int>();
  if (s.unit < 0 || s.unit >= isa::kNumPipes) return;
  s.dispatch = e.value("cat", std::string()) == "dispatch";
  s.pc = a.value("pc", 0u);
  s.disasm = a.value("disasm", std::string());
  s.mnemonic = first_word(s.disasm);
  s.label = label(a.value("label", std::string()));
  s.start = a.at("cycle").get<uint64_t>();
  s.end = a.at("end_cycle").get<uint64_t>();
  s.dispatch_cycle = a.value("dispatch_cycle", s.start);
  s.stall = a.value("stall_cycles", uint64_t{0});
  s.reason = a.value("stall_reason", std::string());
  d.events.push_back(std::move(s));
}

TraceData parse_json(const std::string& text, const std::string& name) {
  TraceData d;
  d.format = "json";
  Interner core(d.cores), label(d.labels);
  std::map<int, int> pid_core;
  try {
    // npusim writes one event per line: parse line by line (bounded memory per event).
    std::istringstream in(text);
    std::string line;
    int lineno = 0;
    bool line_format = text.compare(0, 18, "{\"displayTimeUnit\"") == 0;
    if (line_format) {
      while (std::getline(in, line)) {
        ++lineno;
        if (line.empty() || line[0] != '{' || line.compare(0, 6, "{\"ph\":") != 0) continue;
        if (line.back() == ',') line.pop_back();
        json_event(nlohmann::json::parse(line), d, core, label, pid_core, name + ":" + std::to_string(lineno));
      }
    } else {
      const nlohmann::json j = nlohmann::json::parse(text);
      const nlohmann::json& evs = j.is_array() ? j : j.at("traceEvents");
      for (const auto& e : evs) json_event(e, d, core, label, pid_core, name);
    }
  } catch (const nlohmann::json::exception& e) {
    throw Error(name + ": not a readable trace JSON (" + e.what() + ")");
  }
  return d;
}

}  // namespace

TraceData parse_trace_text(const std::string& text, const std::string& name) {
  size_t i = text.find_first_not_of(" \t\r\n");
  if (i == std::string::npos) throw Error(name + ": empty file");
  return text[i] == '{' || text[i] == '[' ? parse_json(text, name) : parse_csv(text, name);
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
