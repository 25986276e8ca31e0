// Vector instruction semantics on hand-computed values.
#include <algorithm>
#include <cmath>
#include <limits>

#include "testbench/isa/sem_test_fixture.h"

namespace npu::semtest {
namespace {

const float kInf = std::numeric_limits<float>::infinity();

TEST(SemVector, BinaryF32) {
  Cluster c;
  put<float>(c.aiv0, Buffer::Ub, 0, {1.5f, -2.0f, 3.0f, 0.0f});
  put<float>(c.aiv0, Buffer::Ub, 32, {0.25f, 4.0f, -1.0f, 0.0f});
  auto run = [&](Op op) {
    c.exec(c.aiv0, I(op, {Dtype::F32, 64, 0, 32, 4}));
    return get<float>(c.aiv0, Buffer::Ub, 64, 4);
  };
  EXPECT_EQ(run(Op::VADD), (std::vector<float>{1.75f, 2.0f, 2.0f, 0.0f}));
  EXPECT_EQ(run(Op::VSUB), (std::vector<float>{1.25f, -6.0f, 4.0f, 0.0f}));
  EXPECT_EQ(run(Op::VMUL), (std::vector<float>{0.375f, -8.0f, -3.0f, 0.0f}));
  EXPECT_EQ(run(Op::VMAX), (std::vector<float>{1.5f, 4.0f, 3.0f, 0.0f}));
  EXPECT_EQ(run(Op::VMIN), (std::vector<float>{0.25f, -2.0f, -1.0f, 0.0f}));
  auto d = run(Op::VDIV);  // 0/0 = NaN
  EXPECT_EQ(d[0], 6.0f);
  EXPECT_EQ(d[1], -0.5f);
  EXPECT_EQ(d[2], -3.0f);
  EXPECT_TRUE(std::isnan(d[3]));
}

TEST(SemVector, MaxMinPropagateNaN) {
  Cluster c;
  float nan = std::numeric_limits<float>::quiet_NaN();
  put<float>(c.aiv0, Buffer::Ub, 0, {nan, 1.0f});
  put<float>(c.aiv0, Buffer::Ub, 32, {1.0f, nan});
  c.exec(c.aiv0, I(Op::VMAX, {Dtype::F32, 64, 0, 32, 2}));
  auto r = get<float>(c.aiv0, Buffer::Ub, 64, 2);
  EXPECT_TRUE(std::isnan(r[0]) && std::isnan(r[1]));
}

TEST(SemVector, Bf16ComputesInFp32AndRoundsRne) {
  Cluster c;
  put<uint16_t>(c.aiv0, Buffer::Ub, 0, {0x3F80, 0x3F81, 0x7F80});  // 1.0, 1+2^-7, +Inf
  put<uint16_t>(c.aiv0, Buffer::Ub, 32, {0x3B80, 0x3B80, 0xFF80});  // 2^-8, 2^-8, -Inf
  c.exec(c.aiv0, I(Op::VADD, {Dtype::BF16, 64, 0, 32, 3}));
  // 1 + 2^-8: tie, even mantissa 0 -> 0x3F80. (1+2^-7) + 2^-8: tie between 0x3F81 and 0x3F82 -> even 0x3F82.
  // Inf + -Inf = NaN -> quiet bf16 NaN 0x7FC0 (the sign of a generated NaN is not specified).
  auto r = get<uint16_t>(c.aiv0, Buffer::Ub, 64, 3);
  EXPECT_EQ(r[0], 0x3F80);
  EXPECT_EQ(r[1], 0x3F82);
  EXPECT_EQ(r[2] & 0x7FFF, 0x7FC0);
}

TEST(SemVector, F16OverflowToInf) {
  Cluster c;
  put<uint16_t>(c.aiv0, Buffer::Ub, 0, hfv({60000.0f, 2.0f}));
  c.exec(c.aiv0, I(Op::VMULS, {Dtype::F16, 64, 0, bits(2.0f), 2}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<uint16_t>{0x7C00, 0x4400}));
}

TEST(SemVector, IntegerWraps) {
  Cluster c;
  put<int8_t>(c.aiv0, Buffer::Ub, 0, {127, -128, 100, -7});
  put<int8_t>(c.aiv0, Buffer::Ub, 32, {1, -1, 3, 2});
  c.exec(c.aiv0, I(Op::VADD, {Dtype::S8, 64, 0, 32, 4}));
  EXPECT_EQ(get<int8_t>(c.aiv0, Buffer::Ub, 64, 4), (std::vector<int8_t>{-128, 127, 103, -5}));
  c.exec(c.aiv0, I(Op::VMUL, {Dtype::S8, 64, 0, 32, 4}));
  EXPECT_EQ(get<int8_t>(c.aiv0, Buffer::Ub, 64, 4), (std::vector<int8_t>{127, -128, 44, -14}));  // 300 wraps to 44
  c.exec(c.aiv0, I(Op::VDIV, {Dtype::S8, 64, 0, 32, 4}));  // toward zero; -128 / -1 wraps
  EXPECT_EQ(get<int8_t>(c.aiv0, Buffer::Ub, 64, 4), (std::vector<int8_t>{127, -128, 33, -3}));
  put<int32_t>(c.aiv0, Buffer::Ub, 0, {INT32_MAX, 5});
  c.exec(c.aiv0, I(Op::VADDS, {Dtype::S32, 64, 0, 1, 2}));
  EXPECT_EQ(get<int32_t>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<int32_t>{INT32_MIN, 6}));
  put<int16_t>(c.aiv0, Buffer::Ub, 0, {-3, 9});
  c.exec(c.aiv0, I(Op::VMAXS, {Dtype::S16, 64, 0, 0, 2}));
  EXPECT_EQ(get<int16_t>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<int16_t>{0, 9}));
  c.exec(c.aiv0, I(Op::VMINS, {Dtype::S16, 64, 0, 4, 2}));
  EXPECT_EQ(get<int16_t>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<int16_t>{-3, 4}));
}

