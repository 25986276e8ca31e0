// The fractal NZ layout (docs/isa.md "Fractal formats"): mov_gm_l1_nz (ND -> NZ on the way to
// L1) and NZ-reading tile loads (mov_l1_l0a/b nz = 1). The expected layouts are written out from
// the address rule of Ascend's copy_gm_to_cbuf_multi_nd2nz (block j of row r at
// dst + j * C0 stride + r * 32), not from the code under test; the tile loads are checked
// against the plain ND tile loads of the same matrix.
#include <cstring>
#include <random>
#include <utility>

#include <fmt/format.h>

#include "isa/sem/nz_layout.h"
#include "testbench/isa/sem_test_fixture.h"

namespace npu::semtest {
namespace {

// An ND matrix of `rows` x `row_bytes` bytes whose byte (r, b) is a value unique within it
// (mod 251, never 0 or the 0xee stale byte below).
std::vector<uint8_t> nd_matrix(uint64_t rows, uint64_t row_bytes) {
  std::vector<uint8_t> v(rows * row_bytes);
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t b = 0; b < row_bytes; ++b) v[r * row_bytes + b] = static_cast<uint8_t>((r * 37 + b) % 200 + 1);
  return v;
}

struct NzCase {
  uint64_t rows, row_bytes, gm_stride, c0_stride;
};

// Loads the ND matrix from GM (rows gm_stride apart) into L1 at 0 as NZ and checks every byte
// of the footprint: the data where the rule puts it, zeros in each row's block tail, and the
// bytes between the last row and the next block (rows past `rows`) untouched.
void check_nd_to_nz(const NzCase& k) {
  SCOPED_TRACE(::testing::Message() << k.rows << " rows of " << k.row_bytes << " B, C0 stride " << k.c0_stride);
  Cluster c;
  const std::vector<uint8_t> nd = nd_matrix(k.rows, k.row_bytes);
  c.gm.add_region("x", 0x10000, k.rows * k.gm_stride);
  for (uint64_t r = 0; r < k.rows; ++r) c.gm.write(0x10000 + r * k.gm_stride, nd.data() + r * k.row_bytes, k.row_bytes);
  const uint64_t blocks = (k.row_bytes + 31) / 32;
  put(c.aic, Buffer::L1, 0, std::vector<uint8_t>(blocks * k.c0_stride, 0xee));  // stale bytes
  c.aic.set_reg(3, 0x10000);
  c.exec(c.aic, I(Op::MOV_GM_L1_NZ, {0, R(3), k.rows, k.row_bytes, k.gm_stride, k.c0_stride}));
  const std::vector<uint8_t> l1 = get<uint8_t>(c.aic, Buffer::L1, 0, blocks * k.c0_stride);
  for (uint64_t j = 0; j < blocks; ++j)
    for (uint64_t i = 0; i < k.c0_stride; ++i) {
      const uint64_t r = i / 32, col = j * 32 + i % 32;
      const uint8_t want = r >= k.rows ? 0xee : col < k.row_bytes ? nd[r * k.row_bytes + col] : 0;
      ASSERT_EQ(l1[j * k.c0_stride + i], want) << "block " << j << " row " << r << " byte " << i % 32;
    }
}

TEST(SemNz, NdToNzLayout) {
  check_nd_to_nz({16, 64, 64, 512});     // two whole 16 x 32 B fractals
  check_nd_to_nz({5, 14, 20, 8 * 32});   // odd: 7 bf16 columns, one partial block, GM rows padded, 3 spare rows
  check_nd_to_nz({3, 70, 70, 16 * 32});  // tail of 6 bytes in the third block, C0 stride 16 rows
  check_nd_to_nz({17, 33, 40, 17 * 32}); // 17 rows (one past a fractal), 33 int8 columns: a 1-byte tail
  check_nd_to_nz({1, 32, 32, 32});       // a single row
}

// Loads the same random [rows, cols] matrix of `dt` into L1 twice, ND (mov_gm_l1) and NZ
// (mov_gm_l1_nz), and checks that every tile load of it gives identical L0A / L0B contents from
// either copy: tiles at block-aligned column offsets and any row offset, plain and transposed.
void check_nz_tiles_equal_nd(Dtype dt, uint64_t rows, uint64_t cols) {
  SCOPED_TRACE(::testing::Message() << isa::dtype_name(dt) << " [" << rows << ", " << cols << "]");
  Cluster c;
  const uint64_t es = isa::dtype_size(dt), row_bytes = cols * es, per_block = 32 / es;
  const uint64_t nd_stride = (row_bytes + 31) / 32 * 32;  // ND rows in L1 start 32-byte aligned
  const uint64_t c0 = (rows + 15) / 16 * 16 * 32;  // C0 stride: rows rounded up to whole fractals
  const uint64_t nz_base = 256 * 1024;             // the NZ copy in L1; the ND copy at 0
  std::mt19937_64 rng(rows * 1000 + cols);
  std::vector<uint8_t> m(rows * row_bytes);
  for (uint8_t& b : m) b = static_cast<uint8_t>(rng());
  if (dt == Dtype::F32 || dt == Dtype::F16 || dt == Dtype::BF16)  // any bit pattern moves as is, NaNs too
    m[0] = 0xff, m[es - 1] = 0xff;
  c.gm.add_region("m", 0x40000, m.size());
  c.gm.write(0x40000, m.data(), m.size());
  c.aic.set_reg(4, 0x40000);
  c.exec(c.aic, I(Op::MOV_GM_L1, {0, R(4), rows, row_bytes, row_bytes, nd_stride}));
  c.exec(c.aic, I(Op::MOV_GM_L1_NZ, {nz_base, R(4), rows, row_bytes, row_bytes, c0}));
  struct Tile {
    uint64_t r0, c0_block, rows, cols;
  };
  const uint64_t blocks = (cols + per_block - 1) / per_block;
  const std::vector<Tile> tiles = {
      {0, 0, rows, cols},                                           // the whole matrix
      {rows / 3, 0, rows - rows / 3, cols},                         // from an odd row
      {1, blocks / 2, rows / 2, cols - blocks / 2 * per_block},     // from a later column block
      {rows - 1, blocks - 1, 1, cols - (blocks - 1) * per_block},   // the last partial block only
  };
  for (const Tile& t : tiles) {
    SCOPED_TRACE(::testing::Message() << "tile rows " << t.r0 << "+" << t.rows << " block " << t.c0_block << " cols "
                                      << t.cols);
    const uint64_t nd_src = t.r0 * nd_stride + t.c0_block * 32, nz_src = nz_base + t.c0_block * c0 + t.r0 * 32;
    const uint64_t n = t.rows * t.cols * es;
    for (int trans = 0; trans <= 1; ++trans) {
      for (Op op : {Op::MOV_L1_L0A, Op::MOV_L1_L0B}) {
        const Buffer dst = op == Op::MOV_L1_L0A ? Buffer::L0A : Buffer::L0B;
        c.exec(c.aic, I(op, {dt, 0, nd_src, t.rows, t.cols, nd_stride, trans, 0}));
        const std::vector<uint8_t> from_nd = get<uint8_t>(c.aic, dst, 0, n);
        put(c.aic, dst, 0, std::vector<uint8_t>(n, 0));
        c.exec(c.aic, I(op, {dt, 0, nz_src, t.rows, t.cols, c0, trans, 1}));
        ASSERT_EQ(get<uint8_t>(c.aic, dst, 0, n), from_nd) << isa::def(op).mnemonic << " trans " << trans;
      }
    }
  }
}

TEST(SemNz, NzTileLoadsEqualNdTileLoads) {
  check_nz_tiles_equal_nd(Dtype::BF16, 21, 40);  // 80-byte rows: two whole blocks and a half one
  check_nz_tiles_equal_nd(Dtype::BF16, 32, 64);  // whole fractals
  check_nz_tiles_equal_nd(Dtype::S8, 7, 45);     // 13-byte tail
  check_nz_tiles_equal_nd(Dtype::F32, 9, 12);    // 8 f32 per block, a half block
  check_nz_tiles_equal_nd(Dtype::F16, 1, 16);    // one row, one block
}

// The cube on NZ-loaded operands: A = x rows 0..1 x cols 0..15 and B^T from rows 2..3 of the
// same NZ matrix (the b_trans path), C against sums written out here (small integers: exact).
TEST(SemNz, MmadOnNzOperands) {
  Cluster c;
  const uint64_t rows = 21, cols = 40, c0 = 32 * 32;
  std::vector<float> x(rows * cols);
  for (uint64_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i % 97) - 40.0f;
  std::vector<uint16_t> xb;
  for (float f : x) xb.push_back(bf(f));
  c.gm.add_region("x", 0x20000, rows * cols * 2);
  c.gm.write(0x20000, xb.data(), xb.size() * 2);
  c.aic.set_reg(4, 0x20000);
  c.exec(c.aic, I(Op::MOV_GM_L1_NZ, {0, R(4), rows, cols * 2, cols * 2, c0}));
  c.exec(c.aic, I(Op::MOV_L1_L0A, {Dtype::BF16, 0, 0, 2, 16, c0, 0, 1}));
  c.exec(c.aic, I(Op::MOV_L1_L0B, {Dtype::BF16, 0, 2 * 32, 2, 16, c0, 1, 1}));
  c.exec(c.aic, I(Op::MMAD, {Dtype::BF16, 0, 0, 0, 2, 16, 2}));
  std::vector<float> want(4, 0.0f);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 16; ++k) want[i * 2 + j] += x[i * cols + k] * x[(2 + j) * cols + k];
  EXPECT_EQ(get<float>(c.aic, Buffer::L0C, 0, 4), want);
}

