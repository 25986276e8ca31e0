# qwen3_pre_attn.s -- Qwen3PreAttn phase 1 (SK-05, V -> C -> V) in one launch, bf16:
#   x_add = bf16_rne(x + residual)                        (AIVs "residual_add"; an output)
#   xn    = bf16_rne(RMSNorm(x_add) * gamma)              (AIVs "rmsnorm", into the workspace xn)
#   qkv   = bf16_rne(xn[T, H] . w[N, H]^T)                (AICs "qkv_linear", into the workspace qkv)
#   per token and head: q = rope(bf16(RMSNorm(q_head) * gamma_q)), k likewise with gamma_k,
#   v as projected; k_cache[slots[t]] = k[t], v_cache[slots[t]] = v[t]  (AIVs "heads")
# The golden is qwen3_pre_attn (golden/golden.h); docs/qwen3-pre-attn.md has the data flow.
#
# Params (in order):
#   x, residual  gm bf16 [M, K]   hidden states and the residual stream
#   gamma        gm bf16 [K]      input RMSNorm weight
#   w            gm bf16 [N, K], nz  fused QKV projection (nn.Linear layout [out, in]: q rows, k, v), kept NZ in GM
#   gamma_q      gm bf16 [HD]     q_norm weight
#   gamma_k      gm bf16 [HD]     k_norm weight
#   cos, sin     gm bf16 [M, HD]  per token and element
#   slots        gm s32  [>= M]   cache slot of each token (< 0: not written; distinct)
#   k_cache      gm bf16 [S, NKV, HD]  written at the slots (rows of NKV * HD)
#   v_cache      gm bf16 [S, NKV, HD]
#   x_add        gm bf16 [M, K]   output: the new residual stream
#   q            gm bf16 [M, NQ, HD]   outputs
#   k, v         gm bf16 [M, NKV, HD]
#   xn           gm bf16 [M, K]   workspace: the normalised activations
#   qkv          gm bf16 [M, N]   workspace: the projection, N = (NQ + 2 NKV) * HD
#   M int, 1 <= M <= 1024 (the slots are kept in UB); K int, multiple of 16; N int; NQ, NKV int
#   (NQ a multiple of NKV); HD int, a multiple of 16 (the RoPE halves start 32-byte aligned),
#   HD <= 256, NKV * HD <= QW_TMAX (lib/qwen3_heads.inc: 8960 on a 192 KiB UB); eps f32 (1e-6);
#   units int = M * (NQ / NKV + 2): the (token, head group) units of stage 4
# Launch: AIC + AIV (mixed); any block_dim.
#
# Stages and hand-offs (cross-core flags):
#   1. AIV "residual_add": the M rows split over all AIVs (as rmsnorm_linear.s); each AIV adds
#      its rows (one DMA per tensor for all of them: small DMAs queue behind the weight stream in
#      HBM) and stores x_add (barrier mte3), then "rmsnorm" reads them back (its own rows, just
#      written: L2 hits) and runs the RMSNorm of rmsnorm_linear.s (lib/rmsnorm_macros.inc).
#   2. AIV "handoff": aiv_handoff 0, 1 as rmsnorm_linear.s (every AIC needs every row of xn).
#   3. AIC "qkv_linear": the GEMM pipeline of linear.s (lib/gemm_aic.inc), W streaming from the
#      start (gemm_prologue_after), into qkv; then "handoff": the AIC barrier (flag 2) and mode 2
#      flag 3 to the cluster's AIVs (w8a8_handoff, lib/w8a8.inc): a unit's heads may come from
#      any AIC's columns.
#   4. AIV "heads": units (token, group of NKV heads) split over all AIVs; per unit one qkv load,
#      per-head RMSNorm + RoPE (lib/qwen3_heads.inc; not for v), the store to q / k / v and, for
#      k and v, the cache row at the token's slot: the slot is read from UB by the scalar unit
#      (`ldub`, after the slots DMA) and becomes the DMA's GM address. Units are pipelined over
#      two tile buffers (the next unit's load and the last one's stores overlap the vector
#      work); the first token's cos / sin are loaded before the hand-off.
# Cache policy: W none_cacheable when M <= 128 (as linear.s); everything else normal.

.kernel qwen3_pre_attn
.param x, gm, bf16
.param residual, gm, bf16
.param gamma, gm, bf16
.param w, gm, bf16, nz
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
.param xn, gm, bf16
.param qkv, gm, bf16
.param M, int
.param K, int
.param N, int
.param NQ, int
.param NKV, int
.param HD, int
.param eps, f32
.param units, int

.include "lib/rmsnorm_macros.inc"
.include "lib/quant_macros.inc"     # aiv_rows
.include "lib/qwen3_heads.inc"
.equ GEMM_ESH, 1
.equ GEMM_YSH, 1
.equ GEMM_L1_RESERVED, 0
.include "lib/gemm_aic.inc"
.include "lib/w8a8.inc"             # w8a8_handoff (the C -> V hand-off after an AIC barrier)

.aiv
.semantic residual_add
    qw_residual_stage
.semantic rmsnorm
    ldp   rXg, x_add
    ldp   rGg, gamma
    ldp   rYg, xn
    mov   rBg, 0
    mov   rRg, 0
    ldp   rD, K
    ldp   rEps, eps
    mov   rOpt, OPT_GAMMA           # variant A (rsqrt), as the golden's default
    rms_setup M
    rms_body bf16
    rms_drain
.semantic handoff
    aiv_handoff 0, 1
.semantic heads
    qw_heads qkv, 1, hTw, qw_nohook, qw_nohook, qw_widen_bf16, qw_copy_bf16
    end

.aic
.semantic qkv_linear
    gemm_setup idle
    gemm_prologue_after 1, xn, gemm_nohook
    gemm_loop xn, qkv, bf16, gemm_fix_bf16, gemm_nohook
.semantic handoff
    w8a8_handoff
    end
idle:
    cc_wait   mte2, 1
    w8a8_handoff
    end
