#pragma once
// The whole-chip anchors of docs/fidelity.md: the vendor-library bf16 GEMM series of
// calibration/910b2_gemm_bf16_vendor.csv (calibration/README.md), each size run on the model as
// `npusim run kernels/cases/linear_bf16.yaml --var M=n --var K=n --var N=n --timing-only` with
// the given config, its achieved TFLOPS beside the published one; and once more with
// `--set l2.slice_mapping=xor --set hbm.channel_mapping=xor` (the hashed mappings, a what-if).
#include <string>
#include <vector>

#include "calib/calib.h"

namespace npu::cli {

// `repo`: the repository (calibration/ and kernels/cases/ inside it); `sets`: config overrides
// ("key.path=value", as `calibrate --set`) applied to every run. Throws npu::Error.
std::vector<calib::ChipAnchor> run_gemm_anchors(const std::string& repo, const std::string& config_path,
                                                const std::vector<std::string>& sets = {});

}  // namespace npu::cli
