#include "golden/random.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <exception>
#include <string>
#include <thread>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "base/error.h"
#include "base/simd_width.h"
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

namespace {

// Polynomials over GF(2) of degree < 256: bit i of word w is the coefficient of x^(64 w + i).
using Poly = std::array<uint64_t, 4>;

bool coeff(const Poly& a, int i) { return (a[size_t(i) / 64] >> (i % 64)) & 1; }

// The characteristic polynomial of xoshiro256's state update T (degree 256, primitive: the
// generator has full period), found once by Berlekamp-Massey on 512 steps of one state bit. The
// low 256 coefficients; x^256 is implicit.
Poly characteristic() {
  constexpr int kN = 512;
  std::vector<uint8_t> seq(kN);
  Rng r = Rng::from_state(1, 2, 3, 4);
  for (int i = 0; i < kN; ++i) {
    seq[size_t(i)] = r.state()[0] & 1;
    r.next_u64();
  }
  // Connection polynomial C(x) = 1 + c1 x + ... + cL x^L with s[n] = sum c_i s[n - i].
  std::vector<uint8_t> c(kN + 1), b(kN + 1), t;
  c[0] = b[0] = 1;
  int len = 0, m = 1;
  for (int n = 0; n < kN; ++n) {
    uint8_t d = seq[size_t(n)];
    for (int i = 1; i <= len; ++i) d ^= c[size_t(i)] & seq[size_t(n - i)];
    if (!d) {
      ++m;
      continue;
    }
    t = c;
    for (int i = 0; i + m <= kN; ++i) c[size_t(i + m)] ^= b[size_t(i)];
    if (2 * len <= n) {
      len = n + 1 - len;
      b = t;
      m = 1;
    } else {
      ++m;
    }
  }
  if (len != 256) throw Error("xoshiro256 jump-ahead: characteristic polynomial of degree " + std::to_string(len));
  Poly p{};  // p(x) = x^256 + c1 x^255 + ... + c256: the reciprocal of C
  for (int i = 0; i < 256; ++i)
    if (c[size_t(256 - i)]) p[size_t(i) / 64] |= uint64_t{1} << (i % 64);
  return p;
}

// a * b mod p (p's x^256 implicit): Horner over a's coefficients from the top.
Poly mulmod(const Poly& a, const Poly& b, const Poly& p) {
  Poly r{};
  for (int i = 255; i >= 0; --i) {
    const bool carry = r[3] >> 63;
    for (int w = 3; w > 0; --w) r[size_t(w)] = (r[size_t(w)] << 1) | (r[size_t(w) - 1] >> 63);
    r[0] <<= 1;
    if (carry)
      for (int w = 0; w < 4; ++w) r[size_t(w)] ^= p[size_t(w)];
    if (coeff(a, i))
      for (int w = 0; w < 4; ++w) r[size_t(w)] ^= b[size_t(w)];
  }
  return r;
}

// x^(2^k) mod p for k < 64.
const std::array<Poly, 64>& jump_powers() {
  static const std::array<Poly, 64> powers = [] {
    const Poly p = characteristic();
    std::array<Poly, 64> q{};
    q[0] = Poly{2, 0, 0, 0};  // x
    for (size_t k = 1; k < q.size(); ++k) q[k] = mulmod(q[k - 1], q[k - 1], p);
    return q;
  }();
  return powers;
}

}  // namespace

