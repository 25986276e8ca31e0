// Deterministic generators: published test vectors for splitmix64/xoshiro256**, and the
// first values of our seeded streams pinned exactly (any change in them changes every test
// input derived from a seed, so it must be deliberate).
#include <cmath>

#include <gtest/gtest.h>

#include "golden/random.h"

namespace npu::golden {
namespace {

TEST(GoldenRandom, Splitmix64ReferenceVector) {
  uint64_t st = 0;
  EXPECT_EQ(splitmix64(&st), 0xE220A8397B1DCDAFull);  // Vigna's splitmix64.c, seed 0
}

TEST(GoldenRandom, Xoshiro256StarStarReferenceVector) {
  // State {1, 2, 3, 4}: first output rotl(2 * 5, 7) * 9 = 1280 * 9 = 11520; after one step
  // the state is {7, 0, 262146, 211106232532992} so the next is rotl(0, 7) * 9 = 0.
  Rng r = Rng::from_state(1, 2, 3, 4);
  EXPECT_EQ(r.next_u64(), 11520u);
  EXPECT_EQ(r.next_u64(), 0u);
  EXPECT_EQ(r.next_u64(), 1509978240u);
  EXPECT_EQ(r.next_u64(), 1215971899390074240ull);
}

// Jump-ahead (one tensor's stream drawn in pieces by SIMD lanes and threads) against stepping:
// the stepped path below 256 and the polynomial path above, on both sides of powers of two.
TEST(GoldenRandom, JumpEqualsStepping) {
  for (uint64_t n : {0ull, 1ull, 255ull, 256ull, 257ull, 1000ull, 4099ull, 65543ull, 1234567ull}) {
    Rng jumped(99), stepped(99);
    jumped.jump(n);
    for (uint64_t i = 0; i < n; ++i) stepped.next_u64();
    for (int k = 0; k < 4; ++k) EXPECT_EQ(jumped.next_u64(), stepped.next_u64()) << "n = " << n;
  }
}

TEST(GoldenRandom, SeededStreamIsPinned) {
  Rng r(42);
  EXPECT_EQ(r.next_u64(), 0x15780B2E0C2EC716ull);
  EXPECT_EQ(r.next_u64(), 6990951692964543102ull);
  Rng u(42);
  EXPECT_EQ(u.uniform(-1, 1), -0.83227405788023567);
  EXPECT_EQ(u.uniform(-1, 1), -0.24203949867466279);
  Rng n(42);
  EXPECT_EQ(n.normal(0, 1), -0.30326306467873809);
  EXPECT_EQ(n.normal(0, 1), 0.28846173882942383);  // the Box-Muller spare
  EXPECT_EQ(n.normal(0, 1), 1.3438117634372808);
}

TEST(GoldenRandom, SameSeedSameTensorDifferentSeedDifferent) {
  Rng a(7), b(7), c(8);
  Tensor ta = random_uniform(Dtype::BF16, {4, 8}, -1, 1, a);
  Tensor tb = random_uniform(Dtype::BF16, {4, 8}, -1, 1, b);
  Tensor tc = random_uniform(Dtype::BF16, {4, 8}, -1, 1, c);
  EXPECT_EQ(ta.bytes(), tb.bytes());
  EXPECT_NE(ta.bytes(), tc.bytes());
  // Values are in range and already bf16 (re-rounding changes nothing).
  for (int64_t i = 0; i < ta.numel(); ++i) {
    EXPECT_GE(ta.get(i), -1.0);
    EXPECT_LE(ta.get(i), 1.0);
  }
  // The first bf16 value is the RNE rounding of -0.83227405788023567:
  // 0.832274 * 256 = 213.06 -> 213 / 256 = 0.83203125.
  EXPECT_EQ(ta.dtype(), Dtype::BF16);
  Rng d(42);
  EXPECT_EQ(random_uniform(Dtype::BF16, {1}, -1, 1, d).get(0), -0.83203125);
}

TEST(GoldenRandom, NormalMomentsAndIntegers) {
  Rng r(123);
  Tensor t = random_normal(Dtype::F32, {20000}, 2.0, 0.5, r);
  double s = 0, s2 = 0;
  for (int64_t i = 0; i < t.numel(); ++i) {
    s += t.get(i);
    s2 += t.get(i) * t.get(i);
  }
  double mean = s / 20000, var = s2 / 20000 - mean * mean;
  EXPECT_NEAR(mean, 2.0, 0.02);   // 4 sigma of the sample mean is 0.014
  EXPECT_NEAR(var, 0.25, 0.01);
  Rng q(5);
  Tensor i8 = random_uniform(Dtype::S8, {1000}, -200, 200, q);  // saturates to [-128, 127]
  bool hit_lo = false, hit_hi = false;
  for (int64_t i = 0; i < i8.numel(); ++i) {
    hit_lo |= i8.get(i) == -128;
    hit_hi |= i8.get(i) == 127;
  }
  EXPECT_TRUE(hit_lo && hit_hi);
}

TEST(GoldenRandom, DeterministicLogAndSinCos) {
  EXPECT_EQ(det_log(1.0), 0.0);
  EXPECT_NEAR(det_log(0.5), -0.69314718055994531, 1e-16);
  EXPECT_NEAR(det_log(1e-300), std::log(1e-300), 1e-12);
  double s, c;
  det_sincos_2pi(0.25, &s, &c);
  EXPECT_EQ(s, 1.0);
  EXPECT_EQ(c, 0.0);
  det_sincos_2pi(0.125, &s, &c);
  EXPECT_NEAR(s, std::sqrt(0.5), 3e-16);  // within 2 ulp
  EXPECT_NEAR(c, std::sqrt(0.5), 3e-16);
}

}  // namespace
}  // namespace npu::golden
