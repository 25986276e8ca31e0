// mmad, mmad_mx, fix and fix_ub on hand-computed matrices.
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "isa/sem/cube_kernel.h"

#include "testbench/isa/sem_test_fixture.h"

namespace npu::semtest {
namespace {

TEST(SemCube, MmadBf16AndF16) {
  for (Dtype dt : {Dtype::BF16, Dtype::F16}) {
    Cluster c;
    auto enc = [&](std::initializer_list<float> l) { return dt == Dtype::BF16 ? bfv(l) : hfv(l); };
    put<uint16_t>(c.aic, Buffer::L0A, 0, enc({1, 2, 3, 4, 5, 6}));  // A 2x3
    put<uint16_t>(c.aic, Buffer::L0B, 0, enc({1, 0, 0, 1, 1, 1}));  // B 3x2
    c.exec(c.aic, I(Op::MMAD, {dt, 0, 0, 0, 2, 3, 2}));
    EXPECT_EQ(get<float>(c.aic, Buffer::L0C, 0, 4), (std::vector<float>{4, 5, 10, 11}));
    c.exec(c.aic, I(Op::MMAD, {dt, 0, 0, 0, 2, 3, 2, 0}));  // accumulate
    EXPECT_EQ(get<float>(c.aic, Buffer::L0C, 0, 4), (std::vector<float>{8, 10, 20, 22}));
  }
}

TEST(SemCube, MmadBf16ProductsExact) {
  Cluster c;
  // (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 needs 15 mantissa bits: exact in fp32 (0x3F820200).
  put<uint16_t>(c.aic, Buffer::L0A, 0, {0x3F81});
  put<uint16_t>(c.aic, Buffer::L0B, 0, {0x3F81});
  c.exec(c.aic, I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(get<uint32_t>(c.aic, Buffer::L0C, 0, 1)[0], 0x3F820200u);
  // Inf * 0 = NaN; Inf * 1 + 1 = Inf.
  put<uint16_t>(c.aic, Buffer::L0A, 0, {0x7F80, 0x3F80});
  put<uint16_t>(c.aic, Buffer::L0B, 0, {0x0000, 0x3F80, 0x3F80, 0x3F80});  // B 2x2
  c.exec(c.aic, I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 1, 2, 2}));
  auto r = get<float>(c.aic, Buffer::L0C, 0, 2);
  EXPECT_TRUE(std::isnan(r[0]));
  EXPECT_EQ(r[1], std::numeric_limits<float>::infinity());
}

TEST(SemCube, MmadS8ExactInt32) {
  Cluster c;
  put<int8_t>(c.aic, Buffer::L0A, 0, {127, -128, 1, 2});
  put<int8_t>(c.aic, Buffer::L0B, 0, {127, 1, -128, 1});
  c.exec(c.aic, I(Op::MMAD, {Dtype::S8, 64, 0, 0, 2, 2, 2}));
  // [127*127 + 128*128, 127 - 128; 127 - 256, 1 + 2]
  EXPECT_EQ(get<int32_t>(c.aic, Buffer::L0C, 64, 4), (std::vector<int32_t>{32513, -1, -129, 3}));
}

TEST(SemCube, MmadF32Plain) {
  Cluster c;
  // 1e8 + 1 rounds to 1e8 in fp32, then + (-1e8) = 0: accumulation in k order, fp32 each step.
  put<float>(c.aic, Buffer::L0A, 0, {1e8f, 1.0f, -1e8f});
  put<float>(c.aic, Buffer::L0B, 0, {1.0f, 1.0f, 1.0f});
  c.exec(c.aic, I(Op::MMAD, {Dtype::F32, 0, 0, 0, 1, 3, 1}));
  EXPECT_EQ(get<float>(c.aic, Buffer::L0C, 0, 1)[0], 0.0f);
  put<float>(c.aic, Buffer::L0A, 0, {1.5f, 2.0f});
  put<float>(c.aic, Buffer::L0B, 0, {0.5f, 4.0f});
  c.exec(c.aic, I(Op::MMAD, {Dtype::F32, 0, 0, 0, 1, 2, 1}));
  EXPECT_EQ(get<float>(c.aic, Buffer::L0C, 0, 1)[0], 8.75f);
}

// The blocked kernel gives the plain i,j,k loop's result bit for bit (k order kept), across
// the k-block (64) and n-block (256) boundaries.
TEST(SemCube, MmadBlockedMatchesNaive) {
  Cluster c;
  const int m = 5, k = 100, n = 300;  // B: 60000 bytes of L0B
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<uint16_t> a(m * k), b(k * n);
  for (auto& x : a) x = bf(u(rng));
  for (auto& x : b) x = bf(u(rng));
  put(c.aic, Buffer::L0A, 0, a);
  put(c.aic, Buffer::L0B, 0, b);
  c.exec(c.aic, I(Op::MMAD, {Dtype::BF16, 0, 0, 0, m, k, n}));
  auto got = get<float>(c.aic, Buffer::L0C, 0, m * n);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float acc = 0;
      for (int kk = 0; kk < k; ++kk) acc = acc + num::bf16_to_f32(a[i * k + kk]) * num::bf16_to_f32(b[kk * n + j]);
      ASSERT_EQ(bits(got[i * n + j]), bits(acc)) << i << "," << j;
    }
}

