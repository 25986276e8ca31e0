// DMA semantics (strides, tile loads with transpose, a5 paths), GM regions, and the
// timing queries gm_ranges() / shape_of().
#include "isa/sem/shape.h"
#include "testbench/isa/sem_test_fixture.h"

namespace npu::semtest {
namespace {

std::vector<uint8_t> iota(size_t n, uint8_t start = 0) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(start + i);
  return v;
}

TEST(SemDma, GmToUbStrided) {
  Cluster c;
  c.gm.add_region("x", 0x1000, 256);
  c.gm.write(0x1000, iota(256).data(), 256);
  c.aiv0.set_reg(2, 0x1000);
  // 2 bursts of 8 bytes, GM stride 16, UB stride 32.
  c.exec(c.aiv0, I(Op::MOV_GM_UB, {64, R(2), 2, 8, 16, 32}));
  EXPECT_EQ(get<uint8_t>(c.aiv0, Buffer::Ub, 64, 8), iota(8, 0));
  EXPECT_EQ(get<uint8_t>(c.aiv0, Buffer::Ub, 72, 24), std::vector<uint8_t>(24, 0));
  EXPECT_EQ(get<uint8_t>(c.aiv0, Buffer::Ub, 96, 8), iota(8, 16));
}

TEST(SemDma, UbToGmAndGmToL1) {
  Cluster c;
  c.gm.add_region("y", 0x2000, 64);
  put(c.aiv0, Buffer::Ub, 0, iota(96, 100));
  c.aiv0.set_reg(2, 0x2000);
  // 3 bursts of 4 bytes from UB rows 32 apart to GM 8 apart.
  c.exec(c.aiv0, I(Op::MOV_UB_GM, {R(2), 0, 3, 4, 32, 8, isa::CacheHint::NoneCacheable}));
  EXPECT_EQ(c.gm.read_bytes(0x2000, 20),
            (std::vector<uint8_t>{100, 101, 102, 103, 0, 0, 0, 0, 132, 133, 134, 135, 0, 0, 0, 0, 164, 165, 166, 167}));
  c.aic.set_reg(7, 0x2000);
  c.exec(c.aic, I(Op::MOV_GM_L1, {32, R(7), 1, 20, 0, 0}));
  EXPECT_EQ(get<uint8_t>(c.aic, Buffer::L1, 32, 4), (std::vector<uint8_t>{100, 101, 102, 103}));
}

TEST(SemDma, GmFaults) {
  Cluster c;
  c.gm.add_region("x", 0x1000, 256);
  c.aiv0.set_reg(2, 0x10f8);
  EXPECT_EQ(c.error(c.aiv0, I(Op::MOV_GM_UB, {0, R(2), 1, 16, 0, 0}), 5),
            "cluster0.aiv0 pc 5 (mov_gm_ub 0x0, r2, 1, 16, 0, 0, normal): GM read [0x10f8, 0x1108) runs past "
            "the end of GM region 'x' [0x1000, 0x1100)");
  c.aiv0.set_reg(2, 0x800);
  EXPECT_EQ(c.error(c.aiv0, I(Op::MOV_UB_GM, {R(2), 0, 1, 16, 0, 0})),
            "cluster0.aiv0 pc 0 (mov_ub_gm r2, 0x0, 1, 16, 0, 0, normal): GM write [0x800, 0x810) is outside "
            "every GM region");
  // Without regions, only the capacity limits GM.
  Cluster d;
  sem::GlobalMemory small(0x1000);
  d.gm = std::move(small);
  d.aiv0.set_reg(2, 0xff8);
  EXPECT_EQ(d.error(d.aiv0, I(Op::MOV_GM_UB, {0, R(2), 1, 16, 0, 0})),
            "cluster0.aiv0 pc 0 (mov_gm_ub 0x0, r2, 1, 16, 0, 0, normal): GM read [0xff8, 0x1008) is beyond "
            "the GM capacity (0x1000)");
  // UB side: the whole strided extent is checked: 0x2ffe0 + 1 * 64 + 64 > 192 KB.
  EXPECT_EQ(c.error(c.aiv0, I(Op::MOV_GM_UB, {0x2ffc0, R(2), 2, 64, 0, 64})),
            "cluster0.aiv0 pc 0 (mov_gm_ub 0x2ffc0, r2, 2, 64, 0, 64, normal): UB write [196544, 196672) out of "
            "bounds (UB is 196608 bytes)");
}

TEST(SemDma, GmSparseAndRegions) {
  sem::GlobalMemory gm;
  EXPECT_EQ(gm.read_bytes(0x123456789, 3), (std::vector<uint8_t>{0, 0, 0}));
  std::vector<uint8_t> v = iota(100);
  gm.write(sem::GlobalMemory::kChunkBytes - 50, v.data(), 100);  // crosses a chunk
  EXPECT_EQ(gm.read_bytes(sem::GlobalMemory::kChunkBytes - 50, 100), v);
  EXPECT_EQ(gm.bytes_allocated(), 2 * sem::GlobalMemory::kChunkBytes);
  EXPECT_EQ(gm.read_bytes(sem::GlobalMemory::kChunkBytes - 60, 10), std::vector<uint8_t>(10, 0));  // unwritten part
  gm.add_region("b", 0x200, 0x100);
  gm.add_region("a", 0x100, 0x100);
  EXPECT_EQ(gm.region_at(0x1ff)->name, "a");
  EXPECT_EQ(gm.region_at(0x200)->name, "b");
  EXPECT_EQ(gm.region_at(0x300), nullptr);
  EXPECT_TRUE(gm.access_ok(0x100, 0x100));
  EXPECT_FALSE(gm.access_ok(0x180, 0x100));  // spans two regions
  try {
    gm.add_region("c", 0x2f0, 0x20);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "GM region 'c' overlaps region 'b'");
  }
}