TEST(SemVector, IntegerDivideByZeroFaults) {
  Cluster c;
  put<int32_t>(c.aiv0, Buffer::Ub, 0, {1});
  EXPECT_EQ(c.error(c.aiv0, I(Op::VDIV, {Dtype::S32, 64, 0, 32, 1}), 7),
            "cluster0.aiv0 pc 7 (vdiv.s32 0x40, 0x0, 0x20, 1): integer division by zero");
}

TEST(SemVector, ScalarOps) {
  Cluster c;
  put<float>(c.aiv0, Buffer::Ub, 0, {1.0f, -3.0f});
  c.exec(c.aiv0, I(Op::VADDS, {Dtype::F32, 64, 0, bits(0.5f), 2}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<float>{1.5f, -2.5f}));
  c.exec(c.aiv0, I(Op::VMAXS, {Dtype::F32, 64, 0, bits(0.0f), 2}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<float>{1.0f, 0.0f}));
  c.exec(c.aiv0, I(Op::VMINS, {Dtype::F32, 64, 0, bits(0.0f), 2}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<float>{0.0f, -3.0f}));
  // Register scalar, read at dispatch.
  c.aiv0.set_reg(5, bits(-2.0f));
  c.exec(c.aiv0, I(Op::VMULS, {Dtype::F32, 64, 0, R(5), 2}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<float>{-2.0f, 6.0f}));
  // bf16 with an fp32 scalar s = 1 + 2^-8 + 2^-10 that is not a bf16: used unrounded.
  // 1 * s -> bf16 0x3F81 (1.0078125). 3 * s = 3.0146484375 -> bf16 (ulp 2^-6) 3.015625 = 0x4041;
  // had s been rounded to bf16 first (1.0078125), 3 * 1.0078125 = 3.0234375 is a tie -> 0x4042.
  put<uint16_t>(c.aiv0, Buffer::Ub, 0, bfv({1.0f, 3.0f}));
  c.exec(c.aiv0, I(Op::VMULS, {Dtype::BF16, 64, 0, bits(1.0f + 1.0f / 256 + 1.0f / 1024), 2}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<uint16_t>{0x3F81, 0x4041}));
}

