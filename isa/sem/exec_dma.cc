// DMA semantics: GM <-> UB/L1 strided copies, GM -> L1 with the ND -> NZ conversion, L1 ->
// L0A/L0B tile loads (from ND or NZ), L1 -> FixPipe buffer, and the a5 UB <-> L1 paths between
// the cores of one cluster.
#include <algorithm>
#include <cstring>

#include <fmt/format.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "isa/sem/exec_util.h"
#include "isa/sem/nz_layout.h"

namespace npu::sem::detail {

namespace {

using isa::Op;
namespace ops = isa::ops;

// The strided-copy operands (dst, src, nburst, burst, src_stride, dst_stride) of any DMA view.
template <class V>
void gm_to_local(Exec& x, const V& o, Buffer b) {
  uint8_t* base = x.local_strided(b, o.dst, o.nburst, o.dst_stride, o.burst, true);
  for (uint64_t i = 0; i < o.nburst; ++i) x.gm_check(o.src + i * o.src_stride, o.burst, false);
  for (uint64_t i = 0; i < o.nburst; ++i) x.ctx.gm->read(o.src + i * o.src_stride, base + i * o.dst_stride, o.burst);
}

template <class V>
void local_to_gm(Exec& x, const V& o, Buffer b) {
  const uint8_t* base = x.local_strided(b, o.src, o.nburst, o.src_stride, o.burst, false);
  for (uint64_t i = 0; i < o.nburst; ++i) x.gm_check(o.dst + i * o.dst_stride, o.burst, true);
  for (uint64_t i = 0; i < o.nburst; ++i) x.ctx.gm->write(o.dst + i * o.dst_stride, base + i * o.src_stride, o.burst);
}

// Strided local -> local copy between (possibly) different cores; sources read first.
template <class V>
void local_to_local(Exec& x, const V& o, Buffer sb, CoreState* sc, Buffer db, CoreState* dc) {
  const uint64_t n = o.nburst, len = o.burst;
  const uint8_t* s = x.local_strided(sb, o.src, n, o.src_stride, len, false, sc);
  uint8_t* d = x.local_strided(db, o.dst, n, o.dst_stride, len, true, dc);
  if (n * len == 0) return;  // nothing to copy (ranges checked above); an empty tmp's data() may be null
  std::vector<uint8_t> tmp(n * len);
  for (uint64_t i = 0; i < n; ++i) std::memcpy(tmp.data() + i * len, s + i * o.src_stride, len);
  for (uint64_t i = 0; i < n; ++i) std::memcpy(d + i * o.dst_stride, tmp.data() + i * len, len);
}

// Faults unless an NZ matrix of `rows` rows at L1 offset `base` with blocks c0_stride bytes
// apart is well formed: block-aligned, and the blocks do not overlap.
void check_nz(const Exec& x, uint64_t rows, uint64_t base, uint64_t c0_stride, const char* base_name,
              const char* stride_name) {
  if (base % kC0Bytes != 0) x.bad(fmt::format("NZ {} {} is not 32-byte aligned", base_name, base));
  if (c0_stride % kC0Bytes != 0)
    x.bad(fmt::format("NZ {} {} is not a multiple of the 32-byte fractal block", stride_name, c0_stride));
  if (c0_stride < rows * kC0Bytes)
    x.bad(fmt::format("NZ {} {} is below rows x 32 = {} (column blocks would overlap)", stride_name, c0_stride,
                      rows * kC0Bytes));
}

// Transposed copy of a rows x cols tile of Word elements: dst[c, r] = src[r, c] (src rows
// src_stride bytes apart, dst dense). Words are copied whole, so any bit pattern moves as is.
template <class Word>
void transpose_tile(const uint8_t* s, uint64_t src_stride, uint8_t* d, uint64_t rows, uint64_t cols) {
  for (uint64_t r = 0; r < rows; ++r) {
    const uint8_t* row = s + r * src_stride;
    for (uint64_t c = 0; c < cols; ++c) {
      Word w;
      std::memcpy(&w, row + c * sizeof(Word), sizeof w);
      std::memcpy(d + (c * rows + r) * sizeof(Word), &w, sizeof w);
    }
  }
}

#if defined(__SSE2__)
// Square blocks by SSE2 unpacks (baseline on x86-64): 8 x 8 of 16-bit or 4 x 4 of 32-bit words,
// src rows ss bytes apart, dst rows (the src columns) ds bytes apart. Bits move as they are.
inline __m128i load_row(const uint8_t* p) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(p)); }
inline void store_row(uint8_t* p, __m128i v) { _mm_storeu_si128(reinterpret_cast<__m128i*>(p), v); }

