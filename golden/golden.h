#pragma once
// Golden references (docs/numerics.md), written from the math, not from any kernel's instruction
// order. Conventions shared by all of them:
//  - element math in fp32 (each op rounded to fp32, as the formulas say);
//  - every reduction (sum of squares, dot products) is accumulated in fp64 and rounded to
//    fp32 once at the end, so the golden does not depend on a summation order. A kernel
//    accumulating in fp32 differs by far less than the bf16 tolerance;
//  - integer dot products are exact (int64), then must fit int32;
//  - outputs are rounded once with RNE (refnum.h; isa/numeric is not used, on purpose).
// Per-row / per-column vectors (gamma, scales, bias) may have any shape with the right
// element count ([N] or [1, N] ...).
#include <vector>

#include "golden/simd_path.h"
#include "golden/tensor.h"

namespace npu::golden {

enum class RmsVariant { Rsqrt, SqrtDiv };  // A: correctly rounded rsqrt; B: fp32 sqrt, then 1/s

struct RmsNormResult {
  Tensor out;   // dtype of x
  Tensor rstd;  // f32 [rows, 1]
};
// AT-03. x [rows, D] bf16 or f16 (f32 accepted too); gamma/beta [D] or nullptr.
RmsNormResult rmsnorm(const Tensor& x, const Tensor* gamma, const Tensor* beta, double eps,
                      RmsVariant variant);

// linear's dot products and matmul_s8's sums on the host paths of golden/simd_path.h (the same
// bits: each element's sum in fp64 in increasing k, a fused multiply-add rounding once where
// the product is exact, as here): Portable a scalar loop, Avx2 4-row tiles of sums in registers
// (fused where the CPU has FMA), Avx512 (AVX-512F) 8-row tiles.

// AT-09 bf16: x [M, K], w [N, K] (b_trans), bias [N] or nullptr -> out_dtype [M, N]
// (default bf16). The fp32 dot product plus fp32 bias, then one RNE cast.
Tensor linear(const Tensor& x, const Tensor& w, const Tensor* bias, Dtype out_dtype = Dtype::BF16,
              SimdPath path = SimdPath::Auto);

// AT-10: out = linear(bf16_rne(rmsnorm(x, gamma, eps)), w, bias). `normed` is the bf16
// activation the matmul consumes.
struct RmsNormLinearResult {
  Tensor out, normed;
};
RmsNormLinearResult rmsnorm_linear(const Tensor& x, const Tensor* gamma, const Tensor& w,
                                   const Tensor* bias, double eps, RmsVariant variant);

// AT-05: x [rows, D] f32 or bf16 -> q s8 [rows, D], scale_deq f32 [rows].
// scale_q = 127/amax and q = sat_int8(rne(x * scale_q)) in fp32; amax == 0 -> q 0, scale 0.
// Non-finite rows follow IEEE: amax NaN -> q 0 (NaN casts to 0), scale NaN; amax Inf ->
// scale_q 0, q 0, scale Inf. docs/numerics.md does not define these; kernels may differ.
// A tiny amax (below 127 / FLT_MAX ~ 3.7e-37) follows the formulas literally: scale_q
// overflows to +Inf, nonzero x saturate to 127 / -128, zeros give 0 and scale_deq = 1/Inf = 0.
struct QuantResult {
  Tensor q, scale;
};
QuantResult quant_per_token(const Tensor& x);

// int8 x int8 -> int32: acc[m, n] = sum_k x[m, k] * w[n, k]; throws if a sum leaves int32.
// Integer sums are exact in any order: the paths (Portable; Avx2, which Avx512 also takes)
// differ in speed only.
Tensor matmul_s8(const Tensor& x, const Tensor& w, SimdPath path = SimdPath::Auto);

// AT-06: acc s32 [M, N], x_scale f32 [M], w_scale f32 [N], bias [N] or nullptr -> bf16 [M, N].
// y = fp32(acc) * x_scale * w_scale (left to right, fp32) + bias.
Tensor dequant(const Tensor& acc, const Tensor& x_scale, const Tensor& w_scale, const Tensor* bias);

// AT-11: normed = rmsnorm(x, gamma) in fp32, stored as bf16 when normed_bf16 (the kernel's
// documented storage choice) or kept fp32; q, x_scale = quant_per_token(normed);
// acc = matmul_s8(q, w); out = dequant(acc, x_scale, w_scale, bias).
struct RmsNormLinearQuantResult {
  Tensor out, normed, q, x_scale, acc;
};
RmsNormLinearQuantResult rmsnorm_linear_quant(const Tensor& x, const Tensor* gamma,
                                              const Tensor& w, const Tensor& w_scale,
                                              const Tensor* bias, double eps, RmsVariant variant,
                                              bool normed_bf16);

// OCP MX v1.0 quantisation of x [rows, K] (blocks of 32 along K; a shorter last block is
// allowed) into elem (E4M3 or E5M2) elements [rows, K] and E8M0 scales [rows, ceil(K/32)].
// shared_exp = floor(log2(amax)) - emax_elem, clamped below at -127; amax NaN/Inf or
// shared_exp > 127 -> scale 0xFF and NaN elements; amax == 0 -> scale 0x00 (2^-127) and zero
// elements; elements = rne(v / 2^shared_exp) saturated to +-max normal.
struct MxQuantResult {
  Tensor q, scale;
};
MxQuantResult mx_quantize(const Tensor& x, Dtype elem);

// y[m, n] = sum_k (a[m,k] * 2^sa[m,k/32]) * (b[n,k] * 2^sb[n,k/32]); a NaN scale makes its
// block NaN. a [M, K], b [N, K] e4m3/e5m2; sa [M, ceil(K/32)], sb [N, ceil(K/32)] e8m0.
Tensor mx_scaled_mm(const Tensor& a, const Tensor& a_scale, const Tensor& b, const Tensor& b_scale,
                    Dtype out_dtype = Dtype::F32);

// Interleaved-pair RoPE (issue 13): x [t, D] or [t, heads, D], cos / sin [t, rope] (rope even,
// <= D), applied to the last rope dims of every D segment, pair (2i, 2i + 1) of those dims:
//   out[2i]     = x[2i] * cos[2i] - x[2i+1] * sin[2i]
//   out[2i + 1] = x[2i+1] * cos[2i+1] + x[2i] * sin[2i+1]
// in fp32 (each op rounded), rounded once to the dtype of x; the other dims pass through.
Tensor rope_interleaved(const Tensor& x, const Tensor& cos, const Tensor& sin);

// The bf16 MLAProlog (SK-04, pypto's DeepSeek-V4 test), weights [K, N] (b_trans: [N, K]):
//   q path:  qa = bf16(x @ wq_a); qr = bf16(RMSNorm(qa) * gamma_cq); qb = bf16(qr @ wq_b);
//            q = rope(bf16(RMSNorm(qb_head))) per head of head_dim, no gamma;
//   kv path: kv = bf16(x @ w_kv); kv = rope(bf16(RMSNorm(kv) * gamma_ckv)).
// x [t, h] bf16, wq_a [h, q_lora_rank], gamma_cq [q_lora_rank], wq_b [q_lora_rank, heads *
// head_dim], w_kv [h, head_dim], gamma_ckv [head_dim], cos / sin [t, rope]. head_dim comes from
// gamma_ckv, heads from wq_b. Outputs: q bf16 [t, heads, head_dim], kv bf16 [t, head_dim], qr
// bf16 [t, q_lora_rank].
struct MlaPrologInputs {
  const Tensor &x, &wq_a, &gamma_cq, &wq_b, &w_kv, &gamma_ckv, &cos, &sin;
};
struct MlaPrologResult {
  Tensor q, kv, qr;
};
MlaPrologResult mla_prolog(const MlaPrologInputs& in, double eps, RmsVariant variant, bool b_trans);

// The quantised MLAProlog (MLAPrologQuant, issue 13): as mla_prolog, but wq_b is s8 ([K, N], or
// [N, K] with b_trans) with a per-channel fp32 dequant scale wq_b_scale [heads * head_dim], and
//   qr = bf16(RMSNorm(qa) * gamma_cq)            (rounded to bf16 first, as in mla_prolog)
//   qr_q, qr_scale = quant_per_token(qr)          (AT-05: s8 [t, q_lora_rank], f32 [t])
//   qb = dequant(matmul_s8(qr_q, wq_b), qr_scale, wq_b_scale)   (AT-06, bf16)
// then the same per-head RMSNorm and RoPE -> q; the kv path is mla_prolog's.
struct MlaPrologQuantInputs {
  MlaPrologInputs plain;  // wq_b here is the s8 weight
  const Tensor& wq_b_scale;
};
struct MlaPrologQuantResult {
  Tensor q, kv, qr_q, qr_scale;
};
MlaPrologQuantResult mla_prolog_quant(const MlaPrologQuantInputs& in, double eps,
                                      RmsVariant variant, bool b_trans);

// Half-split RoPE (Qwen / Llama `rotate_half`): x [t, D] or [t, heads, D], cos / sin [t, D]
// (D even, indexed per element), h = D / 2, for i < h:
//   out[i]     = x[i] * cos[i] - x[i + h] * sin[i]
//   out[i + h] = x[i + h] * cos[i + h] + x[i] * sin[i + h]
// in fp32 (each op rounded), rounded once to the dtype of x.
Tensor rope_half(const Tensor& x, const Tensor& cos, const Tensor& sin);

// Qwen3PreAttn phase 1 (SK-05; Hugging Face's Qwen3 attention, vLLM's cache write):
//   x_add = bf16(x + residual); h = bf16(RMSNorm(x_add) * gamma);
//   qkv = bf16(h @ w_qkv^T), w_qkv [(q_heads + 2 kv_heads) * head_dim, hidden] (nn.Linear's
//   [N, K], q rows first, then k, then v); split by columns into q / k / v heads;
//   q = rope_half(bf16(RMSNorm(q_head) * gamma_q)), k likewise with gamma_k, v as projected;
//   k_cache[slots[r]] = k[r], v_cache[slots[r]] = v[r] for each token r with slots[r] >= 0
//   (vLLM's padding convention: a negative slot writes nothing).
// x, residual bf16 [t, hidden]; gamma [hidden]; gamma_q, gamma_k [head_dim]; cos / sin
// [t, head_dim]; slots s32 [n >= t] (the first t used; distinct); k_cache / v_cache [slots,
// kv_heads, head_dim] (their initial contents). head_dim from gamma_q, kv_heads from the cache.
struct Qwen3PreAttnInputs {
  const Tensor &x, &residual, &gamma, &w_qkv, &gamma_q, &gamma_k, &cos, &sin, &slots, &k_cache,
      &v_cache;
};
struct Qwen3PreAttnResult {
  Tensor x_add, q, k, v, k_cache, v_cache;
};
Qwen3PreAttnResult qwen3_pre_attn(const Qwen3PreAttnInputs& in, double eps, RmsVariant variant);

// The W8A8 variant: w_qkv s8 [N, hidden] quantised per output channel with w_scale f32 [N]; the
// projection is AT-11's chain on h (normed_dtype bf16): xq, x_scale = quant_per_token(h);
// qkv = dequant(matmul_s8(xq, w_qkv), x_scale, w_scale) (AT-06, bf16); the rest as above.
struct Qwen3PreAttnW8A8Result : Qwen3PreAttnResult {
  Tensor xq, x_scale;  // s8 [t, hidden], f32 [t]
};
Qwen3PreAttnW8A8Result qwen3_pre_attn_w8a8(const Qwen3PreAttnInputs& in, const Tensor& w_scale,
                                           double eps, RmsVariant variant);

}  // namespace npu::golden
