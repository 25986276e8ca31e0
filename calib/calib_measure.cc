// Running one calibration kernel on the SystemC model, and the error summaries (calib.h).
#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "calib/calib.h"
#include "hw/top/run.h"
#include "isa/asm/assembler.h"
#include "isa/error.h"
#include "isa/sem/gm.h"

namespace npu::calib {

namespace {

// Where the GM tensor lives: line-aligned, away from address 0 so a stray 0 address faults.
constexpr uint64_t kGmBase = 1ull << 20;

hw::RunResult run(const hw::HwConfig& cfg_in, const Kernel& k, bool warm_l2, int copies) {
  hw::HwConfig cfg = cfg_in;
  if (k.gm_bytes > 0 && warm_l2) cfg.l2.warm = true;
  const std::string src = kernel_source(k, copies);
  isa::AsmResult a = isa::assemble(src, "<calib>", cfg.chip.arch);
  if (!a.program) throw Error("calibration kernel does not assemble:\n" + a.format_diags() + src);
  sem::GlobalMemory gm(cfg.hbm.size);
  if (k.gm_bytes > 0) {
    const uint64_t line = cfg.l2.line;
    gm.add_region("buf", kGmBase, (k.gm_bytes + line - 1) / line * line);
  }
  hw::RunOptions opt;
  opt.timing_only = true;  // cycles are identical to a full run (hw/top/run.h)
  try {
    return hw::run_systemc(cfg, *a.program, gm, {static_cast<int64_t>(kGmBase)}, 1, opt);
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + "\nin calibration kernel:\n" + src);
  }
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string num(double x) { return fmt::format("{:g}", x); }

}  // namespace

std::string kernel_source(const Kernel& k, int copies) {
  std::string s = ".kernel calib\n.param buf, gm\n";
  s += k.core == isa::CoreType::Aic ? ".aic\n" : ".aiv\n";
  // Only AIV 0 of the cluster runs the measured instruction (single-core tables).
  if (k.core == isa::CoreType::Aiv) s += "    getsr r1, subblock_idx\n    bne r1, 0, done\n";
  s += "    ldp r2, buf\n";
  s += fmt::format(".rept {}\n    {}\n.endr\n", copies, k.body);
  s += "done:\n    end\n";
  return s;
}

double measure_busy(const hw::HwConfig& cfg, const Kernel& k, bool warm_l2, int copies) {
  if (copies < 1) throw Error("measure_busy: copies must be >= 1");
  hw::RunResult r = run(cfg, k, warm_l2, copies);
  uint64_t busy = 0;
  for (const hw::CoreRecord& core : r.stats.cores)
    if (const hw::PipeRecord* p = core.pipe(k.pipe)) busy += p->counters.busy_cycles;
  return double(busy) / copies;
}

uint64_t measure_interval(const hw::HwConfig& cfg, const Kernel& k, bool warm_l2, int copies) {
  const uint64_t a = run(cfg, k, warm_l2, copies).total_cycles;
  const uint64_t b = run(cfg, k, warm_l2, copies + 1).total_cycles;
  return b - a;
}

Summary summarize(const std::vector<const Series*>& series) {
  Summary s;
  std::vector<double> abs_err;
  double worst_abs = -1;
  for (const Series* se : series)
    for (const Point& p : se->points) {
      const double e = p.rel_err();
      abs_err.push_back(std::fabs(e));
      if (std::fabs(e) > worst_abs) {
        worst_abs = std::fabs(e);
        s.worst = e;
        s.worst_where = se->name + " @ " + se->x_name + " " + num(p.x);
      }
    }
  s.points = abs_err.size();
  s.median_abs = median(abs_err);
  return s;
}

Summary summarize(const Table& t) {
  std::vector<const Series*> v;
  for (const Series& s : t.series) v.push_back(&s);
  return summarize(v);
}

Summary summarize(const Series& s) { return summarize(std::vector<const Series*>{&s}); }

}  // namespace npu::calib
