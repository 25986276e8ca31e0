// Cube semantics: mmad (bf16/f16/f32 -> f32, s8 -> s32) and mmad_mx (fp8 with E8M0 scales).
// A and B are converted to fp32 (int32 for s8) once; the product loop is blocked over k and n
// with a contiguous inner loop over n that the compiler vectorises. Every output element
// accumulates its k products in increasing k order (the blocking never reorders k), so the
// result is the same as the plain i,k,j loop, bit for bit.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "isa/numeric/numeric.h"
#include "isa/sem/exec_util.h"

namespace npu::sem::detail {

namespace {

using isa::Dtype;
using isa::Op;
namespace ops = isa::ops;

constexpr uint64_t kMaxDim = 4095;
constexpr size_t kBlockK = 64, kBlockN = 256;

// C[m,n] += A[m,k] x B[k,n]; T = float or uint32_t (wrapping int32 accumulation).
template <typename T>
void matmul_acc(const T* A, const T* B, T* C, size_t m, size_t k, size_t n) {
  for (size_t kb = 0; kb < k; kb += kBlockK) {
    size_t ke = std::min(k, kb + kBlockK);
    for (size_t jb = 0; jb < n; jb += kBlockN) {
      size_t jn = std::min(n - jb, kBlockN);
      for (size_t i = 0; i < m; ++i) {
        T* c = C + i * n + jb;
        for (size_t kk = kb; kk < ke; ++kk) {
          const T a = A[i * k + kk];
          const T* b = B + kk * n + jb;
          for (size_t j = 0; j < jn; ++j) c[j] += a * b[j];
        }
      }
    }
  }
}

struct Dims {
  uint64_t m, k, n;
};

template <class V>
Dims dims(Exec& x, const V& o) {
  Dims d{o.m, o.k, o.n};
  if (d.m > kMaxDim || d.k > kMaxDim || d.n > kMaxDim)
    x.bad("m, k, n must be <= 4095 (m=" + std::to_string(d.m) + ", k=" + std::to_string(d.k) +
          ", n=" + std::to_string(d.n) + ")");
  return d;
}

}  // namespace

template <>
void exec<Op::MMAD>(Exec& x) {
  const auto o = x.di.as<ops::MMAD>();
  const Dtype dt = o.dt;
  x.require_dtype(dt, {Dtype::BF16, Dtype::F16, Dtype::F32, Dtype::S8}, "mmad");
  Dims d = dims(x, o);
  uint64_t es = isa::dtype_size(dt);
  const uint8_t* a = x.local(Buffer::L0A, o.a, d.m * d.k * es, false);
  const uint8_t* b = x.local(Buffer::L0B, o.b, d.k * d.n * es, false);
  uint8_t* c = x.local(Buffer::L0C, o.c, d.m * d.n * 4, true);
  const bool init = o.init != 0;
  if (dt == Dtype::S8) {
    std::vector<uint32_t> A(d.m * d.k), B(d.k * d.n), C(d.m * d.n, 0);
    for (size_t i = 0; i < A.size(); ++i) A[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(a[i])));
    for (size_t i = 0; i < B.size(); ++i) B[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b[i])));
    if (!init) std::memcpy(C.data(), c, C.size() * 4);
    matmul_acc(A.data(), B.data(), C.data(), d.m, d.k, d.n);
    std::memcpy(c, C.data(), C.size() * 4);
    return;
  }
  std::vector<float> A(d.m * d.k), B(d.k * d.n), C(d.m * d.n, 0.0f);
  load_floats(dt, a, A.size(), A.data());
  load_floats(dt, b, B.size(), B.data());
  if (!init) std::memcpy(C.data(), c, C.size() * 4);
  matmul_acc(A.data(), B.data(), C.data(), d.m, d.k, d.n);
  std::memcpy(c, C.data(), C.size() * 4);
}

namespace {

// Element value times 2^(scale - 127); NaN for the NaN scale 0xFF.
float mx_scaled(Dtype et, uint8_t elem, uint8_t scale) {
  if (scale == 0xFF) return std::numeric_limits<float>::quiet_NaN();
  return static_cast<float>(std::ldexp(num::decode(et, &elem), static_cast<int>(scale) - 127));
}

}  // namespace

template <>
void exec<Op::MMAD_MX>(Exec& x) {
  const auto o = x.di.as<ops::MMAD_MX>();
  auto et = o.et == isa::MxType::E4M3 ? Dtype::E4M3 : Dtype::E5M2;
  Dims d = dims(x, o);
  uint64_t kb = (d.k + 31) / 32;  // scale blocks along k
  const uint8_t* a = x.local(Buffer::L0A, o.a, d.m * d.k, false);
  const uint8_t* b = x.local(Buffer::L0B, o.b, d.k * d.n, false);
  const uint8_t* sa = x.local(Buffer::L0A, o.sa, d.m * kb, false);
  const uint8_t* sb = x.local(Buffer::L0B, o.sb, kb * d.n, false);
  uint8_t* c = x.local(Buffer::L0C, o.c, d.m * d.n * 4, true);
  std::vector<float> A(d.m * d.k), B(d.k * d.n), C(d.m * d.n, 0.0f);
  for (uint64_t i = 0; i < d.m; ++i)
    for (uint64_t kk = 0; kk < d.k; ++kk)
      A[i * d.k + kk] = mx_scaled(et, a[i * d.k + kk], sa[i * kb + kk / 32]);
  for (uint64_t kk = 0; kk < d.k; ++kk)
    for (uint64_t j = 0; j < d.n; ++j)
      B[kk * d.n + j] = mx_scaled(et, b[kk * d.n + j], sb[(kk / 32) * d.n + j]);
  if (o.init == 0) std::memcpy(C.data(), c, C.size() * 4);
  matmul_acc(A.data(), B.data(), C.data(), d.m, d.k, d.n);
  std::memcpy(c, C.data(), C.size() * 4);
}

}  // namespace npu::sem::detail