void Rng::jump(uint64_t n) {
  if (n < 256) {  // cheaper stepped
    for (; n; --n) next_u64();
    return;
  }
  for (int k = 0; k < 64; ++k) {
    if (!((n >> k) & 1)) continue;
    // T^(2^k) s = sum of T^i s over the coefficients of x^(2^k) mod p.
    const Poly& q = jump_powers()[size_t(k)];
    uint64_t acc[4] = {0, 0, 0, 0};
    for (int i = 0; i < 256; ++i) {
      if (coeff(q, i))
        for (int w = 0; w < 4; ++w) acc[w] ^= s_[w];
      next_u64();
    }
    std::copy(acc, acc + 4, s_);
  }
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
// ref::encode_normal lane by lane, on the bits: |v| with its exponent rebiased is
// (e << 52) | mantissa, and adding half - 1 plus the kept lsb before the shift by 52 - mbits
// rounds to nearest even (a mantissa carry moves into the exponent, as it should). Lanes whose
// target exponent is below 1 (zero, subnormal) or reaches the top (overflow, Inf, NaN) call
// ref::encode.
__attribute__((target("avx2"))) void uniform_bits_avx2(const uint64_t* raw, size_t n, double lo, double span,
                                                       const Layout& f, uint64_t* bits) {
  const int drop = 52 - f.mbits;
  const int64_t top = (int64_t(1) << f.ebits) - 1;
  const __m256i low32 = _mm256_set1_epi64x(0xFFFFFFFFll), hi_exp = _mm256_set1_epi64x(0x4530000000000000ll),
                lo_exp = _mm256_set1_epi64x(0x4330000000000000ll),
                abs_mask = _mm256_set1_epi64x(0x7FFFFFFFFFFFFFFFll),
                rebias = _mm256_set1_epi64x(int64_t(1023 - f.bias) << 52), one = _mm256_set1_epi64x(1),
                min_normal = _mm256_set1_epi64x(int64_t(1) << 52),
                max_code = _mm256_set1_epi64x((top << f.mbits) - 1),
                half_m1 = _mm256_set1_epi64x((int64_t(1) << (drop - 1)) - 1);
  const __m128i sh_drop = _mm_cvtsi32_si128(drop), sh_sign = _mm_cvtsi32_si128(f.ebits + f.mbits);
  const __m256d magic = _mm256_set1_pd(19342813118337666422669312.0);  // 2^84 + 2^52
  const __m256d scale = _mm256_set1_pd(1.0 / 9007199254740992.0), lo_v = _mm256_set1_pd(lo),
                span_v = _mm256_set1_pd(span);
  size_t i = 0;
  for (; i + 4 <= n; i += 4) {
    const __m256i x = _mm256_srli_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(raw + i)), 11);
    const __m256d xh = _mm256_sub_pd(_mm256_castsi256_pd(_mm256_or_si256(_mm256_srli_epi64(x, 32), hi_exp)), magic);
    const __m256d xd = _mm256_add_pd(xh, _mm256_castsi256_pd(_mm256_or_si256(_mm256_and_si256(x, low32), lo_exp)));
    const __m256d v = _mm256_add_pd(lo_v, _mm256_mul_pd(span_v, _mm256_mul_pd(xd, scale)));
    const __m256i d = _mm256_castpd_si256(v);
    const __m256i r = _mm256_sub_epi64(_mm256_and_si256(d, abs_mask), rebias);  // (e << 52) | mantissa
    const __m256i lsb = _mm256_and_si256(_mm256_srl_epi64(r, sh_drop), one);
    const __m256i q = _mm256_srl_epi64(_mm256_add_epi64(r, _mm256_add_epi64(half_m1, lsb)), sh_drop);
    const __m256i general = _mm256_or_si256(_mm256_cmpgt_epi64(min_normal, r), _mm256_cmpgt_epi64(q, max_code));
    const __m256i out = _mm256_or_si256(_mm256_sll_epi64(_mm256_srli_epi64(d, 63), sh_sign), q);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(bits + i), out);
    for (int m = _mm256_movemask_pd(_mm256_castsi256_pd(general)); m; m &= m - 1) {
      const int j = __builtin_ctz(unsigned(m));
      bits[i + size_t(j)] = ref::encode(f.dtype, v[j], /*saturate=*/true);
    }
  }
  for (; i < n; ++i) bits[i] = ref::encode(f.dtype, lo + span * Rng::unit_of(raw[i]), /*saturate=*/true);
}

template <class Word>
void store_words(const uint64_t* bits, size_t n, uint8_t* out) {
  for (size_t i = 0; i < n; ++i, out += sizeof(Word)) {
    const Word w = static_cast<Word>(bits[i]);
    std::memcpy(out, &w, sizeof w);  // little-endian host, as everywhere GM bytes are copied
  }
}