// Bad operands fault with the core, PC, instruction and the offending value.
TEST(SemNz, BadOperandsAreLocated) {
  Cluster c;
  c.gm.add_region("x", 0x1000, 4096);
  c.aic.set_reg(2, 0x1000);
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_GM_L1_NZ, {0, R(2), 4, 64, 64, 100}), 7),
            "cluster0.aic pc 7 (mov_gm_l1_nz 0x0, r2, 4, 64, 64, 100, normal): NZ dst_stride 100 is not a "
            "multiple of the 32-byte fractal block");
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_GM_L1_NZ, {0, R(2), 4, 64, 64, 96})),
            "cluster0.aic pc 0 (mov_gm_l1_nz 0x0, r2, 4, 64, 64, 96, normal): NZ dst_stride 96 is below rows x 32 "
            "= 128 (column blocks would overlap)");
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_GM_L1_NZ, {48, R(2), 4, 64, 64, 128})),
            "cluster0.aic pc 0 (mov_gm_l1_nz 0x30, r2, 4, 64, 64, 128, normal): NZ dst 48 is not 32-byte aligned");
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_GM_L1_NZ, {0, R(2), 4, 64, 32, 128})),
            "cluster0.aic pc 0 (mov_gm_l1_nz 0x0, r2, 4, 64, 32, 128, normal): src_stride 32 is below the row "
            "length 64 (GM rows would overlap)");
  // The NZ footprint (blocks x C0 stride) past the end of L1, and a GM row outside the region.
  const uint64_t l1 = c.aic.buffer(Buffer::L1).size();
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_GM_L1_NZ, {l1 - 128, R(2), 4, 64, 64, 128})),
            fmt::format("cluster0.aic pc 0 (mov_gm_l1_nz {:#x}, r2, 4, 64, 64, 128, normal): L1 write [{}, {}) out of "
                        "bounds (L1 is {} bytes)",
                        l1 - 128, l1 - 128, l1 + 128, l1));
  EXPECT_NE(c.error(c.aic, I(Op::MOV_GM_L1_NZ, {0, R(2), 5, 64, 1024, 160})).find("GM read [0x2000, 0x2040)"),
            std::string::npos);
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_L1_L0A, {Dtype::BF16, 0, 0, 4, 16, 64, 0, 1}), 3),
            "cluster0.aic pc 3 (mov_l1_l0a.bf16 0x0, 0x0, 4, 16, 64, 0, 1): NZ src_stride 64 is below rows x 32 = "
            "128 (column blocks would overlap)");
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_L1_L0B, {Dtype::BF16, 0, 16, 4, 16, 128, 1, 1})),
            "cluster0.aic pc 0 (mov_l1_l0b.bf16 0x0, 0x10, 4, 16, 128, 1, 1): NZ src 16 is not 32-byte aligned");
  EXPECT_EQ(c.error(c.aic, I(Op::MOV_L1_L0B, {Dtype::BF16, 0, l1 - 64, 2, 32, 64, 0, 1})),
            fmt::format("cluster0.aic pc 0 (mov_l1_l0b.bf16 0x0, {:#x}, 2, 32, 64, 0, 1): L1 read [{}, {}) out of "
                        "bounds (L1 is {} bytes)",
                        l1 - 64, l1 - 64, l1 + 64, l1));
}

