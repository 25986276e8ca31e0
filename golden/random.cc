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

// The Avx2 path of random_uniform. Large tensors: the second half on a second thread (its state
// jumped ahead by the first half's length), so input generation uses both cores.
template <class Word>
void uniform_fill_avx2(uint8_t* out, int64_t n, double lo, double hi, const Layout& f, Rng& r) {
  constexpr int64_t kThreadsFrom = int64_t(1) << 20;
  if (n < kThreadsFrom || std::thread::hardware_concurrency() < 2)
    return uniform_fill_part<Word>(out, n, lo, hi, f, r);
  const int64_t h = n / 2;
  Rng second = r;
  second.jump(uint64_t(h));
  std::exception_ptr failed;
  std::thread other([&] {
    try {
      uniform_fill_part<Word>(out + h * int64_t(sizeof(Word)), n - h, lo, hi, f, second);
    } catch (...) {
      failed = std::current_exception();
    }
  });
  uniform_fill_part<Word>(out, h, lo, hi, f, r);
  other.join();
  if (failed) std::rethrow_exception(failed);
  r = second;
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
