# linear_w8a8.s -- AT-09 int8 W8A8 Linear with AT-06 dequant, in one launch (C -> V):
#   acc = x[M, K] . W[N, K]^T                       (AICs, int8 x int8 -> int32 in L0C)
#   t   = fp32(acc) * w_scale[n]                    (AIC FixPipe: qvector, per-channel scale;
#                                                    t by blocks: the AIVs, same bits)
#   y   = bf16_rne(t * x_scale[m])                  (AIVs: the per-token scale, then the cast)
#
# Params (in order):
#   x        gm s8   [M, K]   activations, quantised per token (AT-05; e.g. by quant_int8.s)
#   x_scale  gm f32  [M]      per-token dequant scale (AT-05 scale_deq)
#   w        gm s8   [N, K], nz  weights (b_trans) kept NZ in GM, quantised per output channel
#   w_scale  gm f32  [N]      per-channel dequant scale
#   y        gm bf16 [M, N]   output
#   t        gm f32  [M, N]   workspace: fp32(acc) * w_scale, written by the AICs' FixPipe and
#                             read by the AIVs (kept in L2); row-major, or by blocks when
#                             M <= 128 and no AIC pairs units, then fp32(acc) alone (fix_w8a8
#                             in kernels/lib/w8a8.inc), or by unit rows when x is resident per
#                             unit row (w8a8_t_unit_rows)
#   M        int >= 1         any value
#   K        int >= 32        multiple of 32
#   N        int >= 16        multiple of 16, at most 8192 (w_scale is kept in 32 KiB of L1)
# Launch: AIC + AIV (mixed); any block_dim (1 .. chip.clusters).
#
# Numerics (docs/quant.md, kernels/lib/w8a8.inc): w_scale in the FixPipe (qvector; when t is
# stored by blocks on the AIVs, vcol.mul, the same fp32 product), x_scale on the AIVs;
# (fp32(acc) * w_scale) * x_scale against the golden's (fp32(acc) * x_scale) * w_scale.
#
# Stages (the AIV pass and its hand-off by M, w8a8_dequant_by_m / w8a8_handoff_by_m):
#   1. AIC "linear": the pipeline of linear.s (kernels/lib/gemm_aic.inc) on int8 (mmad.s8,
#      twice the k per L0 half and per L1 byte of bf16; chunk rows of whole L2 lines), y replaced
#      by the fp32 workspace t: each FixPipe drain first copies the block's w_scale columns L1 ->
#      FixPipe buffer (mov_l1_fb), then fix.s32.f32 with qvector. w_scale [N] is loaded to the
#      top 32 KiB of L1 once. W is kept NZ in GM (a W chunk is a plain copy of its column
#      blocks), x is converted ND -> NZ on its load (docs/kernels.md section 9).
#   2. Hand-off (FIXP queue, cross-core mode 2 id 3 to the cluster's own two AIVs): M <= 128
#      once, behind the AIC's last drain; M > 128 once per unit, behind the drain that completes
#      it (w8a8_unit_done), so the AIVs' pass overlaps the AIC's later blocks.
#   3. AIV "dequant": y = bf16_rne(t * x_scale[m]): each cluster's AIVs take the units their own
#      AIC wrote (half the rows each), in the AIC's order, double-buffered; M <= 128: x_scale
#      preloaded before the hand-off (and w_scale when t is stored by blocks); x per unit row
#      and M a multiple of 128: x_scale read per unit row before its first hand-off.
# Sync: AIC as linear.s (w_scale needs no flag of its own: kernels/lib/w8a8.inc). AIV: rings of
#   two buffers, MTE2 <-> VECTOR (T, XS) and VECTOR <-> MTE3 (YB),
#   presets and drains by ring.inc.
# Cache hints: x, t normal; W none_cacheable when M <= 128 (as linear.s).

.kernel linear_w8a8
.param x, gm, s8
.param x_scale, gm, f32
.param w, gm, s8, nz
.param w_scale, gm, f32
.param y, gm, bf16
.param t, gm, f32
.param M, int
.param K, int
.param N, int

.equ GEMM_ESH, 0            # int8 x and W
.equ GEMM_YSH, 2            # fp32 t
.equ GEMM_L1_RESERVED, kib(32)   # w_scale [N <= 8192] fp32 at the top of L1
.include "lib/gemm_aic.inc"
.include "lib/w8a8.inc"     # w_scale in L1, the qvector drain, the hand-off, the AIV pass

.aic
.semantic linear
    w8a8_scales_unless_blocked
    gemm_setup idle
    gemm_prologue x, gemm_nohook
    gemm_loop x, t, s8, fix_w8a8, gemm_nohook
.semantic handoff
    w8a8_handoff_by_m
    end
idle:
    w8a8_handoff_by_m
    end

# ---------------------------------------------------------------- AIV stage (per-token scale)
.aiv
.semantic dequant
    w8a8_dequant_by_m x_scale, 1    # x_scale is an input: preloaded before the hand-off
    end
