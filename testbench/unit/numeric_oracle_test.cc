// f32/double -> bf16, f16, e5m2, e4m3 against the independent nearest-representable oracle
// (numeric_oracle.h), all five rounding modes, with and without saturation. Quick tier: every
// code, every tie (+-1 f32 ulp and +-2^-40 relative as doubles), the overflow boundary, and
// random f32 bit patterns. numeric_oracle_long_test.cc runs a much larger random sweep.
#include <gtest/gtest.h>

#include <cinttypes>
#include <cstdio>
#include <random>
#include <vector>

#include "isa/numeric/numeric.h"
#include "testbench/unit/numeric_oracle.h"

namespace npu::num::test {
namespace {

// Random f32 bit patterns (all exponents) and random f32 values inside the format's range.
std::vector<double> random_inputs(const Oracle& o, size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<double> in;
  in.reserve(n);
  std::uniform_int_distribution<uint32_t> code(0, o.max_code());
  std::uniform_real_distribution<double> frac(0.0, 1.0);
  for (size_t i = 0; i < n; ++i) {
    if (i % 2 == 0) {
      in.push_back(bits_to_f32(static_cast<uint32_t>(rng())));
    } else {
      const uint32_t c = code(rng);
      const double v = o.value(c) + frac(rng) * (o.value(c + 1) - o.value(c));
      const float f = static_cast<float>(v);
      in.push_back((rng() & 1) ? -f : f);
    }
  }
  return in;
}

// Compares encode_bits with the oracle for every input, mode and saturation; returns the
// number of checks. Reports at most a few mismatches in detail.
size_t check_against_oracle(const OracleFormat& f, const std::vector<double>& inputs) {
  const Oracle oracle(f);
  size_t checks = 0, bad = 0;
  for (double x : inputs) {
    for (RoundMode rm : kAllModes) {
      for (bool sat : {false, true}) {
        const uint64_t got = encode_bits(f.dtype, x, rm, sat);
        const uint32_t want = oracle.encode(x, rm, sat);
        ++checks;
        if (got != want && ++bad <= 10)
          ADD_FAILURE() << name_of(f.dtype) << " x=" << std::hexfloat << x << std::defaultfloat
                        << " (" << x << ") mode=" << mode_name(rm) << " sat=" << sat
                        << ": got 0x" << std::hex << got << " want 0x" << want << std::dec;
      }
    }
  }
  EXPECT_EQ(bad, 0u) << name_of(f.dtype) << ": " << bad << " of " << checks << " differ";
  return checks;
}

void run_format(const OracleFormat& f, size_t n_random, uint64_t seed) {
  const Oracle oracle(f);
  const size_t s = check_against_oracle(f, structured_inputs(oracle, /*with_doubles=*/true));
  const size_t r = check_against_oracle(f, random_inputs(oracle, n_random, seed));
  std::printf("%s: %zu structured + %zu random checks\n", name_of(f.dtype), s, r);
}

TEST(NumericOracle, Bf16AllModes) { run_format(kOracleBf16, 40000, 1); }
TEST(NumericOracle, F16AllModes) { run_format(kOracleF16, 40000, 2); }
TEST(NumericOracle, E5m2AllModes) { run_format(kOracleE5m2, 100000, 3); }
TEST(NumericOracle, E4m3AllModes) { run_format(kOracleE4m3, 100000, 4); }

// The hot-path helpers must be bit-identical to the generic encoder (RNE, no saturation).
TEST(NumericOracle, FastPathsMatchGeneric) {
  std::mt19937_64 rng(5);
  std::vector<float> in;
  for (int i = 0; i < 400000; ++i) in.push_back(bits_to_f32(static_cast<uint32_t>(rng())));
  for (const Oracle& o : {Oracle(kOracleBf16), Oracle(kOracleF16)})
    for (double v : structured_inputs(o, false)) in.push_back(static_cast<float>(v));
  size_t bad = 0;
  for (float f : in) {
    bad += f32_to_bf16(f) != encode_bits(Dtype::BF16, f);
    bad += f32_to_f16(f) != encode_bits(Dtype::F16, f);
    bad += f32_to_e4m3(f, false) != encode_bits(Dtype::E4M3, f);
    bad += f32_to_e4m3(f, true) != encode_bits(Dtype::E4M3, f, RoundMode::Rne, true);
    bad += f32_to_e5m2(f, false) != encode_bits(Dtype::E5M2, f);
    bad += f32_to_e5m2(f, true) != encode_bits(Dtype::E5M2, f, RoundMode::Rne, true);
    if (bad && bad < 5) ADD_FAILURE() << "first mismatch at f32 0x" << std::hex << f32_to_bits(f);
  }
  EXPECT_EQ(bad, 0u) << "of " << in.size() * 6;
}

// The oracle itself must be able to fail: spot values computed by hand.
TEST(NumericOracle, OracleSpotValues) {
  const Oracle e4m3(kOracleE4m3);
  EXPECT_EQ(e4m3.max_value(), 448.0);
  EXPECT_EQ(e4m3.encode(464.0, RoundMode::Rne, false), 0x7Eu);    // tie 448|480 -> even 448
  EXPECT_EQ(e4m3.encode(465.0, RoundMode::Rne, false), 0x7Fu);    // -> 480: overflow = NaN
  EXPECT_EQ(e4m3.encode(465.0, RoundMode::Rne, true), 0x7Eu);
  EXPECT_EQ(e4m3.encode(-1e6, RoundMode::Trunc, false), 0xFEu);   // toward zero: -max
  const Oracle bf16(kOracleBf16);
  EXPECT_EQ(bf16.encode(1.0 + 0x1p-8, RoundMode::Rne, false), 0x3F80u);  // tie -> even
  EXPECT_EQ(bf16.encode(1.0 + 0x1p-8, RoundMode::Away, false), 0x3F81u);
  EXPECT_EQ(bf16.encode(-(1.0 + 0x1p-8), RoundMode::Floor, false), 0xBF81u);
}

}  // namespace
}  // namespace npu::num::test
