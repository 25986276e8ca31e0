// A case's launch sequence (run_launches.h).
#include "cli/lib/run_launches.h"

#include <cstdio>
#include <set>

#include "isa/error.h"

namespace npu::cli {
namespace {

// Figures that are not sums over launches: taken from the last launch, or recomputed below.
bool additive(const std::string& key) {
  static const std::set<std::string> not_sums = {
      "hit_rate", "read_hit_rate", "utilization", "utilisation", "bytes_per_cycle", "gbps", "peak_gbps",
      "peak_tflops", "achieved_tflops", "flops_utilization", "block_dim", "clock_ghz", "end_cycle"};
  return !not_sums.count(key);
}

// total += part: numbers summed (additive keys), objects by key, arrays by index, the rest replaced.
void add_stats(nlohmann::json& total, const nlohmann::json& part, const std::string& key) {
  if (total.is_null() || total.type() != part.type()) {
    if (!(total.is_number() && part.is_number())) {
      total = part;
      return;
    }
  }
  if (part.is_object()) {
    for (auto it = part.begin(); it != part.end(); ++it) add_stats(total[it.key()], it.value(), it.key());
  } else if (part.is_array()) {
    for (size_t i = 0; i < part.size(); ++i) {
      if (i < total.size()) add_stats(total[i], part[i], key);
      else total.push_back(part[i]);
    }
  } else if (part.is_number() && additive(key)) {
    if (part.is_number_float() || total.is_number_float()) total = total.get<double>() + part.get<double>();
    else total = total.get<uint64_t>() + part.get<uint64_t>();
  } else {
    total = part;
  }
}

double num(const nlohmann::json& j, const char* key) { return j.contains(key) && j[key].is_number() ? j[key].get<double>() : 0; }
double ratio(double a, double b) { return b > 0 ? a / b : 0; }

// Rates and utilisations of the summed figures, over the sequence's cycles.
void recompute_rates(nlohmann::json& j, double cycles, double seconds) {
  if (j.is_array()) {
    for (auto& e : j) recompute_rates(e, cycles, seconds);
    return;
  }
  if (!j.is_object()) return;
  if (j.contains("read_hits") && j.contains("hit_rate")) {
    const double acc = num(j, "read_hits") + num(j, "read_misses") + num(j, "write_hits") + num(j, "write_misses") +
                       num(j, "bypass_reads") + num(j, "bypass_writes");
    j["hit_rate"] = ratio(num(j, "read_hits") + num(j, "write_hits"), acc);
    if (j.contains("read_hit_rate"))
      j["read_hit_rate"] = ratio(num(j, "read_hits"), num(j, "read_hits") + num(j, "read_misses") + num(j, "bypass_reads"));
  }
  for (const char* u : {"utilization", "utilisation"})
    if (j.contains(u) && j.contains("busy_cycles")) j[u] = ratio(num(j, "busy_cycles"), cycles);
  const double bytes = num(j, "bytes_read") + num(j, "bytes_written");
  if (j.contains("bytes_per_cycle")) j["bytes_per_cycle"] = ratio(bytes, cycles);
  if (j.contains("gbps")) j["gbps"] = ratio(bytes, seconds) / 1e9;
  if (j.contains("achieved_tflops")) {
    j["achieved_tflops"] = ratio(num(j, "flops"), seconds) / 1e12;
    if (j.contains("flops_utilization")) j["flops_utilization"] = ratio(num(j, "achieved_tflops"), num(j, "peak_tflops"));
  }
  for (auto it = j.begin(); it != j.end(); ++it) recompute_rates(it.value(), cycles, seconds);
}

// One launch's entry of stats.json "launches".
nlohmann::json launch_json(const SimOutcome& o, const CaseLaunch& l, const isa::Program& prog, size_t index,
                           size_t entry, int repeat, double clock_ghz) {
  nlohmann::json j = {{"launch", index}, {"entry", entry}, {"repeat", repeat}, {"kernel", l.kernel_path},
                      {"kernel_name", prog.name}, {"block_dim", l.block_dim}};
  j["total_cycles"] = o.total_cycles ? nlohmann::json(*o.total_cycles) : nlohmann::json(nullptr);
  j["time_us"] = o.total_cycles ? nlohmann::json(double(*o.total_cycles) / (clock_ghz * 1e3)) : nlohmann::json(nullptr);
  nlohmann::json l2 = nlohmann::json::object();
  if (o.l2.is_object())
    for (auto it = o.l2.begin(); it != o.l2.end(); ++it)
      if (!it.value().is_object() || it.key() == "regions") l2[it.key()] = it.value();
  j["l2"] = l2;
  nlohmann::json hbm = nlohmann::json::object();
  if (o.hbm.is_object())
    for (const char* k : {"bytes_read", "bytes_written", "gbps"})
      if (o.hbm.contains(k)) hbm[k] = o.hbm[k];
  j["hbm"] = hbm;
  return j;
}

}  // namespace

SimOutcome run_launches(const CaseSpec& spec, const SimRequest& base, const std::vector<TensorPlacement>& placement,
                        bool iss) {
  if (base.trace.writes_files())
    throw Error(spec.launches_loc.str() + ": error: launches: --vcd, --trace and --instr-csv need a single launch");
  const hw::HwConfig& hw = *base.hw;
  hw::L2Contents carry;
  SimOutcome total;
  total.launches = nlohmann::json::array();
  uint64_t cycles = 0;
  size_t index = 0;
  for (size_t e = 0; e < spec.launches.size(); ++e) {
    const CaseLaunch& l = spec.launches[e];
    const std::string who = "launch " + std::to_string(e) + " (" + l.kernel_path + ")";
    if (l.block_dim > hw.chip.clusters)
      throw Error(l.block_dim_loc.str() + ": error: launches[" + std::to_string(e) + "].block_dim: " +
                  std::to_string(l.block_dim) + " exceeds chip.clusters = " + std::to_string(hw.chip.clusters));
    CaseSpec one = spec;  // the launch as a single-launch case: its kernel, block_dim and params
    one.kernel_path = l.kernel_path;
    one.kernel_loc = l.kernel_loc;
    one.block_dim = l.block_dim;
    one.params = l.params;
    const isa::Program prog = load_case_kernel(one, hw.chip.arch);
    SimRequest req = base;
    req.program = &prog;
    req.params = kernel_param_values(one, prog, placement);
    req.block_dim = l.block_dim;
    req.trace.label_stats = !prog.aic.labels.empty() || !prog.aiv.labels.empty();
    req.l2_carry = spec.l2_cold_between_launches ? nullptr : &carry;
    for (int r = 0; r < l.repeat; ++r, ++index) {
      SimOutcome o;
      try {
        o = iss ? run_on_iss(req) : run_on_systemc(req);
      } catch (const Error& err) {
        throw Error(who + ", repeat " + std::to_string(r) + ": " + err.what());
      }
      total.launches.push_back(launch_json(o, l, prog, index, e, r, hw.chip.clock_ghz));
      if (o.total_cycles) cycles += *o.total_cycles;
      total.mode = o.mode;
      if (o.total_cycles) total.total_cycles = cycles;
      add_stats(total.cores, o.cores, "cores");
      add_stats(total.l2, o.l2, "l2");
      add_stats(total.hbm, o.hbm, "hbm");
      add_stats(total.extra, o.extra, "");
      total.race_findings.insert(total.race_findings.end(), o.race_findings.begin(), o.race_findings.end());
    }
  }
  const double seconds = double(cycles) / (hw.chip.clock_ghz * 1e9);
  for (nlohmann::json* j : {&total.cores, &total.l2, &total.hbm, &total.extra}) recompute_rates(*j, double(cycles), seconds);
  return total;
}

std::string format_launches(const nlohmann::json& launches) {
  if (!launches.is_array() || launches.empty()) return "";
  std::string out = "\nLaunches (" + std::to_string(launches.size()) + "):\n";
  out += "  launch  kernel                  cycles   L2 hit rate   L2 read hits   L2 read misses   HBM read B\n";
  for (const nlohmann::json& l : launches) {
    char buf[256];
    const nlohmann::json& l2 = l["l2"];
    auto n = [](const nlohmann::json& j, const char* k) { return j.contains(k) && j[k].is_number() ? j[k].get<double>() : 0.0; };
    std::snprintf(buf, sizeof buf, "  %6zu  %-22s %8s %13.4f %14.0f %16.0f %12.0f\n", l["launch"].get<size_t>(),
                  l["kernel_name"].get<std::string>().c_str(),
                  l["total_cycles"].is_null() ? "-" : std::to_string(l["total_cycles"].get<uint64_t>()).c_str(),
                  n(l2, "hit_rate"), n(l2, "read_hits"), n(l2, "read_misses"), n(l["hbm"], "bytes_read"));
    out += buf;
  }
  return out;
}

}  // namespace npu::cli
