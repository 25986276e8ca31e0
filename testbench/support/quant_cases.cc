#include "testbench/support/quant_cases.h"

#include <fmt/format.h>

namespace npu::test {

std::string QuantCase::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + (f32 ? "_f32" : "_bf16") +
         (specials ? "" : "_plain") + "_bd" + std::to_string(block_dim);
}

std::string DequantCase::name() const {
  return "M" + std::to_string(M) + "_N" + std::to_string(N) + (has_bias ? "_bias" : "") + "_bd" +
         std::to_string(block_dim);
}

namespace {

// The special rows of QuantCase (quant_cases.h) as the case's `plant` entries, where M has them.
std::string special_rows(int64_t M, int64_t K) {
  std::string p;
  auto add = [&](const std::string& e) { p += (p.empty() ? "" : ", ") + e; };
  if (M > 3) add("{at: [3], value: 0}");
  if (M > 5) add(fmt::format("{{at: [5, {}], value: 1000}}", K > 100 ? 100 : K - 1));
  if (M > 9)
    add(fmt::format("{{at: [9], value: 0}}, {{at: [9, 0], value: 1.0e-38}}, {{at: [9, {}], value: -1.0e-38}}", K - 1));
  if (M > 12) add(fmt::format("{{at: [12, 0], value: 2}}, {{at: [12, {}], value: -2}}", K - 1));
  return p;
}

}  // namespace

KernelOutcome run_quant_int8(Engine e, const hw::HwConfig& cfg, const QuantCase& c,
                             bool timing_only) {
  const char* dt = c.f32 ? "f32" : "bf16";
  std::string body = fmt::format("params: {{M: {}, K: {}, x_f32: {}}}\ntensors:\n", c.M, c.K, int(c.f32));
  body += "  x: " + tensor_yaml(dt, {c.M, c.K}, uniform(-1, 1, c.seed, c.specials ? special_rows(c.M, c.K) : "")) + "\n";
  body += "  q: " + tensor_yaml("s8", {c.M, c.K}, "role: output") + "\n";
  body += "  scale: " + tensor_yaml("f32", {c.M}, "role: output") + "\n";
  body += "golden: {name: quant_per_token, inputs: {x: x}, outputs: {q: q, scale: scale}}\n";
  return run_case_text(e, cfg, "quant_int8", c.block_dim, body, timing_only);
}

KernelOutcome run_dequant(Engine e, const hw::HwConfig& cfg, const DequantCase& c,
                          bool timing_only) {
  std::string body = fmt::format("params: {{M: {}, N: {}, has_bias: {}}}\ntensors:\n", c.M, c.N, int(c.has_bias));
  // Row 0 at the int32 extremes; bias is placed (and bound) even when the kernel does not read it.
  body += "  acc: " + tensor_yaml("s32", {c.M, c.N}, uniform(-2097152, 2097152, c.seed,
                                  fmt::format("{{at: [0, 0], value: -2147483648}}, {{at: [0, {}], value: 2147483647}}",
                                              c.N - 1))) + "\n";
  body += "  x_scale: " + tensor_yaml("f32", {c.M}, uniform(0.001, 0.01, c.seed + 1)) + "\n";
  body += "  w_scale: " + tensor_yaml("f32", {c.N}, uniform(0.0001, 0.001, c.seed + 2)) + "\n";
  body += "  bias: " + tensor_yaml("f32", {c.N}, uniform(-1, 1, c.seed + 3)) + "\n";
  body += "  y: " + tensor_yaml("bf16", {c.M, c.N}, "role: output") + "\n";
  body += fmt::format("golden: {{name: dequant, has_bias: {}, inputs: {{acc: acc, x_scale: x_scale, w_scale: w_scale{}}},\n"
                      "         outputs: {{out: y}}}}\n", c.has_bias, c.has_bias ? ", bias: bias" : "");
  return run_case_text(e, cfg, "dequant", c.block_dim, body, timing_only);
}

namespace {
PerfBound hbm_only(const hw::HwConfig& cfg, double bytes) {
  PerfBound b;
  b.hbm = bytes / hbm_bytes_per_cycle(cfg);
  return b;
}
}  // namespace

PerfBound lower_bound(const hw::HwConfig& cfg, const QuantCase& c) {
  return hbm_only(cfg, (c.f32 ? 4.0 : 2.0) * c.M * c.K);  // x
}

PerfBound roofline(const hw::HwConfig& cfg, const QuantCase& c) {
  return hbm_only(cfg, (c.f32 ? 4.0 : 2.0) * c.M * c.K + 1.0 * c.M * c.K + 4.0 * c.M);  // x, q, scale
}

PerfBound lower_bound(const hw::HwConfig& cfg, const DequantCase& c) {
  return hbm_only(cfg, 4.0 * c.M * c.N + 4.0 * c.M + (c.has_bias ? 8.0 : 4.0) * c.N);
}

PerfBound roofline(const hw::HwConfig& cfg, const DequantCase& c) {
  return hbm_only(cfg, 4.0 * c.M * c.N + 4.0 * c.M + (c.has_bias ? 8.0 : 4.0) * c.N + 2.0 * c.M * c.N);
}

}  // namespace npu::test
