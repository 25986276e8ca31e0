# mla_prolog_quant.s -- MLAPrologQuant (issue 13: the quantised SK-04 MLAProlog; the golden
# `mla_prolog_quant`, docs/mla-prolog.md) in one launch. As kernels/mla_prolog.s, but q3 is
# int8:
#   q path:  qa = bf16(x @ wq_a) -> qr = bf16(RMSNorm(qa) * gamma_cq)
#            -> qr_q, qr_scale = per-token int8 of qr (AT-05; outputs, qr itself is not stored)
#            -> acc = qr_q @ wq_b (int8 x int8 -> int32) -> qb = bf16(fp32(acc) * qr_scale[t]
#               * wq_b_scale[n]) (AT-06) -> per head bf16(RMSNorm(qb_head)) -> RoPE
#   kv path: as mla_prolog.s (bf16)
#
# Params (in order):
#   x gm bf16 [T, H]; wq_a bf16 [H, QLR] (b_trans: [QLR, H]); gamma_cq bf16 [QLR];
#   wq_b s8 [QLR, NH * HD] (b_trans: [NH * HD, QLR]), quantised per output channel;
#   wq_b_scale f32 [NH * HD] (its dequant scale); w_kv bf16 [H, HD] (b_trans: [HD, H]);
#   gamma_ckv bf16 [HD]; cos, sin bf16 [T, RD];
#   outputs q bf16 [T, NH, HD], kv bf16 [T, HD], qr_q s8 [T, QLR], qr_scale f32 [T];
#   workspaces (GM; they stay in L2) qa bf16 [T, QLR], kva bf16 [T, HD], qb_acc s32 [T, NH * HD],
#   qb bf16 [T, NH * HD];
#   T int 1 .. 16, H, HD multiples of 16, QLR a multiple of 32 (int8 L1 columns and k0.s8),
#   QLR <= 4096 (one RMSNorm chunk), NH >= 1, RD a multiple of 16, <= min(HD, 512), HD <= 8192;
#   TNH = T * NH; NHD = NH * HD; eps f32; b_trans 0 / 1 (all weights [N, K] instead of [K, N];
#   another value faults, lib/gemm_kn.inc kn_check_bit);
#   Knobs as mla_prolog.s's (docs/mla-prolog.md "Knobs"; the cases' values are the defaults):
#   NBUF 1 / 2 (RoPE run buffers), XL1 1 / 0 (x whole in L1 / re-loaded with every chunk), KTA,
#   NTA, KTB, NTB (the cube tiles of q1_kv1 and q3; 0: lib/gemm_kn.inc's default; KTB and NTB
#   multiples of 32 for the int8 q3).
# Launch: AIC + AIV (mixed); any block_dim.
#
# Where the rounding happens (the golden follows the same choices): qr is rounded to bf16 once,
#   as in the bf16 prolog, and quantised from those bf16 values (as AT-11 does: the fp32 norm
#   may differ from the golden's by an ulp, the bf16 rounding absorbs it); acc is exact (|acc|
#   <= 127 * 128 * QLR < 2^31, and fp32(acc) is exact up to 2^24); dequant multiplies in fp32
#   left to right, the per-token scale first, and rounds once to bf16 qb, which the per-head
#   RMSNorm reads as the bf16 prolog reads its qb.
#
# Stages (the .semantic labels) and hand-offs (cross-core flags as mla_prolog.s):
#   AIC mla.q1_kv1, mla.qa_handoff   as mla_prolog.s in one token chunk (lib/mla_stages.inc)
#   AIV mla.q2_quant  rows of qa -> RMSNorm * gamma_cq, bf16, amax, scales, int8 -> qr_q,
#                     qr_scale (lib/rmsnorm_quant.inc, as AT-11's first stage)
#   AIV mla.qr_handoff  barrier over the AIVs (cc 2), then mode 2 id 3 to this cluster's AIC
#   AIC mla.q3_int8   streams the first stages of wq_b (int8) before it waits (cc 3), then
#                     qr_q @ wq_b -> int32 qb_acc (lib/gemm_kn.inc, E = 0)
#   AIV mla.kv_norm, mla.kv_rope  (overlap q3) as mla_prolog.s
#   AIC mla.qb_handoff  barrier over the AICs (cc 4), mode 2 id 5 to the AIVs
#   AIV mla.q3_dequant  this AIV's columns of qb_acc -> bf16 qb (lib/mla_quant.inc), then a
#                     barrier over the AIVs (cc 6)
#   AIV mla.q4_norm, mla.q5_rope  qb as [T * NH, HD] rows -> q, as mla_prolog.s

.kernel mla_prolog_quant
.include "lib/mla_prolog_params.inc"
mla_prolog_quant_params nd
.equ MLA_WNZ, 0
.include "lib/mla_prolog_quant_main.inc"
