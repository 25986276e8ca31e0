# linear_w8a8.s -- AT-09 int8 W8A8 Linear with AT-06 dequant, in one launch (C -> V):
#   acc = x[M, K] . W[N, K]^T                       (AICs, int8 x int8 -> int32 in L0C)
#   t   = fp32(acc) * w_scale[n]                    (AIC FixPipe: qvector, per-channel scale)
#   y   = bf16_rne(t * x_scale[m])                  (AIVs: the per-token scale, then the cast)
#
# Params (in order):
#   x        gm s8   [M, K]   activations, quantised per token (AT-05; e.g. by quant_int8.s)
#   x_scale  gm f32  [M]      per-token dequant scale (AT-05 scale_deq)
#   w        gm s8   [N, K]   weights, row-major (b_trans), quantised per output channel
#   w_scale  gm f32  [N]      per-channel dequant scale
#   y        gm bf16 [M, N]   output
#   t        gm f32  [M, N]   workspace: fp32(acc) * w_scale, written by the AICs' FixPipe and
#                             read by the AIVs (kept in L2)
#   M        int >= 1         any value
#   K        int >= 32        multiple of 32
#   N        int >= 16        multiple of 16, at most 8192 (w_scale is kept in 32 KiB of L1)
# Launch: AIC + AIV (mixed); any block_dim (1 .. chip.clusters).
#
# Numerics (docs/quant.md): the FixPipe's qvector multiplies each column by one fp32 scale, so
# the per-channel factor is applied there (one fp32 rounding of fp32(acc) * w_scale[n]); the
# per-token factor needs a second multiply per row, which the FixPipe cannot do in the same
# pass (its scale is per column or one scalar per fix), so the AIVs apply it in fp32 and round
# once to bf16. The golden's order is (fp32(acc) * x_scale) * w_scale (docs/numerics.md AT-06):
# the two products differ by at most one fp32 rounding before the bf16 cast.
#
# Stages:
#   1. AIC "linear": the pipeline of linear.s (kernels/lib/gemm_aic.inc) on int8 (mmad.s8,
#      twice the k per L0 half and per L1 byte of bf16), y replaced by the fp32 workspace t: each
#      FixPipe drain first copies the block's w_scale columns L1 -> FixPipe buffer (mov_l1_fb),
#      then fix.s32.f32 with qvector. w_scale [N] is loaded to the top 32 KiB of L1 once.
#   2. Hand-off: each AIC, behind its last drain (in the FIXP queue), joins a barrier over all
#      AICs (cc_set fixp mode 0 id 2, cc_wait id 2), then sets mode 2 id 3: its cluster's two
#      AIVs gain one. Every AIV needs every column of its rows, written by many AICs: hence the
#      barrier first.
#   3. AIV "dequant": the M rows split evenly over all block_dim * 2 AIVs; per tile of R rows:
#      MTE2 loads t [R, N] and x_scale [R], vrow.mul by x_scale, vcast to bf16, MTE3 stores y.
#      UB: XS fp32 [256] at 0, T fp32 [R, N] at 1 KiB, YB bf16 [R, N] after it;
#      R = min(256, (UB - 1 KiB) / (6 N)).
# Sync: AIC as linear.s, plus MTE2 -> FIXP 0 (w_scale in L1, once). AIV: rings of one buffer,
#   MTE2 <-> VECTOR 0 (T, XS) and VECTOR <-> MTE3 0 (YB), presets and drains by ring.inc.
# Cache hints: x, t normal; W none_cacheable when M <= 128 (as linear.s).

.kernel linear_w8a8
.param x, gm, s8
.param x_scale, gm, f32
.param w, gm, s8
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
.equ WS_L1, CFG_L1_BYTES - GEMM_L1_RESERVED

# The drain: w_scale[n0 .. n0 + n) L1 -> FixPipe buffer 0, then L0C int32 -> t fp32 with the
# per-column scale. n0 is recovered from the destination address (r30, r15 are free here).
.macro fix_w8a8 d, s, m, n, st
    ldp   r30, t
    sub   r30, \d, r30
    shr   r30, r30, 2
    rem   r30, r30, rN              # n0
    shl   r30, r30, 2
    add   r30, r30, WS_L1           # &w_scale[n0] in L1
    shl   r15, \n, 2
    mov_l1_fb 0, r30, r15
    fix.s32.f32 \d, \s, \m, \n, \st, qvector, r0
