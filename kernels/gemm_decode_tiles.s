# gemm_decode_tiles.s -- a decode bf16 GEMM with the tile as parameters: y[M, N] = x[M, K] . W,
# W stored [K, N] (b_trans 0) or [N, K] (b_trans 1), fp32 accumulation, bf16 out. The kernel of
# docs/fidelity.md's b_trans anchor (hw-native-sys/pypto issue 2309): the same kernel in both
# layouts at the tile shapes (TK, TN) the published sweep used.
#
# Params (in order):
#   x  gm bf16 [M, K]      activations, row-major
#   w  gm bf16 [K, N]      weights ([N, K] with b_trans = 1)
#   y  gm bf16 [M, N]      output, bf16 RNE of the fp32 sum (written by the FixPipe)
#   M  int 1 .. 16         rows (tokens)
#   K  int                 reduction length, multiple of 16; 16 * K * 2 + one tile <= L1
#   N  int                 output channels, multiple of 16
#   TK int                 inner-K tile depth: multiple of 16, <= 1024
#   TN int                 N tile width: multiple of 16, <= L0C / (16 * 4) columns (2048 on a2)
#   b_trans int 0 / 1
# Launch: AIC only; any block_dim (block_dim = ceil(N / TN): one N tile per AIC).
# Pipeline and tiling: lib/gemm_tiles.inc (lib/gemm_kn.inc with the caller's tile).

.kernel gemm_decode_tiles
.param x, gm, bf16
.param w, gm, bf16
.param y, gm, bf16
.param M, int
.param K, int
.param N, int
.param TK, int
.param TN, int
.param b_trans, int

.include "lib/gemm_tiles.inc"

.aic
.semantic gemm_tiles
    ldp   rM, M
    ldp   rK, K
    ldp   rWt, b_trans
    ldp   rW0, w
    ldp   rY0, y
    ldp   rN0, N
    tk_setup TK, TN
    kn_prologue
    kn_load_x x
    kn_loop
    kn_end
    kn_check_bit b_trans
    end
