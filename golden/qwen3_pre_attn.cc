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

Qwen3PreAttnResult qwen3_pre_attn(const Qwen3PreAttnInputs& in, double eps, RmsVariant variant) {
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
  const int64_t nq = w.dim(0) / hd - 2 * nkv;
  need_shape(in.cos, {t, hd}, "cos");
  need_shape(in.sin, {t, hd}, "sin");
  const Tensor& sl = in.slots;
  if (sl.rank() != 1 || sl.dtype() != Dtype::S32 || sl.dim(0) < t)
    refuse("slots must be s32 [n >= " + std::to_string(t) + "], got " + sl.describe());
  std::vector<int64_t> slots(static_cast<size_t>(t));
  std::set<int64_t> seen;
  for (int64_t r = 0; r < t; ++r) {
    slots[size_t(r)] = int64_t(sl.get(r));
    if (slots[size_t(r)] >= nslots)
      refuse("slots[" + std::to_string(r) + "] = " + std::to_string(slots[size_t(r)]) +
           " is past the cache's " + std::to_string(nslots) + " slots");
    if (slots[size_t(r)] >= 0 && !seen.insert(slots[size_t(r)]).second)
      refuse("slots[" + std::to_string(r) + "] = " + std::to_string(slots[size_t(r)]) +
           " repeats an earlier token's slot (the write order would decide)");
  }

  Qwen3PreAttnResult res;
  // x_add = bf16(x + residual) (the new residual stream), normalised and projected.
  res.x_add = Tensor(Dtype::BF16, {t, hidden});
  for (int64_t i = 0; i < x.numel(); ++i)
    res.x_add.set(i, double(float(x.get(i)) + float(in.residual.get(i))));
  const Tensor h = rmsnorm(res.x_add, &in.gamma, nullptr, eps, variant).out;
  const Tensor qkv = linear(h, w, nullptr);
  // Split by columns; q and k: per-head RMSNorm with their gammas, then RoPE.
  const int64_t qw = nq * hd, kw = nkv * hd;
  const Tensor qn = rmsnorm(head_rows(qkv, 0, qw, hd), &in.gamma_q, nullptr, eps, variant).out;
  const Tensor kn = rmsnorm(head_rows(qkv, qw, kw, hd), &in.gamma_k, nullptr, eps, variant).out;
  res.q = rope_half(reshaped(qn, {t, nq, hd}), in.cos, in.sin);
  res.k = rope_half(reshaped(kn, {t, nkv, hd}), in.cos, in.sin);
  res.v = reshaped(head_rows(qkv, qw + kw, kw, hd), {t, nkv, hd});
  // The KV write: token r's k / v rows into slot slots[r] of the caches.
  res.k_cache = kc;
  res.v_cache = in.v_cache;
  scatter_rows(res.k_cache, res.k, slots);
  scatter_rows(res.v_cache, res.v, slots);
  return res;
}

}  // namespace npu::golden
