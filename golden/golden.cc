#include "golden/golden.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "base/error.h"
#include "base/simd.h"
#include "golden/refnum.h"

namespace npu::golden {
namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();

void need_rank2(const Tensor& t, const char* op, const char* what) {
  if (t.rank() != 2)
    throw Error(std::string(op) + ": " + what + " must be rank 2, got " + t.describe());
}

void need_dtype(const Tensor& t, std::initializer_list<Dtype> ok, const char* op,
                const char* what) {
  std::string names;
  for (Dtype d : ok) {
    if (t.dtype() == d) return;
    names += (names.empty() ? "" : "|") + std::string(ref::name_of(d));
  }
  throw Error(std::string(op) + ": " + what + " must be " + names + ", got " + t.describe());
}

void need_numel(const Tensor* t, int64_t n, const char* op, const char* what) {
  if (t && t->numel() != n)
    throw Error(std::string(op) + ": " + what + " must have " + std::to_string(n) +
                " elements, got " + t->describe());
}

float f32(double v) { return float(v); }

// fp32 RMSNorm of every row (docs/numerics.md AT-03) before the output cast.
void rmsnorm_f32(const Tensor& x, const Tensor* gamma, const Tensor* beta, double eps,
                 RmsVariant variant, const char* op, std::vector<float>* y,
                 std::vector<float>* rstd) {
  need_rank2(x, op, "x");
  need_dtype(x, {Dtype::BF16, Dtype::F16, Dtype::F32}, op, "x");
  int64_t rows = x.dim(0), d = x.dim(1);
  if (d == 0) throw Error(std::string(op) + ": x has zero columns");
  need_numel(gamma, d, op, "gamma");
  need_numel(beta, d, op, "beta");
  y->assign(size_t(rows * d), 0.0f);
  rstd->assign(size_t(rows), 0.0f);
  const float inv_d = 1.0f / float(d);
  const float eps32 = f32(eps);
  for (int64_t r = 0; r < rows; ++r) {
    double acc = 0;  // fp64 accumulation of fp32 terms
    for (int64_t j = 0; j < d; ++j) {
      float v = f32(x.get(r * d + j));
      float term = (v * v) * inv_d;
      acc += term;
    }
    float var = f32(acc) + eps32;
    float rs = variant == RmsVariant::Rsqrt ? f32(1.0 / std::sqrt(double(var)))
                                            : 1.0f / std::sqrt(var);
    (*rstd)[size_t(r)] = rs;
    for (int64_t j = 0; j < d; ++j) {
      float v = f32(x.get(r * d + j)) * rs;
      if (gamma) v = v * f32(gamma->get(j));
      if (beta) v = v + f32(beta->get(j));
      (*y)[size_t(r * d + j)] = v;
    }
  }
}

// acc[i, j] = sum over q = 0, 1, ..., k-1 of x[i, q] * w[j, q], in fp64, each element's sum
// in increasing q (one rounding per product, one per addition: the products of 16-bit floats
// and of fp32 values are exact in fp64, so the order of the additions is the only choice, and
// it is fixed). x: m x k doubles; w: [n, k] tensor. The work is blocked for the caches: for each
// block of kBlockQ values of q, the kBlockJ columns of w of a column block are decoded into
// panels (transposed, 8 columns each: 128 KB, in L2) and every tile of rows of x (4 or 8 rows:
// 8 or 16 KB, in L1) passes over all of them; with AVX2 a 4 x kPanel tile of sums lives in
// registers, with AVX-512 an 8 x kPanel one, and the sums wait in acc between q blocks. Blocking
// changes where each running sum is kept between additions, never the additions themselves, so
// every path (and every block size) gives the same bits as the plain i, j, q loop.
constexpr int64_t kPanel = 8, kMaxRows = 8, kBlockQ = 256, kBlockJ = 64;

// One Rows x 8 tile over q in [q0, q1): acc[r][c] += x[r][q] * p[q][c] (p: panel, 8 per q;
// acc rows `stride` doubles apart; sums start from zero instead of acc when !load).
using TileFn = void (*)(const double* const x[kMaxRows], const double* p, int64_t q0, int64_t q1, double* acc,
                        int64_t stride, bool load);
struct Tile {
  TileFn fn;
  int64_t rows;
};

void tile_scalar(const double* const x[kMaxRows], const double* p, int64_t q0, int64_t q1, double* acc,
                 int64_t stride, bool load) {
  double a[4][kPanel];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < kPanel; ++c) a[r][c] = load ? acc[r * stride + c] : 0.0;
  for (int64_t q = q0; q < q1; ++q)
    for (int r = 0; r < 4; ++r)
      for (int c = 0; c < kPanel; ++c) a[r][c] = a[r][c] + x[r][q] * p[(q - q0) * kPanel + c];
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < kPanel; ++c) acc[r * stride + c] = a[r][c];
}

