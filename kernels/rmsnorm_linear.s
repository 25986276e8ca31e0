# rmsnorm_linear.s -- AT-10 RMSNorm + Linear (V -> C) in one launch:
#   xn = bf16_rne(RMSNorm(x, gamma, eps))          (AIVs, fp32 inside, into the GM workspace xn)
#   y  = bf16_rne(xn[M, K] . W[N, K]^T)             (AICs, fp32 accumulation in L0C)
#
# Params (in order):
#   x        gm bf16 [M, K]   activations
#   gamma    gm bf16 [K]      RMSNorm weight
#   w        gm bf16 [N, K], nz  projection weight (b_trans), kept NZ in GM (docs/isa.md "Fractal formats")
#   y        gm bf16 [M, N]   output
#   xn       gm bf16 [M, K]   workspace: the normalised activations (also a useful debug output)
#   M        int >= 1         any value
#   K        int >= 16        multiple of 16 (the RMSNorm width D)
#   N        int >= 16        multiple of 16
#   eps      f32              e.g. 1e-6
#   variant  int              0 = rsqrt, 1 = sqrt + div (AT-03 variants)
# Launch: AIC + AIV (mixed); any block_dim (1 .. chip.clusters). The M rows are split evenly over
#   ALL block_dim * 2 AIVs; the output blocks of y are dealt round-robin to the block_dim AICs
#   exactly as in linear.s (same units, blocks, tiling and chunk order; see its header).
#
# Stages and hand-off (cross-core flags, isa/sem/sync.h):
#   1. AIV "rmsnorm": as rmsnorm.s with has_gamma = 1, bf16, no beta, no rstd; rows -> xn.
#   2. AIV "handoff": cc_set MTE3 mode 0 id 0 (queued behind the last xn store, so it fires when
#      this AIV's rows have landed) is a barrier over every AIV of the launch; each AIV waits for
#      it (cc_wait id 0) and then sets mode 2 id 1: once both AIVs of a cluster have set, that
#      cluster's AIC gains one on flag 1. Every AIC needs every row of xn, which is why the
#      barrier comes first: a mode-2 set alone would only say "my cluster's rows are done".
#   3. AIC "linear": MTE2 streams the W parts of the first S - 1 L1 stages at once (overlapping
#      stage 1), then cc_wait id 1 (in MTE2, so only xn loads wait), loads the xn parts of those
#      stages, then runs the pipeline of linear.s (kernels/lib/gemm_aic.inc, the same code).
# Cache policy: x, gamma normal; xn normal (written by the AIVs, read back at once by every
#   AIC: it should stay in L2); W none_cacheable when M <= 128 (each W row is read by exactly one
#   AIC, once: keeping it would only evict xn), normal when M > 128 (re-read per 128-row block).

.kernel rmsnorm_linear
.param x, gm, bf16
.param gamma, gm, bf16
.param w, gm, bf16, nz
.param y, gm, bf16
.param xn, gm, bf16
.param M, int
.param K, int
.param N, int
.param eps, f32
.param variant, int

# ================================================================ AIV stage (RMSNorm)
.include "lib/rmsnorm_macros.inc"   # UB layout and the AIV-stage macros (as kernels/rmsnorm.s)


# ---------------------------------------------------------------- AIC stage (Linear)
.equ GEMM_ESH, 1            # bf16 xn and W
.equ GEMM_YSH, 1            # bf16 y
.equ GEMM_L1_RESERVED, 0
.include "lib/gemm_aic.inc" # the pipeline of linear.s (kernels/lib/gemm_aic.inc)

.aiv
.semantic rmsnorm
    ldp   rXg, x
    ldp   rGg, gamma
    ldp   rYg, xn
    mov   rBg, 0                    # no beta
    mov   rRg, 0                    # no rstd output
    ldp   rD, K
    ldp   rEps, eps
    ldp   rOpt, variant
    and   rOpt, rOpt, 1
    or    rOpt, rOpt, OPT_GAMMA
    rms_setup M
    rms_body bf16
    rms_drain
.semantic handoff
    aiv_handoff 0, 1                # barrier over all AIVs, then this cluster's AIC may read xn
    end

# ================================================================ AIC stage (Linear)
.aic
.semantic linear
    gemm_setup idle
    gemm_prologue_after 1, xn, gemm_nohook   # W streams while the AIVs normalise
    gemm_loop xn, y, bf16, gemm_fix_bf16, gemm_nohook
    end
idle:
    cc_wait   mte2, 1               # consume the hand-off even without work
    end