// A tensor kept NZ in GM (a gm parameter declared `nz`; isa/sem/nz_layout.h): rows padded to
// whole 16-row fractals, so the C0 stride is ceil16(rows) x 32. 3 rows of 40 bytes: 2 blocks of
// 16 x 32 = 512 bytes; byte b of row r at (b / 32) x 512 + r x 32 + b % 32, the rest zero.
TEST(SemNz, TensorKeptNzInGm) {
  EXPECT_EQ(sem::nz_gm_c0_stride(3), 512u);
  EXPECT_EQ(sem::nz_gm_c0_stride(16), 512u);
  EXPECT_EQ(sem::nz_gm_c0_stride(17), 1024u);
  EXPECT_EQ(sem::nz_gm_bytes(3, 40), 1024u);
  EXPECT_EQ(sem::nz_gm_bytes(0, 40), 0u);
  const std::vector<uint8_t> nd = nd_matrix(3, 40);
  std::vector<uint8_t> nz(1024, 0xee), want(1024, 0);
  for (uint64_t r = 0; r < 3; ++r)
    for (uint64_t b = 0; b < 40; ++b) want[(b / 32) * 512 + r * 32 + b % 32] = nd[r * 40 + b];
  sem::nd_to_nz(nd.data(), 3, 40, nz.data());
  EXPECT_EQ(nz, want);
  // In pieces (as `npusim run` writes a tensor into GM): every byte of the image exactly once,
  // the same image, the partial block's tail and the padding rows zero although the piece buffer
  // is reused; 70 rows: two row groups of kNzPieceRows and 16 rows, 10 of them padding.
  for (const auto& [rows, row_bytes] : {std::pair<uint64_t, uint64_t>{3, 40}, {70, 72}, {64, 64}}) {
    SCOPED_TRACE(::testing::Message() << rows << " x " << row_bytes);
    const std::vector<uint8_t> m = nd_matrix(rows, row_bytes);
    std::vector<uint8_t> whole(sem::nz_gm_bytes(rows, row_bytes), 0xee), pieced(whole.size(), 0xee);
    std::vector<int> writes(whole.size(), 0);
    sem::nd_to_nz(m.data(), rows, row_bytes, whole.data());
    sem::nd_to_nz_pieces(m.data(), rows, row_bytes, [&](uint64_t off, const uint8_t* p, uint64_t n) {
      ASSERT_LE(off + n, pieced.size());
      ASSERT_LE(n, sem::kNzPieceRows * sem::kC0Bytes);
      std::memcpy(pieced.data() + off, p, n);
      for (uint64_t i = 0; i < n; ++i) ++writes[off + i];
    });
    EXPECT_EQ(pieced, whole);
    EXPECT_EQ(writes, std::vector<int>(whole.size(), 1));
    for (uint64_t r = 0; r < rows; ++r)  // the image is NZ: byte b of row r at its block and row
      for (uint64_t b = 0; b < row_bytes; b += 7)
        ASSERT_EQ(whole[(b / 32) * sem::nz_gm_c0_stride(rows) + r * 32 + b % 32], m[r * row_bytes + b]) << r << " " << b;
  }
  std::vector<uint8_t> back(nd.size(), 0);
  sem::nz_to_nd(nz.data(), 3, 40, back.data());
  EXPECT_EQ(back, nd);
}

}  // namespace
}  // namespace npu::semtest
