# mla_prolog_quant_nz.s -- kernels/mla_prolog_quant.s with the three weights kept in the fractal
# NZ layout in GM, as CANN's MlaProlog operators take them, int8 weightUqQr included
# (aclnnMlaPrologV3WeightNz, CANN ops-transformer attention/mla_prolog_v3/docs; the source
# kernels/mla_prolog_nz.s cites). The program,
# the parameters and the numerics are mla_prolog_quant.s's (lib/mla_prolog_quant_main.inc,
# lib/mla_prolog_params.inc); only the weight loads differ (lib/gemm_kn.inc, KN_NZ): a chunk is
# one burst per 32-byte column block (16 bf16 or 32 int8 columns) instead of ND rows converted
# to NZ on the way into L1 (mov_gm_l1_nz). L0A / L0B, and so every output, are the same bits as
# mla_prolog_quant.s's (kernels/mla_prolog_nz.s describes the two layouts' chunks).
#
# Params: as mla_prolog_quant.s's, but wq_a, wq_b and w_kv are declared `nz`: the case gives
# their values (the logical [K, N] or, b_trans, [N, K] matrices) and `npusim run` stores them as
# 32-byte column blocks of ceil16(rows) rows each. The golden is mla_prolog_quant.s's.
# Launch: AIC + AIV (mixed); any block_dim.

.kernel mla_prolog_quant_nz
.include "lib/mla_prolog_params.inc"
mla_prolog_quant_params nz
.equ MLA_WNZ, 1
.include "lib/mla_prolog_quant_main.inc"
