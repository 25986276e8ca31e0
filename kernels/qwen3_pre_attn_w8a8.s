# qwen3_pre_attn_w8a8.s -- Qwen3PreAttn phase 1 (SK-05, V -> C -> V) in one launch, the W8A8
# variant of qwen3_pre_attn.s (the same stages but the projection):
#   x_add     = bf16_rne(x + residual)                    (AIVs "residual_add"; an output)
#   h         = bf16_rne(RMSNorm(x_add) * gamma)          (AIVs "rmsnorm_quant", in UB only)
#   xq, x_scale = per-token int8 of h (AT-05)             (AIVs, into the workspaces xq, x_scale)
#   t         = fp32(xq[T, H] . w[N, H]^T) * w_scale[n]   (AICs "qkv_linear": int8 x int8 -> int32,
#                                                          the FixPipe's per-channel qvector)
#   qkv       = bf16_rne(t * x_scale[token])              (AIVs "heads", per unit, then as the
#                                                          bf16 kernel: per-head RMSNorm + RoPE,
#                                                          q / k / v and the cache rows by slot)
# The golden is qwen3_pre_attn with w8a8: true (golden/golden.h); docs/qwen3-pre-attn.md.
#
# Where it rounds (AT-11's choices, kernels/rmsnorm_linear_quant.s): h once to bf16 in UB before
#   the quantisation (the bf16 path rounds it there before its matmul; the golden quantises the
#   same bf16 h); t once in fp32 in the FixPipe; qkv once to bf16 after the per-token factor; then
#   the bf16 kernel's roundings. The golden dequantises as docs/numerics.md AT-06,
#   (fp32(acc) * x_scale) * w_scale: the two orders differ by at most one fp32 rounding before
#   the bf16 cast (lib/w8a8.inc).
#
# Params (in order): as qwen3_pre_attn.s, except
#   w        gm s8  [N, K], nz  the fused QKV projection, quantised per output channel, kept NZ in GM
#   w_scale  gm f32 [N]      its per-channel dequant scales
#   xq       gm s8  [M, K]   workspace: the quantised h (a debug output)
#   x_scale  gm f32 [M]      workspace: the per-token dequant scale (a debug output)
#   t        gm f32 [M, N]   workspace (instead of qkv): fp32(acc) * w_scale, row-major
#   K a multiple of 32; N <= 8192 (w_scale in 32 KiB of L1); NKV * HD <= QW_TMAX / 2 (a unit's
#   fp32 tile of t fills a bf16 tile buffer: 4480 on a 192 KiB UB); the rest as qwen3_pre_attn.s.
# Launch: AIC + AIV (mixed); any block_dim.
#
# Stages and hand-offs (cross-core flags) as qwen3_pre_attn.s: residual add, then AT-11's
#   RMSNorm + quant (lib/rmsnorm_quant.inc) on the same rows; aiv_handoff 0, 1; the AICs' int8
#   GEMM (gemm_aic.inc with lib/w8a8.inc's w_scale in L1), W streaming from the start, drained
#   row-major into t (qw_fix_w8a8: the heads read a token's row); w8a8_handoff (AIC barrier, mode 2
#   flag 3); the per-head stage (qw_heads, lib/qwen3_heads.inc) with x_scale loaded into UB once
#   (it is complete after the AIV barrier of the first hand-off) and, per unit, its token's scale
#   read by the scalar unit (`ldub`) for a vmuls before the bf16 cast.
# Cache policy: W none_cacheable when M <= 128 (as linear.s); everything else normal.

.kernel qwen3_pre_attn_w8a8
.param x, gm, bf16
.param residual, gm, bf16
.param gamma, gm, bf16
.param w, gm, s8, nz
.param w_scale, gm, f32
.param gamma_q, gm, bf16
.param gamma_k, gm, bf16
.param cos, gm, bf16
.param sin, gm, bf16
.param slots, gm, s32
.param k_cache, gm, bf16
.param v_cache, gm, bf16
.param x_add, gm, bf16
.param q, gm, bf16
.param k, gm, bf16
.param v, gm, bf16
.param xq, gm, s8
.param x_scale, gm, f32
.param t, gm, f32
.param M, int
.param K, int
.param N, int
.param NQ, int
.param NKV, int
.param HD, int
.param eps, f32
.param units, int

