# mla_prolog_nz.s -- kernels/mla_prolog.s with the three weights kept in the fractal NZ layout in
# GM, as CANN's MlaProlog operators take them (aclnnMlaPrologV3WeightNz: "WeightDq, WeightUqQr
# and WeightDkvKr are passed in NZ format", CANN ops-transformer,
# attention/mla_prolog_v3/docs/aclnnMlaPrologV3WeightNz.md; converted once ahead of time, e.g.
# torch_npu's npu_format_cast).
# The program, the parameters and the numerics are mla_prolog.s's (lib/mla_prolog_main.inc,
# lib/mla_prolog_params.inc); only the weight loads differ (lib/gemm_kn.inc, KN_NZ):
#   [K, N] (b_trans 0): a W chunk [kc, wd] is wd / 16 column blocks of kc rows, each kc x 32
#     contiguous bytes in GM (K x 32 apart): one burst per block, no ND -> NZ conversion, and
#     bursts of a whole block column instead of ND's rows of wd x 2 bytes;
#   [N, K] (b_trans 1): a chunk [wd, kc] is kc / 16 blocks of wd rows, wd x 32 bytes each.
# L1 holds the chunk NZ (its C0 stride kc x 32, [N, K]: wd x 32) and the cube's tile loads read
# it with `nz` (docs/isa.md "Fractal formats"): L0A / L0B, and so every output, are the same
# bits as mla_prolog.s's.
#
# Params: as mla_prolog.s's, but wq_a, wq_b and w_kv are declared `nz`: the case gives their
# values (the logical [K, N] or, b_trans, [N, K] matrices) and `npusim run` stores them as 32-byte
# column blocks of ceil16(rows) rows each. The golden is mla_prolog.s's.
# Launch: AIC + AIV (mixed); any block_dim.

.kernel mla_prolog_nz
.include "lib/mla_prolog_params.inc"
mla_prolog_params nz
.equ MLA_WNZ, 1
.include "lib/mla_prolog_main.inc"
