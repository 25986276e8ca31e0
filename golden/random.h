#pragma once
// Deterministic test-data generators. Everything is integer or basic IEEE arithmetic
// (+ - * / sqrt and our own log/sin/cos series), so a seed gives the same bits on every
// platform and libm: no std::*_distribution, no std::log/std::cos.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "golden/simd_path.h"
#include "golden/tensor.h"

namespace npu::golden {

// splitmix64 step (Vigna): used to seed xoshiro256**.
uint64_t splitmix64(uint64_t* state);

// xoshiro256** 1.0 seeded from splitmix64(seed).
class Rng {
 public:
  explicit Rng(uint64_t seed);
  static Rng from_state(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3);  // for test vectors
  const uint64_t* state() const { return s_; }  // s0..s3 (the generators' SIMD lanes start there)
  // Inline: the generators' loops keep the state in registers.
  uint64_t next_u64() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9, t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  void fill_u64(uint64_t* out, size_t n) {  // n outputs of next_u64
    for (size_t i = 0; i < n; ++i) out[i] = next_u64();
  }
  // Advances the state by n steps, as n calls of next_u64 would (GF(2) jump-ahead: the state
  // update is linear, so T^n = (x^n mod the characteristic polynomial)(T); a few hundred
  // thousand host instructions for any n). Lets one tensor's stream be drawn in pieces.
  void jump(uint64_t n);
  static double unit_of(uint64_t r) { return double(r >> 11) * (1.0 / 9007199254740992.0); }  // 53 bits
  double uniform01() { return unit_of(next_u64()); }  // [0, 1)
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform01(); }
  double normal(double mean, double std);  // Box-Muller; caches the second value

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
  bool have_spare_ = false;
  double spare_ = 0;
};

// Deterministic replacements for libm (accurate to a few ulp; identical everywhere).
double det_log(double x);            // x > 0
void det_sincos_2pi(double u, double* s, double* c);  // sin/cos of 2*pi*u, u in [0, 1)

// Tensors of dtype with values drawn in flat C order, each rounded RNE into dtype
// (integers saturate; float overflow saturates to +-max so inputs stay finite).
// random_uniform's paths (golden/simd_path.h) give the same bits and differ only in speed:
// Portable draws and rounds element by element; the SIMD paths, for the IEEE float dtypes and
// with Avx512 the integer ones (others take the portable loop), cut the stream by Rng::jump into
// SIMD lanes of 64 bits (and a large tensor into two threads' halves first) and convert and
// round a vector at a time on the bits: Avx2 four lanes; Avx512 (AVX-512F) eight, an 8 x 8 block
// of steps transposed so that each lane's eight values leave in one store (integers: clamped,
// then rounded by adding and subtracting 1.5 * 2^52).
Tensor random_uniform(Dtype dtype, std::vector<int64_t> shape, double lo, double hi, Rng& rng,
                      SimdPath path = SimdPath::Auto);
Tensor random_normal(Dtype dtype, std::vector<int64_t> shape, double mean, double std, Rng& rng);

}  // namespace npu::golden
