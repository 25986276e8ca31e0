#include "golden/random.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "base/error.h"
#include "base/simd.h"
#include "golden/refnum.h"

namespace npu::golden {
namespace {

// ln 2 split so that e * kLn2Hi is exact for |e| < 2^11.
const double kLn2Hi = 6.93147180369123816490e-01;
const double kLn2Lo = 1.90821492927058770002e-10;
const double kHalfPi = 1.57079632679489661923;

}  // namespace

uint64_t splitmix64(uint64_t* state) {
  uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

Rng::Rng(uint64_t seed) {
  uint64_t st = seed;
  for (uint64_t& s : s_) s = splitmix64(&st);
}

Rng Rng::from_state(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) {
  Rng r(0);
  r.s_[0] = s0;
  r.s_[1] = s1;
  r.s_[2] = s2;
  r.s_[3] = s3;
  return r;
}

double Rng::normal(double mean, double std) {
  if (have_spare_) {
    have_spare_ = false;
    return mean + std * spare_;
  }
  double u1 = 1.0 - uniform01();  // (0, 1]: log is finite
  double u2 = uniform01();
  double r = std::sqrt(-2.0 * det_log(u1));
  double s, c;
  det_sincos_2pi(u2, &s, &c);
  spare_ = r * s;
  have_spare_ = true;
  return mean + std * (r * c);
}

double det_log(double x) {
  if (!(x > 0) || std::isinf(x)) throw Error("det_log: argument must be positive and finite");
  int e;
  double m = std::frexp(x, &e);  // x = m * 2^e, m in [0.5, 1)
  if (m < 0.70710678118654752440) {
    m *= 2;
    --e;
  }
  // m in [0.707, 1.414): log(m) = 2 atanh(f), f = (m-1)/(m+1), |f| <= 0.1716.
  double f = (m - 1) / (m + 1), f2 = f * f, term = f, sum = 0;
  for (int k = 1; k <= 41; k += 2) {
    sum += term / k;
    term *= f2;
  }
  return double(e) * kLn2Hi + (2 * sum + double(e) * kLn2Lo);
}

void det_sincos_2pi(double u, double* s, double* c) {
  // Quadrant reduction in the u domain (exact: 4u and its fraction are exact in double).
  double q4 = 4 * u;
  double qf = std::floor(q4);
  int quad = int(qf) & 3;
  double x = (q4 - qf) * kHalfPi;  // [0, pi/2)
  double x2 = x * x, ts = x, tc = 1, ss = 0, cc = 0;
  for (int k = 1; k <= 31; k += 2) {  // Taylor series; x^31/31! < 1e-28 at pi/2
    ss += ts;
    cc += tc;
    ts *= -x2 / double((k + 1) * (k + 2));
    tc *= -x2 / double(k * (k + 1));
  }
  switch (quad) {
    case 0: *s = ss; *c = cc; break;
    case 1: *s = cc; *c = -ss; break;
    case 2: *s = -ss; *c = -cc; break;
    default: *s = -cc; *c = ss; break;
  }
}

namespace {

#if defined(__x86_64__)
// An IEEE float dtype's layout (ref::ieee_layout) with the shift counts and masks the AVX2 loop
// needs, and the element width.
struct Layout {
  Dtype dtype;
  int ebits, mbits, bias, bytes;
};

// bits[i] = ref::encode(dtype, lo + span * Rng::unit_of(raw[i]), saturate = true) for i < n, four
// at a time: the 53-bit integer raw >> 11 becomes a double exactly (its high 21 and low 32 bits
// through the 2^84 / 2^52 exponent trick; both sums are exact), the scaling by 2^-53 is exact, and
// the multiply and add are the same IEEE operations as Rng::uniform's. Rounding is
// ref::encode_normal lane by lane; the lanes it leaves to the general path (zero, subnormal,
// overflow) call ref::encode.
__attribute__((target("avx2"))) void uniform_bits_avx2(const uint64_t* raw, size_t n, double lo, double span,
                                                       const Layout& f, uint64_t* bits) {
  const int drop = 52 - f.mbits;
  const int64_t top = (int64_t(1) << f.ebits) - 1;
  const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFll), hi_exp = _mm256_set1_epi64x(0x4530000000000000ll),
                lo_exp = _mm256_set1_epi64x(0x4330000000000000ll), exp11 = _mm256_set1_epi64x(0x7FF),
                rebias = _mm256_set1_epi64x(f.bias - 1023), one = _mm256_set1_epi64x(1),
                top_m1 = _mm256_set1_epi64x(top - 1),
                mant52 = _mm256_set1_epi64x((int64_t(1) << 52) - 1),
                rest_mask = _mm256_set1_epi64x((int64_t(1) << drop) - 1),
                half = _mm256_set1_epi64x(int64_t(1) << (drop - 1));
  const __m128i sh_drop = _mm_cvtsi32_si128(drop), sh_mbits = _mm_cvtsi32_si128(f.mbits),
                sh_sign = _mm_cvtsi32_si128(f.ebits + f.mbits);
  const __m256d magic = _mm256_set1_pd(19342813118337666422669312.0);  // 2^84 + 2^52
  const __m256d scale = _mm256_set1_pd(1.0 / 9007199254740992.0), lo_v = _mm256_set1_pd(lo),
                span_v = _mm256_set1_pd(span);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256i x = _mm256_srli_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(raw + i)), 11);
    const __m256d xh = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(x, 32), hi_exp)), magic);
    const __m256d xd = _mm256_add_pd(xh, _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(x, low32), lo_exp)));
    const __m256d v = _mm256_add_pd(lo_v, _mm256_mul_pd(span_v, _mm256_mul_pd(xd, scale)));
    // ref::encode_normal on four lanes.
    const __m256i d = _mm256_castpd_si256(v);
    const __m256i dexp = _mm256_and_si256(_mm256_srli_epi64(d, 52), exp11);
    const __m256i e = _mm256_add_epi64(dexp, rebias);
    const __m256i mant = _mm256_and_si256(d, mant52), rest = _mm256_and_si256(mant, rest_mask);
    __m256i q = _mm256_or_si256(_mm256_sll_epi64(e, sh_mbits), _mm256_srl_epi64(mant, sh_drop));
    const __m256i odd = _mm256_cmpeq_epi64(_mm256_and_si256(q, one), one);
    const __m256i up = _mm256_or_si256(_mm256_cmpgt_epi64(rest, half),
                                       _mm256_and_si256(_mm256_cmpeq_epi64(rest, half), odd));
    q = _mm256_sub_epi64(q, up);  // up is all ones where the rounding goes up
    const __m256i general = _mm256_or_si256(
        _mm256_or_si256(_mm256_cmpgt_epi64(one, e), _mm256_cmpgt_epi64(e, top_m1)),
        _mm256_or_si256(_mm256_cmpeq_epi64(dexp, exp11), _mm256_cmpgt_epi64(_mm256_srl_epi64(q, sh_mbits), top_m1)));
    const __m256i out = _mm256_or_si256(_mm256_sll_epi64(_mm256_srli_epi64(d, 63), sh_sign), q);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bits + i), out);
    for (int m = _mm256_movemask_pd(_mm256_castsi256_pd(general)); m; m &= m - 1) {
      const int j = __builtin_ctz(unsigned(m));
      bits[i + size_t(j)] = ref::encode(f.dtype, v[j], /*saturate=*/true);
    }
  }
  for (; i < n; ++i) bits[i] = ref::encode(f.dtype, lo + span * Rng::unit_of(raw[i]), /*saturate=*/true);
}