TEST(SemVector, Unary) {
  Cluster c;
  put<float>(c.aiv0, Buffer::Ub, 0, {-4.0f, 0.25f, 0.0f, -kInf});
  auto run = [&](Op op) {
    c.exec(c.aiv0, I(op, {Dtype::F32, 64, 0, 4}));
    return get<float>(c.aiv0, Buffer::Ub, 64, 4);
  };
  EXPECT_EQ(run(Op::VABS), (std::vector<float>{4.0f, 0.25f, 0.0f, kInf}));
  EXPECT_EQ(run(Op::VNEG), (std::vector<float>{4.0f, -0.25f, -0.0f, kInf}));
  EXPECT_EQ(run(Op::VRELU), (std::vector<float>{0.0f, 0.25f, 0.0f, 0.0f}));
  auto e = run(Op::VEXP);
  EXPECT_EQ(e[1], std::exp(0.25f));
  EXPECT_EQ(e[2], 1.0f);
  EXPECT_EQ(e[3], 0.0f);
  auto l = run(Op::VLN);
  EXPECT_TRUE(std::isnan(l[0]));
  EXPECT_EQ(l[2], -kInf);
  auto s = run(Op::VSQRT);
  EXPECT_TRUE(std::isnan(s[0]));
  EXPECT_EQ(s[1], 0.5f);
  auto rs = run(Op::VRSQRT);
  EXPECT_EQ(rs[1], 2.0f);
  EXPECT_EQ(rs[2], kInf);
  auto rc = run(Op::VREC);
  EXPECT_EQ(rc[0], -0.25f);
  EXPECT_EQ(rc[1], 4.0f);
  EXPECT_EQ(rc[3], -0.0f);
  put<int16_t>(c.aiv0, Buffer::Ub, 0, {-32768, -5, 7, 0});
  c.exec(c.aiv0, I(Op::VABS, {Dtype::S16, 64, 0, 4}));
  EXPECT_EQ(get<int16_t>(c.aiv0, Buffer::Ub, 64, 4), (std::vector<int16_t>{-32768, 5, 7, 0}));
  c.exec(c.aiv0, I(Op::VNEG, {Dtype::S16, 64, 0, 4}));
  EXPECT_EQ(get<int16_t>(c.aiv0, Buffer::Ub, 64, 4), (std::vector<int16_t>{-32768, 5, -7, 0}));
  c.exec(c.aiv0, I(Op::VRELU, {Dtype::S16, 64, 0, 4}));
  EXPECT_EQ(get<int16_t>(c.aiv0, Buffer::Ub, 64, 4), (std::vector<int16_t>{0, 0, 7, 0}));
  EXPECT_EQ(c.error(c.aiv0, I(Op::VEXP, {Dtype::S16, 64, 0, 4})),
            "cluster0.aiv0 pc 0 (vexp.s16 0x40, 0x0, 4): 'vexp' does not support dtype s16 (allowed: f32, f16, bf16)");
}

TEST(SemVector, Bf16Rsqrt) {
  Cluster c;
  put<uint16_t>(c.aiv0, Buffer::Ub, 0, bfv({4.0f, 2.0f}));
  c.exec(c.aiv0, I(Op::VRSQRT, {Dtype::BF16, 64, 0, 2}));
  // 1/sqrt(2) = 0.70710677 (fp32) -> bf16: 0x3F35 (0.70703125); next 0x3F36 = 0.70898
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 64, 2), (std::vector<uint16_t>{0x3F00, 0x3F35}));
}

