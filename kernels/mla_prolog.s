# mla_prolog.s -- SK-04 bf16 MLAProlog (DeepSeek-V4 style; the golden `mla_prolog`,
# docs/mla-prolog.md) in one launch:
#   q path:  qa = bf16(x @ wq_a) -> qr = bf16(RMSNorm(qa) * gamma_cq) (output)
#            -> qb = bf16(qr @ wq_b) -> per head bf16(RMSNorm(qb_head)) -> RoPE on the last rope dims
#   kv path: kva = bf16(x @ w_kv) -> bf16(RMSNorm(kva) * gamma_ckv) -> RoPE
#
# Params (in order):
#   x gm bf16 [T, H]; wq_a [H, QLR] (b_trans: [QLR, H]); gamma_cq [QLR];
#   wq_b [QLR, NH * HD] (b_trans: [NH * HD, QLR]); w_kv [H, HD] (b_trans: [HD, H]);
#   gamma_ckv [HD]; cos, sin [T, RD]; outputs q [T, NH, HD], kv [T, HD], qr [T, QLR];
#   workspaces qa [T, QLR], kva [T, HD], qb [T, NH * HD] (GM; they stay in L2)
#   T int >= 1 (tokens; the AIC GEMMs take at most 16 at a time, see UNROLL), H, QLR, HD int
#   multiples of 16 (16 * H * 2 and 16 * QLR * 2 at most half of L1), NH int >= 1, RD int, multiple of 16, <= min(HD, 512); TNH int = T * NH;
#   eps f32; b_trans int 0 / 1 (weights [N, K] instead of [K, N]).
#   Tuning knobs (issue 13 section 3; docs/mla-prolog.md "Knobs"; the shipped cases' values are
#   the kernel's defaults):
#   UNROLL int: the token-loop unroll list as a mask of chunk sizes (bit i: 2^i tokens; 16 =
#     chunks of 16, one for T <= 16; 15 = 8, 4, 2, 1; 8 = a single 8): the AIC GEMMs run the
#     tokens chunk by chunk, the largest listed size that fits the rest first, a rest below every
#     listed size as one padded chunk of the smallest; each chunk streams the weights again;
#   NBUF int 1 / 2: buffers of the AIV RoPE runs (2: the next run loads while one rotates);
#   XL1 int 1 / 0: x whole in L1 for the pass (reuse) / its [t, kc] slice re-loaded with
#     every weight chunk (lib/gemm_kn.inc KN_XRL);
#   KTA, NTA, KTB, NTB int: the cube tile of the W stream of q1_kv1 (A) and q3 (B): KT rows of
#     K per chunk (kL1 = kL0), NT columns per segment at most (nL1); 0: lib/gemm_kn.inc's default;
#   STAGES int: the stages this launch runs, a mask of 1 q1_kv1, 2 q2 + kv path, 4 q3, 8 q4 + q5
#     (15: the whole prolog in one launch; a launch sequence of 1, 2, 4, 8 runs one stage per
#     launch, the hand-offs then through GM between launches). Hand-offs inside a launch join
#     neighbouring stages that are both in the mask; the mask must be contiguous.
# Launch: AIC + AIV (mixed); any block_dim.
#
# Stages (the .semantic labels; the code of the stages kernels/mla_prolog_quant.s shares is in
# lib/mla_stages.inc) and hand-offs (cross-core flags, isa/sem/sync.h):
#   AIC mla.q1_kv1   x @ wq_a and x @ w_kv as one list of columns split over all AICs
#                    (lib/gemm_kn.inc) -> qa, kva in GM
#   AIC mla.qa_handoff  barrier over the AICs (cc 0, behind the last FixPipe write), then
#                    mode 2 id 1: this cluster's AIVs may read qa / kva (every AIV row needs
#                    every AIC's columns, hence the barrier first)
#   AIV mla.q2_norm  rows of qa -> qr (lib/rmsnorm_macros.inc, gamma_cq)
#   AIV mla.qr_handoff  barrier over the AIVs (cc 2), then mode 2 id 3 to this cluster's AIC
#   AIC mla.q3       streams the first stages of wq_b before it waits (cc 3, in MTE2: only the
#                    qr load waits), then qr @ wq_b -> qb
#   AIV mla.kv_norm, mla.kv_rope  (overlap q3) kva -> kv normalised, then RoPE in place
#   AIC mla.qb_handoff  barrier over the AICs (cc 4), mode 2 id 5 to the AIVs
#   AIV mla.q4_norm  qb as [T * NH, HD] rows, no gamma -> q; mla.q5_rope RoPE in place on q
#   (lib/mla_prolog.inc: each AIV rotates the rows it normalised, so no further hand-off)
# Numerics: as the golden: fp32 accumulation, one RNE per stage, the norms of rmsnorm.s
#   (variant A), RoPE bit-exact (lib/rope.inc).

.kernel mla_prolog
.param x, gm, bf16
.param wq_a, gm, bf16
.param gamma_cq, gm, bf16
.param wq_b, gm, bf16
.param w_kv, gm, bf16
.param gamma_ckv, gm, bf16
.param cos, gm, bf16
.param sin, gm, bf16
.param q, gm, bf16
.param kv, gm, bf16
.param qr, gm, bf16
.param qa, gm, bf16
.param kva, gm, bf16
.param qb, gm, bf16
.param T, int
.param H, int
.param QLR, int
.param NH, int
.param HD, int
.param RD, int
.param TNH, int
.param eps, f32
.param b_trans, int
.param UNROLL, int
.param NBUF, int
.param XL1, int
.param KTA, int
.param NTA, int
.param KTB, int
.param NTB, int
.param STAGES, int

