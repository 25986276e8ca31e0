// The half-split RoPE and the Qwen3PreAttn phase-1 goldens on tiny shapes, derived by hand in
// the comments (each value would change under the usual mistakes: interleaved pairs instead of
// halves, the sign of the sin term, one norm over all heads instead of per head, a missing
// gamma, k / v columns swapped, the slot write going to the wrong row or ignoring padding).
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

TEST(GoldenRopeHalf, HalvesRotateWithPerElementCosSin) {
  // D = 4, h = 2; x = [1, 2, 0.5, 1], cos = [0.5, 0.25, 1, 0], sin = [1, -1, 0.5, 2]:
  //   out0 = x0 c0 - x2 s0 = 0.5 - 0.5      = 0     (interleaved pairs: x0 c0 - x1 s0 = -1.5)
  //   out1 = x1 c1 - x3 s1 = 0.5 + 1        = 1.5
  //   out2 = x2 c2 + x0 s2 = 0.5 + 0.5      = 1     (a flipped sin sign: out0 = 1)
  //   out3 = x3 c3 + x1 s3 = 0 + 4          = 4
  // Token 1 (cos 1, sin 0) is the identity: token 0's cos / sin would rotate it.
  Tensor y = rope_half(bf16({2, 1, 4}, {1, 2, 0.5, 1, 1, 2, 0.5, 1}),
                       bf16({2, 4}, {0.5, 0.25, 1, 0, 1, 1, 1, 1}),
                       bf16({2, 4}, {1, -1, 0.5, 2, 0, 0, 0, 0}));
  EXPECT_EQ(y.shape(), (std::vector<int64_t>{2, 1, 4}));
  EXPECT_EQ(y.to_doubles(), (std::vector<double>{0, 1.5, 1, 4, 1, 2, 0.5, 1}));
}

TEST(GoldenRopeHalf, RoundsOnceAfterTheSum) {
  // D = 2: out0 = x0 c0 - x1 s0 = (1 + 2^-7)(1 + 3 * 2^-7) - 1 = 2^-5 + 3 * 2^-14, which rounds
  // to 2^-5 + 2^-12 in bf16; rounding the product first (1 + 2^-5) would give exactly 2^-5.
  Tensor y = rope_half(bf16({1, 2}, {1.0078125, 1}), bf16({1, 2}, {1.0234375, 0}),
                       bf16({1, 2}, {1, 0}));
  EXPECT_EQ(y.get(0), 0.031494140625);
}

// t = 1, hidden = 2, q_heads = 2, kv_heads = 1, head_dim = 4; eps 1e-6 (below half a bf16 ulp
// of every value here).
struct Tiny {
  Tensor x = bf16({1, 2}, {1, 2.5});
  Tensor residual = bf16({1, 2}, {1, -0.5});
  Tensor gamma = bf16({2}, {1, 0.5});
  // x_add = [2, 2]: rstd 0.5, * gamma -> h = [1, 0.5]; so row n of w_qkv gives w0 + w1 / 2.
  Tensor w_qkv = bf16({16, 2}, {1, 0, 0, 2, 1, 0, 1, 0,      // q head 0: [1, 1, 1, 1]
                                2, 0, -2, 0, 0, 4, -2, 0,    // q head 1: [2, -2, 2, -2]
                                3, 0, 2, 2, -3, 0, 3, 0,     // k:        [3, 3, -3, 3]
                                5, 0, -7, 0, 0, 1, 6, 0});   // v:        [5, -7, 0.5, 6]
  Tensor gamma_q = bf16({4}, {1, 2, 0.5, 1});
  Tensor gamma_k = bf16({4}, {2, 1, 1, 0.5});
  Tensor cos = bf16({1, 4}, {0.5, 0.25, 1, 0});
  Tensor sin = bf16({1, 4}, {1, -1, 0.5, 2});
  // Two entries, only the first (t = 1) used: the 5 is past the 3 slots and must not matter.
  Tensor slots = Tensor::from_values(Dtype::S32, {2}, {1, 5});
  Tensor k_cache = bf16({3, 1, 4}, std::vector<double>(12, 9));
  Tensor v_cache = bf16({3, 1, 4}, std::vector<double>(12, -9));
  Qwen3PreAttnInputs in() const {
    return {x, residual, gamma, w_qkv, gamma_q, gamma_k, cos, sin, slots, k_cache, v_cache};
  }
  // The inputs by the registry's names.
  TensorMap by_name() const {
    return {{"x", x},         {"residual", residual}, {"gamma", gamma}, {"w_qkv", w_qkv},
            {"gamma_q", gamma_q}, {"gamma_k", gamma_k}, {"cos", cos},   {"sin", sin},
            {"slots", slots}, {"k_cache", k_cache},   {"v_cache", v_cache}};
  }
};

