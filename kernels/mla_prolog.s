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
#   T int 1 .. 16 (tokens), H, QLR, HD int multiples of 16 (16 * H * 2 and 16 * QLR * 2 at most
#   half of L1), NH int >= 1, RD int, multiple of 16, <= min(HD, 512); TNH int = T * NH;
#   eps f32; b_trans int 0 / 1 (weights [N, K] instead of [K, N]).
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

.include "lib/quant_macros.inc"     # aiv_rows
.include "lib/rmsnorm_macros.inc"
.include "lib/mla_prolog.inc"
.include "lib/gemm_kn.inc"
.include "lib/mla_stages.inc"

.aiv
.semantic mla.q2_norm
    cc_wait mte2, 1                 # qa / kva landed (mla.qa_handoff)
    mla_norm qa, gamma_cq_on, qr, T, QLR
.semantic mla.qr_handoff
    aiv_handoff 2, 3
    mla_kv_stages
.semantic mla.q4_norm
    cc_wait mte2, 5                 # qb landed (mla.qb_handoff)
    mla_q_tail
    end

.aic
    mla_q1_kv1
.semantic mla.q3
    mla_q3_regs wq_b, qb
    kn_setup
    kn_prologue                     # wq_b streams while the AIVs normalise qa
    cc_wait mte2, 3                 # qr landed (mla.qr_handoff)
    kn_load_x qr
    kn_loop
    kn_end
    mla_qb_handoff
    end
