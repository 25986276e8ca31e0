// The vendor GEMM series on the model (chip_anchors.h).
#include "cli/lib/chip_anchors.h"

#include <fmt/format.h>

#include <sstream>

#include "base/csv.h"
#include "base/file_io.h"
#include "cli/lib/run_case.h"
#include "hw/top/sim_stats.h"
#include "isa/error.h"

namespace npu::cli {

std::vector<calib::ChipAnchor> run_gemm_anchors(const std::string& repo, const std::string& config_path,
                                                const std::vector<std::string>& sets) {
  const std::string csv_path = repo + "/calibration/910b2_gemm_bf16_vendor.csv";
  std::istringstream in(read_input_file(csv_path));
  std::vector<calib::ChipAnchor> out;
  std::string line;
  std::vector<std::string> f;
  for (int lineno = 1; std::getline(in, line); ++lineno) {
    if (lineno == 1 || line.empty()) continue;  // the header n,tflops
    if (!csv_split(line, f) || f.size() != 2)
      throw Error(csv_path + ":" + std::to_string(lineno) + ": expected n,tflops");
    RunOptions o;
    o.case_path = repo + "/kernels/cases/linear_bf16.yaml";
    o.config_path = config_path;
    o.sets = sets;
    o.vars = {"M=" + f[0], "K=" + f[0], "N=" + f[0]};
    o.timing_only = true;
    const RunResult r = run_case(o);
    calib::ChipAnchor a;
    a.job = "bf16 GEMM n = " + f[0];
    a.measured = std::stod(f[1]);
    a.model = r.roofline.achieved_tflops.value_or(0);
    // The two units nearest their roofline, then the shared ones (L2 slices, HBM channels).
    for (size_t i = 0; i < r.roofline.units.size(); ++i) {
      const UnitUse& u = r.roofline.units[i];
      if (i < 2 || u.unit == "L2" || u.unit == "HBM")
        a.detail += fmt::format("{}{} {:.0f} %", a.detail.empty() ? "" : ", ", u.unit, 100 * u.utilization);
    }
    if (r.sim.l2) a.detail += fmt::format("; L2 hit rate {:.0f} %", 100 * hw::hit_rate(r.sim.l2->total));
    if (auto g = r.sim.hbm_gbps()) a.detail += fmt::format("; HBM {:.0f} GB/s", *g);
    // What-if: both interleave mappings hashed (docs/cache.md), the shipped configs use modulo.
    o.sets.insert(o.sets.end(), {"l2.slice_mapping=xor", "hbm.channel_mapping=xor"});
    a.model_hashed = run_case(o).roofline.achieved_tflops.value_or(0);
    out.push_back(a);
  }
  return out;
}

}  // namespace npu::cli