#if defined(__x86_64__)
// Fused: fma(x, p, acc) in place of acc + x * p. The same bits for every finite or infinite
// operand, because each product (of two 16-bit floats or two fp32 values, see above) is exact
// in fp64: rounding the exact sum once is what the addition does (where two NaN meet, which
// NaN comes out may differ; the comparison rule treats every NaN alike). Twice the rate.
template <bool Fused>
__attribute__((target("avx2,fma"))) inline __m256d mul_add(__m256d x, __m256d p, __m256d acc) {
  return Fused ? _mm256_fmadd_pd(x, p, acc) : _mm256_add_pd(acc, _mm256_mul_pd(x, p));
}

template <bool Fused>
__attribute__((target("avx2,fma"))) void tile_avx2(const double* const x[kMaxRows], const double* p, int64_t q0,
                                                   int64_t q1, double* acc, int64_t stride, bool load) {
  __m256d a[4][2];
  for (int r = 0; r < 4; ++r)
    for (int h = 0; h < 2; ++h) a[r][h] = load ? _mm256_loadu_pd(acc + r * stride + 4 * h) : _mm256_setzero_pd();
  for (int64_t q = q0; q < q1; ++q, p += kPanel) {
    const __m256d p0 = _mm256_loadu_pd(p), p1 = _mm256_loadu_pd(p + 4);
    for (int r = 0; r < 4; ++r) {
      const __m256d b = _mm256_broadcast_sd(x[r] + q);
      a[r][0] = mul_add<Fused>(b, p0, a[r][0]);  // acc + product, as the scalar loop
      a[r][1] = mul_add<Fused>(b, p1, a[r][1]);
    }
  }
  for (int r = 0; r < 4; ++r)
    for (int h = 0; h < 2; ++h) _mm256_storeu_pd(acc + r * stride + 4 * h, a[r][h]);
}

// AVX-512F: eight rows, one zmm of sums per row (8 independent fused chains, as many as two FMA
// pipes of four cycles' latency keep busy), one panel load and eight broadcasts per q.
__attribute__((target("avx512f"))) void tile_avx512(const double* const x[kMaxRows], const double* p, int64_t q0,
                                                    int64_t q1, double* acc, int64_t stride, bool load) {
  __m512d a[kMaxRows];
  for (int r = 0; r < kMaxRows; ++r) a[r] = load ? _mm512_loadu_pd(acc + r * stride) : _mm512_setzero_pd();
  for (int64_t q = q0; q < q1; ++q, p += kPanel) {
    const __m512d pv = _mm512_loadu_pd(p);
    for (int r = 0; r < kMaxRows; ++r) a[r] = _mm512_fmadd_pd(_mm512_set1_pd(x[r][q]), pv, a[r]);
  }
  for (int r = 0; r < kMaxRows; ++r) _mm512_storeu_pd(acc + r * stride, a[r]);
}
#endif

Tile tile_for(SimdPath path) {
#if defined(__x86_64__)
  switch (resolve_simd_path(path)) {
    case SimdPath::Avx512: return {tile_avx512, 8};
    case SimdPath::Avx2: return {cpu_has_fma() ? tile_avx2<true> : tile_avx2<false>, 4};
    default: break;
  }
#else
  (void)path;
#endif
  return {tile_scalar, 4};
}

