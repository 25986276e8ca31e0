#pragma once
// The whole-chip anchors of docs/fidelity.md: the vendor-library bf16 GEMM series of
// calibration/910b2_gemm_bf16_vendor.csv (calibration/README.md), each size run on the model as
// `npusim run kernels/cases/linear_bf16.yaml --var M=n --var K=n --var N=n --timing-only` with
// the given config, its achieved TFLOPS beside the published one; and once more with
// `--set l2.slice_mapping=modulo --set hbm.channel_mapping=modulo` (plain interleaving, a what-if
// beside the shipped hashed mappings). The same for kernels/cases/gemm_chip_bf16.yaml (the
// vendor-style kernel: its block order, shipped and modulo; row-major block order under modulo,
// --var SW=1 --var SD=0; its block order with ND -> NZ loads, --var NZ=1).
#include <string>
#include <vector>

#include "calib/calib.h"
#include "cli/lib/run_case.h"

namespace npu::cli {

// The plain-interleave what-if of every whole-chip anchor: both interleave mappings `modulo`.
const std::vector<std::string>& modulo_mappings();
// `sets` (the user's --set list), then a what-if's overrides on top.
std::vector<std::string> joined(const std::vector<std::string>& sets, const std::vector<std::string>& what_if);
// A case file (absolute path) run timing-only on config_path with the case variables and sets.
RunResult run_timing_only(const std::string& case_path, const std::string& config_path,
                          const std::vector<std::string>& vars, const std::vector<std::string>& sets);

// `repo`: the repository (calibration/ and kernels/cases/ inside it); `sets`: config overrides
// ("key.path=value", as `calibrate --set`) applied to every run. Throws npu::Error.
std::vector<calib::ChipAnchor> run_gemm_anchors(const std::string& repo, const std::string& config_path,
                                                const std::vector<std::string>& sets = {});
// The same source's fp16 and fp32 series (calibration/910b2_gemm_f16_f32_vendor.csv) on
// kernels/cases/linear_f16.yaml / linear_f32.yaml, timing-only, as run_gemm_anchors.
std::vector<calib::DtypeGemmAnchor> run_dtype_gemm_anchors(const std::string& repo, const std::string& config_path,
                                                           const std::vector<std::string>& sets = {});

}  // namespace npu::cli