TEST(SemVector, DupAndCopy) {
  Cluster c;
  c.exec(c.aiv0, I(Op::VDUP, {Dtype::BF16, 0, bits(1.5f), 3}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 0, 4), (std::vector<uint16_t>{0x3FC0, 0x3FC0, 0x3FC0, 0}));
  c.exec(c.aiv0, I(Op::VDUP, {Dtype::S8, 32, -3, 2}));
  EXPECT_EQ(get<int8_t>(c.aiv0, Buffer::Ub, 32, 3), (std::vector<int8_t>{-3, -3, 0}));
  c.exec(c.aiv0, I(Op::VCOPY, {Dtype::BF16, 64, 0, 3}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 64, 3), (std::vector<uint16_t>{0x3FC0, 0x3FC0, 0x3FC0}));
}

TEST(SemVector, PairRotate) {
  Cluster c;
  // bf16 bits 1..6 = pairs (1, 2), (3, 4), (5, 6) -> (-2, 1), (-4, 3), (-6, 5): the sign bit
  // 0x8000 set on the moved odd element, nothing else changes.
  put<uint16_t>(c.aiv0, Buffer::Ub, 0, {1, 2, 3, 4, 5, 6});
  c.exec(c.aiv0, I(Op::VPROT, {Dtype::BF16, 64, 0, 6}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 64, 6),
            (std::vector<uint16_t>{0x8002, 1, 0x8004, 3, 0x8006, 5}));
  // f32 in place (dst = src): (1.5, -0) -> (+0, 1.5); (Inf, 7) -> (-7, Inf).
  put<float>(c.aiv0, Buffer::Ub, 128, {1.5f, -0.0f, kInf, 7.0f});
  c.exec(c.aiv0, I(Op::VPROT, {Dtype::F32, 128, 128, 4}));
  auto r = get<float>(c.aiv0, Buffer::Ub, 128, 4);
  EXPECT_EQ(r, (std::vector<float>{0.0f, 1.5f, -7.0f, kInf}));
  EXPECT_FALSE(std::signbit(r[0]));  // -(-0) = +0: a sign flip, exact
  EXPECT_EQ(c.error(c.aiv0, I(Op::VPROT, {Dtype::F32, 0, 128, 3}), 7),
            "cluster0.aiv0 pc 7 (vprot.f32 0x0, 0x80, 3): count 3 is odd (vprot rotates pairs)");
}

// vcast over every (sdt, ddt) pair with values every dtype holds exactly: 1 and 4 (E8M0 has
// no zero and no sign, U8 no sign); 0 and -2 where both types have them. Bit patterns by hand.
struct Bits {
  Dtype t;
  uint64_t one, four, zero, minus2;  // minus2 = ~0 when the type cannot hold -2; zero likewise
};
const Bits kBits[] = {
    {Dtype::F32, 0x3F800000, 0x40800000, 0, 0xC0000000},
    {Dtype::F16, 0x3C00, 0x4400, 0, 0xC000},
    {Dtype::BF16, 0x3F80, 0x4080, 0, 0xC000},
    {Dtype::S32, 1, 4, 0, 0xFFFFFFFE},
    {Dtype::S16, 1, 4, 0, 0xFFFE},
    {Dtype::S8, 1, 4, 0, 0xFE},
    {Dtype::U8, 1, 4, 0, ~0ull},
    {Dtype::E4M3, 0x38, 0x48, 0, 0xC0},  // 1 = 0.0111.000; 4 = 0.1001.000; -2 = 1.1000.000
    {Dtype::E5M2, 0x3C, 0x44, 0, 0xC0},  // 1 = 0.01111.00; 4 = 0.10001.00; -2 = 1.10000.00
    {Dtype::E8M0, 127, 129, ~0ull, ~0ull},
};

