// Long tier: the oracle comparison of numeric_oracle_test.cc on many more random inputs,
// and the f16/bf16 fast paths against the generic encoder on every f32 bit pattern.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "isa/numeric/numeric.h"
#include "testbench/unit/numeric_oracle.h"

namespace npu::num::test {
namespace {

// n random inputs (f32 bit patterns, in-range f32 values, in-range doubles), all modes and
// saturation settings, against the oracle.
void sweep(const OracleFormat& f, size_t n, uint64_t seed) {
  const Oracle oracle(f);
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint32_t> code(0, oracle.max_code());
  std::uniform_real_distribution<double> frac(0.0, 1.0);
  size_t bad = 0;
  for (size_t i = 0; i < n; ++i) {
    double x;
    switch (i % 3) {
      case 0: x = bits_to_f32(static_cast<uint32_t>(rng())); break;
      case 1: {
        const uint32_t c = code(rng);
        x = static_cast<float>(oracle.value(c) + frac(rng) * (oracle.value(c + 1) - oracle.value(c)));
        break;
      }
      default: {
        const uint32_t c = code(rng);
        x = oracle.value(c) + frac(rng) * (oracle.value(c + 1) - oracle.value(c));
      }
    }
    if (rng() & 1) x = -x;
    for (RoundMode rm : kAllModes)
      for (bool sat : {false, true}) {
        const uint64_t got = encode_bits(f.dtype, x, rm, sat);
        const uint32_t want = oracle.encode(x, rm, sat);
        if (got != want && ++bad <= 10)
          ADD_FAILURE() << name_of(f.dtype) << " x=" << std::hexfloat << x << " mode="
                        << mode_name(rm) << " sat=" << sat << std::hex << ": got 0x" << got
                        << " want 0x" << want;
      }
  }
  EXPECT_EQ(bad, 0u);
  std::printf("%s: %zu checks\n", name_of(f.dtype), n * 10);
}

TEST(NumericOracleLong, Bf16) { sweep(kOracleBf16, 4000000, 11); }
TEST(NumericOracleLong, F16) { sweep(kOracleF16, 4000000, 12); }
TEST(NumericOracleLong, E5m2) { sweep(kOracleE5m2, 4000000, 13); }
TEST(NumericOracleLong, E4m3) { sweep(kOracleE4m3, 4000000, 14); }

// The hot-path helpers equal the generic encoder on every f32 high half combined with the
// low halves where rounding decides (bf16: around bit 15; f16 normals: around bit 12, for
// every value of bits 13..15) plus random low halves, and on every 251st f32 pattern.
// (All 2^32 patterns took ~2 min in Release, too slow for the sanitizer build.)
TEST(NumericOracleLong, FastPathsF32Sweep) {
  std::vector<uint32_t> lows = {0x0000, 0x0001, 0x7FFF, 0x8000, 0x8001, 0xFFFF};
  for (uint32_t k = 0; k < 8; ++k)
    for (uint32_t l : {0x0u, 0x1u, 0xFFFu, 0x1000u, 0x1001u, 0x1FFFu}) lows.push_back(k << 13 | l);
  std::mt19937 rng(15);
  for (int i = 0; i < 64; ++i) lows.push_back(rng() & 0xFFFF);
  uint64_t bad = 0, checks = 0;
  auto check = [&](uint32_t u) {
    const float f = bits_to_f32(u);
    bad += f32_to_bf16(f) != encode_bits(Dtype::BF16, f);
    bad += f32_to_f16(f) != encode_bits(Dtype::F16, f);
    checks += 2;
    if (bad && bad < 4) ADD_FAILURE() << "mismatch at f32 0x" << std::hex << u;
  };
  for (uint32_t hi = 0; hi < 0x10000; ++hi)
    for (uint32_t lo : lows) check(hi << 16 | lo);
  for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 251) check(static_cast<uint32_t>(u));
  EXPECT_EQ(bad, 0u);
  std::printf("%llu fast-path checks\n", static_cast<unsigned long long>(checks));
}

}  // namespace
}  // namespace npu::num::test
