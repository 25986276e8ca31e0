# linear.s -- AT-09 bf16 Linear: y[M, N] = x[M, K] . W[N, K]^T  (b_trans), fp32 accumulation.
#
# Params (in order):
#   x  gm bf16 [M, K]      activations, row-major
#   w  gm bf16 [N, K], nz  weights (each output channel is one row: b_trans), kept in the fractal
#                          NZ layout in GM (docs/isa.md "Fractal formats"): the case gives W's
#                          values, `npusim run` stores them so
#   y  gm bf16 [M, N]      output, bf16 RNE of the fp32 sum (written by the FixPipe)
#   M  int  >= 1           rows (tokens); any value
#   K  int  >= 16          reduction length, multiple of 16
#   N  int  >= 16          output channels, multiple of 16
# Launch: AIC only; any block_dim >= 1 (1 .. chip.clusters).
#
# Work split (computed in the kernel from M, N, K and block_dim; see docs/kernels.md):
#   unit          a 128-row x uw-column tile of y; uw = clamp(ceil16(N * ceil(M/128) / block_dim),
#                 16, 128), so that small-M launches still give every AIC work (M=16, N=1536,
#                 24 AICs: uw = 64, one unit each). Units are numbered row-major over y.
#   AIC i         takes the contiguous unit range [T*i/bd, T*(i+1)/bd) (T units in all).
#   block         what one L0C pass computes: two adjacent units of the same row of units when
#                 the AIC has both (mB x 2uw, up to 128 x 256), else one. The last row/column
#                 block may be shorter (M and N tails). With one L0C slot, pairs start at even
#                 unit columns (FixPipe rows of whole 512-byte y lines: an L2 write miss on a
#                 partial line fetches the line from HBM); an AIC whose first unit has an odd
#                 column computes that unit alone and last, after the cold-start HBM traffic.
#   L0C           the whole block in fp32; two 64 KiB slots (ping-pong with the FixPipe) when
#                 ceil16(mB) * nB * 4 <= 64 KiB (nB = the widest block), else one 128 KiB slot
#                 accumulated as two row halves (rows 0..63 at 0, 64.. at 64 KiB; one mmad each
#                 per k-step) with a CUBE <-> FIXP flag per half: the last k-step hands half 0 to
#                 the FixPipe before the cube multiplies half 1, and the next block's first
#                 k-step waits for each half on its own, so the drain overlaps cube work.
#   L0 k-step kt  largest power of two <= 1024 with max(ceil16(mB), nB) * kt * 2 <= 32 KiB (one
#                 half of L0A / L0B): one mmad of mB x kt x nB per step; the halves ping-pong.
#   L1 chunk kL1  the largest multiple of max(kt, 256) with (ceil16(mB) + nB) * kL1 * 2 <= 256 KiB
#                 and nB * kL1 <= 32 Ki elements (W DMAs of at most 64 KiB: short DMAs interleave
#                 the AICs' streams finely and shorten the pipeline tail after the last one):
#                 x chunk [mB, kL1] (ND -> NZ, mov_gm_l1_nz) and W chunk [nB, kL1] (a plain copy
#                 of one burst per 32-byte column block: W is NZ in GM), one DMA each, form one
#                 L1 stage; every L1 buffer is NZ (C0 stride ceil16(rows) x 32 bytes).
#   resident x    M <= 128 and ceil16(M) * K * 2 <= 128 KiB (a quarter of L1): every block reads
#                 the same x rows, so x [M, K] is loaded once, in one DMA (ND -> NZ), into the top quarter
#                 and the stages hold W only (nB * kL1 * 2 <= 192 KiB); the AICs load it at
#                 staggered points of their W prologue (kernels/lib/gemm_aic.inc).
#   L1 stages     a ring of S = min(6, ring bytes / stage bytes) stages (S >= 2; the ring is 512
#                 KiB, 384 KiB with x resident): the loader keeps S - 1 stages in flight ahead of
#                 the compute (M=16, N=1536: x resident, kL1 = 512, 64 KiB stages, S = 6;
#                 M=N=K=2048: kL1 = 256, 192 KiB stages, S = 2).
#   chunk order   a block visits its nch = ceil(K / kL1) chunks starting at phase
#                 (u + u/2 + block_idx) mod nch, u = its first unit (block_idx mod nch when each
#                 AIC has one unit), so concurrent AICs read different parts of W (chosen when W
#                 was row-major, rows K * 2 bytes apart on few HBM channels / L2 slices; u alone
#                 is mostly even when blocks pair two units).
#   The chunk sequence of an AIC runs across its blocks, so MTE2 prefetches the next block's
#   first chunks while the cube finishes the current one.
# Sync (set_flag/wait_flag, ids = buffer index):
#   MTE2 -> MTE1 b   L1 stage b loaded         MTE1 -> MTE2 b   L1 stage b free (preset), b < 6
#   MTE2 -> MTE1 6   resident x loaded (MTE1 waits for it once, before its first tile load)
#   MTE1 -> CUBE p   L0A/L0B half p loaded     CUBE -> MTE1 p   L0 half p free (preset)
#   CUBE -> FIXP s   L0C slot s complete       FIXP -> CUBE s   L0C slot s drained (preset)
#                    (one slot: s = row half of the block)
# Cache hints: x normal (re-read by every AIC); W none_cacheable when M <= 128 (every W row is
#   read by exactly one AIC, once, so it should not evict x from L2), normal otherwise (re-read
#   once per 128-row block of M).

.kernel linear
.param x, gm, bf16
.param w, gm, bf16, nz
.param y, gm, bf16
.param M, int
.param K, int
.param N, int

.equ GEMM_ESH, 1            # bf16 inputs
.equ GEMM_YSH, 1            # bf16 y
.equ GEMM_L1_RESERVED, 0
.include "lib/gemm_aic.inc" # the pipeline (kernels/lib/gemm_aic.inc)

.aic
.semantic linear
    gemm_setup finish
    gemm_prologue x, gemm_nohook
    gemm_loop x, y, bf16, gemm_fix_bf16, gemm_nohook
finish:
    end
