// Qwen3PreAttn phase 1 (issue 13, SK-05) and its half-split RoPE, written from the formulas of
// Hugging Face's Qwen3 attention (residual add, RMSNorm, fused QKV projection, per-head q / k
// RMSNorm, rotate_half RoPE) and vLLM's KV-cache write by slot; built on the library's own
// rmsnorm and linear goldens.
#include <set>
#include <string>

#include "base/error.h"
#include "golden/golden.h"

namespace npu::golden {
namespace {

const char* const kOp = "qwen3_pre_attn";

// Bad input: "qwen3_pre_attn: <what>".
[[noreturn]] void refuse(const std::string& what) { throw Error(std::string(kOp) + ": " + what); }
void need_shape(const Tensor& t, const std::vector<int64_t>& shape, const char* name) {
  if (t.shape() == shape) return;
  refuse(std::string(name) + " must be " + shape_str(shape) + ", got " + t.describe());
}

// Columns [c0, c0 + n) of a [rows, cols] tensor, as [rows * n / hd, hd] head rows.
Tensor head_rows(const Tensor& m, int64_t c0, int64_t n, int64_t hd) {
  const int64_t rows = m.dim(0), cols = m.dim(1);
  Tensor r(m.dtype(), {rows * n / hd, hd});
  for (int64_t i = 0; i < rows; ++i)
    for (int64_t j = 0; j < n; ++j) r.set_bits(i * n + j, m.bits(i * cols + c0 + j));
  return r;
}

Tensor reshaped(const Tensor& t, std::vector<int64_t> shape) {
  Tensor r(t.dtype(), std::move(shape));
  r.bytes() = t.bytes();
  return r;
}

// cache[slots[r]] = rows of token r ([t, width] bits), for every r with slots[r] >= 0.
void scatter_rows(Tensor& cache, const Tensor& rows, const std::vector<int64_t>& slots) {
  const int64_t width = rows.numel() / rows.dim(0);
  for (size_t r = 0; r < slots.size(); ++r)
    if (slots[r] >= 0)
      for (int64_t j = 0; j < width; ++j)
        cache.set_bits(slots[r] * width + j, rows.bits(int64_t(r) * width + j));
}

}  // namespace

Tensor rope_half(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  const char* op = "rope_half";
  if (x.rank() != 2 && x.rank() != 3)
    throw Error(std::string(op) + ": x must be [t, D] or [t, heads, D], got " + x.describe());
  const int64_t t = x.dim(0), d = x.dim(-1), heads = x.numel() / (t ? t * d : 1);
  if (cos.shape() != std::vector<int64_t>{t, d} || d % 2 != 0)
    throw Error(std::string(op) + ": cos must be [" + std::to_string(t) + ", " +
                std::to_string(d) + "] with D even, got " + cos.describe());
  if (sin.shape() != cos.shape())
    throw Error(std::string(op) + ": sin must be " + shape_str(cos.shape()) + " like cos, got " +
                sin.describe());
  const int64_t half = d / 2;
  Tensor out(x.dtype(), x.shape());
  for (int64_t r = 0; r < t; ++r) {
    for (int64_t h = 0; h < heads; ++h) {
      const int64_t base = (r * heads + h) * d;
      for (int64_t i = 0; i < half; ++i) {
        // x * cos + rotate_half(x) * sin, rotate_half(x) = [-x2, x1]: fp32 products (exact for
        // bf16 inputs), one fp32 add or subtract, one rounding.
        const float x1 = float(x.get(base + i)), x2 = float(x.get(base + half + i));
        const float c1 = float(cos.get(r * d + i)), c2 = float(cos.get(r * d + half + i));
        const float s1 = float(sin.get(r * d + i)), s2 = float(sin.get(r * d + half + i));
        const float p1 = x1 * c1, q1 = x2 * s1, p2 = x2 * c2, q2 = x1 * s2;
        out.set(base + i, p1 - q1);
        out.set(base + half + i, p2 + q2);
      }
    }
  }
  return out;
}

namespace {

// The shapes of a checked Qwen3PreAttn call.
struct Qwen3Dims {
  int64_t t = 0, hidden = 0, hd = 0, nq = 0, nkv = 0;
  std::vector<int64_t> slots;
};

// Checks every input but the projection's dtype (linear / matmul_s8 check it) and returns the
// shapes and the slots.
Qwen3Dims check_inputs(const Qwen3PreAttnInputs& in) {
  Qwen3Dims d;
  const Tensor& x = in.x;
  if (x.rank() != 2 || x.dtype() != Dtype::BF16) refuse("x must be bf16 [t, hidden], got " + x.describe());
  const int64_t t = x.dim(0), hidden = x.dim(1);
  need_shape(in.residual, x.shape(), "residual");
  if (in.residual.dtype() != Dtype::BF16) refuse("residual must be bf16, got " + in.residual.describe());
  if (in.gamma_q.rank() != 1) refuse("gamma_q must be [head_dim], got " + in.gamma_q.describe());
  const int64_t hd = in.gamma_q.dim(0);
  need_shape(in.gamma_k, {hd}, "gamma_k");
  const Tensor& kc = in.k_cache;
  if (kc.rank() != 3 || kc.dim(2) != hd)
    refuse("k_cache must be [slots, kv_heads, " + std::to_string(hd) + "], got " + kc.describe());
  const int64_t nslots = kc.dim(0), nkv = kc.dim(1);
  need_shape(in.v_cache, kc.shape(), "v_cache");
  const Tensor& w = in.w_qkv;
  if (w.rank() != 2 || w.dim(1) != hidden || w.dim(0) % hd != 0 || w.dim(0) / hd <= 2 * nkv ||
      (w.dim(0) / hd - 2 * nkv) % nkv != 0)
    refuse("w_qkv must be [(q_heads + 2 * kv_heads) * head_dim, hidden] with head_dim = " +
         std::to_string(hd) + ", kv_heads = " + std::to_string(nkv) +
         " (q_heads a multiple of kv_heads), hidden = " + std::to_string(hidden) + ", got " +
         w.describe());
  d.t = t;
  d.hidden = hidden;
  d.hd = hd;
  d.nkv = nkv;
  d.nq = w.dim(0) / hd - 2 * nkv;
  need_shape(in.cos, {t, hd}, "cos");
  need_shape(in.sin, {t, hd}, "sin");
  const Tensor& sl = in.slots;
  if (sl.rank() != 1 || sl.dtype() != Dtype::S32 || sl.dim(0) < t)
    refuse("slots must be s32 [n >= " + std::to_string(t) + "], got " + sl.describe());
  d.slots.resize(static_cast<size_t>(t));
  std::set<int64_t> seen;
  for (int64_t r = 0; r < t; ++r) {
    const int64_t s = int64_t(sl.get(r));
    d.slots[size_t(r)] = s;
    if (s >= nslots)
      refuse("slots[" + std::to_string(r) + "] = " + std::to_string(s) + " is past the cache's " +
             std::to_string(nslots) + " slots");
    if (s >= 0 && !seen.insert(s).second)
      refuse("slots[" + std::to_string(r) + "] = " + std::to_string(s) +
             " repeats an earlier token's slot (the write order would decide)");
  }
  return d;
}

// x_add = bf16(x + residual) (the new residual stream) into res; returns h = bf16(RMSNorm(x_add)
// * gamma), the activations the projection consumes.
Tensor add_and_norm(const Qwen3PreAttnInputs& in, double eps, RmsVariant variant,
                    Qwen3PreAttnResult& res) {
  const Tensor& x = in.x;
  res.x_add = Tensor(Dtype::BF16, x.shape());
  for (int64_t i = 0; i < x.numel(); ++i)
    res.x_add.set(i, double(float(x.get(i)) + float(in.residual.get(i))));
  return rmsnorm(res.x_add, &in.gamma, nullptr, eps, variant).out;
}

// From the bf16 projection qkv [t, N] on: split by columns; q and k: per-head RMSNorm with their
// gammas, then RoPE; the KV write: token r's k / v rows into slot slots[r] of the caches.
void heads(const Qwen3PreAttnInputs& in, const Qwen3Dims& d, const Tensor& qkv, double eps,
           RmsVariant variant, Qwen3PreAttnResult& res) {
  const int64_t t = d.t, hd = d.hd, qw = d.nq * hd, kw = d.nkv * hd;
  const Tensor qn = rmsnorm(head_rows(qkv, 0, qw, hd), &in.gamma_q, nullptr, eps, variant).out;
  const Tensor kn = rmsnorm(head_rows(qkv, qw, kw, hd), &in.gamma_k, nullptr, eps, variant).out;
  res.q = rope_half(reshaped(qn, {t, d.nq, hd}), in.cos, in.sin);
  res.k = rope_half(reshaped(kn, {t, d.nkv, hd}), in.cos, in.sin);
  res.v = reshaped(head_rows(qkv, qw + kw, kw, hd), {t, d.nkv, hd});
  res.k_cache = in.k_cache;
  res.v_cache = in.v_cache;
  scatter_rows(res.k_cache, res.k, d.slots);
  scatter_rows(res.v_cache, res.v, d.slots);
}

}  // namespace

Qwen3PreAttnResult qwen3_pre_attn(const Qwen3PreAttnInputs& in, double eps, RmsVariant variant) {
  const Qwen3Dims d = check_inputs(in);
  Qwen3PreAttnResult res;
  const Tensor h = add_and_norm(in, eps, variant, res);
  heads(in, d, linear(h, in.w_qkv, nullptr), eps, variant, res);
  return res;
}

Qwen3PreAttnW8A8Result qwen3_pre_attn_w8a8(const Qwen3PreAttnInputs& in, const Tensor& w_scale,
                                           double eps, RmsVariant variant) {
  const Qwen3Dims d = check_inputs(in);
  Qwen3PreAttnW8A8Result res;
  // AT-11's chain on h (normed_dtype bf16: h is rounded to bf16 before it is quantised, as the
  // bf16 path rounds it before its matmul): per-token int8, int8 matmul, AT-06 dequant to bf16.
  const Tensor h = add_and_norm(in, eps, variant, res);
  QuantResult hq = quant_per_token(h);
  const Tensor qkv = dequant(matmul_s8(hq.q, in.w_qkv), hq.scale, w_scale, nullptr);
  res.xq = std::move(hq.q);
  res.x_scale = std::move(hq.scale);
  heads(in, d, qkv, eps, variant, res);
  return res;
}

}  // namespace npu::golden