// Per head: q0 [1, 1, 1, 1] (mean sq 1) -> * gamma_q [1, 2, 0.5, 1]; q1 [2, -2, 2, -2] (mean sq 4,
// rstd 0.5) -> [1, -1, 1, -1] * gamma_q = [1, -2, 0.5, -1] (one norm over both heads, mean sq
// 2.5, would not give these); k [3, 3, -3, 3] (rstd 1/3) * gamma_k -> [2, 1, -1, 0.5].
// RoPE (cos [0.5, 0.25, 1, 0], sin [1, -1, 0.5, 2]):
//   q0 [1, 2, 0.5, 1]   -> [0.5 - 0.5, 0.5 + 1, 0.5 + 0.5, 0 + 4]        = [0, 1.5, 1, 4]
//   q1 [1, -2, 0.5, -1] -> [0.5 - 0.5, -0.5 - 1, 0.5 + 0.5, 0 - 4]       = [0, -1.5, 1, -4]
//   k  [2, 1, -1, 0.5]  -> [1 + 1, 0.25 + 0.5, -1 + 1, 0 + 2]            = [2, 0.75, 0, 2]
const std::vector<double> kQ = {0, 1.5, 1, 4, 0, -1.5, 1, -4}, kK = {2, 0.75, 0, 2},
                          kV = {5, -7, 0.5, 6};

std::vector<double> cache_with(double fill, const std::vector<double>& row, int slot) {
  std::vector<double> c(12, fill);
  for (int j = 0; j < 4; ++j) c[size_t(slot * 4 + j)] = row[size_t(j)];
  return c;
}

// q, k, v and the caches of Tiny's hand computation above: slot 1 of each cache takes the
// token's k / v; slots 0 and 2 keep their contents.
void expect_hand_computed(const Qwen3PreAttnResult& r) {
  EXPECT_EQ(r.q.to_doubles(), kQ);
  EXPECT_EQ(r.k.to_doubles(), kK);
  EXPECT_EQ(r.v.to_doubles(), kV);
  EXPECT_EQ(r.k_cache.to_doubles(), cache_with(9, kK, 1));
  EXPECT_EQ(r.v_cache.to_doubles(), cache_with(-9, kV, 1));
}

TEST(GoldenQwen3PreAttn, HandComputedChain) {
  Tiny d;
  Qwen3PreAttnResult r = qwen3_pre_attn(d.in(), 1e-6, RmsVariant::Rsqrt);
  EXPECT_EQ(r.x_add.to_doubles(), (std::vector<double>{2, 2}));
  EXPECT_EQ(r.q.shape(), (std::vector<int64_t>{1, 2, 4}));
  EXPECT_EQ(r.q.dtype(), Dtype::BF16);
  EXPECT_EQ(r.k.shape(), (std::vector<int64_t>{1, 1, 4}));
  expect_hand_computed(r);
}

TEST(GoldenQwen3PreAttn, ResidualSumRoundsOnceToBf16) {
  // 1 + 3 * 2^-8 lies halfway between the bf16 neighbours 1 + 2^-7 and 1 + 2^-6: ties to even,
  // 1 + 2^-6 = 1.015625; 1 + 2^-8 ties down to 1.
  Tiny d;
  d.x = bf16({1, 2}, {1, 1});
  d.residual = bf16({1, 2}, {0.00390625, 0.01171875});
  EXPECT_EQ(qwen3_pre_attn(d.in(), 1e-6, RmsVariant::Rsqrt).x_add.to_doubles(),
            (std::vector<double>{1, 1.015625}));
}

TEST(GoldenQwen3PreAttn, NegativeSlotWritesNothing) {
  Tiny d;
  d.slots = Tensor::from_values(Dtype::S32, {1}, {-1});
  Qwen3PreAttnResult r = qwen3_pre_attn(d.in(), 1e-6, RmsVariant::Rsqrt);
  EXPECT_EQ(r.k_cache.to_doubles(), std::vector<double>(12, 9));
  EXPECT_EQ(r.q.to_doubles(), kQ);
}

TEST(GoldenQwen3PreAttn, ByNameFromTheRegistry) {
  Tiny d;
  TensorMap out = run_golden("qwen3_pre_attn", {{"eps", "1e-6"}}, d.by_name());
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out["q"].to_doubles(), kQ);
  EXPECT_EQ(out["k"].to_doubles(), kK);
  EXPECT_EQ(out["v"].to_doubles(), kV);
  EXPECT_EQ(out["k_cache"].to_doubles(), cache_with(9, kK, 1));
}

// The W8A8 variant on Tiny with gamma [1, 1], so h = [1, 1]: xq = [127, 127], x_scale =
// fp32(1 / 127), and acc[n] = 127 w[n, 0] (w[n, 1] = 0). fp32(127 w) * fp32(1 / 127) is exactly w
// for every w used here, so with w_scale 1 (0.5 for the v element 0.5, from w = 1) the dequantised
// qkv is the bf16 path's [q0, q1, k, v] above and q, k, v, the caches are the hand-computed ones.
struct TinyW8A8 : Tiny {
  TinyW8A8() {
    gamma = bf16({2}, {1, 1});
    const std::vector<double> rows = {1, 1, 1, 1, 2, -2, 2, -2, 3, 3, -3, 3, 5, -7, 1, 6};
    std::vector<double> w(32, 0), ws(16, 1);
    for (size_t n = 0; n < rows.size(); ++n) w[2 * n] = rows[n];
    ws[14] = 0.5;
    w_qkv = Tensor::from_values(Dtype::S8, {16, 2}, w);
    w_scale = Tensor::from_values(Dtype::F32, {16}, ws);
  }
  Tensor w_scale;
};