// The Avx2 path of random_uniform: blocks of raw outputs drawn in a tight scalar loop (the
// xoshiro recurrence is serial), converted by uniform_bits_avx2, narrowed into the tensor.
template <class Word>
void uniform_fill_avx2(uint8_t* out, int64_t n, double lo, double hi, const Layout& f, Rng& r) {
  constexpr size_t kBlock = 512;
  uint64_t raw[kBlock], bits[kBlock];
  for (int64_t done = 0; done < n;) {
    const size_t b = size_t(std::min<int64_t>(kBlock, n - done));
    r.fill_u64(raw, b);
    uniform_bits_avx2(raw, b, lo, hi - lo, f, bits);
    for (size_t i = 0; i < b; ++i, out += sizeof(Word)) {
      const Word w = static_cast<Word>(bits[i]);
      std::memcpy(out, &w, sizeof w);  // little-endian host, as everywhere GM bytes are copied
    }
    done += int64_t(b);
  }
}
#endif

GenPath resolve(GenPath path) {
  static const GenPath automatic = !no_simd_requested() && cpu_has_avx2() ? GenPath::Avx2 : GenPath::Portable;
  return path == GenPath::Auto ? automatic : path;
}

}  // namespace

bool gen_path_available(GenPath path) { return path != GenPath::Avx2 || cpu_has_avx2(); }

// The generators draw from a local copy of rng (written back at the end): the compiler may then
// keep the state in registers, where rng itself could alias the tensor bytes being written.
Tensor random_uniform(Dtype dtype, std::vector<int64_t> shape, double lo, double hi, Rng& rng, GenPath path) {
  Rng r = rng;
#if defined(__x86_64__)
  if (Layout f{dtype, 0, 0, 0, ref::size_of(dtype)};
      resolve(path) == GenPath::Avx2 && ref::ieee_layout(dtype, &f.ebits, &f.mbits, &f.bias)) {
    Tensor t(dtype, std::move(shape));
    uint8_t* out = t.bytes().data();
    if (f.bytes == 4) uniform_fill_avx2<uint32_t>(out, t.numel(), lo, hi, f, r);
    else if (f.bytes == 2) uniform_fill_avx2<uint16_t>(out, t.numel(), lo, hi, f, r);
    else uniform_fill_avx2<uint8_t>(out, t.numel(), lo, hi, f, r);
    rng = r;
    return t;
  }
#endif
  Tensor t = Tensor::generate(dtype, std::move(shape), /*saturate=*/true, [&] { return r.uniform(lo, hi); });
  rng = r;
  return t;
}

Tensor random_normal(Dtype dtype, std::vector<int64_t> shape, double mean, double std, Rng& rng) {
  Rng r = rng;
  Tensor t = Tensor::generate(dtype, std::move(shape), /*saturate=*/true, [&] { return r.normal(mean, std); });
  rng = r;
  return t;
}

}  // namespace npu::golden