TEST(SemDma, TileLoadsPlainAndTransposed) {
  Cluster c;
  // 2 x 3 bf16 tile in L1 rows 32 bytes apart: [1 2 3; 4 5 6].
  put<uint16_t>(c.aic, Buffer::L1, 0, bfv({1, 2, 3}));
  put<uint16_t>(c.aic, Buffer::L1, 32, bfv({4, 5, 6}));
  c.exec(c.aic, I(Op::MOV_L1_L0A, {Dtype::BF16, 512, 0, 2, 3, 32}));
  EXPECT_EQ(get<uint16_t>(c.aic, Buffer::L0A, 512, 6), bfv({1, 2, 3, 4, 5, 6}));
  c.exec(c.aic, I(Op::MOV_L1_L0B, {Dtype::BF16, 0, 0, 2, 3, 32, 1}));
  EXPECT_EQ(get<uint16_t>(c.aic, Buffer::L0B, 0, 6), bfv({1, 4, 2, 5, 3, 6}));  // 3 x 2
  c.exec(c.aic, I(Op::MOV_L1_L0A, {Dtype::BF16, 0, 0, 2, 3, 32, 1}));
  EXPECT_EQ(get<uint16_t>(c.aic, Buffer::L0A, 0, 6), bfv({1, 4, 2, 5, 3, 6}));
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_L1_L0B, {Dtype::BF16, 256, 0, 2, 3, 32}), 2),
            "cluster0.aic pc 2 (mov_l1_l0b.bf16 0x100, 0x0, 2, 3, 32, 0, 0): L0B offset 256 is not 512-byte aligned");
  // b_trans: W[N=2, K=3] in L1 used as B[K, N] gives C = A x W^T.
  put<uint16_t>(c.aic, Buffer::L0A, 0, bfv({1, 1, 1}));  // A 1 x 3
  c.exec(c.aic, I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 1, 3, 2}));
  EXPECT_EQ(get<float>(c.aic, Buffer::L0C, 0, 2), (std::vector<float>{6, 15}));
}

// Transposed tile loads move 16- and 32-bit words in SIMD blocks (8 x 8, 4 x 4) plus edges: odd
// shapes around the block sizes, any bit pattern, against dst[c, r] = src[r, c] element by element.
template <class Word>
void check_transposed_load(Dtype dt, uint64_t rows, uint64_t cols) {
  Cluster c;
  const uint64_t stride = (cols * sizeof(Word) + 31) / 32 * 32 + 32;  // padded rows
  std::vector<Word> src(rows * stride / sizeof(Word));
  for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<Word>(0x9E3779B97F4A7C15ull * (i + 1) >> 17);
  put(c.aic, Buffer::L1, 0, src);
  c.exec(c.aic, I(Op::MOV_L1_L0A, {dt, 0, 0, rows, cols, stride, 1}));
  const std::vector<Word> got = get<Word>(c.aic, Buffer::L0A, 0, rows * cols);
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t k = 0; k < cols; ++k)
      ASSERT_EQ(got[k * rows + r], src[r * stride / sizeof(Word) + k]) << rows << "x" << cols << " at " << r << "," << k;
}

TEST(SemDma, TransposedTileLoadsOfAnyShape) {
  for (uint64_t rows : {1, 7, 8, 9, 16, 23})
    for (uint64_t cols : {1, 3, 8, 15, 16, 17}) {
      check_transposed_load<uint16_t>(Dtype::BF16, rows, cols);
      check_transposed_load<uint32_t>(Dtype::F32, rows, cols);
    }
}

