// The bf16 MLAProlog chain (issue 13, SK-04) and its interleaved RoPE, from the formulas of
// pypto's DeepSeek-V4 MLA prolog test; built on the library's own rmsnorm and linear goldens.
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

MlaPrologResult mla_prolog(const MlaPrologInputs& in, double eps, RmsVariant variant,
                           bool b_trans) {
  const Tensor& x = in.x;
  if (x.rank() != 2 || x.dtype() != Dtype::BF16)
    fail("x must be bf16 [t, h], got " + x.describe());
  if (in.gamma_cq.rank() != 1 || in.gamma_ckv.rank() != 1)
    fail("gamma_cq and gamma_ckv must be [q_lora_rank] and [head_dim], got " +
         in.gamma_cq.describe() + " and " + in.gamma_ckv.describe());
  const int64_t t = x.dim(0), h = x.dim(1);
  const int64_t q_lora = in.gamma_cq.dim(0), head_dim = in.gamma_ckv.dim(0);
  // wq_b's output width is heads * head_dim: heads from its size.
  const Tensor& wq_b = in.wq_b;
  if (wq_b.rank() != 2 || head_dim == 0 || wq_b.dim(b_trans ? 0 : 1) % head_dim != 0 ||
      wq_b.dim(b_trans ? 1 : 0) != q_lora)
    fail("wq_b must be " +
         std::string(b_trans ? "[heads * head_dim, q_lora_rank]" : "[q_lora_rank, heads * head_dim]") +
         " with head_dim = " + std::to_string(head_dim) + ", q_lora_rank = " +
         std::to_string(q_lora) + ", got " + wq_b.describe());
  const int64_t heads = wq_b.dim(b_trans ? 0 : 1) / head_dim;
  need_shape(in.sin, in.cos.shape(), "sin");

  MlaPrologResult res;
  // q path: qa -> qr = RMSNorm(qa) * gamma_cq -> qb -> per-head RMSNorm (no gamma) -> RoPE.
  const Tensor qa = linear(x, weight_nk(in.wq_a, h, q_lora, b_trans, "wq_a"), nullptr);
  res.qr = rmsnorm(qa, &in.gamma_cq, nullptr, eps, variant).out;
  const Tensor qb = linear(res.qr, weight_nk(wq_b, q_lora, heads * head_dim, b_trans, "wq_b"), nullptr);
  const Tensor qn = rmsnorm(reshaped(qb, {t * heads, head_dim}), nullptr, nullptr, eps, variant).out;
  res.q = rope_interleaved(reshaped(qn, {t, heads, head_dim}), in.cos, in.sin);
  // kv path: kv -> RMSNorm(kv) * gamma_ckv -> RoPE.
  const Tensor kv = linear(x, weight_nk(in.w_kv, h, head_dim, b_trans, "w_kv"), nullptr);
  res.kv = rope_interleaved(rmsnorm(kv, &in.gamma_ckv, nullptr, eps, variant).out, in.cos, in.sin);
  return res;
}

}  // namespace npu::golden