// Every path of the product loop (isa/sem/cube_kernel.h) gives the portable loop's bits, on
// shapes that leave partial row tiles and partial (masked) column vectors, with infinities,
// subnormals, signed zeros and products that overflow or underflow fp32 mixed in, starting from
// a nonzero C. NaN results are compared as NaN only: which of two NaN operands x86 returns is
// the compiler's choice of operand order in the portable loop, not a property of the math.
// The s8 mmad's wrapping uint32 product loop: the AVX-512 tile against the portable loop on
// values of every size (products and sums wrap; the order never matters in uint32), with
// partial 4-row tiles and 32 + 16 + masked columns.
TEST(SemCube, U32PathsGiveIdenticalResults) {
  if (!sem::cube_path_available(sem::CubePath::Avx512)) GTEST_SKIP() << "this CPU has no AVX-512F";
  std::mt19937 rng(17);
  for (auto [m, k, n] : {std::array<size_t, 3>{1, 1, 1}, {3, 7, 5}, {4, 16, 16}, {7, 33, 23}, {9, 128, 41},
                         {16, 40, 63}, {21, 9, 97}, {5, 64, 32}, {6, 3, 48}}) {
    std::vector<uint32_t> A(m * k), B(k * n), C0(m * n);
    for (uint32_t& x : A) x = rng() % 4 == 0 ? uint32_t(rng()) : uint32_t(int32_t(rng() % 256) - 128);
    for (uint32_t& x : B) x = rng() % 4 == 0 ? uint32_t(rng()) : uint32_t(int32_t(rng() % 256) - 128);
    for (uint32_t& x : C0) x = uint32_t(rng());
    std::vector<uint32_t> portable = C0, avx512 = C0;
    sem::matmul_u32(A.data(), B.data(), portable.data(), m, k, n, sem::CubePath::Portable);
    sem::matmul_u32(A.data(), B.data(), avx512.data(), m, k, n, sem::CubePath::Avx512);
    EXPECT_EQ(portable, avx512) << m << " x " << k << " x " << n;
  }
}