void dot_rows_fp64(const double* xv, const Tensor& w, int64_t m, int64_t k, int64_t n, double* acc, SimdPath path) {
  const Tile tile = tile_for(path);
  const std::vector<double> zero_row(size_t(k), 0.0);  // the missing rows of a last partial tile
  // Panel p of a block: [q - q0][c] for its 8 columns. The columns past n of a last partial panel
  // give sums that are never stored.
  std::vector<double> panels(size_t(kBlockJ * kBlockQ), 0.0);
  std::vector<double> wrow(static_cast<size_t>(kBlockQ));
  const uint8_t* wb = w.bytes().data();
  const int es = w.elem_size();
  if (k == 0) std::fill(acc, acc + m * n, 0.0);  // (no q block: nothing else writes acc)
  for (int64_t q0 = 0; q0 < k; q0 += kBlockQ) {
    const int64_t q1 = std::min(k, q0 + kBlockQ);
    const bool load = q0 > 0;  // the first q block starts every sum at zero
    for (int64_t jb = 0; jb < n; jb += kBlockJ) {
      const int64_t jcols = std::min(kBlockJ, n - jb), npanels = (jcols + kPanel - 1) / kPanel;
      for (int64_t c = 0; c < jcols; ++c) {  // w[jb + c, q] -> panel c / 8, [q - q0][c % 8]
        ref::decode_n(w.dtype(), wb + ((jb + c) * k + q0) * es, q1 - q0, wrow.data());
        double* panel = panels.data() + (c / kPanel) * kBlockQ * kPanel + c % kPanel;
        for (int64_t q = 0; q < q1 - q0; ++q) panel[q * kPanel] = wrow[size_t(q)];
      }
      for (int64_t i0 = 0; i0 < m; i0 += tile.rows) {
        const int64_t rows = std::min(tile.rows, m - i0);
        const double* x[kMaxRows];
        for (int r = 0; r < kMaxRows; ++r) x[r] = r < rows ? xv + (i0 + r) * k : zero_row.data();
        for (int64_t p = 0; p < npanels; ++p) {
          const int64_t j0 = jb + p * kPanel, cols = std::min(kPanel, n - j0);
          const double* panel = panels.data() + p * kBlockQ * kPanel;
          double* a = acc + i0 * n + j0;
          if (rows == tile.rows && cols == kPanel) {  // a whole tile: its sums stay in acc
            tile.fn(x, panel, q0, q1, a, n, load);
            continue;
          }
          double t[kMaxRows][kPanel] = {};  // a partial one: through a full-size copy
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) t[r][c] = load ? a[r * n + c] : 0.0;
          tile.fn(x, panel, q0, q1, t[0], kPanel, true);
          for (int64_t r = 0; r < rows; ++r)
            for (int64_t c = 0; c < cols; ++c) a[r * n + c] = t[r][c];
        }
      }
    }
  }
}

Tensor cast_to(Dtype dtype, std::vector<int64_t> shape, const std::vector<float>& v) {
  return Tensor::from_floats(dtype, std::move(shape), v);
}

}  // namespace

RmsNormResult rmsnorm(const Tensor& x, const Tensor* gamma, const Tensor* beta, double eps,
                      RmsVariant variant) {
  std::vector<float> y, rs;
  rmsnorm_f32(x, gamma, beta, eps, variant, "rmsnorm", &y, &rs);
  RmsNormResult res;
  res.out = cast_to(x.dtype(), x.shape(), y);
  res.rstd = cast_to(Dtype::F32, {x.dim(0), 1}, rs);
  return res;
}

Tensor linear(const Tensor& x, const Tensor& w, const Tensor* bias, Dtype out_dtype, SimdPath path) {
  const char* op = "linear";
  need_rank2(x, op, "x");
  need_rank2(w, op, "w");
  need_dtype(x, {Dtype::BF16, Dtype::F16, Dtype::F32}, op, "x");
  need_dtype(w, {Dtype::BF16, Dtype::F16, Dtype::F32}, op, "w");
  int64_t m = x.dim(0), k = x.dim(1), n = w.dim(0);
  if (w.dim(1) != k)
    throw Error(std::string(op) + ": w must be [N, K] with K = " + std::to_string(k) + ", got " +
                w.describe());
  need_numel(bias, n, op, "bias");
  const std::vector<double> xv = x.to_doubles();
  const std::unique_ptr<double[]> acc(new double[size_t(m * n)]);  // every element written by dot_rows_fp64
  dot_rows_fp64(xv.data(), w, m, k, n, acc.get(), path);
  std::vector<float> y(size_t(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float v = f32(acc[size_t(i * n + j)]);
      if (bias) v = v + f32(bias->get(j));
      y[size_t(i * n + j)] = v;
    }
  }
  return cast_to(out_dtype, {m, n}, y);
}

