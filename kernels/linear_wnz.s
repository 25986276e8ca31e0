# linear_wnz.s -- a small bf16 Linear with the weights kept in the fractal NZ layout in GM, as
# inference stacks keep them (converted once, ahead of time: torch_npu's npu_format_cast to
# FRACTAL_NZ): y[M, N] = x[M, K] . W[N, K]^T (b_trans), fp32 accumulation. x is loaded ND -> NZ
# (mov_gm_l1_nz); a W chunk is a plain copy of its column blocks (mov_gm_l1: each 32-byte block
# of the tile's rows is contiguous in GM), so W pays no conversion. The program is
# kernels/linear_nz.s's (kernels/lib/linear_nz.inc) with that W load: the L1 and L0 contents,
# and so y, are the same bits as linear_nz.s's.
#
# Params (in order):
#   x  gm bf16 [M, K]      activations, row-major (ND)
#   w  gm bf16 [N, K], nz  weights in NZ: 32-byte column blocks of ceil16(N) rows (docs/isa.md
#                          "Fractal formats"); the case gives W's values, `npusim run` stores them so
#   y  gm bf16 [M, N]      output (ND)
#   M  int 1 .. 128        rows
#   K  int >= 16           reduction length, multiple of 16 (whole column blocks per chunk)
#   N  int >= 1            output channels; any value
# Launch: AIC only; any block_dim (AIC i takes the N tiles i, i + block_dim, ...).
#
# W chunk [tn, kc] of tile n0: kc / 16 column blocks; block j's rows n0 .. n0 + tn - 1 are tn x 32
# contiguous bytes at w + (k0 / 16 + j) x C + n0 x 32, C = ceil16(N) x 32 (W's C0 stride in GM):
# one DMA of kc / 16 bursts of tn x 32 bytes, C apart, to L1 at W's C0 stride ceil16(tn) x 32.

.kernel linear_wnz
.param x, gm, bf16
.param w, gm, bf16, nz
.param y, gm, bf16
.param M, int
.param K, int
.param N, int

.include "lib/linear_nz.inc"  # registers and the body, lnz_main

.reg rCn, r21       # W's C0 stride in GM: ceil16(N) * 32
.reg rBl, r22       # blocks of a chunk (kc / 16)
.reg rBb, r23       # bytes of a tile's rows in one block (tn * 32)

.macro lnz_w_start
    shl   rB, rN0, 5
    add   rB, rB, rW              # row n0 of W's first column block
.endm

.macro lnz_load_wnz
    mov_gm_l1_nz LNZ_X_L1, rA, rM, rKcb, rKb, rCx
    shr   rBl, rKcb, 5
    shl   rBb, rTn, 5
    mov_gm_l1 LNZ_W_L1, rB, rBl, rBb, rCn, rCw
    lnz_tiles rCx, rCw, 1
.endm

.macro lnz_w_next
    shr   rBl, rKcb, 5
    mul   rBl, rBl, rCn
    add   rB, rB, rBl             # kc / 16 blocks on
.endm

.aic
.semantic linear
    ldp   rCn, N
    add   rCn, rCn, 15
    shr   rCn, rCn, 4
    shl   rCn, rCn, 9
    lnz_main lnz_w_start, lnz_load_wnz, lnz_w_next
