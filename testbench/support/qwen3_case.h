#pragma once
// kernels/cases/qwen3_pre_attn_bf16.yaml (kernels/qwen3_pre_attn.s) and its W8A8 variant
// qwen3_pre_attn_w8a8.yaml (kernels/qwen3_pre_attn_w8a8.s) through the pipeline users run, and
// their performance references.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/lib/run_case.h"
#include "hw/config/hw_config.h"

namespace npu::test {

struct Qwen3Shape {
  int64_t T = 16, H = 4096, NQ = 32, NKV = 8, HD = 128;  // the case's defaults (Qwen3-8B)
  int block_dim = 24;
  bool w8a8 = false;                      // the W8A8 case instead of the bf16 one
  std::vector<std::string> vars() const;  // "T=..", "H=..", ...
  std::string name() const;               // "T16_H4096_q32_kv8_hd128_bd24"
};

// The case with the shape's vars on `config` (a repository config name); the outputs (six, and
// xq / x_scale with w8a8) are compared with the golden unless timing_only.
cli::RunResult run_qwen3(const Qwen3Shape& s, const std::string& config, bool iss,
                         bool timing_only = false);

// The HBM roofline: launch.overhead_cycles + the bytes of every tensor moved once (inputs, the
// workspaces: xn and qkv, or with w8a8 xq, x_scale and the fp32 t; the outputs, the 2 T cache
// rows written) / HBM bytes per cycle.
double qwen3_hbm_roofline(const hw::HwConfig& cfg, const Qwen3Shape& s);
// The lower bound: launch.overhead_cycles + the input bytes once / HBM bytes per cycle (L2 starts
// cold; the cube work, 2 t MACs per weight, is far below it at t <= 64).
double qwen3_lower_bound(const hw::HwConfig& cfg, const Qwen3Shape& s);

}  // namespace npu::test
