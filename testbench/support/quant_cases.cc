#include "testbench/support/quant_cases.h"

#include "golden/golden.h"
#include "golden/random.h"

namespace npu::test {

using golden::Tensor;
using num::Dtype;

std::string QuantCase::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + (f32 ? "_f32" : "_bf16") +
         (specials ? "" : "_plain") + "_bd" + std::to_string(block_dim);
}

std::string DequantCase::name() const {
  return "M" + std::to_string(M) + "_N" + std::to_string(N) + (has_bias ? "_bias" : "") + "_bd" +
         std::to_string(block_dim);
}

namespace {

void plant_rows(Tensor& x, int64_t M, int64_t K) {
  auto row = [&](int64_t r, double v) {
    for (int64_t c = 0; c < K; ++c) x.set(r * K + c, v);
  };
  if (M > 3) row(3, 0);
  if (M > 5) x.set(5 * K + (K > 100 ? 100 : K - 1), 1000);
  if (M > 9) {
    row(9, 0);
    x.set(9 * K, 1e-38);
    x.set(9 * K + K - 1, -1e-38);
  }
  if (M > 12) {
    x.set(12 * K, 2);
    x.set(12 * K + K - 1, -2);
  }
}

}  // namespace

KernelOutcome run_quant_int8(Engine e, const hw::HwConfig& cfg, const QuantCase& c,
                             bool timing_only) {
  const isa::Program& prog = load_kernel("quant_int8", cfg);
  const Dtype dt = c.f32 ? Dtype::F32 : Dtype::BF16;
  GmImage gm(cfg);
  Tensor x;
  if (timing_only) {
    gm.alloc("x", dt, {c.M, c.K});
  } else {
    golden::Rng rng(c.seed);
    x = golden::random_uniform(dt, {c.M, c.K}, -1, 1, rng);
    if (c.specials) plant_rows(x, c.M, c.K);
    gm.place("x", x);
  }
  gm.alloc("q", Dtype::S8, {c.M, c.K});
  gm.alloc("scale", Dtype::F32, {c.M});
  auto params = bind_params(prog, {{"x", gm.addr("x")}, {"q", gm.addr("q")},
                                   {"scale", gm.addr("scale")}, {"M", c.M}, {"K", c.K},
                                   {"x_f32", c.f32}});
  KernelOutcome out;
  out.info = run_kernel(e, cfg, prog, gm.gm(), params, c.block_dim, timing_only);
  if (timing_only) return out;
  golden::QuantResult ref = golden::quant_per_token(x);
  add_output(out, "q", gm.read("q"), &ref.q);
  add_output(out, "scale", gm.read("scale"), &ref.scale);
  return out;
}

KernelOutcome run_dequant(Engine e, const hw::HwConfig& cfg, const DequantCase& c,
                          bool timing_only) {
  const isa::Program& prog = load_kernel("dequant", cfg);
  GmImage gm(cfg);
  Tensor acc, xs, ws, bias;
  if (timing_only) {
    gm.alloc("acc", Dtype::S32, {c.M, c.N});
    gm.alloc("x_scale", Dtype::F32, {c.M});
    gm.alloc("w_scale", Dtype::F32, {c.N});
    gm.alloc("bias", Dtype::F32, {c.N});
  } else {
    golden::Rng rng(c.seed);
    acc = golden::random_uniform(Dtype::S32, {c.M, c.N}, -2097152, 2097152, rng);
    acc.set(0, -2147483648.0);
    acc.set(c.N - 1, 2147483647.0);
    xs = golden::random_uniform(Dtype::F32, {c.M}, 0.001, 0.01, rng);
    ws = golden::random_uniform(Dtype::F32, {c.N}, 0.0001, 0.001, rng);
    bias = golden::random_uniform(Dtype::F32, {c.N}, -1, 1, rng);
    gm.place("acc", acc);
    gm.place("x_scale", xs);
    gm.place("w_scale", ws);
    gm.place("bias", bias);
  }
  gm.alloc("y", Dtype::BF16, {c.M, c.N});
  auto params = bind_params(prog, {{"acc", gm.addr("acc")}, {"x_scale", gm.addr("x_scale")},
                                   {"w_scale", gm.addr("w_scale")},
                                   {"bias", c.has_bias ? gm.addr("bias") : 0}, {"y", gm.addr("y")},
                                   {"M", c.M}, {"N", c.N}, {"has_bias", c.has_bias}});
  KernelOutcome out;
  out.info = run_kernel(e, cfg, prog, gm.gm(), params, c.block_dim, timing_only);
  if (timing_only) return out;
  Tensor ref = golden::dequant(acc, xs, ws, c.has_bias ? &bias : nullptr);
  add_output(out, "y", gm.read("y"), &ref);
  return out;
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