// n values drawn from r in one serial stream: blocks of raw outputs in a tight scalar loop,
// converted by uniform_bits_avx2, narrowed into out.
template <class Word>
void uniform_fill_serial(uint8_t* out, int64_t n, double lo, double hi, const Layout& f, Rng& r) {
  constexpr size_t kBlock = 512;
  uint64_t raw[kBlock], bits[kBlock];
  for (int64_t done = 0; done < n;) {
    const size_t b = size_t(std::min<int64_t>(kBlock, n - done));
    r.fill_u64(raw, b);
    uniform_bits_avx2(raw, b, lo, hi - lo, f, bits);
    store_words<Word>(bits, b, out);
    out += b * sizeof(Word);
    done += int64_t(b);
  }
}

// xoshiro256** on four states at once: lane j writes q values at out + j q (its state jumped to
// its start of the stream by the caller).
template <class Word>
__attribute__((target("avx2"))) void uniform_fill_lanes(uint8_t* out, size_t q, double lo, double span,
                                                        const Layout& f, const Rng* lanes) {
  __m256i s[4];
  for (int w = 0; w < 4; ++w)
    s[w] = _mm256_set_epi64x(int64_t(lanes[3].state()[w]), int64_t(lanes[2].state()[w]),
                             int64_t(lanes[1].state()[w]), int64_t(lanes[0].state()[w]));
  __m256i s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  constexpr size_t kSteps = 128;
  alignas(32) uint64_t raw[4 * kSteps], bits[4 * kSteps];
  for (size_t done = 0; done < q;) {
    const size_t b = std::min(kSteps, q - done);
    for (size_t k = 0; k < b; ++k) {
      const __m256i x5 = _mm256_add_epi64(_mm256_slli_epi64(s1, 2), s1);
      const __m256i r7 = _mm256_or_si256(_mm256_slli_epi64(x5, 7), _mm256_srli_epi64(x5, 57));
      _mm256_store_si256(reinterpret_cast<__m256i*>(raw + 4 * k), _mm256_add_epi64(_mm256_slli_epi64(r7, 3), r7));
      const __m256i t = _mm256_slli_epi64(s1, 17);
      s2 = _mm256_xor_si256(s2, s0);
      s3 = _mm256_xor_si256(s3, s1);
      s1 = _mm256_xor_si256(s1, s2);
      s0 = _mm256_xor_si256(s0, s3);
      s2 = _mm256_xor_si256(s2, t);
      s3 = _mm256_or_si256(_mm256_slli_epi64(s3, 45), _mm256_srli_epi64(s3, 19));
    }
    uniform_bits_avx2(raw, 4 * b, lo, span, f, bits);  // element-wise: the lane interleave is kept
    for (size_t k = 0; k < b; ++k)
      for (size_t j = 0; j < 4; ++j) {
        const Word w = static_cast<Word>(bits[4 * k + j]);
        std::memcpy(out + (j * q + done + k) * sizeof(Word), &w, sizeof w);
      }
    done += b;
  }
}

// The n values of the stream at r into out; r ends n steps on. Large n: four lanes (the stream
// cut in quarters by jump-ahead), the n % 4 left over drawn serially after them.
template <class Word>
void uniform_fill_part(uint8_t* out, int64_t n, double lo, double hi, const Layout& f, Rng& r) {
  constexpr int64_t kLanesFrom = 4096;  // below, the four jumps cost more than they save
  if (n < kLanesFrom) return uniform_fill_serial<Word>(out, n, lo, hi, f, r);
  const uint64_t q = uint64_t(n) / 4;
  Rng lanes[4] = {r, r, r, r};
  for (int j = 1; j < 4; ++j) {
    lanes[j] = lanes[j - 1];
    lanes[j].jump(q);
  }
  r = lanes[3];
  r.jump(q);
  uniform_fill_lanes<Word>(out, q, lo, hi - lo, f, lanes);
  uniform_fill_serial<Word>(out + 4 * q * sizeof(Word), n - int64_t(4 * q), lo, hi, f, r);
}

}  // namespace

