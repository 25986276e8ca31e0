#include "testbench/support/qwen3_case.h"

#include "testbench/support/kernel_perf.h"
#include "testbench/support/paths.h"
#include "testbench/support/shipped_case.h"

namespace npu::test {

std::vector<std::string> Qwen3Shape::vars() const {
  return {"T=" + std::to_string(T), "H=" + std::to_string(H), "NQ=" + std::to_string(NQ),
          "NKV=" + std::to_string(NKV), "HD=" + std::to_string(HD)};
}

std::string Qwen3Shape::name() const {
  return "T" + std::to_string(T) + "_H" + std::to_string(H) + "_q" + std::to_string(NQ) + "_kv" +
         std::to_string(NKV) + "_hd" + std::to_string(HD) + "_bd" + std::to_string(block_dim);
}

cli::RunResult run_qwen3(const Qwen3Shape& s, const std::string& config, bool iss, bool timing_only) {
  return run_case_file(source_path(s.w8a8 ? "kernels/cases/qwen3_pre_attn_w8a8.yaml"
                                            : "kernels/cases/qwen3_pre_attn_bf16.yaml"),
                       {config, s.vars(), s.block_dim, iss, timing_only, {}});
}

namespace {
// Bytes of x, residual, gamma, w (and w_scale), gamma_q / k, cos, sin and the slots used.
double input_bytes(const Qwen3Shape& s) {
  const double T = double(s.T), H = double(s.H), HD = double(s.HD);
  const double N = double(s.NQ + 2 * s.NKV) * HD;
  const double w = s.w8a8 ? N * H + 4 * N : 2 * N * H;
  return 2 * (2 * T * H + H + 2 * HD + 2 * T * HD) + w + 4 * T;
}
}  // namespace

double qwen3_hbm_roofline(const hw::HwConfig& cfg, const Qwen3Shape& s) {
  const double T = double(s.T), H = double(s.H), HD = double(s.HD);
  const double N = double(s.NQ + 2 * s.NKV) * HD, kv = double(s.NKV) * HD;
  const double bytes = input_bytes(s)
                       + (s.w8a8 ? T * H + 4 * T + 4 * T * N   // workspaces xq, x_scale, t
                                 : 2 * (T * H + T * N))        // workspaces xn, qkv
                       + 2 * (T * H + T * N)   // x_add, q, k, v
                       + 2 * (2 * T * kv);     // the cache rows
  return double(cfg.launch.overhead_cycles) + bytes / hbm_bytes_per_cycle(cfg);
}

double qwen3_lower_bound(const hw::HwConfig& cfg, const Qwen3Shape& s) {
  return double(cfg.launch.overhead_cycles) + input_bytes(s) / hbm_bytes_per_cycle(cfg);
}

}  // namespace npu::test
