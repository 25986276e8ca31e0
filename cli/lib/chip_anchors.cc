// The vendor GEMM series on the model (chip_anchors.h).
#include "cli/lib/chip_anchors.h"

#include <fmt/format.h>

#include <cmath>
#include <map>
#include <sstream>

#include "base/csv.h"
#include "base/file_io.h"
#include "hw/config/loader.h"
#include "hw/core/timing.h"
#include "hw/top/sim_stats.h"
#include "isa/error.h"

namespace npu::cli {

const std::vector<std::string>& modulo_mappings() {
  static const std::vector<std::string> v = {"l2.slice_mapping=modulo", "hbm.channel_mapping=modulo"};
  return v;
}

std::vector<std::string> joined(const std::vector<std::string>& sets, const std::vector<std::string>& what_if) {
  std::vector<std::string> all = sets;
  all.insert(all.end(), what_if.begin(), what_if.end());
  return all;
}

RunResult run_timing_only(const std::string& case_path, const std::string& config_path,
                          const std::vector<std::string>& vars, const std::vector<std::string>& sets) {
  RunOptions o;
  o.case_path = case_path;
  o.config_path = config_path;
  o.vars = vars;
  o.sets = sets;
  o.timing_only = true;
  return run_case(o);
}

namespace {

// The middle of CANN's "three to four times" (L2 read bandwidth over GM's; docs/fidelity.md).
constexpr double kL2OverHbm = 3.5;

// One size n of the series through kernels/cases/<case_file> with `sets` and more case variables.
RunResult run_size(const std::string& repo, const std::string& case_file, const std::string& n,
                   const std::string& config_path, const std::vector<std::string>& sets,
                   const std::vector<std::string>& more_vars = {}) {
  std::vector<std::string> vars = {"M=" + n, "K=" + n, "N=" + n};
  vars.insert(vars.end(), more_vars.begin(), more_vars.end());
  return run_timing_only(repo + "/kernels/cases/" + case_file, config_path, vars, sets);
}

double tflops(const RunResult& r) { return r.roofline.achieved_tflops.value_or(0); }

// A data row of one of calibration/'s series files, with its line number.
struct SeriesRow {
  int line;
  std::vector<std::string> f;
};

// The data rows of a series file: `fields` fields each (`header`, as the file's first line names
// them, for the message).
std::vector<SeriesRow> series_rows(const std::string& csv_path, size_t fields, const char* header) {
  std::istringstream in(read_input_file(csv_path));
  std::vector<SeriesRow> rows;
  std::string line;
  std::vector<std::string> f;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (lineno == 1 || line.empty()) continue;  // the header
    if (!csv_split(line, f) || f.size() != fields)
      throw Error(csv_path + ":" + std::to_string(lineno) + ": expected " + header);
    rows.push_back({lineno, f});
  }
  return rows;
}

// The two units nearest their roofline, then the shared ones (L2 slices, HBM channels), the L2
// hit rate and the HBM bandwidth.
std::string bound_detail(const RunResult& r) {
  std::string d;
  for (size_t i = 0; i < r.roofline.units.size(); ++i) {
    const UnitUse& u = r.roofline.units[i];
    if (i < 2 || u.unit == "L2" || u.unit == "HBM")
      d += fmt::format("{}{} {:.0f} %", d.empty() ? "" : ", ", u.unit, 100 * u.utilization);
  }
  if (r.sim.l2) d += fmt::format("; L2 hit rate {:.0f} %", 100 * hw::hit_rate(r.sim.l2->total));
  if (auto g = r.sim.hbm_gbps()) d += fmt::format("; HBM {:.0f} GB/s", *g);
  return d;
}

}  // namespace