// The Avx512 path: the same draws and rounding as the Avx2 path's, eight 64-bit lanes at a time
// in AVX-512F only (zmm registers and mask compares; the u64 -> double step is the exponent
// trick again, AVX-512F has no 64-bit integer conversion). Internal linkage, as the cube's
// regions: no inline function of this region can stand in for a function outside it.
#if !defined(__clang__)
// gcc 12 warns that the "undefined" pass-through operand of its own AVX-512 intrinsics
// (`__m512i __Y = __Y;` in avx512fintrin.h, on purpose) may be used uninitialized: a false
// positive of its headers, silenced for this region only.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
NPU_SIMD_AVX512_BEGIN
namespace {
namespace avx512 {

// The uniform values of eight raw outputs: u = (raw >> 11) 2^-53, exactly as Rng::unit_of, from
// two exact halves: raw's high 32 bits as the mantissa of 2^20 + hi 2^-32 and bits 11..31 in
// place as that of 2^-12 + lo 2^-64; (2^20 + hi 2^-32 - (2^20 + 2^-12)) + (2^-12 + lo 2^-64) has
// every step exact. Then lo + span * u in two roundings (no FMA), as Rng::uniform.
struct Draw {
  __m512i lo_bits, hi_exp, lo_exp;
  __m512d magic, lo_v, span_v;

  Draw(double lo, double span) {
    lo_bits = _mm512_set1_epi64(0xFFFFF800ll);
    hi_exp = _mm512_set1_epi64(0x4130000000000000ll);  // 2^20: ulp 2^-32
    lo_exp = _mm512_set1_epi64(0x3F30000000000000ll);  // 2^-12: ulp 2^-64
    magic = _mm512_set1_pd(1048576.000244140625);      // 2^20 + 2^-12
    lo_v = _mm512_set1_pd(lo);
    span_v = _mm512_set1_pd(span);
  }
  __m512d value(__m512i raw) const {
    const __m512d xh = _mm512_sub_pd(_mm512_castsi512_pd(_mm512_or_si512(_mm512_srli_epi64(raw, 32), hi_exp)), magic);
    const __m512d xl = _mm512_castsi512_pd(_mm512_ternarylogic_epi64(raw, lo_bits, lo_exp, 0xEA));  // a & b | c
    return _mm512_add_pd(lo_v, _mm512_mul_pd(span_v, _mm512_add_pd(xh, xl)));
  }
};

// One IEEE dtype's conversion; codes(raw) is uniform_bits_avx2 on eight raw outputs, in fewer
// vector operations (shifts especially; about 15 % faster than a transcription, measured):
// - v: Draw::value.
// - r = |v| rebiased, less 2^52: (e - 1) << 52 | mantissa. One unsigned compare flags the lanes
//   for ref::encode: r < 0 (target exponent below 1: zero, subnormal) or r so large that rounding
//   may reach the top exponent (a superset of the overflows: encode gives every lane its bits).
// - RNE: r + 2^52 + half - 1, plus 1 where r's kept lsb is set, shifted right by 52 - mbits.
// - The sign: d's bit 63 shifted down to the code's sign bit; the narrowing store drops the bits
//   above the code, so the other bits of d >> (63 - sign position) are masked off here.
struct Convert : Draw {
  const Layout& f;
  __m512i abs_mask, rebias, one, lsb_bit, half, limit, sign_bit;
  __m128i sh_drop, sh_sign;

  Convert(double lo, double span, const Layout& layout) : Draw(lo, span), f(layout) {
    const int drop = 52 - f.mbits;
    const int64_t top = (int64_t(1) << f.ebits) - 1, max_code = (top << f.mbits) - 1;
    abs_mask = _mm512_set1_epi64(0x7FFFFFFFFFFFFFFFll);
    rebias = _mm512_set1_epi64((int64_t(1023 - f.bias) + 1) << 52);
    one = _mm512_set1_epi64(1);
    lsb_bit = _mm512_set1_epi64(int64_t(1) << drop);
    half = _mm512_set1_epi64((int64_t(1) << 52) + (int64_t(1) << (drop - 1)) - 1);
    // q > max_code needs r + 2^52 + half - 1 + lsb >= (max_code + 1) << drop.
    limit = _mm512_set1_epi64(((max_code + 1) << drop) - (int64_t(1) << 52) - (int64_t(1) << (drop - 1)));
    sign_bit = _mm512_set1_epi64(int64_t(1) << (f.ebits + f.mbits));
    sh_drop = _mm_cvtsi32_si128(drop);
    sh_sign = _mm_cvtsi32_si128(63 - f.ebits - f.mbits);
  }

