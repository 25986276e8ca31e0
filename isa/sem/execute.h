#pragma once
// Data effect of every non-scalar, non-sync instruction (DMA, mmad, mmad_mx, fix, fix_ub,
// mov_l1_fb, the a5 UB<->L1 paths, all vector ops). Pure function of machine state: no time.
// The ISS calls it when a pipe reaches the instruction; the SystemC model calls it at the time
// its timing decides (e.g. when the last line of a DMA has arrived).
//
// Checks (each violation is a fault naming core, PC, instruction and address, see fault.h):
//  - every local-buffer access lies inside the buffer;
//  - local-buffer offsets are aligned to the buffer's alignment (isa::BufferDesc): the base
//    offset of every operand and, for strided operands with more than one row/burst, the
//    stride (so every row/burst start is aligned). Burst/row LENGTHS need no alignment;
//  - every GM access passes GlobalMemory::access_ok (capacity and registered regions);
//  - dtypes the op supports (e.g. no exp on integers, no e8m0 arithmetic).
//
// Data layouts and numerics (instructions.def comments, docs/numerics.md):
//  - DMA: nburst bursts of `burst` bytes; src_stride/dst_stride = distance between burst starts.
//  - mov_gm_l1_nz: ND rows (nburst x burst bytes, src_stride apart in GM) to NZ in L1: 32-byte
//    block j of row r at dst + j * dst_stride + r * 32, a row's last block zero-filled to 32 B;
//    dst and dst_stride 32-byte multiples, dst_stride >= nburst * 32, src_stride >= burst.
//  - mov_l1_l0a/b: rows x cols tile of dt, rows src_stride bytes apart in L1, written densely
//    row-major; trans=1 writes it transposed (dst[c * rows + r] = src[r, c]). nz=1: the tile is
//    read from an NZ matrix (byte b of row r at src + (b / 32) * src_stride + r * 32 + b % 32).
//  - mmad: A[m,k] dense row-major in L0A, B[k,n] dense row-major in L0B, C[m,n] dense in L0C
//    (fp32; int32 for s8). bf16/f16: products exact, fp32 accumulation over k in increasing
//    order per output element; f32: plain fp32 multiply and add; s8: exact int32 (wrapping).
//    init=1 starts from +0, init=0 from the current C.
//  - mmad_mx: fp8 (e4m3/e5m2) elements; A scales [m, ceil(k/32)] (E8M0 bytes) at L0A offset sa,
//    B scales [ceil(k/32), n] at L0B offset sb; each element is scaled to fp32 (exact), products
//    fp32, accumulation as mmad; a NaN scale (0xFF) makes its whole block NaN.
//  - fix / fix_ub: m x n tile dense in L0C (sdt f32 or s32) to rows dst_stride bytes apart.
//    noquant: one rounding from the exact value to ddt (num::encode, RNE). qscalar / qvector:
//    v = fp32(c) * scale (scale = fp32 bits in register `scale`, or n fp32 per-column scales at
//    FixPipe-buffer offset `scale`), fp32 RNE, then relu, then RNE to ddt. relu keeps NaN.
//  - vector element-wise: f32 in fp32; f16/bf16 (and fp8 on a5) decode to fp32, compute in fp32,
//    round RNE to the dtype (fp8 non-saturating); integers (s32, s16, s8, u8) wrap; integer
//    vdiv by zero is a fault. vmax/vmin propagate NaN. Scalar operands: fp32 bit pattern for
//    float dtypes (used in fp32, not rounded to the dtype first), integers otherwise.
//    exp/ln/sqrt/rsqrt/rec: float dtypes only (rsqrt = 1/sqrt in fp32, two roundings).
//  - vcast: decode the exact source value, num::encode to ddt with rm and sat (one rounding).
//  - vrsum: per row, fp32 accumulation in column order starting from element 0 (integers:
//    int64 sum, wrapped to dt); vrmax: max (NaN propagates); vramax: max |x| (integers:
//    saturating). Results dense, one per row.
//  - vrow/vcol: dst[r,c] = src[r,c] op s[r] / v[c], numerics as the element-wise ops.
//  All sources are read before any destination is written (overlapping operands are safe).
#include <vector>

#include "isa/sem/core_state.h"
#include "isa/sem/dispatched.h"
#include "isa/sem/gm.h"

namespace npu::sem {

// One local-buffer or GM access of an instruction's data effect, exactly as the checks above
// see it: n rows/bursts of len bytes whose starts are stride bytes apart (n = 1: one range).
// This is the instruction's footprint for the race checker (isa/check/race.h).
struct Access {
  bool gm = false;
  bool write = false;
  Buffer buffer = Buffer::Ub;  // local accesses: which buffer of which core
  CoreId owner;
  uint64_t base = 0, n = 1, stride = 0, len = 0;
};

struct ExecContext {
  CoreState* core = nullptr;                // the executing core
  GlobalMemory* gm = nullptr;
  // Peer cores of the same cluster, for the a5 paths: mov_ub_l1 (AIV -> AIC L1) needs
  // cluster_aic; mov_l1_ub and fix_ub (AIC -> AIV `sub`) need cluster_aiv[sub]. nullptr when
  // the launch has no such core (a fault if an instruction needs it).
  CoreState* cluster_aic = nullptr;
  std::vector<CoreState*> cluster_aiv;
  // When set, execute() appends every access it makes (after its checks pass).
  std::vector<Access>* accesses = nullptr;
};

// Throws npu::Error (fault text) for sync/scalar ops and every violation listed above.
void execute(const DispatchedInstr& di, ExecContext& ctx);

}  // namespace npu::sem
