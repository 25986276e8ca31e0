// Roofline figures and the text report of `npusim run` (run_report.h).
#include "cli/lib/run_report.h"

#include <algorithm>
#include <cstdio>
#include <map>

#include "hw/top/trace_labels.h"
#include "testbench/golden/compare.h"

namespace npu::cli {
namespace {

using json = nlohmann::json;

double num(const json& j, const char* key, double dflt = 0) {
  if (!j.is_object()) return dflt;
  auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : dflt;
}
bool has_num(const json& j, const char* key) {
  return j.is_object() && j.contains(key) && j.at(key).is_number();
}

std::string fmt(const char* f, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, f, v);
  return buf;
}
std::string pct(double ratio) { return fmt("%.1f%%", 100.0 * ratio); }
std::string bytes_str(double b) {
  if (b >= 1024.0 * 1024 * 1024) return fmt("%.2f GiB", b / (1024.0 * 1024 * 1024));
  if (b >= 1024.0 * 1024) return fmt("%.2f MiB", b / (1024.0 * 1024));
  if (b >= 1024.0) return fmt("%.2f KiB", b / 1024.0);
  return fmt("%.0f B", b);
}
std::string count_str(double v) { return fmt("%.0f", v); }

// Pipe names in isa::Pipe order, for stable report columns.
const std::vector<std::string>& pipe_order() {
  static const std::vector<std::string> v = {"SCALAR", "MTE1", "MTE2", "MTE3", "CUBE", "VECTOR", "FIXP"};
  return v;
}

struct PipeAgg {
  double sum_util = 0, max_util = 0, instructions = 0;
  int cores = 0;
};
// type -> pipe -> aggregate; also the number of cores per type.
void aggregate(const json& cores, std::map<std::string, std::map<std::string, PipeAgg>>* agg,
               std::map<std::string, int>* ncores) {
  if (!cores.is_array()) return;
  for (const json& c : cores) {
    std::string type = c.value("type", "core");
    ++(*ncores)[type];
    if (!c.contains("pipes") || !c["pipes"].is_object()) continue;
    for (auto it = c["pipes"].begin(); it != c["pipes"].end(); ++it) {
      PipeAgg& a = (*agg)[type][it.key()];
      double u = num(*it, "utilization");
      a.sum_util += u;
      a.max_util = std::max(a.max_util, u);
      a.instructions += num(*it, "instructions");
      ++a.cores;
    }
  }
}

}  // namespace

json roofline_json(const hw::HwConfig& hw, std::optional<double> case_flops, const SimOutcome& sim) {
  json r;
  const double clock_hz = hw.chip.clock_ghz * 1e9;
  const double peak = 2.0 * hw.chip.clusters * hw.cube.m0 * hw.cube.n0 * hw.cube.k0_b16 * clock_hz / 1e12;
  r["peak_tflops"] = peak;
  double macs = 0;
  bool have_macs = false;
  if (sim.cores.is_array())
    for (const json& c : sim.cores)
      if (c.contains("pipes") && c["pipes"].contains("CUBE") && has_num(c["pipes"]["CUBE"], "macs")) {
        macs += num(c["pipes"]["CUBE"], "macs");
        have_macs = true;
      }
  std::optional<double> flops;
  if (case_flops) {
    flops = *case_flops;
    r["flops_source"] = "case";
  } else if (have_macs) {
    flops = 2.0 * macs;
    r["flops_source"] = "cube_macs";
  } else {
    r["flops_source"] = nullptr;
  }
  r["flops"] = flops ? json(*flops) : json(nullptr);
  if (!sim.total_cycles || *sim.total_cycles == 0) return r;

  const double cycles = static_cast<double>(*sim.total_cycles);
  if (flops) {
    double achieved = *flops / (cycles / clock_hz) / 1e12;
    r["achieved_tflops"] = achieved;
    r["fraction_of_peak"] = achieved / peak;
  }
  json units = json::array();
  std::map<std::string, std::map<std::string, PipeAgg>> agg;
  std::map<std::string, int> ncores;
  aggregate(sim.cores, &agg, &ncores);
  for (const auto& [type, pipes] : agg)
    for (const std::string& p : pipe_order())
      if (pipes.count(p) && p != "SCALAR")
        units.push_back({{"unit", p + " (" + type + ")"}, {"utilization", pipes.at(p).max_util}});
  if (has_num(sim.hbm, "bytes_read") || has_num(sim.hbm, "bytes_written")) {
    double bytes = num(sim.hbm, "bytes_read") + num(sim.hbm, "bytes_written");
    double per_cycle = hw.hbm.bandwidth_gbps / hw.chip.clock_ghz;
    units.push_back({{"unit", "HBM"}, {"utilization", bytes / (cycles * per_cycle)}});
  }
  if (has_num(sim.l2, "bytes_read") || has_num(sim.l2, "bytes_written")) {
    double bytes = num(sim.l2, "bytes_read") + num(sim.l2, "bytes_written");
    double per_cycle = hw.l2.slices * hw.l2.slice_bytes_per_cycle;
    units.push_back({{"unit", "L2"}, {"utilization", bytes / (cycles * per_cycle)}});
  }
  std::stable_sort(units.begin(), units.end(), [](const json& a, const json& b) {
    return a["utilization"].get<double>() > b["utilization"].get<double>();
  });
  r["units"] = units;
  r["bound"] = units.empty() ? json(nullptr) : units[0];
  return r;
}

