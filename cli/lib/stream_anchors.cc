// The decode weight-streaming and b_trans anchors on the model (stream_anchors.h).
#include "cli/lib/stream_anchors.h"

#include <fmt/format.h>

#include "cli/lib/chip_anchors.h"
#include "isa/error.h"

namespace npu::cli {

namespace {

// An MTE request window four times the shipped one (docs/fidelity.md, the b_trans anchor).
constexpr uint32_t kWindowLines = 512;
const std::vector<std::string> kWindow = {"mte.max_outstanding=" + std::to_string(kWindowLines)};

struct Timed {
  double us = 0;
  double hbm_peak_gbps = 0;
  std::string bound;  // the two units nearest their roofline, and the run's HBM bandwidth
};

Timed run_timed(const std::string& case_path, const std::string& config_path, const std::vector<std::string>& vars,
                const std::vector<std::string>& sets) {
  const RunResult r = run_timing_only(case_path, config_path, vars, sets);
  Timed t;
  t.us = r.sim.time_us().value_or(0);
  t.hbm_peak_gbps = r.hbm_peak_gbps;
  const size_t shown = std::min<size_t>(2, r.roofline.units.size());
  for (size_t i = 0; i < shown; ++i)
    t.bound += fmt::format("{} {:.0f} %, ", r.roofline.units[i].unit, 100 * r.roofline.units[i].utilization);
  t.bound += fmt::format("{:.0f} GB/s from HBM", r.sim.hbm_gbps().value_or(0));
  return t;
}

std::string text(const calib::CsvRow& row, const char* key, const std::string& csv) {
  const auto it = row.find(key);
  if (it == row.end()) throw Error(csv + ": no column " + key);
  return it->second;
}

int64_t whole(const calib::CsvRow& row, const char* key, const std::string& csv) {
  const double v = calib::to_num(row, key);
  if (v < 1 || v != double(int64_t(v))) throw Error(csv + ": " + key + " must be a positive integer");
  return int64_t(v);
}

}  // namespace

std::vector<calib::StreamAnchor> run_decode_anchors(const std::string& repo, const std::string& config_path,
                                                    const std::vector<std::string>& sets) {
  const std::string csv = repo + "/calibration/vllm_ascend_qwq32b_decode.csv";
  std::vector<calib::StreamAnchor> out;
  for (const calib::CsvRow& row : calib::read_csv(csv)) {
    const std::string dtype = text(row, "dtype", csv);
    if (dtype != "bf16" && dtype != "w8a8") throw Error(csv + ": dtype '" + dtype + "' (expected bf16 or w8a8)");
    const int64_t m = whole(row, "M", csv), k = whole(row, "K", csv), n = whole(row, "N", csv);
    const int64_t launches = whole(row, "model_launches", csv);
    if (n % (16 * launches) != 0) throw Error(csv + ": N must split into model_launches multiples of 16");
    // The launches are alike (each a cold-L2 run of the same shape), so one run times them all.
    const std::string case_path = repo + "/kernels/cases/" + (dtype == "bf16" ? "linear_bf16.yaml" : "linear_w8a8.yaml");
    const std::vector<std::string> vars = {fmt::format("M={}", m), fmt::format("K={}", k),
                                           fmt::format("N={}", n / launches)};
    calib::StreamAnchor a;
    a.job = fmt::format("{} {}, x[{}, {}] . W[{}, {}]", text(row, "job", csv), dtype, m, k, k, n);
    a.weight_bytes = double(k) * double(n) * (dtype == "bf16" ? 2 : 1);
    a.measured_us = calib::to_num(row, "us");
    const Timed t = run_timed(case_path, config_path, vars, sets);
    a.model_us = double(launches) * t.us;
    a.model_modulo_us = double(launches) * run_timed(case_path, config_path, vars, joined(sets, modulo_mappings())).us;
    a.how = launches == 1 ? "one launch" : fmt::format("{} launches of N = {}", launches, n / launches);
    a.detail = t.bound;
    a.hbm_peak_gbps = t.hbm_peak_gbps;
    out.push_back(a);
  }
  return out;
}

std::vector<calib::LayoutAnchor> run_btrans_anchors(const std::string& repo, const std::string& config_path,
                                                    const std::vector<std::string>& sets) {
  const std::string csv = repo + "/calibration/pypto_btrans_overhead.csv";
  const std::string cases = repo + "/kernels/cases/gemm_decode_tiles_";
  std::vector<calib::LayoutAnchor> out;
  for (const calib::CsvRow& row : calib::read_csv(csv)) {
    const int64_t tk = whole(row, "TK", csv), tn = whole(row, "TN", csv);
    const int64_t m = whole(row, "M", csv), k = whole(row, "K", csv), n = whole(row, "N", csv);
    const std::vector<std::string> vars = {fmt::format("M={}", m),   fmt::format("K={}", k),  fmt::format("N={}", n),
                                           fmt::format("TK={}", tk), fmt::format("TN={}", tn)};
    calib::LayoutAnchor a;
    a.tile = fmt::format("TK {}, TN {}, K {}, N {}", tk, tn, k, n);
    a.tk = tk, a.tn = tn, a.k = k, a.n = n;
    a.window = kWindowLines;
    a.measured = calib::to_num(row, "overhead_pct") / 100;
    const Timed kn = run_timed(cases + "kn.yaml", config_path, vars, sets);
    const Timed nk = run_timed(cases + "nk.yaml", config_path, vars, sets);
    a.kn_us = kn.us;
    a.nk_us = nk.us;
    a.detail_kn = kn.bound;
    a.detail_nk = nk.bound;
    a.kn_modulo_us = run_timed(cases + "kn.yaml", config_path, vars, joined(sets, modulo_mappings())).us;
    a.nk_modulo_us = run_timed(cases + "nk.yaml", config_path, vars, joined(sets, modulo_mappings())).us;
    a.kn_window_us = run_timed(cases + "kn.yaml", config_path, vars, joined(sets, kWindow)).us;
    a.nk_window_us = run_timed(cases + "nk.yaml", config_path, vars, joined(sets, kWindow)).us;
    out.push_back(a);
  }
  return out;
}

}  // namespace npu::cli
