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
#   w            gm bf16 [N, K]   fused QKV projection (nn.Linear layout [out, in]: q rows, k, v)
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
.param w, gm, bf16
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

# Token \tk's cos / sin -> QW_COS / QW_SIN (qw_token_cs); hTok = \tk. Uses r20 .. r24.
.macro qw_cs_of tk
    mov   hTok, \tk
    mul   r22, \tk, hHD
    shl   r22, r22, 1
    ldp   r20, cos
    add   r20, r20, r22
    ldp   r21, sin
    add   r21, r21, r22
    qw_token_cs r20, r21, hHD, r23, r24
.endm

# r20 = GM address of unit \u's tile: qkv[t, grp * NKV * HD], t = u / G. Uses r21, r22.
.macro qw_unit_addr u
    div   r21, \u, hG
    mul   r22, r21, hG
    sub   r22, \u, r22                 # group
    ldp   r20, N
    mul   r20, r20, r21
    shl   r20, r20, 1
    mul   r22, r22, hTw
    add   r20, r20, r22
    ldp   r22, qkv
    add   r20, r20, r22
.endm

# ring_call forms (the buffer id an immediate): fetch to r20, store to r20 and cache r21.
.macro qw_fetch_r id, unused
    qw_fetch \id, r20, hTw
.endm
.macro qw_store_r id, unused
    qw_store \id, r20, r21, hTw
.endm

# stage 4 registers (stages 1-2 use lib/rmsnorm_macros.inc's)
.reg hU, r1         # next unit (token * G + group)
.reg hUEnd, r2
.reg hG, r3         # units per token
.reg hQG, r4        # q groups per token (NQ / NKV)
.reg hHD, r5
.reg hTw, r6        # bytes of a unit's tile (NKV * HD * 2)
.reg hInv, r7       # fp32 1 / HD
.reg hEps, r8
.reg hTok, r9       # token whose cos / sin are in UB (-1: none)
.reg hRows, r10     # NKV (heads of a unit)
.reg hT, r11        # token of the unit
.reg hGrp, r12      # group of the unit
.reg hB, r13        # tile buffer of the unit (0 / 1)
.reg hOB, r14       # UB offset of OB[hB]
# temporaries: r20 .. r27

.aiv
.semantic residual_add
    aiv_rows M, r13, r14, r26, r27, r28, r29, r30
    ldp   r1, x
    ldp   r2, residual
    ldp   r3, x_add
    ldp   r6, K
    qw_residual_add r1, r2, r3, r13, r14, r6, r24, r25, r26, r27, r28, r29, r30, r31
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
    barrier all                     # the RMSNorm's UB is reused from here on
    # per-launch inputs while the AICs project: slots, gamma_q, gamma_k
    ldp   hHD, HD
    ldp   r20, slots
    ldp   r21, M
    shl   r21, r21, 2
    mov_gm_ub QW_SLOTS, r20, 1, r21, 0, 0, normal
    ldp   r20, gamma_q
    qw_vec QW_GQ, r20, hHD, r21
    ldp   r20, gamma_k
    qw_vec QW_GK, r20, hHD, r21
    ldp   hRows, NKV
    ldp   hQG, NQ
    div   hQG, hQG, hRows
    add   hG, hQG, 2
    mul   hTw, hRows, hHD
    shl   hTw, hTw, 1
    itof  r20, hHD
    mov   r21, f32(1.0)
    fdiv  hInv, r21, r20
    ldp   hEps, eps
    mov   hTok, -1
    mov   hB, 0
    aiv_rows units, hU, hUEnd, r22, r23, r24, r25, r26
    ring_preset mte2, vector, 2     # TB[0], TB[1] free
    ring_preset vector, mte3, 2     # OB[0], OB[1] free
    bge   hU, hUEnd, wait
    div   hT, hU, hG                # the first unit's cos / sin before the hand-off: inputs
    qw_cs_of hT
wait:
    cc_wait mte2, 3                 # qkv complete (consumed even without units)
    barrier mte2                    # and the slots in UB (read by ldub)
    bge   hU, hUEnd, unit
    qw_unit_addr hU
    qw_fetch 0, r20, hTw
unit:
    bge   hU, hUEnd, hdone
    div   hT, hU, hG
    mul   hGrp, hT, hG
    sub   hGrp, hU, hGrp
    # prefetch the next unit into the other buffer
    add   r26, hU, 1
    bge   r26, hUEnd, nopf
    qw_unit_addr r26
    xor   r27, hB, 1
    ring_call qw_fetch_r, 0, r27, 2
nopf:
    beq   hT, hTok, cs
    qw_cs_of hT
cs:
    mul   hOB, hB, QW_TMAX * 2
    add   r25, hOB, QW_TB           # TB[hB]
    add   hOB, hOB, QW_OB
    mul   r26, hRows, hHD           # elements of the tile
    ring_flag wait_flag, mte2, vector, hB, 2
    ring_flag wait_flag, mte3, vector, hB, 2
    bge   hGrp, hQG, kv
    # ---- a q group -> q[t, grp * NKV ..]
    vcast.bf16.f32.rne QW_TF, r25, r26
    ring_flag set_flag, vector, mte2, hB, 2
    qw_norm_rope QW_GQ, hOB, hRows, hHD, hInv, hEps, r20, r21, r22, r23, r24
    mul   r20, hT, hQG
    add   r20, r20, hGrp
    mul   r20, r20, hTw
    ldp   r21, q
    add   r20, r20, r21
    mov   r21, -1                   # no cache row
    jmp   st
kv:
    bne   hGrp, hQG, vg
    # ---- the k group -> k[t] and k_cache[slot]
    vcast.bf16.f32.rne QW_TF, r25, r26
    ring_flag set_flag, vector, mte2, hB, 2
    qw_norm_rope QW_GK, hOB, hRows, hHD, hInv, hEps, r20, r21, r22, r23, r24
    ldp   r20, k
    ldp   r22, k_cache
    jmp   slot
vg:
    # ---- the v group -> v[t] and v_cache[slot], as projected
    vcopy.bf16 hOB, r25, r26
    ring_flag set_flag, vector, mte2, hB, 2
    ldp   r20, v
    ldp   r22, v_cache
slot:
    mul   r23, hT, hTw
    add   r20, r20, r23
    shl   r21, hT, 2
    ldub  r21, r21                  # the token's slot (QW_SLOTS = 0; landed before the loop)
    blt   r21, 0, st                # < 0: no cache row (r21 stays negative)
    mul   r21, r21, hTw
    add   r21, r21, r22
st:
    ring_flag set_flag, vector, mte3, hB, 2
    ring_call qw_store_r, 0, hB, 2
    xor   hB, hB, 1
    add   hU, hU, 1
    jmp   unit
hdone:
    ring_drain mte2, vector, 2
    ring_drain vector, mte3, 2
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