  // The dtype codes (one per 64-bit lane, bits above the code undefined) of eight raw outputs.
  __m512i codes(__m512i raw) const {
    const __m512d v = value(raw);
    const __m512i d = _mm512_castpd_si512(v);
    const __m512i r = _mm512_sub_epi64(_mm512_and_si512(d, abs_mask), rebias);
    const __mmask8 general = _mm512_cmpge_epu64_mask(r, limit);
    const __m512i h = _mm512_add_epi64(r, half);
    const __m512i q = _mm512_srl_epi64(_mm512_mask_add_epi64(h, _mm512_test_epi64_mask(r, lsb_bit), h, one), sh_drop);
    const __m512i out = _mm512_ternarylogic_epi64(q, _mm512_srl_epi64(d, sh_sign), sign_bit, 0xF8);  // a | b & c
    if (__builtin_expect(general != 0, 0)) return encode_lanes(out, v, general);
    return out;
  }
  // out with the lanes of general replaced by ref::encode (zero, subnormal, overflow).
  __attribute__((noinline)) __m512i encode_lanes(__m512i out, __m512d v, __mmask8 general) const {
    alignas(64) uint64_t c[8];
    alignas(64) double vv[8];
    _mm512_store_si512(c, out);
    _mm512_store_pd(vv, v);
    for (unsigned m = general; m; m &= m - 1) {
      const int j = __builtin_ctz(m);
      c[j] = ref::encode(f.dtype, vv[j], /*saturate=*/true);
    }
    return _mm512_load_si512(c);
  }
};

// An integer dtype's conversion, ref::encode's (RNE, saturate) on Draw::value: v clamped to the
// dtype's range first (the bounds are integers, so clamping and rounding commute), rounded to
// an integer by adding and subtracting 1.5 * 2^52 (|v| <= 2^31 here, so the sum's unit is 1: the
// addition rounds v's fraction to nearest, ties to the even sum, i.e. the even integer; -0.5
// gives +0, as encode's integer 0), converted exactly to int32 and sign-extended to the lane.
struct IntConvert : Draw {
  __m512d min_v, max_v, round_v;

  IntConvert(double lo, double span, const Layout& f) : Draw(lo, span) {
    min_v = _mm512_set1_pd(ref::int_min(f.dtype));
    max_v = _mm512_set1_pd(ref::max_finite(f.dtype));
    round_v = _mm512_set1_pd(6755399441055744.0);  // 1.5 * 2^52
  }
  __m512i codes(__m512i raw) const {
    const __m512d c = _mm512_min_pd(_mm512_max_pd(value(raw), min_v), max_v);
    const __m512d r = _mm512_sub_pd(_mm512_add_pd(c, round_v), round_v);
    return _mm512_cvtepi32_epi64(_mm512_cvtpd_epi32(r));  // integral: no rounding left
  }
};

// The first m (1..8) codes of c narrowed to Word at p.
template <class Word>
void store_codes(uint8_t* p, __m512i c, size_t m) {
  if (m == 8) {
    if constexpr (sizeof(Word) == 4) _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), _mm512_cvtepi64_epi32(c));
    else if constexpr (sizeof(Word) == 2) _mm_storeu_si128(reinterpret_cast<__m128i*>(p), _mm512_cvtepi64_epi16(c));
    else _mm_storel_epi64(reinterpret_cast<__m128i*>(p), _mm512_cvtepi64_epi8(c));
    return;
  }
  const __mmask8 k = static_cast<__mmask8>((1u << m) - 1);
  if constexpr (sizeof(Word) == 4) _mm512_mask_cvtepi64_storeu_epi32(p, k, c);
  else if constexpr (sizeof(Word) == 2) _mm512_mask_cvtepi64_storeu_epi16(p, k, c);
  else _mm512_mask_cvtepi64_storeu_epi8(p, k, c);
}

