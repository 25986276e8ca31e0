#pragma once
// Deterministic test-data generators. Everything is integer or basic IEEE arithmetic
// (+ - * / sqrt and our own log/sin/cos series), so a seed gives the same bits on every
// platform and libm: no std::*_distribution, no std::log/std::cos.
#include <cstdint>
#include <vector>

#include "golden/tensor.h"

namespace npu::golden {

// splitmix64 step (Vigna): used to seed xoshiro256**.
uint64_t splitmix64(uint64_t* state);

// xoshiro256** 1.0 seeded from splitmix64(seed).
class Rng {
 public:
  explicit Rng(uint64_t seed);
  static Rng from_state(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3);  // for test vectors
  uint64_t next_u64();
  double uniform01();                      // [0, 1), 53 random bits
  double uniform(double lo, double hi);    // lo + (hi - lo) * uniform01()
  double normal(double mean, double std);  // Box-Muller; caches the second value

 private:
  uint64_t s_[4];
  bool have_spare_ = false;
  double spare_ = 0;
};

// Deterministic replacements for libm (accurate to a few ulp; identical everywhere).
double det_log(double x);            // x > 0
void det_sincos_2pi(double u, double* s, double* c);  // sin/cos of 2*pi*u, u in [0, 1)

// Tensors of dtype with values drawn in flat C order, each rounded RNE into dtype
// (integers saturate; float overflow saturates to +-max so inputs stay finite).
Tensor random_uniform(Dtype dtype, std::vector<int64_t> shape, double lo, double hi, Rng& rng);
Tensor random_normal(Dtype dtype, std::vector<int64_t> shape, double mean, double std, Rng& rng);

}  // namespace npu::golden
