# linear_f16.s -- kernels/linear.s with fp16 inputs and output (y the fp16 RNE of the fp32 sum):
# y[M, N] = x[M, K] . W[N, K]^T (b_trans), fp32 accumulation. The same program (the decode /
# prefill GEMM of kernels/lib/gemm_aic.inc, whose sizes are in bytes: one 32-byte fractal
# column block holds 32 / sizeof(dtype) elements), for the vendor GEMM series of the other dtypes
# (docs/fidelity.md). Params, launch, work split, sync and cache hints: kernels/linear.s.
#   x  gm f16 [M, K]; w gm f16 [N, K], nz; y gm f16 [M, N]; M, K, N as in linear.s (K and N
#   multiples of 16).

.kernel linear_f16
.param x, gm, f16
.param w, gm, f16, nz
.param y, gm, f16
.param M, int
.param K, int
.param N, int

.equ GEMM_ESH, 1
.equ GEMM_YSH, 1
.equ GEMM_L1_RESERVED, 0
.include "lib/gemm_aic.inc"

.macro fix_f16 d, s, m, n, st
    fix.f32.f16 \d, \s, \m, \n, \st
.endm

.aic
.semantic linear
    gemm_setup finish
    gemm_prologue x, gemm_nohook
    gemm_loop x, y, f16, fix_f16, gemm_nohook
finish:
    end
