// The bf16 MLAProlog chain (issue 13, SK-04) and its interleaved RoPE, from the formulas of
// pypto's DeepSeek-V4 MLA prolog test; built on the library's own rmsnorm and linear goldens.
// The quantised chain (MLAPrologQuant) shares its steps and adds the library's AT-05 / AT-06
// goldens (quant_per_token, matmul_s8, dequant).
#include <string>

#include "base/error.h"
#include "golden/golden.h"

namespace npu::golden {
namespace {

const char* const kOp = "mla_prolog";

[[noreturn]] void fail(const std::string& what) { throw Error(std::string(kOp) + ": " + what); }

void need_shape(const Tensor& t, const std::vector<int64_t>& shape, const char* name) {
  if (t.shape() != shape)
    fail(std::string(name) + " must be " + shape_str(shape) + ", got " + t.describe());
}

// The same bytes under another shape of the same element count (C order).
Tensor reshaped(const Tensor& t, std::vector<int64_t> shape) {
  Tensor r(t.dtype(), std::move(shape));
  r.bytes() = t.bytes();
  return r;
}

// Weight w of a K -> N projection, stored [K, N] (or [N, K] with b_trans), as linear()'s [N, K].
Tensor weight_nk(const Tensor& w, int64_t k, int64_t n, bool b_trans, const char* name) {
  if (b_trans) {
    need_shape(w, {n, k}, name);
    return w;
  }
  need_shape(w, {k, n}, name);
  return transposed_bits(w);
}

}  // namespace

Tensor rope_interleaved(const Tensor& x, const Tensor& cos, const Tensor& sin) {
  const char* op = "rope";
  if (x.rank() != 2 && x.rank() != 3)
    throw Error(std::string(op) + ": x must be [t, D] or [t, heads, D], got " + x.describe());
  if (cos.rank() != 2)
    throw Error(std::string(op) + ": cos must be [t, rope], got " + cos.describe());
  const int64_t t = x.dim(0), d = x.dim(-1), segs = x.numel() / (t ? t * d : 1);
  const int64_t rope = cos.dim(1);
  if (cos.dim(0) != t || rope % 2 != 0 || rope > d)
    throw Error(std::string(op) + ": cos must be [" + std::to_string(t) +
                ", rope] with rope even and <= " + std::to_string(d) + ", got " + cos.describe());
  if (sin.shape() != cos.shape())
    throw Error(std::string(op) + ": sin must be " + shape_str(cos.shape()) + " like cos, got " +
                sin.describe());
  Tensor out = x;  // the first d - rope dims of every segment pass through
  for (int64_t r = 0; r < t; ++r) {
    for (int64_t s = 0; s < segs; ++s) {
      const int64_t base = (r * segs + s) * d + (d - rope);
      for (int64_t i = 0; i < rope; i += 2) {
        // fp32 ops, each rounded (the products of bf16 values are exact in fp32).
        const float x0 = float(x.get(base + i)), x1 = float(x.get(base + i + 1));
        const float c0 = float(cos.get(r * rope + i)), c1 = float(cos.get(r * rope + i + 1));
        const float s0 = float(sin.get(r * rope + i)), s1 = float(sin.get(r * rope + i + 1));
        const float p0 = x0 * c0, q0 = x1 * s0, p1 = x1 * c1, q1 = x0 * s1;
        out.set(base + i, p0 - q0);
        out.set(base + i + 1, p1 + q1);
      }
    }
  }
  return out;
}

namespace {

// The checks both variants share; returns heads (from wq_b's output width, heads * head_dim).
int64_t check_inputs(const Tensor& x, const Tensor& gamma_cq, const Tensor& gamma_ckv,
                     const Tensor& wq_b, const Tensor& cos, const Tensor& sin, bool b_trans) {
  if (x.rank() != 2 || x.dtype() != Dtype::BF16)
    fail("x must be bf16 [t, h], got " + x.describe());
  if (gamma_cq.rank() != 1 || gamma_ckv.rank() != 1)
    fail("gamma_cq and gamma_ckv must be [q_lora_rank] and [head_dim], got " +
         gamma_cq.describe() + " and " + gamma_ckv.describe());
  const int64_t q_lora = gamma_cq.dim(0), head_dim = gamma_ckv.dim(0);
  if (wq_b.rank() != 2 || head_dim == 0 || wq_b.dim(b_trans ? 0 : 1) % head_dim != 0 ||
      wq_b.dim(b_trans ? 1 : 0) != q_lora)
    fail("wq_b must be " +
         std::string(b_trans ? "[heads * head_dim, q_lora_rank]" : "[q_lora_rank, heads * head_dim]") +
         " with head_dim = " + std::to_string(head_dim) + ", q_lora_rank = " +
         std::to_string(q_lora) + ", got " + wq_b.describe());
  need_shape(sin, cos.shape(), "sin");
  return wq_b.dim(b_trans ? 0 : 1) / head_dim;
}

// q from qb [t, heads * head_dim] bf16: per head bf16(RMSNorm(qb_head)) without gamma, then RoPE.
Tensor q_heads(const Tensor& qb, int64_t heads, int64_t head_dim, const Tensor& cos,
               const Tensor& sin, double eps, RmsVariant variant) {
  const int64_t t = qb.dim(0);
  const Tensor qn = rmsnorm(reshaped(qb, {t * heads, head_dim}), nullptr, nullptr, eps, variant).out;
  return rope_interleaved(reshaped(qn, {t, heads, head_dim}), cos, sin);
}

// The kv path: kv = bf16(x @ w_kv) -> bf16(RMSNorm(kv) * gamma_ckv) -> RoPE.
Tensor kv_path(const Tensor& x, const Tensor& w_kv, const Tensor& gamma_ckv, const Tensor& cos,
               const Tensor& sin, double eps, RmsVariant variant, bool b_trans) {
  const Tensor kv = linear(x, weight_nk(w_kv, x.dim(1), gamma_ckv.dim(0), b_trans, "w_kv"), nullptr);
  return rope_interleaved(rmsnorm(kv, &gamma_ckv, nullptr, eps, variant).out, cos, sin);
}

}  // namespace

MlaPrologResult mla_prolog(const MlaPrologInputs& in, double eps, RmsVariant variant,
                           bool b_trans) {
  const int64_t heads = check_inputs(in.x, in.gamma_cq, in.gamma_ckv, in.wq_b, in.cos, in.sin, b_trans);
  const int64_t h = in.x.dim(1), q_lora = in.gamma_cq.dim(0), head_dim = in.gamma_ckv.dim(0);
  MlaPrologResult res;
  // q path: qa -> qr = RMSNorm(qa) * gamma_cq -> qb -> per-head RMSNorm (no gamma) -> RoPE.
  const Tensor qa = linear(in.x, weight_nk(in.wq_a, h, q_lora, b_trans, "wq_a"), nullptr);
  res.qr = rmsnorm(qa, &in.gamma_cq, nullptr, eps, variant).out;
  const Tensor qb = linear(res.qr, weight_nk(in.wq_b, q_lora, heads * head_dim, b_trans, "wq_b"), nullptr);
  res.q = q_heads(qb, heads, head_dim, in.cos, in.sin, eps, variant);
  res.kv = kv_path(in.x, in.w_kv, in.gamma_ckv, in.cos, in.sin, eps, variant, b_trans);
  return res;
}

MlaPrologQuantResult mla_prolog_quant(const MlaPrologQuantInputs& in, double eps,
                                      RmsVariant variant, bool b_trans) {
  const MlaPrologInputs& p = in.plain;
  const int64_t heads = check_inputs(p.x, p.gamma_cq, p.gamma_ckv, p.wq_b, p.cos, p.sin, b_trans);
  if (p.wq_b.dtype() != Dtype::S8) fail("wq_b must be s8, got " + p.wq_b.describe());
  const int64_t h = p.x.dim(1), q_lora = p.gamma_cq.dim(0), head_dim = p.gamma_ckv.dim(0);
  MlaPrologQuantResult res;
  // q path: qr is rounded to bf16 (as in the bf16 prolog), then quantised per token (AT-05);
  // int8 matmul, AT-06 dequant to bf16 qb (fp32(acc) * qr_scale[t] * wq_b_scale[n]).
  const Tensor qa = linear(p.x, weight_nk(p.wq_a, h, q_lora, b_trans, "wq_a"), nullptr);
  const Tensor qr = rmsnorm(qa, &p.gamma_cq, nullptr, eps, variant).out;
  QuantResult qq = quant_per_token(qr);
  const Tensor acc = matmul_s8(qq.q, weight_nk(p.wq_b, q_lora, heads * head_dim, b_trans, "wq_b"));
  const Tensor qb = dequant(acc, qq.scale, in.wq_b_scale, nullptr);
  res.q = q_heads(qb, heads, head_dim, p.cos, p.sin, eps, variant);
  res.kv = kv_path(p.x, p.w_kv, p.gamma_ckv, p.cos, p.sin, eps, variant, b_trans);
  res.qr_q = std::move(qq.q);
  res.qr_scale = std::move(qq.scale);
  return res;
}

}  // namespace npu::golden
