# linear_f16.s -- kernels/linear.s with fp16 inputs and output (y the fp16 RNE of the fp32 sum):
# y[M, N] = x[M, K] . W[N, K]^T (b_trans), fp32 accumulation. The same program (gemm_linear: the
# pipeline of kernels/lib/gemm_aic.inc, whose sizes are in bytes: one 32-byte fractal
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

gemm_linear f16, gemm_fix_f16