void transpose_block(const uint8_t* s, uint64_t ss, uint8_t* d, uint64_t ds, uint16_t) {
  __m128i a[8], b[8];
  for (int i = 0; i < 4; ++i) {
    const __m128i r0 = load_row(s + uint64_t(2 * i) * ss), r1 = load_row(s + uint64_t(2 * i + 1) * ss);
    a[2 * i] = _mm_unpacklo_epi16(r0, r1);  // columns 0-3 of rows 2i, 2i + 1
    a[2 * i + 1] = _mm_unpackhi_epi16(r0, r1);  // columns 4-7
  }
  for (int h = 0; h < 2; ++h)     // rows 0-3, 4-7
    for (int c = 0; c < 2; ++c) {  // columns 0-3, 4-7
      const __m128i x = a[4 * h + c], y = a[4 * h + 2 + c];
      b[4 * c + 2 * h] = _mm_unpacklo_epi32(x, y);      // columns 4c, 4c + 1 of four rows
      b[4 * c + 2 * h + 1] = _mm_unpackhi_epi32(x, y);  // columns 4c + 2, 4c + 3
    }
  for (int k = 0; k < 4; ++k) {  // b[4c + 2h + j] holds columns 4c + 2j, +1 of rows 4h..4h + 3
    const int c = k / 2, j = k % 2;
    store_row(d + uint64_t(2 * k) * ds, _mm_unpacklo_epi64(b[4 * c + j], b[4 * c + 2 + j]));
    store_row(d + uint64_t(2 * k + 1) * ds, _mm_unpackhi_epi64(b[4 * c + j], b[4 * c + 2 + j]));
  }
}

void transpose_block(const uint8_t* s, uint64_t ss, uint8_t* d, uint64_t ds, uint32_t) {
  const __m128i r0 = load_row(s), r1 = load_row(s + ss), r2 = load_row(s + 2 * ss), r3 = load_row(s + 3 * ss);
  const __m128i a0 = _mm_unpacklo_epi32(r0, r1), a1 = _mm_unpackhi_epi32(r0, r1);  // cols 0-1, 2-3 of rows 0-1
  const __m128i a2 = _mm_unpacklo_epi32(r2, r3), a3 = _mm_unpackhi_epi32(r2, r3);  // of rows 2-3
  store_row(d, _mm_unpacklo_epi64(a0, a2));
  store_row(d + ds, _mm_unpackhi_epi64(a0, a2));
  store_row(d + 2 * ds, _mm_unpacklo_epi64(a1, a3));
  store_row(d + 3 * ds, _mm_unpackhi_epi64(a1, a3));
}
#endif

