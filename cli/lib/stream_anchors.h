#pragma once
// Two whole-chip anchors of docs/fidelity.md beside the GEMM series (chip_anchors.h):
//   * decode weight streaming (calibration/vllm_ascend_qwq32b_decode.csv): each projection run
//     as `npusim run kernels/cases/linear_bf16.yaml` (bf16) or `linear_w8a8.yaml` (w8a8)
//     `--var M=.. --var K=.. --var N=.. --timing-only`, its time beside the published one;
//   * the b_trans overhead (calibration/pypto_btrans_overhead.csv): each tile shape run as
//     `kernels/cases/gemm_decode_tiles_kn.yaml` and `_nk.yaml` with `--var M K N TK TN`,
//     `--timing-only`; the model's overhead is the [N, K] time over the [K, N] time, minus 1.
// Each run again with `--set l2.slice_mapping=xor --set hbm.channel_mapping=xor` (a what-if).
#include <string>
#include <vector>

#include "calib/calib.h"

namespace npu::cli {

// `repo`: the repository (calibration/ and kernels/cases/ inside it); `sets`: config overrides
// (`--set`) applied to every run, a what-if's on top. Throws npu::Error.
std::vector<calib::StreamAnchor> run_decode_anchors(const std::string& repo, const std::string& config_path,
                                                    const std::vector<std::string>& sets = {});
std::vector<calib::LayoutAnchor> run_btrans_anchors(const std::string& repo, const std::string& config_path,
                                                    const std::vector<std::string>& sets = {});

}  // namespace npu::cli
