// The interleaved RoPE and the bf16 MLAProlog chain goldens on tiny shapes, derived by hand in
// the comments (each value would change under the usual mistakes: the [K, N] / [N, K] weight
// layout, one norm over the row instead of per head, cos[i] per pair instead of per element,
// the sign of the sin terms, rounding the products before the sum).
#include <gtest/gtest.h>

#include "isa/error.h"
#include "golden/golden.h"
#include "golden/registry.h"
#include "testbench/support/thrown_message.h"

namespace npu::golden {
namespace {

Tensor bf16(std::vector<int64_t> shape, std::vector<double> v) {
  return Tensor::from_values(Dtype::BF16, std::move(shape), v);
}

TEST(GoldenRope, PairsUseTheirOwnCosSinAndRoundOnce) {
  // x = [1 + 2^-7, 1], cos = [1 + 3 * 2^-7, 0.5], sin = [1, -0.25] (one head, D = rope = 2):
  // out[0] = x0 * c0 - x1 * s0 = (1 + 2^-5 + 3 * 2^-14) - 1 = 2^-5 (1 + 3 * 2^-9): 0.75 of a
  // bf16 ulp (2^-12) above 2^-5 -> 2^-5 + 2^-12 = 0.031494140625. Rounding the product to bf16
  // first would give 1 + 2^-5 and then exactly 2^-5.
  // out[1] = x1 * c1 + x0 * s1 = 0.5 - 0.251953125 = 0.248046875 (exact in bf16).
  Tensor y = rope_interleaved(bf16({1, 2}, {1.0078125, 1}), bf16({1, 2}, {1.0234375, 0.5}),
                              bf16({1, 2}, {1, -0.25}));
  EXPECT_EQ(y.dtype(), Dtype::BF16);
  EXPECT_EQ(y.to_doubles(), (std::vector<double>{0.031494140625, 0.248046875}));
}

TEST(GoldenRope, LastRopeDimsOfEveryHeadPerToken) {
  // x [t = 2, heads = 2, D = 4], rope = 2: dims 0, 1 of each head pass through.
  // Token 0, cos [0.5, 0.25], sin [1, -1]:
  //   head 0 [5, 7, 1, 2]  -> [5, 7, 1*0.5 - 2*1, 2*0.25 + 1*(-1)]   = [5, 7, -1.5, -0.5]
  //   head 1 [3, -3, 4, -8] -> [3, -3, 4*0.5 + 8*1, -8*0.25 + 4*(-1)] = [3, -3, 10, -6]
  // Token 1, cos [1, 1], sin [0, 0]: the identity (token 0's cos / sin would rotate it).
  std::vector<double> tok = {5, 7, 1, 2, 3, -3, 4, -8};
  std::vector<double> xv = tok;
  xv.insert(xv.end(), tok.begin(), tok.end());
  Tensor y = rope_interleaved(bf16({2, 2, 4}, xv), bf16({2, 2}, {0.5, 0.25, 1, 1}),
                              bf16({2, 2}, {1, -1, 0, 0}));
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 2, 4}));
  std::vector<double> want = {5, 7, -1.5, -0.5, 3, -3, 10, -6};
  want.insert(want.end(), tok.begin(), tok.end());
  EXPECT_EQ(y.to_doubles(), want);
}

TEST(GoldenRope, BadShapesAreErrors) {
  Tensor x = bf16({1, 4}, {0, 0, 0, 0});
  try {
    rope_interleaved(x, bf16({1, 3}, {0, 0, 0}), bf16({1, 3}, {0, 0, 0}));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "rope: cos must be [1, rope] with rope even and <= 4, got bf16[1, 3]");
  }
  EXPECT_THROW(rope_interleaved(x, bf16({1, 2}, {0, 0}), bf16({2, 1}, {0, 0})), Error);
}

// t = 1, h = 2, q_lora_rank = 2, heads = 2, head_dim = 2, rope = 2; eps 1e-6 (its effect is
// below half a bf16 ulp of every value here).
struct Tiny {
  Tensor x = bf16({1, 2}, {1, 2});
  Tensor wq_a = bf16({2, 2}, {0, 2, 1, -2});           // [K, N]
  Tensor gamma_cq = bf16({2}, {0.5, 3});
  Tensor wq_b = bf16({2, 4}, {2, 2, 2, -2, 0, 0, -1, 1});
  Tensor w_kv = bf16({2, 2}, {3, -1, 0, -1});
  Tensor gamma_ckv = bf16({2}, {2, 0.5});
  Tensor cos = bf16({1, 2}, {0.5, 0.25});
  Tensor sin = bf16({1, 2}, {1, -1});
  MlaPrologInputs in() const { return {x, wq_a, gamma_cq, wq_b, w_kv, gamma_ckv, cos, sin}; }
};