.include "lib/rmsnorm_macros.inc"
.include "lib/quant_macros.inc"     # aiv_rows, the AT-05 blocks
.include "lib/rmsnorm_quant.inc"
.include "lib/qwen3_heads.inc"
.reg rQg, r3        # xq (RMSNorm's beta register: no beta here)
.reg rSg, r5        # x_scale (RMSNorm's rstd register: no rstd output here)
.equ GEMM_ESH, 0                    # int8 xq and W
.equ GEMM_YSH, 2                    # fp32 t
.equ GEMM_L1_RESERVED, kib(32)      # w_scale at the top of L1
.include "lib/gemm_aic.inc"
.include "lib/w8a8.inc"

# The drain: lib/w8a8.inc's per-channel dequant (w_scale[n0 ..] L1 -> FixPipe buffer, then
# fix.s32.f32 with qvector), always into the row-major t (fix_w8a8 stores t by blocks when M <=
# 128 without pairs; the per-head stage reads whole token rows). r15, r16, r30 are free here.
.macro qw_fix_w8a8 d, s, m, n, st
    ldp   r30, t
    sub   r30, \d, r30
    shr   r30, r30, 2
    rem   r15, r30, rN              # n0
    shl   r16, r15, 2
    add   r16, r16, WS_L1           # &w_scale[n0] in L1
    shl   r30, \n, 2
    mov_l1_fb 0, r16, r30
    fix.s32.f32 \d, \s, \m, \n, \st, qvector, r0
.endm

# qw_heads hooks. Before the hand-off: hTi = a unit's bytes in t, and x_scale [M] -> QW_XS (every
# AIV's rows landed: the AIV barrier of aiv_handoff precedes the stage's `barrier all`).
.macro qw_w8a8_pre
    shl   hTi, hTw, 1
    ldp   r20, x_scale
    ldp   r21, M
    shl   r21, r21, 2
    mov_gm_ub QW_XS, r20, 1, r21, 0, 0, normal
.endm
# Per unit (the UB inputs landed: qw_heads' barrier mte2): hXs = x_scale[hT].
.macro qw_w8a8_tok
    shl   r20, hT, 2
    add   r20, r20, QW_XS
    ldub  hXs, r20
.endm
# v: qkv = bf16_rne(t * x_scale) into \ob; q / k: and widened back into QW_TF.
.macro qw_deq_v tb, ob, n
    vmuls.f32 QW_TF, \tb, hXs, \n
    vcast.f32.bf16.rne \ob, QW_TF, \n
.endm
.macro qw_deq_widen tb, ob, n
    qw_deq_v \tb, \ob, \n
    vcast.bf16.f32.rne QW_TF, \ob, \n
.endm

.aiv
.semantic residual_add
    qw_residual_stage
.semantic rmsnorm_quant
    ldp   rXg, x_add
    ldp   rGg, gamma
    ldp   rQg, xq
    ldp   rSg, x_scale
    ldp   rD, K
    ldp   rEps, eps
    mov   rOpt, OPT_GAMMA           # variant A (rsqrt), as the golden's default
    rmsq_setup M
    rmsq_body bf16, rQg, rSg
    rms_drain
.semantic handoff
    aiv_handoff 0, 1
.semantic heads
    qw_heads t, 2, hTi, qw_w8a8_pre, qw_w8a8_tok, qw_deq_widen, qw_deq_v
    end

.aic
.semantic qkv_linear
    gemm_setup idle
    w8a8_scales_l1
    gemm_prologue_after 1, xq, gemm_nohook   # W streams while the AIVs add, normalise, quantise
    gemm_loop xq, t, s8, qw_fix_w8a8, gemm_nohook
.semantic handoff
    w8a8_handoff
    end
idle:
    cc_wait   mte2, 1
    w8a8_handoff
    end