std::vector<calib::ChipAnchor> run_gemm_anchors(const std::string& repo, const std::string& config_path,
                                                const std::vector<std::string>& sets) {
  std::vector<calib::ChipAnchor> out;
  const hw::HwConfig cfg = hw::load_config(config_path, sets);
  for (const SeriesRow& row : series_rows(repo + "/calibration/910b2_gemm_bf16_vendor.csv", 2, "n,tflops")) {
    const std::vector<std::string>& f = row.f;
    const std::string& n = f[0];
    calib::ChipAnchor a;
    a.job = "bf16 GEMM n = " + n;
    a.n = std::stod(n);
    a.measured = std::stod(f[1]);
    const RunResult lin = run_size(repo, "linear_bf16.yaml", n, config_path, sets);
    a.model = tflops(lin);
    a.peak = lin.roofline.peak_tflops;
    a.detail = bound_detail(lin);
    // What-if: both interleave mappings plain modulo (docs/cache.md); the shipped configs hash.
    a.model_modulo = tflops(run_size(repo, "linear_bf16.yaml", n, config_path, joined(sets, modulo_mappings())));
    // kernels/gemm_chip.s: the vendor's block order (the case's SW / SD), then row-major order.
    const RunResult chip = run_size(repo, "gemm_chip_bf16.yaml", n, config_path, sets);
    a.chip = tflops(chip);
    a.chip_detail = bound_detail(chip);
    a.chip_modulo = tflops(run_size(repo, "gemm_chip_bf16.yaml", n, config_path, joined(sets, modulo_mappings())));
    a.chip_rows_modulo = tflops(run_size(repo, "gemm_chip_bf16.yaml", n, config_path, joined(sets, modulo_mappings()), {"SW=1", "SD=0"}));
    a.chip_nz = tflops(run_size(repo, "gemm_chip_bf16.yaml", n, config_path, sets, {"NZ=1"}));
    if (a.n <= 4096) {  // the L2 at CANN's "three to four times GM" read bandwidth (docs/fidelity.md)
      a.chip_l2_ratio = kL2OverHbm;
      a.chip_l2_rate = std::round(kL2OverHbm * cfg.hbm.bandwidth_gbps / cfg.chip.clock_ghz / cfg.l2.slices);
      a.chip_l2_low = tflops(run_size(repo, "gemm_chip_bf16.yaml", n, config_path,
                                      joined(sets, {fmt::format("l2.slice_bytes_per_cycle={:g}", a.chip_l2_rate)})));
    }
    out.push_back(a);
  }
  return out;
}

std::vector<calib::DtypeGemmAnchor> run_dtype_gemm_anchors(const std::string& repo, const std::string& config_path,
                                                           const std::vector<std::string>& sets) {
  const hw::HwConfig cfg = hw::load_config(config_path, sets);
  // The same source's bf16 figures, for the column beside each size.
  std::map<std::string, double> bf16;
  for (const SeriesRow& row : series_rows(repo + "/calibration/910b2_gemm_bf16_vendor.csv", 2, "n,tflops"))
    bf16[row.f[0]] = std::stod(row.f[1]);
  const std::string csv_path = repo + "/calibration/910b2_gemm_f16_f32_vendor.csv";
  std::vector<calib::DtypeGemmAnchor> out;
  for (const SeriesRow& row : series_rows(csv_path, 3, "fp16|fp32,n,tflops")) {
    const std::vector<std::string>& f = row.f;
    if (f[0] != "fp16" && f[0] != "fp32")
      throw Error(csv_path + ":" + std::to_string(row.line) + ": expected fp16|fp32,n,tflops");
    calib::DtypeGemmAnchor a;
    a.dtype = f[0];
    a.n = std::stod(f[1]);
    a.measured = std::stod(f[2]);
    a.bf16_measured = bf16.count(f[1]) ? bf16[f[1]] : 0.0;
    const bool f32 = a.dtype == "fp32";
    a.peak = hw::cube_peak_tflops(cfg, f32 ? isa::Dtype::F32 : isa::Dtype::F16);
    const RunResult r = run_size(repo, f32 ? "linear_f32.yaml" : "linear_f16.yaml", f[1], config_path, sets);
    a.model = tflops(r);
    a.detail = bound_detail(r);
    if (f32)
      a.model_fractal_rate = tflops(run_size(repo, "linear_f32.yaml", f[1], config_path,
                                             joined(sets, {fmt::format("cube.k0.f32={}", calib::kFractalK0F32)})));
    out.push_back(a);
  }
  return out;
}

}  // namespace npu::cli