TEST(SemCube, ProductPathsGiveIdenticalBits) {
  if (!sem::cube_path_available(sem::CubePath::Avx2)) GTEST_SKIP() << "this CPU has no AVX2";
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-2, 2);
  const float specials[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                            1e-40f, -1e-40f, 0.0f, -0.0f, 3e38f, -3e38f, 1e-30f};
  for (auto [m, k, n] : {std::array<size_t, 3>{1, 1, 1}, {3, 7, 5}, {4, 16, 16}, {7, 33, 23}, {9, 128, 41},
                         {18, 20, 40}, {35, 64, 50},  // these two: packed strips of B, 2 / 3 rows left
                         {16, 40, 63}, {21, 9, 97}}) {  // 16-lane paths: 8-row tiles, 32 + 16 + masked 15 /
                                                        // 3 x 32 + 1 columns, 5 rows left
    auto value = [&, k = k] {  // about one special value per 3 dot products, the rest in [-2, 2)
      const size_t r = rng() % (64 * k);
      return r < 9 ? specials[r] : u(rng);
    };
    std::vector<float> A(m * k), B(k * n), C0(m * n);
    for (float& x : A) x = value();
    for (float& x : B) x = value();
    for (float& x : C0) x = value();
    std::vector<float> portable = C0, avx2 = C0;
    sem::matmul_f32(A.data(), B.data(), portable.data(), m, k, n, sem::CubePath::Portable);
    sem::matmul_f32(A.data(), B.data(), avx2.data(), m, k, n, sem::CubePath::Avx2);
    std::vector<float> fma_unsure = C0;  // products not said to be exact: the two-rounding tile
    if (sem::cube_path_available(sem::CubePath::Fma))
      sem::matmul_f32(A.data(), B.data(), fma_unsure.data(), m, k, n, sem::CubePath::Fma);
    else
      fma_unsure = avx2;
    std::vector<float> avx512 = C0;  // likewise on the 16-lane tile
    if (sem::cube_path_available(sem::CubePath::Avx512))
      sem::matmul_f32(A.data(), B.data(), avx512.data(), m, k, n, sem::CubePath::Avx512);
    else
      avx512 = avx2;
    for (size_t i = 0; i < m * n; ++i) {
      if (std::isnan(avx2[i])) {
        ASSERT_TRUE(std::isnan(fma_unsure[i]) && std::isnan(avx512[i]));
      } else {
        ASSERT_EQ(bits(avx2[i]), bits(fma_unsure[i])) << m << "x" << k << "x" << n << " element " << i;
        ASSERT_EQ(bits(avx2[i]), bits(avx512[i])) << m << "x" << k << "x" << n << " element " << i;
      }
      if (std::isnan(portable[i])) {
        ASSERT_TRUE(std::isnan(avx2[i])) << m << "x" << k << "x" << n << " element " << i;
      } else {
        ASSERT_EQ(bits(portable[i]), bits(avx2[i])) << m << "x" << k << "x" << n << " element " << i;
      }
    }
  }
}

// The fused path (one rounding per step) gives the two-rounding path's bits whenever every
// product is exact: operands with bf16 / f16 significands inside exact_products' range, any C
// (infinities, NaN, huge or tiny sums included). Values at the range's ends and zeros of both
// signs are drawn often.
TEST(SemCube, FusedPathGivesTheSameBitsForExactProducts) {
  if (!sem::cube_path_available(sem::CubePath::Fma)) GTEST_SKIP() << "this CPU has no AVX2 + FMA";
  std::mt19937 rng(12);
  auto bf16_value = [&] {  // a bf16 value (8-bit significand) of magnitude in [2^-63, 2^63) or zero
    const uint32_t r = rng();
    if (r % 17 == 0) return r & 1 ? 0.0f : -0.0f;
    const uint32_t e = 64 + (r >> 8) % 126, mant = (r >> 1) & 0x7F, sign = r & 0x80000000u;
    const uint32_t u = sign | (e << 23) | (mant << 16);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  };
  const float c_specials[] = {std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                              std::numeric_limits<float>::quiet_NaN(), 3.4e38f, -3.4e38f, 1e-40f, 0.0f, -0.0f};
  for (auto [m, k, n] : {std::array<size_t, 3>{1, 1, 1}, {3, 7, 5}, {4, 16, 16}, {7, 33, 23}, {18, 20, 40},
                         {35, 64, 50}, {16, 40, 63}, {21, 9, 97}}) {
    std::vector<float> A(m * k), B(k * n), C0(m * n);
    for (float& x : A) x = bf16_value();
    for (float& x : B) x = bf16_value();
    for (float& x : C0) x = rng() % 5 == 0 ? c_specials[rng() % 8] : bf16_value();
    ASSERT_TRUE(sem::exact_products(A.data(), A.size()) && sem::exact_products(B.data(), B.size()));
    std::vector<float> portable = C0, fused = C0, fused512 = C0;
    sem::matmul_f32(A.data(), B.data(), portable.data(), m, k, n, sem::CubePath::Portable);
    sem::matmul_f32(A.data(), B.data(), fused.data(), m, k, n, sem::CubePath::Fma, /*products_exact=*/true);
    if (sem::cube_path_available(sem::CubePath::Avx512))
      sem::matmul_f32(A.data(), B.data(), fused512.data(), m, k, n, sem::CubePath::Avx512, /*products_exact=*/true);
    else
      fused512 = fused;
    for (size_t i = 0; i < m * n; ++i) {
      if (std::isnan(portable[i])) {
        ASSERT_TRUE(std::isnan(fused[i]) && std::isnan(fused512[i])) << m << "x" << k << "x" << n << " element " << i;
      } else {
        ASSERT_EQ(bits(portable[i]), bits(fused[i])) << m << "x" << k << "x" << n << " element " << i;
        ASSERT_EQ(bits(portable[i]), bits(fused512[i])) << m << "x" << k << "x" << n << " element " << i;
      }
    }
  }
}

