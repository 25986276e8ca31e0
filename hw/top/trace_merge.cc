// Joining the trace files of a launch sequence (trace_merge.h).
#include "hw/top/trace_merge.h"

#include <algorithm>
#include <cinttypes>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "base/csv.h"
#include "base/output_file.h"
#include "hw/mem/cycle_clock.h"
#include "hw/mem/sim_kernel.h"
#include "hw/top/trace_csv.h"
#include "isa/error.h"

namespace npu::hw {

namespace {

using ojson = nlohmann::ordered_json;

std::ifstream open_part(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw Error("launch trace: cannot read '" + path + "'");
  return in;
}

void put(std::FILE* f, const std::string& s) { std::fwrite(s.data(), 1, s.size(), f); }

std::string launch_label(size_t i, const LaunchTracePart& p) { return "launch " + std::to_string(i) + ": " + p.kernel; }

// ---- Chrome JSON: the writer puts the header, "traceEvents":[ and every event on lines of their own.

void merge_json(const std::string& path, const std::vector<LaunchTracePart>& parts) {
  AtomicOutputFile out(path);
  std::FILE* f = out.stream();
  std::map<std::string, int> pid_of;                // process name -> pid in the merged file
  std::map<std::tuple<int, int, std::string>, bool> meta_done;  // (pid, tid, metadata name)
  bool first_event = true;
  auto emit = [&](const ojson& e) {
    put(f, (first_event ? "\n" : ",\n") + e.dump());
    first_event = false;
  };
  for (size_t i = 0; i < parts.size(); ++i) {
    const LaunchTracePart& p = parts[i];
    std::ifstream in = open_part(p.files.json_path);
    std::map<int, int> pid_map;  // this launch's pid -> merged pid
    std::string line;
    for (size_t lineno = 1; std::getline(in, line); ++lineno) {
      if (line.rfind("{\"otherData\":", 0) == 0) {
        if (i > 0) continue;
        ojson head = ojson::parse(line.substr(0, line.size() - 1) + "}");  // {"otherData":{...}},
        ojson& launches = head["otherData"]["launches"] = ojson::array();
        for (size_t k = 0; k < parts.size(); ++k)
          launches.push_back({{"launch", k}, {"kernel", parts[k].kernel}, {"start_cycle", parts[k].start_cycle},
                              {"cycles", parts[k].cycles}});
        std::string text = head.dump();
        put(f, text.substr(0, text.size() - 1) + ",\n\"traceEvents\":[");
        first_event = true;
        continue;
      }
      if (line.rfind("{\"ph\":", 0) != 0) continue;  // "traceEvents":[ and the closing ]}
      if (line.back() == ',') line.pop_back();
      ojson e = ojson::parse(line, nullptr, false);
      if (e.is_discarded()) throw Error(p.files.json_path + ":" + std::to_string(lineno) + ": not a JSON event");
      const int pid = e.value("pid", 0);
      if (e["ph"] == "M" && e["name"] == "process_name") {
        const std::string name = e["args"]["name"];
        pid_map[pid] = pid_of.emplace(name, static_cast<int>(pid_of.size()) + 1).first->second;
      }
      auto m = pid_map.find(pid);
      if (m == pid_map.end()) throw Error(p.files.json_path + ":" + std::to_string(lineno) + ": event of pid " +
                                          std::to_string(pid) + " before its process_name");
      e["pid"] = m->second;
      if (e["ph"] == "M") {
        const auto key = std::make_tuple(m->second, e.value("tid", -1), e["name"].get<std::string>());
        if (meta_done.count(key)) continue;
        meta_done[key] = true;
        if (e["name"] == "process_sort_index") e["args"]["sort_index"] = m->second;
        emit(e);
        continue;
      }
      if (e.contains("ts")) e["ts"] = e["ts"].get<uint64_t>() + p.start_cycle;
      if (e.contains("args"))
        for (const char* k : {"cycle", "end_cycle", "dispatch_cycle"})
          if (e["args"].contains(k)) e["args"][k] = e["args"][k].get<uint64_t>() + p.start_cycle;
      if (e["ph"] == "C") e["cat"] = "cycle " + std::to_string(e["ts"].get<uint64_t>());
      emit(e);
    }
    // The launch's label: a global instant event at its first cycle.
    emit(ojson{{"ph", "i"}, {"s", "g"}, {"pid", 0}, {"tid", 0}, {"ts", p.start_cycle}, {"name", launch_label(i, p)},
               {"args", {{"launch", i}, {"kernel", p.kernel}, {"cycles", p.cycles}}}});
  }
  put(f, "\n]}\n");
  out.commit();
}

// ---- CSV: shift the cycle columns, append the launch.

void merge_csv(const std::string& path, const std::vector<LaunchTracePart>& parts) {
  AtomicOutputFile out(path);
  std::FILE* f = out.stream();
  put(f, std::string(CsvTraceWriter::header()) + ",launch\n");
  std::vector<std::string> fields;
  for (size_t i = 0; i < parts.size(); ++i) {
    std::ifstream in = open_part(parts[i].files.csv_path);
    std::string line;
    std::getline(in, line);  // the header
    for (size_t lineno = 2; std::getline(in, line); ++lineno) {
      if (!csv_split(line, fields) || fields.size() < 8)
        throw Error(parts[i].files.csv_path + ":" + std::to_string(lineno) + ": not an instruction CSV row");
      std::string row;
      for (size_t c = 0; c < fields.size(); ++c) {
        std::string v = fields[c];
        if (c >= 5 && c <= 7 && !v.empty()) v = std::to_string(std::stoull(v) + parts[i].start_cycle);  // cycles
        row += (c ? "," : "") + csv_field(v);
      }
      put(f, row + "," + std::to_string(i) + "\n");
    }
  }
  out.commit();
}

// ---- VCD: one header, then every launch's changes with shifted times.

// The declarations of a VCD: from its first $scope to $enddefinitions (the header before them
// holds the date and the comment).
struct VcdPart {
  std::string preamble, declarations;
  std::vector<std::string> body;  // after $enddefinitions
};

VcdPart read_vcd(const std::string& path) {
  std::ifstream in = open_part(path);
  VcdPart v;
  std::string line;
  int section = 0;  // 0 preamble, 1 declarations, 2 body
  while (std::getline(in, line)) {
    if (section == 0 && line.rfind("$scope", 0) == 0) section = 1;
    if (section == 0) v.preamble += line + "\n";
    else if (section == 1) v.declarations += line + "\n";
    else v.body.push_back(line);
    if (section == 1 && line.rfind("$enddefinitions", 0) == 0) section = 2;
  }
  if (section != 2) throw Error("launch trace: '" + path + "' is not a VCD (no $enddefinitions)");
  return v;
}

void merge_vcd(const std::string& path, const std::vector<LaunchTracePart>& parts, uint64_t ticks_per_cycle) {
  AtomicOutputFile out(path);
  std::FILE* f = out.stream();
  std::string declarations;
  uint64_t last_time = 0;
  bool any_time = false;
  for (size_t i = 0; i < parts.size(); ++i) {
    const VcdPart v = read_vcd(parts[i].files.vcd_path);
    const uint64_t offset = parts[i].start_cycle * ticks_per_cycle;
    if (i == 0) {
      std::string note = "$comment\nLaunch sequence: the launches one after another (start cycle, kernel):\n";
      for (size_t k = 0; k < parts.size(); ++k)
        note += "  " + launch_label(k, parts[k]) + " at cycle " + std::to_string(parts[k].start_cycle) + " (time " +
                std::to_string(parts[k].start_cycle * ticks_per_cycle) + "), " + std::to_string(parts[k].cycles) +
                " cycles\n";
      put(f, v.preamble + note + "$end\n\n" + v.declarations);
      declarations = v.declarations;
    } else if (v.declarations != declarations) {
      throw Error("--vcd: " + launch_label(i, parts[i]) + " traces other signals than " + launch_label(0, parts[0]) +
                  " (other cores, pipes or flags: another kernel or block_dim), and a VCD declares its signals "
                  "once, in its header: trace such launches one case each, or use --trace / --instr-csv, which "
                  "take any launch sequence");
    }
    // Each launch starts at `offset`: its time-0 values ($dumpvars, before its first time stamp)
    // become changes there. A time
    // not after the last one written (a launch's final time stamp is one tick past its last
    // cycle) continues that time instead of going back.
    if (i > 0 && offset > last_time) {
      put(f, "#" + std::to_string(offset) + "\n");
      last_time = offset, any_time = true;
    }
    for (const std::string& line : v.body) {
      if (line.empty() || line[0] == '$') continue;  // $dumpvars, $end, $comment blocks
      if (line[0] == '#') {
        const uint64_t t = std::stoull(line.substr(1)) + offset;
        if (any_time && t <= last_time) continue;
        put(f, "#" + std::to_string(t) + "\n");
        last_time = t, any_time = true;
        continue;
      }
      if (line.rfind("All initial values", 0) == 0) continue;  // the text of SystemC's $comment
      put(f, line + "\n");
    }
  }
  out.commit();
}

}  // namespace

TraceOptions launch_trace_options(const TraceOptions& global, const TraceOptions& files, uint64_t start_cycle) {
  TraceOptions t = global;
  t.vcd_path = files.vcd_path;
  t.json_path = files.json_path;
  t.csv_path = files.csv_path;
  t.window_start = global.window_start > start_cycle ? global.window_start - start_cycle : 0;
  t.window_end = global.window_end == UINT64_MAX ? UINT64_MAX
                 : global.window_end > start_cycle ? global.window_end - start_cycle
                                                   : 0;
  return t;
}

void merge_launch_traces(const TraceOptions& out, const std::vector<LaunchTracePart>& parts, double clock_ghz) {
  if (parts.empty()) return;
  uint64_t ticks_per_cycle = 1;
  if (!out.vcd_path.empty()) {
    SimContext ctx;  // the time resolution the launches' VCDs were written with
    ticks_per_cycle = CycleClock::from_ghz(clock_ghz).period;
  }
  // The VCD first: it is the one that can refuse a sequence, and then no file is written.
  if (!out.vcd_path.empty()) merge_vcd(out.vcd_path, parts, ticks_per_cycle);
  if (!out.json_path.empty()) merge_json(out.json_path, parts);
  if (!out.csv_path.empty()) merge_csv(out.csv_path, parts);
}

}  // namespace npu::hw