TEST(SemVector, CastEveryDtypePair) {
  Cluster c(isa::Arch::A5);  // fp8 vector dtypes need a5
  for (const Bits& s : kBits) {
    for (const Bits& d : kBits) {
      std::vector<std::pair<uint64_t, uint64_t>> cases = {{s.one, d.one}, {s.four, d.four}};
      if (s.zero != ~0ull && d.zero != ~0ull) cases.push_back({s.zero, d.zero});
      if (s.minus2 != ~0ull && d.minus2 != ~0ull) cases.push_back({s.minus2, d.minus2});
      int ss = isa::dtype_size(s.t), ds = isa::dtype_size(d.t);
      for (size_t i = 0; i < cases.size(); ++i)
        std::memcpy(c.aiv0.buffer(Buffer::Ub).data() + i * ss, &cases[i].first, ss);
      c.exec(c.aiv0, I(Op::VCAST, {s.t, d.t, isa::RoundMode::Rne, 1024, 0, cases.size()}));
      for (size_t i = 0; i < cases.size(); ++i) {
        uint64_t got = 0;
        std::memcpy(&got, c.aiv0.buffer(Buffer::Ub).data() + 1024 + i * ds, ds);
        EXPECT_EQ(got, cases[i].second) << isa::dtype_name(s.t) << " -> " << isa::dtype_name(d.t) << " case " << i;
      }
    }
  }
}

TEST(SemVector, CastRoundingModes) {
  Cluster c;
  put<float>(c.aiv0, Buffer::Ub, 0, {2.5f, -2.5f, 3.5f, -0.5f});
  auto run = [&](isa::RoundMode rm) {
    c.exec(c.aiv0, I(Op::VCAST, {Dtype::F32, Dtype::S32, rm, 64, 0, 4}));
    return get<int32_t>(c.aiv0, Buffer::Ub, 64, 4);
  };
  EXPECT_EQ(run(isa::RoundMode::Rne), (std::vector<int32_t>{2, -2, 4, 0}));
  EXPECT_EQ(run(isa::RoundMode::Trunc), (std::vector<int32_t>{2, -2, 3, 0}));
  EXPECT_EQ(run(isa::RoundMode::Away), (std::vector<int32_t>{3, -3, 4, -1}));
  EXPECT_EQ(run(isa::RoundMode::Floor), (std::vector<int32_t>{2, -3, 3, -1}));
  EXPECT_EQ(run(isa::RoundMode::Ceil), (std::vector<int32_t>{3, -2, 4, 0}));
}