.endm

.macro w8a8_handoff
    cc_set  fixp, 0, 2              # barrier over all AICs, behind this AIC's last drain
    cc_wait fixp, 2
    cc_set  fixp, 2, 3              # this cluster's AIVs may read t
.endm

.aic
.semantic linear
    gemm_setup idle
    ldp   r25, w_scale
    shl   r26, rN, 2
    mov_gm_l1 WS_L1, r25, 1, r26, 0, 0, normal
    set_flag  mte2, fixp, 0
    wait_flag mte2, fixp, 0         # in FIXP: the first mov_l1_fb waits for it
    gemm_prologue x, gemm_nohook
    gemm_loop x, t, s8, fix_w8a8, gemm_nohook
.semantic handoff
    w8a8_handoff
    end
idle:
    w8a8_handoff
    end

# ---------------------------------------------------------------- AIV stage (per-token scale)
.equ XS, 0
.equ TB, kib(1)
.equ RCAP, 256
.reg vM, r1
.reg vN, r2
.reg rRow, r3       # first row of the tile
.reg rEnd, r4       # end of this AIV's rows
.reg rR, r5         # rows per tile
.reg rYB, r6        # UB offset of YB
.reg rNb4, r7       # N * 4 (t row bytes)
.reg rNb2, r8       # N * 2 (y row bytes)
# temporaries: r9 .. r31

.aiv
.semantic dequant
    ldp   vM, M
    ldp   vN, N
    getsr r9, block_idx
    getsr r10, subblock_dim
    mul   r9, r9, r10
    getsr r11, subblock_idx
    add   r9, r9, r11               # AIV index i
    getsr r11, block_dim
    mul   r11, r11, r10             # n AIVs
    mul   rRow, vM, r9
    div   rRow, rRow, r11           # rows [M*i/n, M*(i+1)/n)
    add   r9, r9, 1
    mul   rEnd, vM, r9
    div   rEnd, rEnd, r11
    cc_wait mte2, 3                 # t complete (consumed even without rows)
    bge   rRow, rEnd, done
    shl   rNb4, vN, 2
    shl   rNb2, vN, 1
    mul   r9, vN, 6
    mov   rR, CFG_UB_BYTES - TB
    div   rR, rR, r9
    min   rR, rR, RCAP
    mul   rYB, rR, rNb4
    add   rYB, rYB, TB
    ring_preset mte2, vector, 1
    ring_preset vector, mte3, 1
tile:
    sub   r12, rEnd, rRow
    min   r12, r12, rR              # rows of the tile
    ldp   r13, x_scale
    shl   r14, rRow, 2
    add   r13, r13, r14
    shl   r14, r12, 2
    mul   r15, rRow, rNb4
    ldp   r16, t
    add   r15, r15, r16             # &t[row, 0]
    wait_flag vector, mte2, 0
    mov_gm_ub XS, r13, 1, r14, 0, 0, normal
    mov_gm_ub TB, r15, r12, rNb4, rNb4, rNb4, normal
    set_flag  mte2, vector, 0
    wait_flag mte2, vector, 0
    vrow.mul.f32 TB, TB, XS, r12, vN, rNb4
    mul   r17, r12, vN
    wait_flag mte3, vector, 0
    vcast.f32.bf16.rne rYB, TB, r17
    set_flag  vector, mte2, 0
    set_flag  vector, mte3, 0
    mul   r18, rRow, rNb2
    ldp   r16, y
    add   r18, r18, r16             # &y[row, 0]
    wait_flag vector, mte3, 0
    mov_ub_gm r18, rYB, r12, rNb2, rNb2, rNb2, normal
    set_flag  mte3, vector, 0
    add   rRow, rRow, r12
    blt   rRow, rEnd, tile
    ring_drain mte2, vector, 1
    ring_drain vector, mte3, 1
done:
    end
