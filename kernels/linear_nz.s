# linear_nz.s -- the fractal formats in a small bf16 Linear: y[M, N] = x[M, K] . W[N, K]^T
# (b_trans), fp32 accumulation, with both operands loaded ND -> NZ on the way into L1
# (mov_gm_l1_nz) and read by NZ tile loads (mov_l1_l0a / mov_l1_l0b nz = 1), as real Ascend
# kernels load ND tensors (docs/isa.md "Fractal formats"). With nz = 0 the same program loads
# plain ND copies instead (mov_gm_l1, ND tile loads): same numbers, bit for bit, so the cycle
# difference between the two is the conversion's cost (docs/kernels.md "Fractal formats").
# A demonstration, not a tuned GEMM (kernels/linear.s is): one L1 stage, one L0 buffer, no
# double buffering, so every step waits for the one before it.
#
# Params (in order):
#   x  gm bf16 [M, K]      activations, row-major (ND)
#   w  gm bf16 [N, K]      weights, row-major (ND; each output channel is one row: b_trans)
#   y  gm bf16 [M, N]      output, bf16 RNE of the fp32 sum (written by the FixPipe, ND)
#   M  int 1 .. 128        rows
#   K  int >= 16           reduction length, multiple of 16 (the ND path's 32-byte L1 rows)
#   N  int >= 1            output channels; any value
#   nz int 0 / 1           1: ND -> NZ loads and NZ tile loads; 0: plain ND
# Launch: AIC only; any block_dim (AIC i takes the N tiles i, i + block_dim, ...).
#
# Tiling: N tiles of up to LNZ_TN columns (W rows), K chunks of up to LNZ_KC; per chunk one x
# DMA [M, kc] and one W DMA [tn, kc] into L1, one tile load each into L0A / L0B (W transposed:
# B = [kc, tn]), one mmad accumulating in L0C; per N tile one fix to y. NZ C0 strides: x
# ceil16(M) x 32 bytes, W ceil16(tn) x 32 (whole 16-row fractals, as Ascend's Nd2NzParams).
# Sizes: L0A M x kc x 2 <= 64 KiB, L0B kc x tn x 2 = 64 KiB, L0C M x tn x 4 <= 64 KiB, L1 x at
# 0 (<= 64 KiB), W at 64 KiB (64 KiB).
# Sync: MTE2 -> MTE1 0 (L1 loaded), MTE1 -> MTE2 0 (L1 free, preset), MTE1 -> CUBE 0 (L0
# loaded), CUBE -> MTE1 0 (L0 free, preset), CUBE -> FIXP 0 (L0C done), FIXP -> CUBE 0 (L0C
# drained, preset); the presets are consumed before `end`.

.kernel linear_nz
.param x, gm, bf16
.param w, gm, bf16
.param y, gm, bf16
.param M, int
.param K, int
.param N, int
.param nz, int

.include "lib/linear_nz.inc"  # registers and the body, lnz_main

.reg rNz, r7

.macro lnz_w_start
    mul   rB, rN0, rKb
    add   rB, rB, rW              # W row n0
.endm

# x and W: ND -> NZ (nz = 1) or plain ND copies (nz = 0) into L1, then the tile loads.
.macro lnz_load_nd_or_nz
    beq   rNz, 0, nd\@
    mov_gm_l1_nz LNZ_X_L1, rA, rM, rKcb, rKb, rCx
    mov_gm_l1_nz LNZ_W_L1, rB, rTn, rKcb, rKb, rCw
    lnz_tiles rCx, rCw, 1
    jmp   ld\@
nd\@:
    mov_gm_l1 LNZ_X_L1, rA, rM, rKcb, rKb, rKcb
    mov_gm_l1 LNZ_W_L1, rB, rTn, rKcb, rKb, rKcb
    lnz_tiles rKcb, rKcb, 0
ld\@:
.endm

.macro lnz_w_next
    add   rB, rB, rKcb
.endm

.aic
.semantic linear
    ldp   rNz, nz
    lnz_main lnz_w_start, lnz_load_nd_or_nz, lnz_w_next