TEST(SemVector, CastSaturationNaNTies) {
  Cluster c(isa::Arch::A5);
  float nan = std::numeric_limits<float>::quiet_NaN();
  put<float>(c.aiv0, Buffer::Ub, 0, {1e10f, -1e10f, nan, 300.0f});
  c.exec(c.aiv0, I(Op::VCAST, {Dtype::F32, Dtype::S8, isa::RoundMode::Rne, 64, 0, 4, 0}));
  EXPECT_EQ(get<int8_t>(c.aiv0, Buffer::Ub, 64, 4), (std::vector<int8_t>{127, -128, 0, 127}));
  // fp8 e4m3: 500 -> sat 448 (0x7E) / non-sat NaN (0x7F); e5m2 1e10 -> sat 57344 (0x7B) / Inf (0x7C).
  put<float>(c.aiv0, Buffer::Ub, 32, {500.0f});
  c.exec(c.aiv0, I(Op::VCAST, {Dtype::F32, Dtype::E4M3, isa::RoundMode::Rne, 64, 32, 1, 1}));
  EXPECT_EQ(get<uint8_t>(c.aiv0, Buffer::Ub, 64, 1)[0], 0x7E);
  c.exec(c.aiv0, I(Op::VCAST, {Dtype::F32, Dtype::E4M3, isa::RoundMode::Rne, 64, 32, 1, 0}));
  EXPECT_EQ(get<uint8_t>(c.aiv0, Buffer::Ub, 64, 1)[0] & 0x7F, 0x7F);
  c.exec(c.aiv0, I(Op::VCAST, {Dtype::F32, Dtype::E5M2, isa::RoundMode::Rne, 64, 0, 1, 1}));
  EXPECT_EQ(get<uint8_t>(c.aiv0, Buffer::Ub, 64, 1)[0], 0x7B);
  c.exec(c.aiv0, I(Op::VCAST, {Dtype::F32, Dtype::E5M2, isa::RoundMode::Rne, 64, 0, 1, 0}));
  EXPECT_EQ(get<uint8_t>(c.aiv0, Buffer::Ub, 64, 1)[0], 0x7C);
  // NaN f32 -> bf16 0x7FC0; ties to even: 1+2^-8 -> 0x3F80, 1+3*2^-8 -> 0x3F82.
  put<float>(c.aiv0, Buffer::Ub, 0, {nan, fl(0x3F808000), fl(0x3F818000)});
  c.exec(c.aiv0, I(Op::VCAST, {Dtype::F32, Dtype::BF16, isa::RoundMode::Rne, 64, 0, 3}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 64, 3), (std::vector<uint16_t>{0x7FC0, 0x3F80, 0x3F82}));
  // int32 -> bf16 rounds once: 2^24 + 2^16 + 1 is above the bf16 tie -> 2^24 + 2^17 (0x4B81);
  // going through fp32 would round to 2^24 + 2^16 (a tie) and then to 2^24 (0x4B80).
  put<int32_t>(c.aiv0, Buffer::Ub, 0, {(1 << 24) + (1 << 16) + 1});
  c.exec(c.aiv0, I(Op::VCAST, {Dtype::S32, Dtype::BF16, isa::RoundMode::Rne, 64, 0, 1}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 64, 1)[0], 0x4B81);
}

// vcast among f32 / f16 / bf16 (RNE) takes a fast path (the hot-path helpers of isa/numeric):
// every 16-bit code and a spread of f32 patterns (specials, NaN payloads, overflow / subnormal
// edges, pseudo-random bits) give what num::decode + num::encode_bits give, with and without
// saturation, and in place (at the same offset, also narrowing f32 -> 16 bits).
TEST(SemVector, CastAmongFloatsEqualsDecodeEncode) {
  Cluster c;
  const Dtype floats[] = {Dtype::F32, Dtype::F16, Dtype::BF16};
  std::vector<uint32_t> f32_codes = {0u, 0x80000000u, 1u, 0x807FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u,
                                     0xFF800000u, 0x7F800001u, 0xFFC12345u, 0x477FEFFFu, 0x477FF000u,
                                     0x33000000u, 0x33000001u, 0x387FFFFFu, 0x3F808000u, 0x3F818000u};
  uint32_t lcg = 12345;
  while (f32_codes.size() < 20000) f32_codes.push_back(lcg = lcg * 1664525u + 1013904223u);
  constexpr uint64_t kChunk = 8192, kDst = 64 * 1024;  // UB: sources at 0, results at 64 KiB
  for (Dtype sdt : floats) {
    const uint64_t ses = isa::dtype_size(sdt);
    const uint64_t codes = ses == 4 ? f32_codes.size() : 65536;
    for (Dtype ddt : floats) {
      const uint64_t des = isa::dtype_size(ddt);
      for (int sat = 0; sat <= 1; ++sat) {
        for (bool in_place : {false, true}) {
          if (in_place && ses < des) continue;  // widening in place is the general loop
          for (uint64_t first = 0; first < codes; first += kChunk) {
            const uint64_t n = std::min(kChunk, codes - first);
            uint8_t* ub = c.aiv0.buffer(Buffer::Ub).data();
            for (uint64_t i = 0; i < n; ++i) {
              const uint32_t code = ses == 4 ? f32_codes[first + i] : uint32_t(first + i);
              std::memcpy(ub + i * ses, &code, ses);
            }
            const uint64_t dst = in_place ? 0 : kDst;
            c.exec(c.aiv0, I(Op::VCAST, {sdt, ddt, isa::RoundMode::Rne, dst, 0, n, sat}));
            for (uint64_t i = 0; i < n; ++i) {
              const uint32_t code = ses == 4 ? f32_codes[first + i] : uint32_t(first + i);
              const uint64_t want = num::encode_bits(ddt, num::decode_bits(sdt, code), isa::RoundMode::Rne, sat != 0);
              uint64_t got = 0;
              std::memcpy(&got, ub + dst + i * des, des);
              ASSERT_EQ(got, want) << isa::dtype_name(sdt) << " -> " << isa::dtype_name(ddt) << " sat " << sat
                                   << " code 0x" << std::hex << code << (in_place ? " in place" : "");
            }
          }
        }
      }
    }
  }
}