// transpose_tile for 16- and 32-bit words: whole blocks by SIMD, the edges element by element.
template <class Word>
void transpose_tile_blocked(const uint8_t* s, uint64_t src_stride, uint8_t* d, uint64_t rows, uint64_t cols) {
#if defined(__SSE2__)
  constexpr uint64_t B = 16 / sizeof(Word);
  const uint64_t rb = rows / B * B, cb = cols / B * B, ds = rows * sizeof(Word);
  for (uint64_t r = 0; r < rb; r += B)
    for (uint64_t c = 0; c < cb; c += B)
      transpose_block(s + r * src_stride + c * sizeof(Word), src_stride, d + (c * rows + r) * sizeof(Word), ds, Word{});
  if (cb < cols) transpose_tile<Word>(s + cb * sizeof(Word), src_stride, d + cb * ds, rows, cols - cb);
  // Rows rb.. of the block columns; their dst rows are the first cb (dst row c of length rows).
  for (uint64_t r = rb; r < rows; ++r)
    for (uint64_t c = 0; c < cb; ++c) std::memcpy(d + (c * rows + r) * sizeof(Word), s + r * src_stride + c * sizeof(Word), sizeof(Word));
#else
  transpose_tile<Word>(s, src_stride, d, rows, cols);
#endif
}

// Transposes a rows x cols tile of es-byte words (src rows src_stride bytes apart) into dst,
// dst[c, r] = src[r, c] with dst rows `rows` words long.
void transpose_words(uint64_t es, const uint8_t* s, uint64_t src_stride, uint8_t* d, uint64_t rows, uint64_t cols) {
  switch (es) {
    case 1: transpose_tile<uint8_t>(s, src_stride, d, rows, cols); break;
    case 2: transpose_tile_blocked<uint16_t>(s, src_stride, d, rows, cols); break;
    default: transpose_tile_blocked<uint32_t>(s, src_stride, d, rows, cols); break;  // every dtype is 1, 2 or 4 bytes
  }
}

// The rows x row_bytes tile of an NZ matrix in L1 (first byte at s, column blocks src_stride
// apart, a block's rows 32 bytes apart) into dense dst, transposed or not. Block j holds the
// tile's columns j x 32 / es ..: a [rows, 32 / es] matrix of its own, so it is copied (or
// transposed) straight from L1, with no ND copy in between.
void nz_tile_to(const uint8_t* s, uint64_t src_stride, uint8_t* d, uint64_t es, uint64_t rows, uint64_t row_bytes,
                bool trans) {
  const uint64_t blocks = nz_blocks(row_bytes), per_block = kC0Bytes / es;
  for (uint64_t j = 0; j < blocks; ++j) {
    const uint8_t* b = s + j * src_stride;
    const uint64_t bytes = std::min(kC0Bytes, row_bytes - j * kC0Bytes);
    if (trans) {
      transpose_words(es, b, kC0Bytes, d + j * per_block * rows * es, rows, bytes / es);
    } else if (bytes == kC0Bytes) {
      for (uint64_t r = 0; r < rows; ++r) std::memcpy(d + r * row_bytes + j * kC0Bytes, b + r * kC0Bytes, kC0Bytes);
    } else {
      for (uint64_t r = 0; r < rows; ++r) std::memcpy(d + r * row_bytes + j * kC0Bytes, b + r * kC0Bytes, bytes);
    }
  }
}

// L1 -> L0A / L0B: the source is L1 and the destination another buffer, so they never overlap
// and rows are copied straight to their place, from ND rows or NZ blocks (nz = 1).
template <class V>
void tile_load(Exec& x, const V& o, Buffer dstbuf) {
  const uint64_t es = isa::dtype_size(o.dt), rows = o.rows, cols = o.cols;
  const uint64_t row_bytes = cols * es;
  const uint8_t* s = nullptr;
  if (o.nz != 0) {
    check_nz(x, rows, o.src, o.src_stride, "src", "src_stride");
    s = x.local_strided(Buffer::L1, o.src, nz_blocks(row_bytes), o.src_stride, rows * kC0Bytes, false);
  } else {
    s = x.local_strided(Buffer::L1, o.src, rows, o.src_stride, row_bytes, false);
  }
  uint8_t* d = x.local(dstbuf, o.dst, rows * row_bytes, true);
  if (rows * row_bytes == 0) return;  // nothing to copy (ranges checked above)
  if (o.nz != 0) return nz_tile_to(s, o.src_stride, d, es, rows, row_bytes, o.trans != 0);
  if (o.trans == 0) {
    for (uint64_t r = 0; r < rows; ++r) std::memcpy(d + r * row_bytes, s + r * o.src_stride, row_bytes);
    return;
  }
  transpose_words(es, s, o.src_stride, d, rows, cols);
}