// The range's ends: 2^-63 and the largest value below 2^63 are in, their neighbours outside
// are not; zeros are in, subnormals, infinities and NaN are not.
TEST(SemCube, ExactProductRange) {
  auto f = [](uint32_t u) {
    float v;
    std::memcpy(&v, &u, 4);
    return v;
  };
  EXPECT_TRUE(sem::in_exact_range(0.0f));
  EXPECT_TRUE(sem::in_exact_range(-0.0f));
  EXPECT_TRUE(sem::in_exact_range(f(64u << 23)));            // 2^-63
  EXPECT_FALSE(sem::in_exact_range(f((64u << 23) - 1)));     // just below
  EXPECT_TRUE(sem::in_exact_range(f((190u << 23) - 1)));     // just below 2^63
  EXPECT_FALSE(sem::in_exact_range(f(190u << 23)));          // 2^63
  EXPECT_FALSE(sem::in_exact_range(1e-40f));                 // subnormal
  EXPECT_FALSE(sem::in_exact_range(std::numeric_limits<float>::infinity()));
  EXPECT_FALSE(sem::in_exact_range(std::numeric_limits<float>::quiet_NaN()));
  // exact_products over arrays of every length 0..40 with one outsider at each position (the
  // vector body and the scalar tail).
  for (size_t n = 0; n <= 40; ++n) {
    std::vector<float> v(n, 1.5f);
    EXPECT_TRUE(sem::exact_products(v.data(), n));
    for (size_t i = 0; i < n; ++i) {
      v[i] = 1e-30f;  // 2^-99.7: its square underflows to a subnormal
      EXPECT_FALSE(sem::exact_products(v.data(), n)) << n << " " << i;
      v[i] = 1.5f;
    }
  }
}

TEST(SemCube, MmadFaults) {
  Cluster c;
  EXPECT_EQ(c.error(c.aic, I(Op::MMAD, {Dtype::BF16, 0, 100, 0, 16, 16, 16}), 9),
            "cluster0.aic pc 9 (mmad.bf16 0x0, 0x64, 0x0, 16, 16, 16, 1): L0A offset 100 is not 512-byte aligned");
  // 256 x 256 bf16 = 128 KB > L0A 64 KB.
  EXPECT_EQ(c.error(c.aic, I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 256, 256, 16})),
            "cluster0.aic pc 0 (mmad.bf16 0x0, 0x0, 0x0, 256, 256, 16, 1): L0A read [0, 131072) out of "
            "bounds (L0A is 65536 bytes)");
  EXPECT_EQ(c.error(c.aic, I(Op::MMAD, {Dtype::S16, 0, 0, 0, 1, 1, 1})),
            "cluster0.aic pc 0 (mmad.s16 0x0, 0x0, 0x0, 1, 1, 1, 1): 'mmad' does not support dtype s16 "
            "(allowed: bf16, f16, s8, f32)");
}