RmsNormLinearResult rmsnorm_linear(const Tensor& x, const Tensor* gamma, const Tensor& w,
                                   const Tensor* bias, double eps, RmsVariant variant) {
  std::vector<float> y, rs;
  rmsnorm_f32(x, gamma, nullptr, eps, variant, "rmsnorm_linear", &y, &rs);
  RmsNormLinearResult res;
  res.normed = cast_to(Dtype::BF16, x.shape(), y);  // the one bf16 rounding before the matmul
  res.out = linear(res.normed, w, bias);
  return res;
}

QuantResult quant_per_token(const Tensor& x) {
  const char* op = "quant_per_token";
  need_rank2(x, op, "x");
  need_dtype(x, {Dtype::F32, Dtype::BF16, Dtype::F16}, op, "x");
  int64_t rows = x.dim(0), d = x.dim(1);
  QuantResult res{Tensor(Dtype::S8, x.shape()), Tensor(Dtype::F32, {rows})};
  std::vector<double> row(static_cast<size_t>(d));  // a row's values (decode_n: x.get's)
  uint8_t* q = res.q.bytes().data();
  for (int64_t r = 0; r < rows; ++r) {
    ref::decode_n(x.dtype(), x.bytes().data() + r * d * x.elem_size(), d, row.data());
    float amax = 0;
    for (int64_t j = 0; j < d; ++j) {
      float a = std::fabs(f32(row[size_t(j)]));
      if (std::isnan(a) || a > amax) amax = std::isnan(amax) ? amax : a;  // NaN sticks
    }
    if (amax == 0) {  // all zero: q stays 0, scale_deq 0
      res.scale.set(r, 0.0);
      continue;
    }
    float scale_q = 127.0f / amax;
    for (int64_t j = 0; j < d; ++j) {
      float v = f32(row[size_t(j)]) * scale_q;
      q[r * d + j] = ref::encode_s8(v);  // RNE, saturating to [-128, 127]; NaN -> 0
    }
    res.scale.set(r, 1.0f / scale_q);
  }
  return res;
}

namespace {

// Up to this many int8 products (each of magnitude <= 128 * 128 = 2^14) no partial sum can
// leave int32: 131071 * 2^14 < 2^31 - 1. The acc of a longer row is summed in int64 and
// checked.
constexpr int64_t kInt32SafeK = 131071;

// The int32 dot products of x rows [i0, i0 + rows) (rows <= 4) with w row j, k <= kInt32SafeK:
// exact in int32 in any order. AVX2: 16 at a time, sign-extended to int16 and summed in pairs
// (vpmaddwd), each w chunk used by every row.
__attribute__((target("avx2"))) void dot4_s8_avx2(const int8_t* const x[4], int rows, const int8_t* w, int64_t k,
                                                  int32_t out[4]) {
  __m256i s[4] = {_mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256(), _mm256_setzero_si256()};
  int64_t q = 0;
  for (; q + 16 <= k; q += 16) {
    const __m256i wv = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(w + q)));
    for (int r = 0; r < rows; ++r) {
      const __m256i xv = _mm256_cvtepi8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(x[r] + q)));
      s[r] = _mm256_add_epi32(s[r], _mm256_madd_epi16(xv, wv));
    }
  }
  for (int r = 0; r < rows; ++r) {
    alignas(32) int32_t lanes[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), s[r]);
    int32_t t = 0;
    for (int l = 0; l < 8; ++l) t += lanes[l];
    for (int64_t e = q; e < k; ++e) t += int32_t(x[r][e]) * int32_t(w[e]);
    out[r] = t;
  }
}

int32_t dot_s8(const int8_t* x, const int8_t* w, int64_t k) {
  int32_t t = 0;
  for (int64_t q = 0; q < k; ++q) t += int32_t(x[q]) * int32_t(w[q]);
  return t;
}

}  // namespace