// n values drawn from r in one serial stream (scalar xoshiro into a block, converted eight at a
// time).
template <class Word, class Cv>
void fill_serial(uint8_t* out, int64_t n, const Cv& cv, Rng& r) {
  constexpr size_t kBlock = 512;
  alignas(64) uint64_t raw[kBlock];
  for (int64_t done = 0; done < n;) {
    const size_t b = size_t(std::min<int64_t>(kBlock, n - done));
    r.fill_u64(raw, b);
    for (size_t i = 0; i < b; i += 8, out += 8 * sizeof(Word)) {
      const size_t m = std::min<size_t>(8, b - i);
      const __m512i x = _mm512_maskz_loadu_epi64(static_cast<__mmask8>((1u << m) - 1), raw + i);
      store_codes<Word>(out, cv.codes(x), m);
    }
    done += int64_t(b);
  }
}

// c[j][k] <-> c[k][j] for an 8 x 8 matrix of 64-bit words, three butterfly stages swapping the
// bits of the row index with those of the element index (1, then 2, then 4 apart).
inline void transpose8(__m512i* c) {
  __m512i a[8], b[8];
  for (int k = 0; k < 8; k += 2) {
    a[k] = _mm512_unpacklo_epi64(c[k], c[k + 1]);
    a[k + 1] = _mm512_unpackhi_epi64(c[k], c[k + 1]);
  }
  const __m512i lo2 = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0), hi2 = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  for (int k : {0, 1, 4, 5}) {
    b[k] = _mm512_permutex2var_epi64(a[k], lo2, a[k + 2]);
    b[k + 2] = _mm512_permutex2var_epi64(a[k], hi2, a[k + 2]);
  }
  for (int k = 0; k < 4; ++k) {
    c[k] = _mm512_shuffle_i64x2(b[k], b[k + 4], 0x44);
    c[k + 4] = _mm512_shuffle_i64x2(b[k], b[k + 4], 0xEE);
  }
}

// xoshiro256** on eight states at once: lane j writes q values at out + j q (its state jumped to
// its start of the stream by the caller). Eight steps make an 8 x 8 block of codes (step, lane),
// transposed so that each lane's eight land in one narrowed store.
template <class Word, class Cv>
void fill_lanes(uint8_t* out, size_t q, const Cv& cv, const Rng* lanes) {
  __m512i s[4];
  for (int w = 0; w < 4; ++w)
    s[w] = _mm512_set_epi64(int64_t(lanes[7].state()[w]), int64_t(lanes[6].state()[w]),
                            int64_t(lanes[5].state()[w]), int64_t(lanes[4].state()[w]),
                            int64_t(lanes[3].state()[w]), int64_t(lanes[2].state()[w]),
                            int64_t(lanes[1].state()[w]), int64_t(lanes[0].state()[w]));
  __m512i s0 = s[0], s1 = s[1], s2 = s[2], s3 = s[3];
  for (size_t done = 0; done < q; done += 8) {
    __m512i c[8];
    for (int k = 0; k < 8; ++k) {
      const __m512i x5 = _mm512_add_epi64(_mm512_slli_epi64(s1, 2), s1);
      const __m512i r7 = _mm512_rol_epi64(x5, 7);
      c[k] = cv.codes(_mm512_add_epi64(_mm512_slli_epi64(r7, 3), r7));
      const __m512i t = _mm512_slli_epi64(s1, 17);
      s2 = _mm512_xor_si512(s2, s0);
      s3 = _mm512_xor_si512(s3, s1);
      s1 = _mm512_xor_si512(s1, s2);
      s0 = _mm512_xor_si512(s0, s3);
      s2 = _mm512_xor_si512(s2, t);
      s3 = _mm512_rol_epi64(s3, 45);
    }
    transpose8(c);
    const size_t m = std::min<size_t>(8, q - done);  // the last block: the lanes' first m steps
    for (size_t j = 0; j < 8; ++j) store_codes<Word>(out + (j * q + done) * sizeof(Word), c[j], m);
  }
}

// The n values of the stream at r into out, converted by cv; r ends n steps on. Large n: eight
// lanes (the stream cut in eighths by jump-ahead), the n % 8 left over drawn serially after them.
template <class Word, class Cv>
void fill_with(uint8_t* out, int64_t n, const Cv& cv, Rng& r) {
  // The eight jumps by q cost about one step per lane per coefficient, 256 for each set bit of q
  // (Rng::jump): below 4096 values per set bit they cost more than the lanes save (measured).
  const uint64_t q = uint64_t(n) / 8;
  if (n < 4096 * __builtin_popcountll(q) || n < 8192) return fill_serial<Word>(out, n, cv, r);
  Rng lanes[8] = {r, r, r, r, r, r, r, r};
  for (int j = 1; j < 8; ++j) {
    lanes[j] = lanes[j - 1];
    lanes[j].jump(q);
  }
  r = lanes[7];
  r.jump(q);
  fill_lanes<Word>(out, q, cv, lanes);
  fill_serial<Word>(out + 8 * q * sizeof(Word), n - int64_t(8 * q), cv, r);
}

