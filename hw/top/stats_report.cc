#include "hw/top/stats_report.h"

#include <cstdio>
#include <map>

namespace npu::hw {

using nlohmann::json;

json stats_json(const ChipTop& top) {
  const LaunchState& L = top.launch();
  const HwConfig& hw = L.hw;
  json j;
  j["total_cycles"] = top.total_cycles;
  j["clock_ghz"] = hw.chip.clock_ghz;
  j["time_us"] = double(top.total_cycles) / (hw.chip.clock_ghz * 1e3);
  j["block_dim"] = L.block_dim;
  j["timing_only"] = L.timing_only;

  uint64_t instructions = 0, macs = 0;
  json cores = json::array();
  for (const auto& core : top.cores()) {
    json c;
    c["name"] = core->state.id.name();
    c["end_cycle"] = core->end_cycle;
    json pipes = json::object();
    for (int p = 0; p < isa::kNumPipes; ++p) {
      const UnitStats* u = core->unit_stats_if(static_cast<isa::Pipe>(p));
      if (!u) continue;
      pipes[std::string(isa::pipe_name(static_cast<isa::Pipe>(p)))] = u->group().to_json();
      instructions += u->c.instructions;
      macs += u->c.macs;
    }
    c["pipes"] = pipes;
    cores.push_back(c);
  }
  j["cores"] = cores;
  j["instructions"] = instructions;
  j["macs"] = macs;
  const uint64_t flops = 2 * macs;
  j["flops"] = flops;
  const double seconds = double(top.total_cycles) / (hw.chip.clock_ghz * 1e9);
  const double achieved = seconds > 0 ? double(flops) / seconds : 0.0;
  const double peak = double(hw.chip.clusters) * hw.cube.m0 * hw.cube.n0 * hw.cube.k0_b16 * 2.0 * hw.chip.clock_ghz * 1e9;
  j["achieved_tflops"] = achieved / 1e12;
  j["peak_tflops"] = peak / 1e12;
  j["flops_utilization"] = ratio(achieved, peak);

  json mem = top.mem().stats_json();
  for (auto it = mem.begin(); it != mem.end(); ++it) {
    if (it.key() == "regions") continue;
    j[it.key()] = it.value();
  }
  if (mem.contains("regions")) j["l2"]["regions"] = mem["regions"];
  return j;
}

namespace {
std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
double num(const json& j, const char* key) {
  return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0.0;
}
}  // namespace

std::string stats_summary(const json& s) {
  std::string out;
  out += "cycles " + std::to_string(s.value("total_cycles", uint64_t{0})) + " (" + fmt("%.3f", num(s, "time_us")) +
         " us at " + fmt("%.3g", num(s, "clock_ghz")) + " GHz), " + std::to_string(s.value("instructions", uint64_t{0})) +
         " instructions\n";
  if (num(s, "flops") > 0)
    out += "cube: " + fmt("%.4g", num(s, "flops")) + " FLOP, " + fmt("%.2f", num(s, "achieved_tflops")) + " TFLOPS of " +
           fmt("%.1f", num(s, "peak_tflops")) + " peak (" + fmt("%.1f", 100 * num(s, "flops_utilization")) + " %)\n";
  // Mean busy share per (core type, pipe).
  std::map<std::string, std::pair<double, int>> busy;
  for (const json& c : s["cores"]) {
    const std::string name = c["name"];
    const std::string type = name.find("aic") != std::string::npos ? "aic" : "aiv";
    for (auto it = c["pipes"].begin(); it != c["pipes"].end(); ++it) {
      auto& b = busy[type + " " + it.key()];
      b.first += num(it.value(), "utilization");
      b.second += 1;
    }
  }
  if (!busy.empty()) {
    out += "busy (mean over cores):";
    for (const auto& [k, v] : busy) out += " " + k + " " + fmt("%.1f", 100 * v.first / v.second) + "%";
    out += "\n";
  }
  if (s.contains("l2")) {
    const json& l2 = s["l2"];
    out += "L2: " + fmt("%.0f", num(l2, "read_hits") + num(l2, "write_hits")) + " hits, " +
           fmt("%.0f", num(l2, "read_misses") + num(l2, "write_misses")) + " misses, hit rate " +
           fmt("%.1f", 100 * num(l2, "hit_rate")) + " %\n";
  }
  if (s.contains("hbm")) {
    const json& h = s["hbm"];
    out += "HBM: " + fmt("%.0f", num(h, "bytes_read")) + " B read, " + fmt("%.0f", num(h, "bytes_written")) +
           " B written\n";
  }
  return out;
}

}  // namespace npu::hw