TEST(SemCube, MmadMx) {
  Cluster c(isa::Arch::A5);
  // m = n = 1, k = 64: A elements 1.0 (e4m3 0x38), A scales {2^0, 2^1}; B elements 1.0, scales {2^0, 2^0}.
  std::vector<uint8_t> ones(64, 0x38);
  put(c.aic, Buffer::L0A, 0, ones);
  put<uint8_t>(c.aic, Buffer::L0A, 512, {127, 128});
  put(c.aic, Buffer::L0B, 0, ones);
  put<uint8_t>(c.aic, Buffer::L0B, 512, {127, 127});
  c.aic.set_reg(1, 512);
  c.aic.set_reg(2, 512);
  c.exec(c.aic, I(Op::MMAD_MX, {isa::MxType::E4M3, 0, 0, 0, R(1), R(2), 1, 64, 1}));
  EXPECT_EQ(get<float>(c.aic, Buffer::L0C, 0, 1)[0], 96.0f);  // 32 * 1 + 32 * 2
  // e5m2 elements: 1.0 = 0x3C; B scale 2^-2 (125) on block 1: 32 + 32 * 0.25 = 40.
  std::vector<uint8_t> ones5(64, 0x3C);
  put(c.aic, Buffer::L0A, 0, ones5);
  put<uint8_t>(c.aic, Buffer::L0A, 512, {127, 127});
  put(c.aic, Buffer::L0B, 0, ones5);
  put<uint8_t>(c.aic, Buffer::L0B, 512, {127, 125});
  c.exec(c.aic, I(Op::MMAD_MX, {isa::MxType::E5M2, 0, 0, 0, R(1), R(2), 1, 64, 1}));
  EXPECT_EQ(get<float>(c.aic, Buffer::L0C, 0, 1)[0], 40.0f);
  // A NaN scale makes its whole block NaN, hence the sum.
  put<uint8_t>(c.aic, Buffer::L0A, 512, {127, 0xFF});
  c.exec(c.aic, I(Op::MMAD_MX, {isa::MxType::E5M2, 0, 0, 0, R(1), R(2), 1, 64, 1}));
  EXPECT_TRUE(std::isnan(get<float>(c.aic, Buffer::L0C, 0, 1)[0]));
}

TEST(SemFix, F32ToBf16WithStride) {
  Cluster c;
  c.gm.add_region("y", 0x1000, 0x100);
  put<float>(c.aic, Buffer::L0C, 0, {1.0f, -2.5f, 3.0f, fl(0x3F808000)});  // last: tie -> 0x3F80
  c.aic.set_reg(3, 0x1000);
  c.exec(c.aic, I(Op::FIX, {Dtype::F32, Dtype::BF16, R(3), 0, 2, 2, 64}));
  EXPECT_EQ(c.gm.read_bytes(0x1000, 4), (std::vector<uint8_t>{0x80, 0x3F, 0x20, 0xC0}));
  EXPECT_EQ(c.gm.read_bytes(0x1040, 4), (std::vector<uint8_t>{0x40, 0x40, 0x80, 0x3F}));
  EXPECT_EQ(c.gm.read_bytes(0x1004, 4), (std::vector<uint8_t>{0, 0, 0, 0}));  // gap untouched
}

TEST(SemFix, S32NoQuantRoundsOnce) {
  Cluster c;
  put<int32_t>(c.aic, Buffer::L0C, 0, {(1 << 24) + (1 << 16) + 1, -7});
  c.aic.set_reg(3, 0x100);
  c.exec(c.aic, I(Op::FIX, {Dtype::S32, Dtype::BF16, R(3), 0, 1, 2, 64}));
  uint16_t out[2];
  c.gm.read(0x100, out, 4);
  EXPECT_EQ(out[0], 0x4B81);  // see SemVector.CastSaturationNaNTies
  EXPECT_EQ(out[1], 0xC0E0);  // -7
}

