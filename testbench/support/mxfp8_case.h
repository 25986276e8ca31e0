#pragma once
// kernels/linear_mxfp8.s through the case pipeline users run (cli::run_case): the shipped case
// kernels/cases/linear_mxfp8.yaml with the shape, KC and the hand-off path as --var overrides and
// block_dim replaced, on configs/ascend950.yaml (a5); plus the kernel's lower bound from the config.
#include <cstdint>
#include <string>

#include "cli/lib/run_case.h"
#include "hw/config/hw_config.h"

namespace npu::test {

struct MxShape {
  int64_t M = 16, K = 4096, N = 1536, KC = 512;
  int via_l1 = 0;
  int block_dim = 36;
  std::string name() const;  // "M16_K4096_N1536_KC512_gm_bd36"
};

cli::RunResult run_mxfp8(const MxShape& s, bool iss);

// launch.overhead_cycles + max(x, w, ws and y once through HBM, the fp8 cube peak on block_dim
// AICs): no run can beat it (the GM hand-off's xq / xs traffic stays in L2 and is not counted).
double mxfp8_lower_bound(const hw::HwConfig& cfg, const MxShape& s);
// The HBM part of it alone (with the launch cost): the roofline the decode target refers to.
double mxfp8_hbm_roofline(const hw::HwConfig& cfg, const MxShape& s);

}  // namespace npu::test
