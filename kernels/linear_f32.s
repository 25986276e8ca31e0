# linear_f32.s -- kernels/linear.s with fp32 inputs and output (the cube's fp32 mode: k0 = cube.k0.f32 per cycle):
# y[M, N] = x[M, K] . W[N, K]^T (b_trans), fp32 accumulation. The same program (gemm_linear: the
# pipeline of kernels/lib/gemm_aic.inc, whose sizes are in bytes: one 32-byte fractal
# column block holds 32 / sizeof(dtype) elements), for the vendor GEMM series of the other dtypes
# (docs/fidelity.md). Params, launch, work split, sync and cache hints: kernels/linear.s.
#   x  gm f32 [M, K]; w gm f32 [N, K], nz; y gm f32 [M, N]; M, K, N as in linear.s (K and N
#   multiples of 16).

.kernel linear_f32
.param x, gm, f32
.param w, gm, f32, nz
.param y, gm, f32
.param M, int
.param K, int
.param N, int

.equ GEMM_ESH, 2
.equ GEMM_YSH, 2
.equ GEMM_L1_RESERVED, 0
.include "lib/gemm_aic.inc"

gemm_linear f32, gemm_fix_f32
