// DMA semantics: GM <-> UB/L1 strided copies, L1 -> L0A/L0B tile loads, L1 -> FixPipe buffer,
// and the a5 UB <-> L1 paths between the cores of one cluster.
#include <cstring>

#include "isa/sem/exec_util.h"

namespace npu::sem::detail {

namespace {

using isa::Op;

void gm_to_local(Exec& x, Buffer b) {
  uint64_t dst = x.di.u("dst"), src = x.di.u("src"), n = x.di.u("nburst"), len = x.di.u("burst");
  uint64_t ss = x.di.u("src_stride"), ds = x.di.u("dst_stride");
  uint8_t* base = x.local_strided(b, dst, n, ds, len, true);
  for (uint64_t i = 0; i < n; ++i) x.gm_check(src + i * ss, len, false);
  for (uint64_t i = 0; i < n; ++i) x.ctx.gm->read(src + i * ss, base + i * ds, len);
}

void local_to_gm(Exec& x, Buffer b) {
  uint64_t dst = x.di.u("dst"), src = x.di.u("src"), n = x.di.u("nburst"), len = x.di.u("burst");
  uint64_t ss = x.di.u("src_stride"), ds = x.di.u("dst_stride");
  const uint8_t* base = x.local_strided(b, src, n, ss, len, false);
  for (uint64_t i = 0; i < n; ++i) x.gm_check(dst + i * ds, len, true);
  for (uint64_t i = 0; i < n; ++i) x.ctx.gm->write(dst + i * ds, base + i * ss, len);
}

// Strided local -> local copy between (possibly) different cores; sources read first.
void local_to_local(Exec& x, Buffer sb, CoreState* sc, Buffer db, CoreState* dc) {
  uint64_t dst = x.di.u("dst"), src = x.di.u("src"), n = x.di.u("nburst"), len = x.di.u("burst");
  uint64_t ss = x.di.u("src_stride"), ds = x.di.u("dst_stride");
  const uint8_t* s = x.local_strided(sb, src, n, ss, len, false, sc);
  uint8_t* d = x.local_strided(db, dst, n, ds, len, true, dc);
  std::vector<uint8_t> tmp(n * len);
  for (uint64_t i = 0; i < n; ++i) std::memcpy(tmp.data() + i * len, s + i * ss, len);
  for (uint64_t i = 0; i < n; ++i) std::memcpy(d + i * ds, tmp.data() + i * len, len);
}

void tile_load(Exec& x, Buffer dstbuf) {
  auto dt = static_cast<isa::Dtype>(x.di["dt"]);
  uint64_t es = isa::dtype_size(dt);
  uint64_t rows = x.di.u("rows"), cols = x.di.u("cols"), ss = x.di.u("src_stride");
  uint64_t row_bytes = cols * es;
  const uint8_t* s = x.local_strided(Buffer::L1, x.di.u("src"), rows, ss, row_bytes, false);
  uint8_t* d = x.local(dstbuf, x.di.u("dst"), rows * row_bytes, true);
  std::vector<uint8_t> tmp(rows * row_bytes);
  for (uint64_t r = 0; r < rows; ++r) std::memcpy(tmp.data() + r * row_bytes, s + r * ss, row_bytes);
  if (x.di["trans"] == 0) {
    std::memcpy(d, tmp.data(), tmp.size());
    return;
  }
  // Transposed: dst is cols x rows, dst[c, r] = src[r, c].
  for (uint64_t r = 0; r < rows; ++r)
    for (uint64_t c = 0; c < cols; ++c)
      std::memcpy(d + (c * rows + r) * es, tmp.data() + (r * cols + c) * es, es);
}

}  // namespace

void exec_dma(Exec& x) {
  switch (x.di.op()) {
    case Op::MOV_GM_UB: gm_to_local(x, Buffer::Ub); break;
    case Op::MOV_GM_L1: gm_to_local(x, Buffer::L1); break;
    case Op::MOV_UB_GM: local_to_gm(x, Buffer::Ub); break;
    case Op::MOV_L1_L0A: tile_load(x, Buffer::L0A); break;
    case Op::MOV_L1_L0B: tile_load(x, Buffer::L0B); break;
    case Op::MOV_L1_FB: {
      uint64_t bytes = x.di.u("bytes");
      const uint8_t* s = x.local(Buffer::L1, x.di.u("src"), bytes, false);
      uint8_t* d = x.local(Buffer::Fb, x.di.u("dst"), bytes, true);
      std::memmove(d, s, bytes);
      break;
    }
    case Op::MOV_UB_L1: local_to_local(x, Buffer::Ub, nullptr, Buffer::L1, x.peer_aic()); break;
    case Op::MOV_L1_UB:
      local_to_local(x, Buffer::L1, nullptr, Buffer::Ub, x.peer_aiv(x.di["sub"]));
      break;
    default: x.bad("internal: not a DMA instruction");
  }
}

}  // namespace npu::sem::detail
