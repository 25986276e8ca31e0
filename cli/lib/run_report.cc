// Roofline figures and the text report of `npusim run` (run_report.h).
#include "cli/lib/run_report.h"

#include "cli/lib/run_launches.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "hw/core/timing.h"
#include "hw/top/trace_labels.h"

namespace npu::cli {
namespace {

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
std::string count(uint64_t v) { return std::to_string(v); }

constexpr std::array<isa::CoreType, 2> kCoreTypes = {isa::CoreType::Aic, isa::CoreType::Aiv};

// One (core type, pipe) over the cores of that type that have the pipe.
struct PipeAgg {
  double sum_util = 0, max_util = 0;
  uint64_t instructions = 0;
  int cores = 0;
};
struct TypeAgg {
  int cores = 0;
  std::array<PipeAgg, isa::kNumPipes> pipes{};
};
std::array<TypeAgg, 2> aggregate(const hw::SimStats& s) {
  std::array<TypeAgg, 2> agg{};
  for (const hw::CoreRecord& c : s.cores) {
    TypeAgg& t = agg[static_cast<int>(c.id.type)];
    ++t.cores;
    for (const hw::PipeRecord& p : c.pipes) {
      PipeAgg& a = t.pipes[static_cast<int>(p.pipe)];
      const double u = s.total_cycles ? p.utilization(*s.total_cycles) : 0;
      a.sum_util += u;
      a.max_util = std::max(a.max_util, u);
      a.instructions += p.counters.instructions;
      ++a.cores;
    }
  }
  return agg;
}

std::string type_name(isa::CoreType t) { return std::string(isa::core_type_name(t)); }

// Fits every line of `text` into kReportColumns: a longer line breaks at its last ", ", "; " or
// double space (between the entries of a row) that leaves the first part over half the width
// (else at its last space) and goes on, indented four more, on the next line. A single word
// longer than the width (a long path) stays whole.
constexpr size_t kReportColumns = 80;
std::string fit_columns(const std::string& text) {
  std::string out;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    const std::string indent(std::min<size_t>(line.find_first_not_of(' '), 8) + 4, ' ');
    while (line.size() > kReportColumns) {
      size_t cut = std::string::npos;
      for (size_t i = kReportColumns; i > kReportColumns / 2 && cut == std::string::npos; --i)
        if (line[i] == ' ' && (line[i - 1] == ',' || line[i - 1] == ';' || line[i + 1] == ' ')) cut = i;
      if (cut == std::string::npos) cut = line.rfind(' ', kReportColumns);
      if (cut == std::string::npos || cut <= indent.size()) break;
      out += line.substr(0, cut) + "\n";
      line = indent + line.substr(line.find_first_not_of(' ', cut));
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

Roofline compute_roofline(const hw::HwConfig& hw, std::optional<double> case_flops, const hw::SimStats& sim) {
  Roofline r;
  const double clock_hz = hw.chip.clock_ghz * 1e9;
  r.peak_tflops = hw::cube_peak_tflops(hw, isa::Dtype::BF16);
  // Only the timed model counts MACs (the ISS counts instructions only).
  bool have_macs = false;
  for (const hw::CoreRecord& c : sim.cores) have_macs |= c.pipe(isa::Pipe::Cube) && sim.total_cycles;
  if (case_flops) {
    r.flops = *case_flops;
    r.flops_source = FlopsSource::Case;
  } else if (have_macs) {
    r.flops = 2.0 * double(sim.macs());
    r.flops_source = FlopsSource::CubeMacs;
  }
  if (!sim.total_cycles || *sim.total_cycles == 0) return r;

  const double cycles = static_cast<double>(*sim.total_cycles);
  if (r.flops) {
    r.achieved_tflops = *r.flops / (cycles / clock_hz) / 1e12;
    r.fraction_of_peak = *r.achieved_tflops / r.peak_tflops;
  }
  const std::array<TypeAgg, 2> agg = aggregate(sim);
  for (isa::CoreType t : kCoreTypes)
    for (int p = 1; p < isa::kNumPipes; ++p)  // every pipe but SCALAR
      if (agg[static_cast<int>(t)].pipes[p].cores)
        r.units.push_back({std::string(isa::pipe_name(static_cast<isa::Pipe>(p))) + " (" + type_name(t) + ")",
                           agg[static_cast<int>(t)].pipes[p].max_util});
  if (sim.hbm) {
    const double bytes = double(sim.hbm->bytes_read() + sim.hbm->bytes_written());
    r.units.push_back({"HBM", bytes / (cycles * hw.hbm.bandwidth_gbps / hw.chip.clock_ghz)});
  }
  if (sim.l2) {
    const double bytes = double(sim.l2->total.bytes_read + sim.l2->total.bytes_written);
    r.units.push_back({"L2", bytes / (cycles * hw.l2.slices * hw.l2.slice_bytes_per_cycle)});
  }
  std::stable_sort(r.units.begin(), r.units.end(),
                   [](const UnitUse& a, const UnitUse& b) { return a.utilization > b.utilization; });
  return r;
}

namespace {
// The report's lines before fit_columns.
std::string report_lines(const RunResult& res) {
  std::string o;
  auto line = [&](const std::string& t) { o += t + "\n"; };
  const RunInfo& run = res.info;
  const hw::SimStats& s = res.sim;
  const bool timed = s.total_cycles.has_value();
  line("npusim run " + run.case_path);
  if (!run.description.empty()) line("  " + run.description);
  line("  kernel     " + run.kernel_name + " (" + run.kernel_path + "), block_dim " + std::to_string(run.block_dim));
  std::string cfg = "  config     " + run.config_path;
  for (const std::string& ov : run.config_overrides) cfg += " --set " + ov;
  line(cfg);
  if (!run.var_overrides.empty()) {
    std::string v = "  vars      ";
    for (const std::string& ov : run.var_overrides) v += " --var " + ov;
    line(v);
  }
  line(std::string("  model      ") + (run.backend == Backend::Iss ? "functional ISS (no timing)" : "SystemC (cycle level)"));
  line("");

  if (timed) {
    line("Time");
    line("  total      " + count(*s.total_cycles) + " cycles = " + fmt("%.3f", *s.time_us()) + " us at " +
         fmt("%.3f", s.clock_ghz) + " GHz");
    line("");
  }

  const std::array<TypeAgg, 2> agg = aggregate(s);
  if (!s.cores.empty()) {
    line(timed ? "Pipe utilisation (busy / total cycles: mean of a type's cores [busiest core])"
               : "Instructions executed per pipe (all cores of a type)");
    for (isa::CoreType type : kCoreTypes) {
      const TypeAgg& ta = agg[static_cast<int>(type)];
      if (ta.cores == 0) continue;
      std::string t = "  " + type_name(type) + " x" + std::to_string(ta.cores);
      while (t.size() < 11) t += ' ';
      for (int p = 0; p < isa::kNumPipes; ++p) {
        const PipeAgg& a = ta.pipes[p];
        if (!a.cores) continue;
        const std::string name(isa::pipe_name(static_cast<isa::Pipe>(p)));
        if (timed) t += "  " + name + " " + pct(a.sum_util / ta.cores) + " [" + pct(a.max_util) + "]";
        else t += "  " + name + " " + count(a.instructions);
      }
      line(t);
    }
    line("");
  }

  const Roofline& rf = res.roofline;
  if (const UnitUse* b = rf.bound()) {
    line("Bound");
    std::string t = "  " + b->unit + " at " + pct(b->utilization) + " of its roofline";
    std::string next;
    for (size_t i = 1; i < rf.units.size() && i < 4; ++i)
      next += (next.empty() ? "" : ", ") + rf.units[i].unit + " " + pct(rf.units[i].utilization);
    if (!next.empty()) t += " (then " + next + ")";
    line(t);
    line("");
  }
  if (!s.labels.empty()) o += hw::format_label_report(s.labels, s.clock_ghz) + "\n";
  line("Compute");
  std::string c = "  peak " + fmt("%.1f", rf.peak_tflops) + " TFLOPS (bf16, whole chip)";
  if (rf.flops) {
    c += "; work " + fmt("%.4g", *rf.flops) + " FLOP (" +
         (rf.flops_source == FlopsSource::Case ? "from the case" : "2 x cube MACs") + ")";
    if (rf.achieved_tflops)
      c += "; achieved " + fmt("%.2f", *rf.achieved_tflops) + " TFLOPS = " + pct(*rf.fraction_of_peak) + " of peak";
  }
  line(c);
  line("");

  if (s.l2) {
    const hw::L2Counters& l2 = s.l2->total;
    line("L2");
    line("  hit rate " + pct(hw::hit_rate(l2)) + " (read hits " + count(l2.read_hits) + ", read misses " +
         count(l2.read_misses) + ", write hits " + count(l2.write_hits) + ", write misses " + count(l2.write_misses) + ")");
    line("  bypasses   " + count(l2.bypass_reads) + " reads, " + count(l2.bypass_writes) +
         " writes (none_cacheable); evictions " + count(l2.evictions) + ", dirty write-backs " +
         count(l2.dirty_writebacks));
    for (const hw::L2RegionRecord& r : s.l2->regions) {
      if (r.counters.accesses() == 0) continue;
      line("  " + r.name + ": hit rate " + pct(hw::hit_rate(r.counters)) + ", " + count(r.counters.accesses()) +
           " accesses, bypasses " + count(r.counters.bypass_reads + r.counters.bypass_writes));
    }
    line("");
  }
  if (s.hbm) {
    line("HBM");
    std::string t = "  read " + bytes_str(double(s.hbm->bytes_read())) + ", written " +
                    bytes_str(double(s.hbm->bytes_written()));
    if (const std::optional<double> gbps = s.hbm_gbps()) {
      t += ", " + fmt("%.1f", *gbps) + " GB/s";
      if (res.hbm_peak_gbps > 0)
        t += " (" + pct(*gbps / res.hbm_peak_gbps) + " of " + fmt("%.0f", res.hbm_peak_gbps) + " GB/s)";
    }
    line(t);
    line("");
  }

  if (!res.launches.empty()) o += format_launches(res.launches).substr(1) + "\n";
  if (s.timing_only) {  // --timing-only: no data, nothing judged
    line("Numerics: not checked (--timing-only: no data effects, no golden)");
    line("");
    line("Result: TIMING ONLY (cycles as in a full run; outputs not computed)");
    return o;
  }
  line("Numerics (docs/numerics.md comparison rule)");
  for (const OutputVerdict& v : res.verdicts) {
    if (!v.compared) line("  " + v.tensor + ": not compared (no golden output bound to it)");
    else line("  " + golden::format_result(v.tensor, v.result) + " vs golden " + v.golden_output);
  }
  if (res.verdicts.empty()) line("  (no output tensors)");
  line("");
  if (res.verdict() == Verdict::NotChecked)
    line("Result: NOT CHECKED (no output tensor has a golden to compare with)");
  else
    line(std::string("Result: ") + verdict_name(res.verdict()) + " (" + std::to_string(res.passed()) + " of " +
         std::to_string(res.compared()) + " compared outputs pass)");
  return o;
}

}  // namespace

std::string format_report(const RunResult& res) { return fit_columns(report_lines(res)); }

}  // namespace npu::cli