Tensor matmul_s8(const Tensor& x, const Tensor& w, SimdPath path) {
  const char* op = "matmul_s8";
  need_rank2(x, op, "x");
  need_rank2(w, op, "w");
  need_dtype(x, {Dtype::S8}, op, "x");
  need_dtype(w, {Dtype::S8}, op, "w");
  int64_t m = x.dim(0), k = x.dim(1), n = w.dim(0);
  if (w.dim(1) != k)
    throw Error(std::string(op) + ": w must be [N, K] with K = " + std::to_string(k) + ", got " +
                w.describe());
  Tensor acc(Dtype::S32, {m, n});
  const auto* xb = reinterpret_cast<const int8_t*>(x.bytes().data());
  const auto* wb = reinterpret_cast<const int8_t*>(w.bytes().data());
  auto* out = reinterpret_cast<uint8_t*>(acc.bytes().data());
  auto put = [&](int64_t i, int64_t j, int32_t v) { std::memcpy(out + (i * n + j) * 4, &v, 4); };
  if (k > kInt32SafeK) {  // partial sums may leave int32: exact in int64, and checked
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        int64_t s = 0;
        for (int64_t q = 0; q < k; ++q) s += int64_t(xb[i * k + q]) * int64_t(wb[j * k + q]);
        if (s > 2147483647LL || s < -2147483648LL)
          throw Error(std::string(op) + ": acc[" + std::to_string(i) + ", " + std::to_string(j) + "] = " +
                      std::to_string(s) + " overflows int32");
        put(i, j, int32_t(s));
      }
    return acc;
  }
#if defined(__x86_64__)
  if (const SimdPath use = resolve_simd_path(path); use == SimdPath::Avx2 || use == SimdPath::Avx512) {
    for (int64_t i0 = 0; i0 < m; i0 += 4) {
      const int rows = int(std::min<int64_t>(4, m - i0));
      const int8_t* xr[4];
      for (int r = 0; r < 4; ++r) xr[r] = xb + (i0 + std::min(r, rows - 1)) * k;
      for (int64_t j = 0; j < n; ++j) {
        int32_t d[4];
        dot4_s8_avx2(xr, rows, wb + j * k, k, d);
        for (int r = 0; r < rows; ++r) put(i0 + r, j, d[r]);
      }
    }
    return acc;
  }
#endif
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) put(i, j, dot_s8(xb + i * k, wb + j * k, k));
  return acc;
}

Tensor dequant(const Tensor& acc, const Tensor& x_scale, const Tensor& w_scale, const Tensor* bias) {
  const char* op = "dequant";
  need_rank2(acc, op, "acc");
  need_dtype(acc, {Dtype::S32}, op, "acc");
  int64_t m = acc.dim(0), n = acc.dim(1);
  need_numel(&x_scale, m, op, "x_scale");
  need_numel(&w_scale, n, op, "w_scale");
  need_numel(bias, n, op, "bias");
  std::vector<float> y(size_t(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      float v = f32(acc.get(i * n + j));  // int32 -> fp32, RNE
      v = v * f32(x_scale.get(i));
      v = v * f32(w_scale.get(j));
      if (bias) v = v + f32(bias->get(j));
      y[size_t(i * n + j)] = v;
    }
  }
  return cast_to(Dtype::BF16, {m, n}, y);
}

RmsNormLinearQuantResult rmsnorm_linear_quant(const Tensor& x, const Tensor* gamma,
                                              const Tensor& w, const Tensor& w_scale,
                                              const Tensor* bias, double eps, RmsVariant variant,
                                              bool normed_bf16) {
  std::vector<float> y, rs;
  rmsnorm_f32(x, gamma, nullptr, eps, variant, "rmsnorm_linear_quant", &y, &rs);
  RmsNormLinearQuantResult res;
  res.normed = cast_to(normed_bf16 ? Dtype::BF16 : Dtype::F32, x.shape(), y);
  QuantResult q = quant_per_token(res.normed);
  res.q = q.q;
  res.x_scale = q.scale;
  res.acc = matmul_s8(res.q, w);
  res.out = dequant(res.acc, res.x_scale, w_scale, bias);
  return res;
}