// IEEE float dtypes (Convert) and integer ones (IntConvert), as FillPart.
template <class Word>
void fill_part(uint8_t* out, int64_t n, double lo, double hi, const Layout& f, Rng& r) {
  fill_with<Word>(out, n, Convert(lo, hi - lo, f), r);
}
template <class Word>
void fill_part_int(uint8_t* out, int64_t n, double lo, double hi, const Layout& f, Rng& r) {
  fill_with<Word>(out, n, IntConvert(lo, hi - lo, f), r);
}

}  // namespace avx512
}  // namespace
NPU_SIMD_END
#if !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace {

// A SIMD path of random_uniform: Part(out, n, lo, hi, f, r) draws the n values of the stream at r
// and leaves r n steps on. Large tensors: the second half on a second thread (its state jumped
// ahead by the first half's length), so input generation uses both cores.
using FillPart = void (*)(uint8_t* out, int64_t n, double lo, double hi, const Layout& f, Rng& r);
void uniform_fill_halves(uint8_t* out, int64_t n, int bytes, double lo, double hi, const Layout& f, Rng& r,
                         FillPart part) {
  constexpr int64_t kThreadsFrom = int64_t(1) << 20;
  if (n < kThreadsFrom || std::thread::hardware_concurrency() < 2) return part(out, n, lo, hi, f, r);
  const int64_t h = n / 2;
  Rng second = r;
  second.jump(uint64_t(h));
  std::exception_ptr failed;
  std::thread other([&] {
    try {
      part(out + h * bytes, n - h, lo, hi, f, second);
    } catch (...) {
      failed = std::current_exception();
    }
  });
  part(out, h, lo, hi, f, r);
  other.join();
  if (failed) std::rethrow_exception(failed);
  r = second;
}

#endif

}  // namespace

// The generators draw from a local copy of rng (written back at the end): the compiler may then
// keep the state in registers, where rng itself could alias the tensor bytes being written.
Tensor random_uniform(Dtype dtype, std::vector<int64_t> shape, double lo, double hi, Rng& rng, SimdPath path) {
  Rng r = rng;
#if defined(__x86_64__)
  const SimdPath use = resolve_simd_path(path);
  if (Layout f{dtype, 0, 0, 0, ref::size_of(dtype)};
      use != SimdPath::Portable && ref::ieee_layout(dtype, &f.ebits, &f.mbits, &f.bias)) {
    const bool wide = use == SimdPath::Avx512;
    FillPart part = f.bytes == 4   ? (wide ? avx512::fill_part<uint32_t> : uniform_fill_part<uint32_t>)
                    : f.bytes == 2 ? (wide ? avx512::fill_part<uint16_t> : uniform_fill_part<uint16_t>)
                                   : (wide ? avx512::fill_part<uint8_t> : uniform_fill_part<uint8_t>);
    Tensor t(dtype, std::move(shape));
    uniform_fill_halves(t.bytes().data(), t.numel(), f.bytes, lo, hi, f, r, part);
    rng = r;
    return t;
  }
  if (const bool integer = dtype == Dtype::S8 || dtype == Dtype::U8 || dtype == Dtype::S16 || dtype == Dtype::S32;
      integer && use == SimdPath::Avx512) {
    const Layout f{dtype, 0, 0, 0, ref::size_of(dtype)};
    FillPart part = f.bytes == 4   ? avx512::fill_part_int<uint32_t>
                    : f.bytes == 2 ? avx512::fill_part_int<uint16_t>
                                   : avx512::fill_part_int<uint8_t>;
    Tensor t(dtype, std::move(shape));
    uniform_fill_halves(t.bytes().data(), t.numel(), f.bytes, lo, hi, f, r, part);
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