TEST(SemVector, Fp8NeedsA5) {
  Cluster c;  // a2
  EXPECT_EQ(c.error(c.aiv0, I(Op::VADD, {Dtype::E4M3, 64, 0, 32, 4})),
            "cluster0.aiv0 pc 0 (vadd.e4m3 0x40, 0x0, 0x20, 4): 'vadd' does not support dtype e4m3 "
            "(allowed: f32, f16, bf16, s32, s16, s8)");
}

TEST(SemVector, Reductions) {
  Cluster c;
  // 2 rows x 3 cols, rows 32 bytes apart.
  put<float>(c.aiv0, Buffer::Ub, 0, {1.0f, -5.0f, 2.0f});
  put<float>(c.aiv0, Buffer::Ub, 32, {0.5f, 0.25f, -0.125f});
  c.exec(c.aiv0, I(Op::VRSUM, {Dtype::F32, 256, 0, 2, 3, 32}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 256, 2), (std::vector<float>{-2.0f, 0.625f}));
  c.exec(c.aiv0, I(Op::VRMAX, {Dtype::F32, 256, 0, 2, 3, 32}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 256, 2), (std::vector<float>{2.0f, 0.5f}));
  c.exec(c.aiv0, I(Op::VRAMAX, {Dtype::F32, 256, 0, 2, 3, 32}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 256, 2), (std::vector<float>{5.0f, 0.5f}));
  // fp32 accumulation in column order: 1e8 + 1 - 1e8 = 0 (1e8 + 1 rounds back to 1e8), not 1.
  put<float>(c.aiv0, Buffer::Ub, 0, {1e8f, 1.0f, -1e8f});
  c.exec(c.aiv0, I(Op::VRSUM, {Dtype::F32, 256, 0, 1, 3, 32}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 256, 1)[0], 0.0f);
  // bf16 sums in fp32 and rounds once: 1 + 2^-8 + 2^-8 = 1 + 2^-7 exactly (0x3F81), whereas
  // rounding after each add would give 1.0.
  put<uint16_t>(c.aiv0, Buffer::Ub, 0, {0x3F80, 0x3B80, 0x3B80});
  c.exec(c.aiv0, I(Op::VRSUM, {Dtype::BF16, 256, 0, 1, 3, 32}));
  EXPECT_EQ(get<uint16_t>(c.aiv0, Buffer::Ub, 256, 1)[0], 0x3F81);
  // int8 abs-max saturates |-128| to 127; sum wraps.
  put<int8_t>(c.aiv0, Buffer::Ub, 0, {-128, 5, 100, 100});
  c.exec(c.aiv0, I(Op::VRAMAX, {Dtype::S8, 256, 0, 1, 4, 32}));
  EXPECT_EQ(get<int8_t>(c.aiv0, Buffer::Ub, 256, 1)[0], 127);
  c.exec(c.aiv0, I(Op::VRSUM, {Dtype::S8, 256, 0, 1, 4, 32}));
  EXPECT_EQ(get<int8_t>(c.aiv0, Buffer::Ub, 256, 1)[0], 77);  // 77 = -128+5+200 (no wrap)
  EXPECT_EQ(c.error(c.aiv0, I(Op::VRSUM, {Dtype::F32, 256, 0, 2, 0, 32})),
            "cluster0.aiv0 pc 0 (vrsum.f32 0x100, 0x0, 2, 0, 32): cols must be > 0");
}