TEST(GoldenQwen3PreAttn, W8A8HandComputedChain) {
  TinyW8A8 d;
  Qwen3PreAttnW8A8Result r = qwen3_pre_attn_w8a8(d.in(), d.w_scale, 1e-6, RmsVariant::Rsqrt);
  EXPECT_EQ(r.xq.dtype(), Dtype::S8);
  EXPECT_EQ(r.xq.to_doubles(), (std::vector<double>{127, 127}));
  EXPECT_EQ(float(r.x_scale.get(0)), 1.0f / 127.0f);
  expect_hand_computed(r);
}

// Tiny's gamma [1, 0.5] gives h = [1, 0.5] (bf16, then quantised: AT-11's normed_dtype bf16):
// 0.5 * 127 = 63.5 ties to even, xq = [127, 64]; v's rows (w, 0) stay exact as above.
TEST(GoldenQwen3PreAttn, W8A8QuantisesTheBf16NormedRow) {
  TinyW8A8 d;
  d.gamma = bf16({2}, {1, 0.5});
  Qwen3PreAttnW8A8Result r = qwen3_pre_attn_w8a8(d.in(), d.w_scale, 1e-6, RmsVariant::Rsqrt);
  EXPECT_EQ(r.xq.to_doubles(), (std::vector<double>{127, 64}));
  // v = [5, -7, 1 * 0.5, 6] * 127 / 127: exact as above.
  EXPECT_EQ(r.v.to_doubles(), kV);
}

TEST(GoldenQwen3PreAttn, W8A8ByNameFromTheRegistry) {
  TinyW8A8 d;
  TensorMap in = d.by_name();
  in["w_scale"] = d.w_scale;
  TensorMap out = run_golden("qwen3_pre_attn", {{"eps", "1e-6"}, {"w8a8", "true"}}, in);
  ASSERT_EQ(out.size(), 8u);
  EXPECT_EQ(out["q"].to_doubles(), kQ);
  EXPECT_EQ(out["xq"].to_doubles(), (std::vector<double>{127, 127}));
  in.erase("w_scale");
  EXPECT_THROW(run_golden("qwen3_pre_attn", {{"w8a8", "true"}}, in), Error);
}

TEST(GoldenQwen3PreAttn, BadInputsNameTheTensor) {
  auto error_of = [](const Qwen3PreAttnInputs& in) -> std::string {
    return npu::test::thrown_message([&] { qwen3_pre_attn(in, 1e-6, RmsVariant::Rsqrt); });
  };
  Tiny d;
  Tensor two = Tensor::from_values(Dtype::S32, {2}, {2, 2});
  Tensor x2 = bf16({2, 2}, {1, 2.5, 1, 2.5});
  Tensor cs2 = bf16({2, 4}, {0, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(error_of({x2, x2, d.gamma, d.w_qkv, d.gamma_q, d.gamma_k, cs2, cs2, two, d.k_cache,
                      d.v_cache}),
            "qwen3_pre_attn: slots[1] = 2 repeats an earlier token's slot (the write order would "
            "decide)");
  Tensor far = Tensor::from_values(Dtype::S32, {1}, {3});
  EXPECT_EQ(error_of({d.x, d.residual, d.gamma, d.w_qkv, d.gamma_q, d.gamma_k, d.cos, d.sin, far,
                      d.k_cache, d.v_cache}),
            "qwen3_pre_attn: slots[0] = 3 is past the cache's 3 slots");
  Tensor w15 = bf16({15, 2}, std::vector<double>(30, 0));
  EXPECT_EQ(error_of({d.x, d.residual, d.gamma, w15, d.gamma_q, d.gamma_k, d.cos, d.sin, d.slots,
                      d.k_cache, d.v_cache}),
            "qwen3_pre_attn: w_qkv must be [(q_heads + 2 * kv_heads) * head_dim, hidden] with "
            "head_dim = 4, kv_heads = 1 (q_heads a multiple of kv_heads), hidden = 2, got "
            "bf16[15, 2]");
  Tensor s3 = bf16({1, 3}, {0, 0, 0});
  EXPECT_EQ(error_of({d.x, d.residual, d.gamma, d.w_qkv, d.gamma_q, d.gamma_k, d.cos, s3, d.slots,
                      d.k_cache, d.v_cache}),
            "qwen3_pre_attn: sin must be [1, 4], got bf16[1, 3]");
}

}  // namespace
}  // namespace npu::golden
