// Deterministic generators: published test vectors for splitmix64/xoshiro256**, and the
// first values of our seeded streams pinned exactly (any change in them changes every test
// input derived from a seed, so it must be deliberate).
#include <cmath>
#include <string>

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

// random_uniform's SIMD paths (SimdPath) against the element-by-element one, bit for bit, with
// the Rng left at the same state: every IEEE dtype they handle and the integers, ranges that
// reach encode's general path (saturation, subnormals, zero), and lengths on both sides of every cut (the 8-wide
// blocks, the serial/lanes threshold, a partial last block of lane steps, the serial
// leftovers, the two threads' halves). A Box-Muller spare cached before the draw survives it.
TEST(GoldenRandom, UniformPathsAgreeAtEveryCut) {
  struct Range {
    double lo, hi;
  };
  const int64_t kSmall[] = {0,     1,     2,     3,     7,     8,     9,     15,    16,    17,    63,
                            64,    65,    511,   512,   513,   520,   4095,  4096,  4097,  4099,
                            4103,  8191,  8192,  8207,  16383, 16384, 16385, 16391, 16447, 16455,
                            24593, 32773, 65543, 131077};
  const int64_t kLarge[] = {(int64_t(1) << 20) - 1, (int64_t(1) << 20), (int64_t(1) << 20) + 9,
                            (int64_t(1) << 20) + 137};
  std::string missing;
  for (SimdPath p : {SimdPath::Avx2, SimdPath::Avx512}) {
    if (!simd_path_available(p)) {
      missing += p == SimdPath::Avx2 ? " Avx2" : " Avx512";
      continue;
    }
    auto check = [&](Dtype dt, Range r, int64_t n, bool spare) {
      const uint64_t seed = uint64_t(n) * 31 + uint64_t(dt);
      Rng a(seed), b(seed);
      if (spare) {
        a.normal(0, 1);
        b.normal(0, 1);
      }
      const Tensor ta = random_uniform(dt, {n}, r.lo, r.hi, a, SimdPath::Portable);
      const Tensor tb = random_uniform(dt, {n}, r.lo, r.hi, b, p);
      EXPECT_EQ(ta.bytes(), tb.bytes()) << "path " << int(p) << " dtype " << int(dt) << " [" << r.lo << ", " << r.hi
                                        << "] n " << n;
      if (spare) {
        EXPECT_EQ(a.normal(0, 1), b.normal(0, 1)) << "path " << int(p) << " n " << n;
      }
      EXPECT_EQ(a.next_u64(), b.next_u64()) << "path " << int(p) << " dtype " << int(dt) << " n " << n;
    };
    for (Dtype dt : {Dtype::BF16, Dtype::F16, Dtype::F32, Dtype::E5M2})
      for (Range r : {Range{-1, 1}, Range{-1e5, 1e5}, Range{0, 1e-6}, Range{-1e-40, 1e-40}})
        for (int64_t n : kSmall) check(dt, r, n, n == 16391);
    // Integers (Avx512): in range, saturating at both ends, ties (x.5) and the -0.5 .. 0 zero.
    for (Dtype dt : {Dtype::S8, Dtype::U8, Dtype::S16, Dtype::S32})
      for (Range r : {Range{-127, 127}, Range{-300, 300}, Range{-0.75, 0.75}, Range{-3e9, 3e9}, Range{2.5, 2.5}})
        for (int64_t n : kSmall) check(dt, r, n, false);
    for (int64_t n : kLarge) check(Dtype::BF16, Range{-1, 1}, n, n == kLarge[2]);
    check(Dtype::S8, Range{-127, 127}, kLarge[3], false);
  }
  if (!missing.empty()) GTEST_SKIP() << "the CPU lacks" << missing << " (the other paths were checked)";
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