TEST(SemVector, RowAndColumnBroadcast) {
  Cluster c;
  // 2 x 2 tile, rows 32 bytes apart; s = {2, 10}; v = {1, -1}
  put<float>(c.aiv0, Buffer::Ub, 0, {1.0f, 2.0f});
  put<float>(c.aiv0, Buffer::Ub, 32, {3.0f, 4.0f});
  put<float>(c.aiv0, Buffer::Ub, 64, {2.0f, 10.0f});
  put<float>(c.aiv0, Buffer::Ub, 96, {1.0f, -1.0f});
  c.exec(c.aiv0, I(Op::VROW, {isa::VecOp::Mul, Dtype::F32, 128, 0, 64, 2, 2, 32}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 128, 2), (std::vector<float>{2.0f, 4.0f}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 160, 2), (std::vector<float>{30.0f, 40.0f}));
  c.exec(c.aiv0, I(Op::VCOL, {isa::VecOp::Sub, Dtype::F32, 128, 0, 96, 2, 2, 32}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 128, 2), (std::vector<float>{0.0f, 3.0f}));
  EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 160, 2), (std::vector<float>{2.0f, 5.0f}));
  // In place (dst == src) is safe; every VecOp once.
  const std::pair<isa::VecOp, std::vector<float>> expect[] = {
      {isa::VecOp::Add, {3.0f, 4.0f}}, {isa::VecOp::Div, {0.5f, 1.0f}},
      {isa::VecOp::Max, {2.0f, 2.0f}}, {isa::VecOp::Min, {1.0f, 2.0f}}};
  for (const auto& [op, want] : expect) {
    put<float>(c.aiv0, Buffer::Ub, 0, {1.0f, 2.0f});
    c.exec(c.aiv0, I(Op::VROW, {op, Dtype::F32, 0, 0, 64, 1, 2, 32}));
    EXPECT_EQ(get<float>(c.aiv0, Buffer::Ub, 0, 2), want) << static_cast<int>(op);
  }
}

TEST(SemVector, BoundsAndAlignmentFaults) {
  Cluster c;
  EXPECT_EQ(c.error(c.aiv1, I(Op::VADD, {Dtype::F32, 0, 196544, 0, 32}), 12),
            "cluster0.aiv1 pc 12 (vadd.f32 0x0, 0x2ffc0, 0x0, 32): UB read [196544, 196672) out of "
            "bounds (UB is 196608 bytes)");
  EXPECT_EQ(c.error(c.aiv0, I(Op::VADD, {Dtype::F32, 16, 0, 0, 4}), 3),
            "cluster0.aiv0 pc 3 (vadd.f32 0x10, 0x0, 0x0, 4): UB offset 16 is not 32-byte aligned");
  EXPECT_EQ(c.error(c.aiv0, I(Op::VRSUM, {Dtype::F32, 0, 0, 2, 4, 48})),
            "cluster0.aiv0 pc 0 (vrsum.f32 0x0, 0x0, 2, 4, 48): UB stride 48 is not 32-byte aligned");
  // A register count beyond the field range is a fault, not a long loop.
  c.aiv0.set_reg(4, 1ull << 40);
  EXPECT_EQ(c.error(c.aiv0, I(Op::VADD, {Dtype::F32, 0, 0, 0, R(4)})),
            "cluster0.aiv0 pc 0 (vadd.f32 0x0, 0x0, 0x0, r4): operand count = r4 = 1099511627776 is "
            "out of range (0..1048575)");
}

}  // namespace
}  // namespace npu::semtest
