#include "golden/random.h"

#include <cmath>

#include "base/error.h"

namespace npu::golden {
namespace {

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

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

uint64_t Rng::next_u64() {
  uint64_t result = rotl(s_[1] * 5, 7) * 9;
  uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double Rng::uniform01() { return double(next_u64() >> 11) * (1.0 / 9007199254740992.0); }

double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }

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

// The generators draw from a local copy of rng (written back at the end): the compiler may then
// keep the state in registers, where rng itself could alias the tensor bytes being written.
Tensor random_uniform(Dtype dtype, std::vector<int64_t> shape, double lo, double hi, Rng& rng) {
  Rng r = rng;
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