std::string format_report(const json& s) {
  std::string o;
  auto line = [&](const std::string& t) { o += t + "\n"; };
  const json& run = s["npusim_run"];
  const bool timed = s["total_cycles"].is_number();
  line("npusim run " + run.value("case", std::string()));
  if (!run.value("description", std::string()).empty()) line("  " + run["description"].get<std::string>());
  line("  kernel     " + run.value("kernel_name", std::string()) + " (" + run.value("kernel", std::string()) +
       "), block_dim " + std::to_string(run.value("block_dim", 0)));
  std::string cfg = "  config     " + run.value("config", std::string());
  for (const json& o2 : run["config_overrides"]) cfg += " --set " + o2.get<std::string>();
  line(cfg);
  if (!run["var_overrides"].empty()) {
    std::string v = "  vars      ";
    for (const json& o2 : run["var_overrides"]) v += " --var " + o2.get<std::string>();
    line(v);
  }
  line(std::string("  model      ") + (run.value("mode", std::string()) == "iss" ? "functional ISS (no timing)" : "SystemC (cycle level)"));
  line("");

  const double clock = num(s, "clock_ghz");
  if (timed) {
    line("Time");
    line("  total      " + count_str(num(s, "total_cycles")) + " cycles = " + fmt("%.3f", num(s, "time_us")) +
         " us at " + fmt("%.3f", clock) + " GHz");
    line("");
  }

  std::map<std::string, std::map<std::string, PipeAgg>> agg;
  std::map<std::string, int> ncores;
  aggregate(s["cores"], &agg, &ncores);
  if (!agg.empty()) {
    line(timed ? "Pipe utilisation (busy / total cycles: mean over the cores of a type, [busiest core])"
               : "Instructions executed per pipe (all cores of a type)");
    for (const auto& [type, pipes] : agg) {
      std::string t = "  " + type + " x" + std::to_string(ncores[type]);
      while (t.size() < 11) t += ' ';
      for (const std::string& p : pipe_order()) {
        if (!pipes.count(p)) continue;
        const PipeAgg& a = pipes.at(p);
        if (timed) t += "  " + p + " " + pct(a.sum_util / std::max(1, ncores[type])) + " [" + pct(a.max_util) + "]";
        else t += "  " + p + " " + count_str(a.instructions);
      }
      line(t);
    }
    line("");
  }

  const json& rf = s["roofline"];
  if (rf.is_object()) {
    if (rf.contains("bound") && rf["bound"].is_object()) {
      line("Bound");
      std::string b = "  " + rf["bound"].value("unit", std::string()) + " at " +
                      pct(num(rf["bound"], "utilization")) + " of its roofline";
      std::string next;
      for (size_t i = 1; i < rf["units"].size() && i < 4; ++i)
        next += (next.empty() ? "" : ", ") + rf["units"][i].value("unit", std::string()) + " " +
                pct(num(rf["units"][i], "utilization"));
      if (!next.empty()) b += " (then " + next + ")";
      line(b);
      line("");
    }
    if (s.contains("labels")) o += hw::format_label_report(s["labels"]) + (s["labels"].empty() ? "" : "\n");
    line("Compute");
    std::string c = "  peak " + fmt("%.1f", num(rf, "peak_tflops")) + " TFLOPS (bf16, whole chip)";
    if (rf["flops"].is_number()) {
      c += "; work " + fmt("%.4g", num(rf, "flops")) + " FLOP (" +
           (rf.value("flops_source", std::string()) == "case" ? "from the case" : "2 x cube MACs") + ")";
      if (rf.contains("achieved_tflops"))
        c += "; achieved " + fmt("%.2f", num(rf, "achieved_tflops")) + " TFLOPS = " +
             pct(num(rf, "fraction_of_peak")) + " of peak";
    }
    line(c);
    line("");
  }

  const json& l2 = s["l2"];
  if (l2.is_object()) {
    line("L2");
    std::string t = "  hit rate " + pct(num(l2, "hit_rate")) + " (read hits " + count_str(num(l2, "read_hits")) +
                    ", read misses " + count_str(num(l2, "read_misses")) + ", write hits " +
                    count_str(num(l2, "write_hits")) + ", write misses " + count_str(num(l2, "write_misses")) + ")";
    line(t);
    line("  bypasses   " + count_str(num(l2, "bypass_reads")) + " reads, " + count_str(num(l2, "bypass_writes")) +
         " writes (none_cacheable); evictions " + count_str(num(l2, "evictions")) + ", dirty write-backs " +
         count_str(num(l2, "dirty_writebacks")));
    if (l2.contains("regions") && l2["regions"].is_object())
      for (auto it = l2["regions"].begin(); it != l2["regions"].end(); ++it) {
        const json& r = *it;
        double acc = num(r, "read_hits") + num(r, "read_misses") + num(r, "write_hits") + num(r, "write_misses") +
                     num(r, "bypass_reads") + num(r, "bypass_writes");
        if (acc == 0) continue;
        line("  " + it.key() + ": hit rate " + pct(num(r, "hit_rate")) + ", " + count_str(acc) + " accesses, bypasses " +
             count_str(num(r, "bypass_reads") + num(r, "bypass_writes")));
      }
    line("");
  }
  const json& hbm = s["hbm"];
  if (hbm.is_object()) {
    line("HBM");
    std::string t = "  read " + bytes_str(num(hbm, "bytes_read")) + ", written " + bytes_str(num(hbm, "bytes_written"));
    if (has_num(hbm, "gbps")) t += ", " + fmt("%.1f", num(hbm, "gbps")) + " GB/s";
    if (has_num(hbm, "peak_gbps") && num(hbm, "peak_gbps") > 0)
      t += " (" + pct(num(hbm, "gbps") / num(hbm, "peak_gbps")) + " of " + fmt("%.0f", num(hbm, "peak_gbps")) + " GB/s)";
    line(t);
    line("");
  }

  if (s["numerics"]["all_pass"].is_null()) {  // --timing-only: no data, nothing judged
    line("Numerics: not checked (--timing-only: no data effects, no golden)");
    line("");
    line("Result: TIMING ONLY (cycles as in a full run; outputs not computed)");
    return o;
  }
  line("Numerics (docs/numerics.md comparison rule)");
  const json& outs = s["numerics"]["outputs"];
  int compared = 0, passed = 0;
  for (auto it = outs.begin(); it != outs.end(); ++it) {
    const json& v = *it;
    if (!v.value("compared", false)) {
      line("  " + it.key() + ": not compared (no golden output bound to it)");
      continue;
    }
    ++compared;
    golden::CompareResult r;
    r.pass = v.value("pass", false);
    r.max_abs_err = num(v, "max_abs_err");
    r.max_rel_err = num(v, "max_rel_err");
    r.bad_count = static_cast<int64_t>(num(v, "bad_count"));
    r.numel = static_cast<int64_t>(num(v, "numel"));
    r.bad_ratio = num(v, "bad_ratio");
    r.allowed_bad = static_cast<int64_t>(num(v, "allowed_bad"));
    r.nonfinite_count = static_cast<int64_t>(num(v, "nonfinite_count"));
    r.first_bad = static_cast<int64_t>(num(v, "first_bad", -1));
    r.tol = {num(v["tolerance"], "atol"), num(v["tolerance"], "rtol"), num(v["tolerance"], "max_error_ratio")};
    passed += r.pass;
    line("  " + golden::format_result(it.key(), r) + " vs golden " + v.value("golden_output", std::string()));
  }
  if (outs.empty()) line("  (no output tensors)");
  line("");
  bool ok = s["numerics"].value("all_pass", false);
  line(std::string("Result: ") + (ok ? "PASS" : "FAIL") + " (" + std::to_string(passed) + " of " +
       std::to_string(compared) + " compared outputs pass)");
  return o;
}

}  // namespace npu::cli