Tensor transposed(const Tensor& w) {
  Tensor t(w.dtype(), {w.dim(1), w.dim(0)});
  for (int64_t i = 0; i < w.dim(0); ++i)
    for (int64_t j = 0; j < w.dim(1); ++j) t.set(j * w.dim(0) + i, w.get(i * w.dim(1) + j));
  return t;
}

// q path: qa = [1, 2] @ [[0, 2], [1, -2]] = [2, -2] (read as [N, K] it would be [4, -3]);
//   RMSNorm: mean sq 4, rstd 0.5 -> [1, -1]; * gamma_cq -> qr = [0.5, -3].
//   qb = 0.5 * [2, 2, 2, -2] - 3 * [0, 0, -1, 1] = [1, 1, 4, -4].
//   per head (no gamma): [1, 1] (mean sq 1) -> [1, 1]; [4, -4] (mean sq 16) -> [1, -1]
//   (one norm over the row, mean sq 8.5, would give other values).
//   RoPE, cos [0.5, 0.25], sin [1, -1]: [1, 1] -> [0.5 - 1, 0.25 - 1] = [-0.5, -0.75];
//   [1, -1] -> [0.5 + 1, -0.25 - 1] = [1.5, -1.25].
// kv path: kv = [1, 2] @ [[3, -1], [0, -1]] = [3, -3] (as [N, K]: [1, -2]); RMSNorm: mean sq 9,
//   rstd 1/3 -> [1, -1]; * gamma_ckv -> [2, -0.5]; RoPE -> [2*0.5 + 0.5*1, -0.5*0.25 - 2*1]
//   = [1.5, -2.125].
const std::vector<double> kQ = {-0.5, -0.75, 1.5, -1.25}, kKv = {1.5, -2.125}, kQr = {0.5, -3};