MxQuantResult mx_quantize(const Tensor& x, Dtype elem) {
  const char* op = "mx_quantize";
  need_rank2(x, op, "x");
  need_dtype(x, {Dtype::F32, Dtype::BF16, Dtype::F16}, op, "x");
  if (elem != Dtype::E4M3 && elem != Dtype::E5M2)
    throw Error(std::string(op) + ": element type must be e4m3 or e5m2, got " + ref::name_of(elem));
  const int emax = elem == Dtype::E4M3 ? 8 : 15;
  int64_t rows = x.dim(0), k = x.dim(1), nb = (k + 31) / 32;
  MxQuantResult res{Tensor(elem, x.shape()), Tensor(Dtype::E8M0, {rows, nb})};
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t b = 0; b < nb; ++b) {
      int64_t k0 = b * 32, k1 = std::min(k, k0 + 32);
      double amax = 0;
      for (int64_t q = k0; q < k1; ++q) {
        double a = std::fabs(x.get(r * k + q));
        if (std::isnan(a) || a > amax) amax = std::isnan(amax) ? amax : a;
      }
      int shared_exp = 0;
      bool nan_scale = false;
      if (!std::isfinite(amax)) {
        nan_scale = true;
      } else if (amax == 0) {
        shared_exp = -127;  // smallest scale; elements below are all zero
      } else {
        int e2;
        std::frexp(amax, &e2);  // amax in [2^(e2-1), 2^e2): floor(log2) = e2 - 1
        shared_exp = e2 - 1 - emax;
        if (shared_exp < -127) shared_exp = -127;
        if (shared_exp > 127) nan_scale = true;
      }
      res.scale.set_bits(r * nb + b, nan_scale ? 0xFF : uint64_t(shared_exp + 127));
      for (int64_t q = k0; q < k1; ++q) {
        double v = nan_scale ? kNaN : std::ldexp(x.get(r * k + q), -shared_exp);  // exact
        res.q.set(r * k + q, v, /*saturate=*/true);
      }
    }
  }
  return res;
}

Tensor mx_scaled_mm(const Tensor& a, const Tensor& a_scale, const Tensor& b, const Tensor& b_scale,
                    Dtype out_dtype) {
  const char* op = "mx_scaled_mm";
  need_rank2(a, op, "a");
  need_rank2(b, op, "b");
  need_rank2(a_scale, op, "a_scale");
  need_rank2(b_scale, op, "b_scale");
  need_dtype(a, {Dtype::E4M3, Dtype::E5M2}, op, "a");
  need_dtype(b, {Dtype::E4M3, Dtype::E5M2}, op, "b");
  need_dtype(a_scale, {Dtype::E8M0}, op, "a_scale");
  need_dtype(b_scale, {Dtype::E8M0}, op, "b_scale");
  int64_t m = a.dim(0), k = a.dim(1), n = b.dim(0), nb = (k + 31) / 32;
  if (b.dim(1) != k)
    throw Error(std::string(op) + ": b must be [N, K] with K = " + std::to_string(k) + ", got " +
                b.describe());
  if (a_scale.dim(0) != m || a_scale.dim(1) != nb)
    throw Error(std::string(op) + ": a_scale must be [" + std::to_string(m) + ", " +
                std::to_string(nb) + "], got " + a_scale.describe());
  if (b_scale.dim(0) != n || b_scale.dim(1) != nb)
    throw Error(std::string(op) + ": b_scale must be [" + std::to_string(n) + ", " +
                std::to_string(nb) + "], got " + b_scale.describe());
  // Scaled values are exact in double (3-bit or 2-bit mantissas, exponents within range).
  std::vector<double> av(size_t(m * k)), bv(size_t(n * k));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t q = 0; q < k; ++q)
      av[size_t(i * k + q)] = a.get(i * k + q) * a_scale.get(i * nb + q / 32);
  for (int64_t j = 0; j < n; ++j)
    for (int64_t q = 0; q < k; ++q)
      bv[size_t(j * k + q)] = b.get(j * k + q) * b_scale.get(j * nb + q / 32);
  std::vector<float> y(size_t(m * n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double acc = 0;
      for (int64_t q = 0; q < k; ++q) acc += av[size_t(i * k + q)] * bv[size_t(j * k + q)];
      y[size_t(i * n + j)] = f32(acc);
    }
  }
  return cast_to(out_dtype, {m, n}, y);
}

}  // namespace npu::golden
