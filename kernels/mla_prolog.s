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
#   eps f32; b_trans int 0 / 1 (weights [N, K] instead of [K, N]; another value faults at the
#   check in lib/gemm_kn.inc, kn_check_bit).
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
.include "lib/mla_prolog_params.inc"
mla_prolog_params nd
.equ MLA_WNZ, 0
.include "lib/mla_prolog_main.inc"