TEST(GoldenMlaProlog, HandComputedChain) {
  Tiny d;
  MlaPrologResult r = mla_prolog(d.in(), 1e-6, RmsVariant::Rsqrt, /*b_trans=*/false);
  EXPECT_EQ(r.q.shape(), (std::vector<int64_t>{1, 2, 2}));
  EXPECT_EQ(r.q.dtype(), Dtype::BF16);
  EXPECT_EQ(r.q.to_doubles(), kQ);
  EXPECT_EQ(r.kv.shape(), (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(r.kv.to_doubles(), kKv);
  EXPECT_EQ(r.qr.to_doubles(), kQr);
}

TEST(GoldenMlaProlog, BTransLayoutGivesTheSameChain) {
  Tiny d;
  Tensor a = transposed(d.wq_a), b = transposed(d.wq_b), kv = transposed(d.w_kv);
  MlaPrologResult r = mla_prolog({d.x, a, d.gamma_cq, b, kv, d.gamma_ckv, d.cos, d.sin}, 1e-6,
                                 RmsVariant::Rsqrt, /*b_trans=*/true);
  EXPECT_EQ(r.q.to_doubles(), kQ);
  EXPECT_EQ(r.kv.to_doubles(), kKv);
  EXPECT_EQ(r.qr.to_doubles(), kQr);
}

TEST(GoldenMlaProlog, ByNameFromTheRegistry) {
  Tiny d;
  TensorMap in{{"x", d.x},       {"wq_a", d.wq_a},           {"gamma_cq", d.gamma_cq},
               {"wq_b", d.wq_b}, {"w_kv", d.w_kv},           {"gamma_ckv", d.gamma_ckv},
               {"cos", d.cos},   {"sin", d.sin}};
  TensorMap out = run_golden("mla_prolog", {{"eps", "1e-6"}}, in);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out["q"].to_doubles(), kQ);
  EXPECT_EQ(out["kv"].to_doubles(), kKv);
  EXPECT_EQ(out["qr"].to_doubles(), kQr);
  TensorMap rope = run_golden("rope", {}, {{"x", d.x}, {"cos", d.cos}, {"sin", d.sin}});
  // [1, 2] -> [1*0.5 - 2*1, 2*0.25 + 1*(-1)] = [-1.5, -0.5]
  EXPECT_EQ(rope["out"].to_doubles(), (std::vector<double>{-1.5, -0.5}));
}

TEST(GoldenMlaProlog, BadShapesNameTheTensor) {
  Tiny d;
  auto error_of = [&](const MlaPrologInputs& in, bool b_trans) -> std::string {
    return npu::test::thrown_message([&] { mla_prolog(in, 1e-6, RmsVariant::Rsqrt, b_trans); });
  };
  // The [K, N] weights given with b_trans: wq_a happens to be square, w_kv too; wq_b is not.
  EXPECT_EQ(error_of(d.in(), true),
            "mla_prolog: wq_b must be [heads * head_dim, q_lora_rank] with head_dim = 2, "
            "q_lora_rank = 2, got bf16[2, 4]");
  Tensor w3 = bf16({3, 2}, {0, 0, 0, 0, 0, 0});
  EXPECT_EQ(error_of({d.x, w3, d.gamma_cq, d.wq_b, d.w_kv, d.gamma_ckv, d.cos, d.sin}, false),
            "mla_prolog: wq_a must be [2, 2], got bf16[3, 2]");
  Tensor s3 = bf16({1, 3}, {0, 0, 0});
  EXPECT_EQ(error_of({d.x, d.wq_a, d.gamma_cq, d.wq_b, d.w_kv, d.gamma_ckv, d.cos, s3}, false),
            "mla_prolog: sin must be [1, 2], got bf16[1, 3]");
}

// The quantised chain on Tiny's data, wq_b as s8 (the same integers) with per-channel scales
// ws = [0.5, 0.25, 0.25, 0.25]:
//   qr = [0.5, -3] (as above): amax 3, scale_q = fp32(127 / 3), qr_q = [rne(21.17), -127]
//   = [21, -127], qr_scale = 1 / scale_q.
//   acc = 21 * [2, 2, 2, -2] - 127 * [0, 0, -1, 1] = [42, 42, 169, -169];
//   qb = acc * qr_scale * ws: head 0 = 42 s [0.5, 0.25] = a [1, 0.5]: mean sq 5 a^2 / 8 ->
//   [sqrt(8/5), sqrt(8/5) / 2] = [1.26491, 0.63246] -> bf16 [1.265625, 0.6328125]
//   (without ws the head would be [1, 1]); head 1 = c [1, -1] -> [1, -1].
//   RoPE: head 0 -> [1.265625 * 0.5 - 0.6328125, 0.6328125 * 0.25 - 1.265625]
//   = [0, -1.107421875] -> bf16 [0, -1.109375]; head 1 -> [1.5, -1.25]. kv as in mla_prolog.
TEST(GoldenMlaPrologQuant, HandComputedChain) {
  Tiny d;
  Tensor wq_b = Tensor::from_values(Dtype::S8, {2, 4}, {2, 2, 2, -2, 0, 0, -1, 1});
  Tensor ws = Tensor::from_values(Dtype::F32, {4}, {0.5, 0.25, 0.25, 0.25});
  MlaPrologQuantResult r = mla_prolog_quant(
      {{d.x, d.wq_a, d.gamma_cq, wq_b, d.w_kv, d.gamma_ckv, d.cos, d.sin}, ws}, 1e-6,
      RmsVariant::Rsqrt, /*b_trans=*/false);
  EXPECT_EQ(r.qr_q.dtype(), Dtype::S8);
  EXPECT_EQ(r.qr_q.to_doubles(), (std::vector<double>{21, -127}));
  EXPECT_EQ(r.qr_scale.to_doubles(), (std::vector<double>{1.0f / (127.0f / 3.0f)}));
  EXPECT_EQ(r.q.to_doubles(), (std::vector<double>{0, -1.109375, 1.5, -1.25}));
  EXPECT_EQ(r.kv.to_doubles(), kKv);
  // The same through the registry, and [N, K] weights give the same chain.
  TensorMap in{{"x", d.x},       {"wq_a", d.wq_a},     {"gamma_cq", d.gamma_cq},
               {"wq_b", wq_b},   {"wq_b_scale", ws},   {"w_kv", d.w_kv},
               {"gamma_ckv", d.gamma_ckv}, {"cos", d.cos}, {"sin", d.sin}};
  TensorMap out = run_golden("mla_prolog_quant", {{"eps", "1e-6"}}, in);
  EXPECT_EQ(out["q"].bytes(), r.q.bytes());
  EXPECT_EQ(out["qr_scale"].bytes(), r.qr_scale.bytes());
  MlaPrologQuantResult t = mla_prolog_quant(
      {{d.x, transposed(d.wq_a), d.gamma_cq, transposed(wq_b), transposed(d.w_kv), d.gamma_ckv,
        d.cos, d.sin},
       ws},
      1e-6, RmsVariant::Rsqrt, /*b_trans=*/true);
  EXPECT_EQ(t.q.bytes(), r.q.bytes());
  EXPECT_EQ(t.qr_q.bytes(), r.qr_q.bytes());
}

TEST(GoldenMlaPrologQuant, BadInputsAreErrors) {
  Tiny d;
  Tensor ws = Tensor::from_values(Dtype::F32, {4}, {1, 1, 1, 1});
  try {  // the bf16 wq_b of the plain prolog
    mla_prolog_quant({d.in(), ws}, 1e-6, RmsVariant::Rsqrt, false);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "mla_prolog: wq_b must be s8, got bf16[2, 4]");
  }
  Tensor wq_b = Tensor::from_values(Dtype::S8, {2, 4}, {0, 0, 0, 0, 0, 0, 0, 0});
  Tensor ws3 = Tensor::from_values(Dtype::F32, {3}, {1, 1, 1});
  EXPECT_THROW(mla_prolog_quant({{d.x, d.wq_a, d.gamma_cq, wq_b, d.w_kv, d.gamma_ckv, d.cos, d.sin}, ws3},
                                1e-6, RmsVariant::Rsqrt, false),
               Error);
}

}  // namespace
}  // namespace npu::golden