TEST(SemDma, A5UbL1Paths) {
  Cluster c(isa::Arch::A5);
  put(c.aiv1, Buffer::Ub, 0, iota(64));
  c.exec(c.aiv1, I(Op::MOV_UB_L1, {128, 0, 2, 8, 32, 64}));
  EXPECT_EQ(get<uint8_t>(c.aic, Buffer::L1, 128, 8), iota(8, 0));
  EXPECT_EQ(get<uint8_t>(c.aic, Buffer::L1, 192, 8), iota(8, 32));
  c.exec(c.aic, I(Op::MOV_L1_UB, {0, 64, 128, 1, 8, 0, 0}));
  EXPECT_EQ(get<uint8_t>(c.aiv0, Buffer::Ub, 64, 8), iota(8, 0));
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_L1_UB, {1, 0x3e000, 128, 1, 64, 0, 0})),
            "cluster0.aic pc 0 (mov_l1_ub 1, 0x3e000, 0x80, 1, 64, 0, 0): UB of cluster0.aiv1 write [253952, "
            "254016) out of bounds (UB of cluster0.aiv1 is 253952 bytes)");
}

TEST(SemDma, GmRangesAndShapes) {
  Cluster c;
  c.aiv0.set_reg(2, 0x1000);
  // Contiguous bursts merge: 4 x 32 bytes, GM stride 32 -> one 128-byte range.
  auto d1 = sem::resolve(c.aiv0, I(Op::MOV_GM_UB, {0, R(2), 4, 32, 32, 64, isa::CacheHint::NoneCacheable}), 3);
  auto r1 = sem::gm_ranges(d1);
  ASSERT_EQ(r1.size(), 1u);
  EXPECT_EQ(r1[0].addr, 0x1000u);
  EXPECT_EQ(r1[0].bytes, 128u);
  EXPECT_FALSE(r1[0].is_write);
  EXPECT_EQ(r1[0].hint, isa::CacheHint::NoneCacheable);
  auto s1 = sem::shape_of(d1);
  EXPECT_EQ(s1.bytes, 128u);
  EXPECT_EQ(s1.nburst, 4u);
  // Strided writes stay separate.
  auto r2 = sem::gm_ranges(sem::resolve(c.aiv0, I(Op::MOV_UB_GM, {R(2), 0, 2, 16, 32, 64}), 0));
  ASSERT_EQ(r2.size(), 2u);
  EXPECT_EQ(r2[1].addr, 0x1040u);
  EXPECT_TRUE(r2[1].is_write);
  // fix rows: m = 2 rows of n = 16 bf16 (32 bytes), 64 apart.
  c.aic.set_reg(2, 0x4000);
  auto d3 = sem::resolve(c.aic, I(Op::FIX, {Dtype::F32, Dtype::BF16, R(2), 0, 2, 16, 64}), 0);
  auto r3 = sem::gm_ranges(d3);
  ASSERT_EQ(r3.size(), 2u);
  EXPECT_EQ(r3[1].addr, 0x4040u);
  EXPECT_EQ(r3[1].bytes, 32u);
  EXPECT_EQ(sem::shape_of(d3).bytes, 64u);
  auto s4 = sem::shape_of(sem::resolve(c.aic, I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 16, 32, 48}), 0));
  EXPECT_EQ(s4.m, 16u);
  EXPECT_EQ(s4.k, 32u);
  EXPECT_EQ(s4.n, 48u);
  EXPECT_EQ(s4.dtype, Dtype::BF16);
  EXPECT_EQ(s4.bytes, (16u * 32 + 32 * 48) * 2);
  auto s5 = sem::shape_of(sem::resolve(c.aiv0, I(Op::VCAST, {Dtype::BF16, Dtype::F32, isa::RoundMode::Rne, 0, 0, 100}), 0));
  EXPECT_EQ(s5.dtype, Dtype::BF16);  // a cast is sized by its source: 100 x 2 B
  EXPECT_EQ(s5.bytes, 200u);
  auto s6 = sem::shape_of(sem::resolve(c.aiv0, I(Op::VRSUM, {Dtype::F16, 0, 0, 3, 64, 128}), 0));
  EXPECT_EQ(s6.rows, 3u);
  EXPECT_EQ(s6.cols, 64u);
  EXPECT_EQ(s6.bytes, 3u * 64 * 2);
  EXPECT_TRUE(sem::gm_ranges(sem::resolve(c.aiv0, I(Op::VADD, {Dtype::F32, 0, 0, 0, 8}), 0)).empty());
}

}  // namespace
}  // namespace npu::semtest
