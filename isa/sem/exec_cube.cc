// Cube semantics: mmad (bf16/f16/f32 -> f32, s8 -> s32) and mmad_mx (fp8 with E8M0 scales).
// A and B are converted to fp32 (int32 for s8) once into per-thread scratch; the product loop
// (cube_kernel.h) accumulates every output element's k products in increasing k order, so the
// result is the same as the plain i,k,j loop, bit for bit.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "isa/numeric/numeric.h"
#include "isa/sem/cube_kernel.h"
#include "isa/sem/exec_util.h"

namespace npu::sem::detail {

namespace {

using isa::Dtype;
using isa::Op;
namespace ops = isa::ops;

constexpr uint64_t kMaxDim = 4095;

// Per-thread scratch for the fp32 / int32 copies of A, B and C: grown, never freed, so an mmad
// allocates nothing once the largest shape has been seen.
template <typename T>
T* scratch(int which, size_t n) {
  thread_local std::vector<T> bufs[3];
  std::vector<T>& v = bufs[which];
  if (v.size() < n) v.resize(n);
  return v.data();
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
  Dims d = dims(x, o);
  uint64_t es = isa::dtype_size(dt);
  const uint8_t* a = x.local(Buffer::L0A, o.a, d.m * d.k * es, false);
  const uint8_t* b = x.local(Buffer::L0B, o.b, d.k * d.n * es, false);
  uint8_t* c = x.local(Buffer::L0C, o.c, d.m * d.n * 4, true);
  const bool init = o.init != 0;
  const size_t na = d.m * d.k, nb = d.k * d.n, nc = d.m * d.n;
  if (nc == 0) return;  // no output element (the operands' ranges were checked above)
  if (dt == Dtype::S8) {
    uint32_t *A = scratch<uint32_t>(0, na), *B = scratch<uint32_t>(1, nb), *C = scratch<uint32_t>(2, nc);
    for (size_t i = 0; i < na; ++i) A[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(a[i])));
    for (size_t i = 0; i < nb; ++i) B[i] = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b[i])));
    if (init) std::fill(C, C + nc, 0u);
    else std::memcpy(C, c, nc * 4);
    matmul_u32(A, B, C, d.m, d.k, d.n);
    std::memcpy(c, C, nc * 4);
    return;
  }
  float *A = scratch<float>(0, na), *B = scratch<float>(1, nb);
  load_floats(dt, a, na, A);
  load_floats(dt, b, nb, B);
  // L0C holds little-endian fp32, the host's float: the product loop works on it in place
  // (when it is float-aligned; a copy otherwise), which saves two copies of C per mmad.
  const bool in_place = reinterpret_cast<uintptr_t>(c) % alignof(float) == 0;
  float* C = in_place ? reinterpret_cast<float*>(c) : scratch<float>(2, nc);
  if (init) std::fill(C, C + nc, 0.0f);
  else if (!in_place) std::memcpy(C, c, nc * 4);
  const bool narrow = dt == Dtype::BF16 || dt == Dtype::F16;  // significands of 8 / 11 bits
  matmul_f32(A, B, C, d.m, d.k, d.n, CubePath::Auto, narrow && exact_products(A, na) && exact_products(B, nb));
  if (!in_place) std::memcpy(c, C, nc * 4);
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
  const size_t nc = d.m * d.n;
  if (nc == 0) return;  // as in mmad
  float *A = scratch<float>(0, d.m * d.k), *B = scratch<float>(1, d.k * d.n), *C = scratch<float>(2, nc);
  for (uint64_t i = 0; i < d.m; ++i)
    for (uint64_t kk = 0; kk < d.k; ++kk)
      A[i * d.k + kk] = mx_scaled(et, a[i * d.k + kk], sa[i * kb + kk / 32]);
  for (uint64_t kk = 0; kk < d.k; ++kk)
    for (uint64_t j = 0; j < d.n; ++j)
      B[kk * d.n + j] = mx_scaled(et, b[kk * d.n + j], sb[(kk / 32) * d.n + j]);
  if (o.init != 0) std::fill(C, C + nc, 0.0f);
  else std::memcpy(C, c, nc * 4);
  // fp8 significands (4 / 3 bits) times a power of two: exact products within the range.
  matmul_f32(A, B, C, d.m, d.k, d.n, CubePath::Auto,
             exact_products(A, d.m * d.k) && exact_products(B, d.k * d.n));
  std::memcpy(c, C, nc * 4);
}

}  // namespace npu::sem::detail