// ND -> NZ (copy_gm_to_cbuf_multi_nd2nz with ndNum = 1, dstNzNStride = 1): block j of GM row r
// goes to L1 dst + j * dst_stride + r * 32; the last block of a row is zero-filled to 32 bytes.
// Rows past nburst inside a C0 stride are not written.
void gm_to_l1_nz(Exec& x, const isa::ops::MOV_GM_L1_NZ& o) {
  const uint64_t rows = o.nburst, blocks = nz_blocks(o.burst);
  check_nz(x, rows, o.dst, o.dst_stride, "dst", "dst_stride");
  if (rows > 1 && o.src_stride < o.burst)
    x.bad(fmt::format("src_stride {} is below the row length {} (GM rows would overlap)", o.src_stride, o.burst));
  uint8_t* d = x.local_strided(Buffer::L1, o.dst, blocks, o.dst_stride, rows * kC0Bytes, true);
  for (uint64_t r = 0; r < rows; ++r) x.gm_check(o.src + r * o.src_stride, o.burst, false);
  std::vector<uint8_t> row(blocks * kC0Bytes, 0);  // the tail past burst stays zero: only burst bytes are read
  for (uint64_t r = 0; r < rows; ++r) {
    x.ctx.gm->read(o.src + r * o.src_stride, row.data(), o.burst);
    for (uint64_t j = 0; j < blocks; ++j)
      std::memcpy(d + j * o.dst_stride + r * kC0Bytes, row.data() + j * kC0Bytes, kC0Bytes);
  }
}

}  // namespace

template <>
void exec<Op::MOV_GM_UB>(Exec& x) { gm_to_local(x, x.di.as<ops::MOV_GM_UB>(), Buffer::Ub); }
template <>
void exec<Op::MOV_GM_L1>(Exec& x) { gm_to_local(x, x.di.as<ops::MOV_GM_L1>(), Buffer::L1); }
template <>
void exec<Op::MOV_GM_L1_NZ>(Exec& x) { gm_to_l1_nz(x, x.di.as<ops::MOV_GM_L1_NZ>()); }
template <>
void exec<Op::MOV_UB_GM>(Exec& x) { local_to_gm(x, x.di.as<ops::MOV_UB_GM>(), Buffer::Ub); }
template <>
void exec<Op::MOV_L1_L0A>(Exec& x) { tile_load(x, x.di.as<ops::MOV_L1_L0A>(), Buffer::L0A); }
template <>
void exec<Op::MOV_L1_L0B>(Exec& x) { tile_load(x, x.di.as<ops::MOV_L1_L0B>(), Buffer::L0B); }

template <>
void exec<Op::MOV_L1_FB>(Exec& x) {
  const auto o = x.di.as<ops::MOV_L1_FB>();
  const uint8_t* s = x.local(Buffer::L1, o.src, o.bytes, false);
  uint8_t* d = x.local(Buffer::Fb, o.dst, o.bytes, true);
  std::memmove(d, s, o.bytes);
}

template <>
void exec<Op::MOV_UB_L1>(Exec& x) {
  local_to_local(x, x.di.as<ops::MOV_UB_L1>(), Buffer::Ub, nullptr, Buffer::L1, x.peer_aic());
}

template <>
void exec<Op::MOV_L1_UB>(Exec& x) {
  const auto o = x.di.as<ops::MOV_L1_UB>();
  local_to_local(x, o, Buffer::L1, nullptr, Buffer::Ub, x.peer_aiv(static_cast<int64_t>(o.sub)));
}

}  // namespace npu::sem::detail