.include "lib/quant_macros.inc"     # aiv_rows
.include "lib/rmsnorm_macros.inc"
.include "lib/mla_prolog.inc"
.include "lib/gemm_kn.inc"
.include "lib/mla_stages.inc"

# Branch to \L unless every stage bit of \M is in STAGES (temporary r25).
.macro mla_unless M, L
    ldp   r25, STAGES
    and   r25, r25, \M
    bne   r25, \M, \L
.endm

# AIC pass helpers (between the passes of lib/gemm_kn.inc, whose registers are then free for
# the kernel to set; temporaries r23 .. r31). The token chunk of a pass is read back from rY0.

# rM = the tokens of the chunk that starts at token \TOK (UNROLL: the largest listed size not
# above the rest, else the smallest listed size, which then covers the whole rest).
.macro mla_chunk TOK
    ldp   r25, T
    sub   r25, r25, \TOK            # the rest
    ldp   r26, UNROLL
    mov   r27, 16
    mov   rM, 0
ck\@:
    and   r28, r26, r27
    beq   r28, 0, cn\@
    mov   rM, r27
    bge   r25, r27, cd\@
cn\@:
    shr   r27, r27, 1
    bne   r27, 0, ck\@
cd\@:
    min   rM, rM, r25
    bne   rM, 0, ok\@
    kn_fault                        # UNROLL lists no size
ok\@:
.endm

# \D = &Y[\TOK, 0] of the tensor parameter Y with rows of \N elements.
.macro mla_rows D, Y, TOK, N
    mul   \D, \TOK, \N
    shl   \D, \D, 1
    ldp   r25, \Y
    add   \D, \D, r25
.endm

# r23 = the chunk's first token (from rY0 and the output parameter Y, rows of rN0 elements).
.macro mla_tok Y
    ldp   r23, \Y
    sub   r23, rY0, r23
    shl   r25, rN0, 1
    div   r23, r23, r25
.endm

# r26 = &X[the chunk's first token, 0] of the input parameter X (rows of rK elements).
.macro mla_x_rows X, Y
    mla_tok \Y
    mul   r26, r23, rK
    shl   r26, r26, 1
    ldp   r25, \X
    add   r26, r26, r25
.endm

# In the first chunk of q3, when q2 runs in this launch: wait (in MTE2) for qr (mla.qr_handoff).
.macro mla_qr_wait L
    mla_tok qb
    bne   r23, 0, \L
    mla_unless 6, \L
    cc_wait mte2, 3
\L:
.endm

# \TOK = the next chunk's first token; loop to \L while tokens are left.
.macro mla_next TOK, Y, L
    mla_tok \Y
    add   \TOK, r23, rM
    ldp   r25, T
    blt   \TOK, r25, \L
.endm

.aiv
.semantic mla.q2_norm
    mla_unless 2, v_q4
    mla_unless 3, v_q2
    cc_wait mte2, 1                 # qa / kva landed (mla.qa_handoff)
v_q2:
    mla_norm qa, gamma_cq_on, qr, T, QLR
.semantic mla.qr_handoff
    mla_unless 6, v_kvb
    aiv_handoff 2, 3
v_kv:
    mla_kv_stages
v_q4:
.semantic mla.q4_norm
    mla_unless 8, v_end
    mla_unless 12, v_q4n
    cc_wait mte2, 5                 # qb landed (mla.qb_handoff)
v_q4n:
    mla_q_tail
v_end:
    end
v_kvb:                              # (out of line: the one-launch path stays as it was)
    barrier all                     # no qr hand-off: kv_norm's flag presets follow q2's drain
    jmp   v_kv

.aic
.semantic mla.q1_kv1
    mla_unless 1, c_q3
    mov   r24, 0                    # the chunk's first token
c_q1:
    mla_chunk r24
    ldp   rK, H
    mla_mode
    ldp   rW0, wq_a
    ldp   rN0, QLR
    mla_rows rY0, qa, r24, rN0
    ldp   rW1, w_kv
    ldp   rN1, HD
    mla_rows rY1, kva, r24, rN1
    ldp   rSegW, NTA
    ldp   rKc, KTA
    kn_setup_tiles
    and   r25, rWt, KN_XRL
    bne   r25, 0, c_q1x
    kn_prologue
    mla_x_rows x, qa
    kn_load_x_from r26
    jmp   c_q1l
c_q1x:
    mla_x_rows x, qa
    kn_load_x_from r26
    kn_prologue
c_q1l:
    kn_loop
    kn_end
    mla_next r24, qa, c_q1
.semantic mla.qa_handoff
    mla_unless 3, c_q3
    mla_qa_handoff
c_q3:
.semantic mla.q3
    mla_unless 4, c_end
    mov   r24, 0
c_q3c:
    mla_chunk r24
    ldp   rK, QLR
    mla_mode
    mla_q3_w wq_b
    mla_rows rY0, qb, r24, rN0
    mov   rN1, 0
    ldp   rSegW, NTB
    ldp   rKc, KTB
    kn_setup_tiles
    and   r25, rWt, KN_XRL
    bne   r25, 0, c_q3x
    kn_prologue                     # wq_b streams while the AIVs normalise qa
    mla_qr_wait c_q3w
    mla_x_rows qr, qb
    kn_load_x_from r26
    jmp   c_q3l
c_q3x:
    mla_qr_wait c_q3v               # no reuse: the chunks need qr from the start
    mla_x_rows qr, qb
    kn_load_x_from r26
    kn_prologue
c_q3l:
    kn_loop
    kn_end
    mla_next r24, qb, c_q3c
.semantic mla.qb_handoff
    mla_unless 12, c_end
    mla_qb_handoff
c_end:
    end