TEST(SemFix, ScalarAndVectorDequantRelu) {
  Cluster c;
  put<int32_t>(c.aic, Buffer::L0C, 0, {3, -4, 10, 6});  // 2 x 2
  c.aic.set_reg(3, 0x200);
  c.aic.set_reg(4, bits(0.5f));
  c.exec(c.aic, I(Op::FIX, {Dtype::S32, Dtype::F32, R(3), 0, 2, 2, 8, isa::QuantMode::Scalar, R(4), 0}));
  float y[4];
  c.gm.read(0x200, y, 16);
  EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{1.5f, -2.0f, 5.0f, 3.0f}));
  c.exec(c.aic, I(Op::FIX, {Dtype::S32, Dtype::F32, R(3), 0, 2, 2, 8, isa::QuantMode::Scalar, R(4), 1}));
  c.gm.read(0x200, y, 16);
  EXPECT_EQ(std::vector<float>(y, y + 4), (std::vector<float>{1.5f, 0.0f, 5.0f, 3.0f}));
  // Per-column scales {2, 0.25} in the FixPipe buffer at 128, loaded from L1 by mov_l1_fb.
  put<float>(c.aic, Buffer::L1, 64, {2.0f, 0.25f});
  c.exec(c.aic, I(Op::MOV_L1_FB, {128, 64, 8}));
  c.aic.set_reg(5, 128);
  c.exec(c.aic, I(Op::FIX, {Dtype::S32, Dtype::BF16, R(3), 0, 2, 2, 4, isa::QuantMode::Vector, R(5), 1}));
  uint16_t h[4];
  c.gm.read(0x200, h, 8);
  // [3*2, -4*0.25 -> relu 0; 10*2, 6*0.25]
  EXPECT_EQ(std::vector<uint16_t>(h, h + 4), (std::vector<uint16_t>{0x40C0, 0x0000, 0x41A0, 0x3FC0}));
  EXPECT_EQ(c.error(c.aic, I(Op::FIX, {Dtype::S32, Dtype::BF16, R(3), 0, 2, 2, 4, isa::QuantMode::Vector, R(4), 1})),
            "cluster0.aic pc 0 (fix.s32.bf16 r3, 0x0, 2, 2, 4, qvector, r4, 1): FB read [1056964608, "
            "1056964616) out of bounds (FB is 7168 bytes)");  // r4 holds fp32 0.5 bits, not an offset
}

TEST(SemFix, GmRegionFault) {
  Cluster c;
  c.gm.add_region("y", 0x1000, 0x40);
  c.aic.set_reg(3, 0x1000);
  // Second row starts at 0x1040: past the region.
  EXPECT_EQ(c.error(c.aic, I(Op::FIX, {Dtype::F32, Dtype::F32, R(3), 0, 2, 4, 64}), 4),
            "cluster0.aic pc 4 (fix.f32.f32 r3, 0x0, 2, 4, 64, noquant, r0, 0): GM write [0x1040, 0x1050) "
            "is outside every GM region");
  c.aic.set_reg(3, 0x1030);
  EXPECT_EQ(c.error(c.aic, I(Op::FIX, {Dtype::F32, Dtype::F32, R(3), 0, 1, 8, 64})),
            "cluster0.aic pc 0 (fix.f32.f32 r3, 0x0, 1, 8, 64, noquant, r0, 0): GM write [0x1030, 0x1050) "
            "runs past the end of GM region 'y' [0x1000, 0x1040)");
}

TEST(SemFix, FixUbA5) {
  Cluster c(isa::Arch::A5);
  put<float>(c.aic, Buffer::L0C, 0, {1.0f, 2.0f});
  c.exec(c.aic, I(Op::FIX_UB, {Dtype::F32, Dtype::F16, 1, 64, 0, 1, 2, 32}));
  EXPECT_EQ(get<uint16_t>(c.aiv1, Buffer::Ub, 64, 2), (std::vector<uint16_t>{0x3C00, 0x4000}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<uint16_t>{0, 0}));
}

}  // namespace
}  // namespace npu::semtest
