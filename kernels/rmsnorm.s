# rmsnorm.s -- AT-03 RMSNorm: y = x * rstd(x) [* gamma] [+ beta], fp32 inside, RNE to the x dtype.
#
# Params (in order):
#   x          gm [rows, D]  bf16 (or fp16 with is_f16 = 1), row-major
#   gamma      gm [D]        same dtype as x; read only when has_gamma = 1 (else pass any value, e.g. 0)
#   beta       gm [D]        same dtype as x; read only when has_beta = 1 (else any value)
#   y          gm [rows, D]  output, dtype of x
#   rstd       gm f32 [rows] (or [rows, 1]); written only when out_rstd = 1 (else any value)
#   rows       int >= 1      any value (tails are handled)
#   D          int >= 16     multiple of 16; any size (rows longer than 4096 go in chunks)
#   eps        f32           e.g. 1e-6
#   variant    int           0 = rsqrt (AT-03 A), 1 = sqrt then 1/s with a vector divide (B)
#   has_gamma  int 0/1
#   has_beta   int 0/1
#   out_rstd   int 0/1
#   is_f16     int 0/1       0: x/gamma/beta/y are bf16; 1: fp16
# Launch: AIV only; any block_dim. The rows are split evenly over ALL AIVs of the launch
#   (block_dim * subblock_dim cores; AIV i takes rows [rows*i/n, rows*(i+1)/n)), so some AIVs may
#   get no row.
#
# Numerics (docs/numerics.md AT-03): x32 = fp32(x); per element sq = (x32 * x32) * (1/D) in fp32,
#   summed per row in fp32 in blocks (per chunk: the tail columns in order, then b = 64/32/16
#   columns per block in order, then the block sums in groups of 8, in order; chunks in order; see
#   lib/rmsnorm_macros.inc and docs/kernels.md section 2); var = sum + eps;
#   rstd = vrsqrt(var) or 1 / vsqrt(var); y = x32 * rstd [* fp32(gamma)] [+ fp32(beta)];
#   one RNE cast to the output dtype.
#
# Buffers (UB, 192 KiB; C = min(D, 4096) columns per chunk, row pitch P >= C, R rows per tile):
#   0x0000  ACC, PART, RSTD, ONES  fp32 [256] each (per-row sums, partial sums / var, rstd, 1.0)
#   0x1000  G32 fp32 [C], B32 fp32 [C], GST [C] and BST [C] (gamma / beta staging, x dtype)
#   then    XB [R, P] (x dtype), W32 [R, P] fp32, SQ [R, P] fp32, YB [R, P] (x dtype)
#   P = C if C % 128 == 0, else C rounded up to a multiple of 128 (C <= 1024), 256 (C <= 2048)
#   or 512; R = min(256, (192 KiB - 4 KiB - 12 C) / (12 P)).
#   D <= 4096: one chunk, x is read once and gamma/beta are loaded once per core.
#   D >  4096: two passes per tile (sum of squares over all chunks, then scale each chunk),
#   re-reading x and gamma/beta chunk by chunk.
# Sync (set_flag/wait_flag):
#   MTE2 -> VECTOR 0/1/2  XB / GST / BST loaded    VECTOR -> MTE2 0/1/2  XB / GST / BST free (preset)
#   VECTOR -> MTE3 0/1    YB / RSTD ready          MTE3 -> VECTOR 0/1    YB / RSTD free (preset)

.kernel rmsnorm
.param x, gm
.param gamma, gm
.param beta, gm
.param y, gm
.param rstd, gm
.param rows, int
.param D, int
.param eps, f32
.param variant, int
.param has_gamma, int
.param has_beta, int
.param out_rstd, int
.param is_f16, int

.include "lib/rmsnorm_macros.inc"   # UB layout and the AIV-stage macros

.aiv
.semantic rmsnorm
    ldp   rXg, x
    ldp   rGg, gamma
    ldp   rBg, beta
    ldp   rYg, y
    ldp   rRg, rstd
    ldp   rD, D
    ldp   rEps, eps
    # option bits
    ldp   rOpt, variant
    and   rOpt, rOpt, 1
    ldp   r26, has_gamma
    beq   r26, 0, o1
    or    rOpt, rOpt, OPT_GAMMA
o1:
    ldp   r26, has_beta
    beq   r26, 0, o2
    or    rOpt, rOpt, OPT_BETA
o2:
    ldp   r26, out_rstd
    beq   r26, 0, o3
    or    rOpt, rOpt, OPT_RSTD
o3:
    rms_setup rows
    ldp   r26, is_f16
    bne   r26, 0, body_f16
    rms_body bf16
    jmp   finish
body_f16:
    rms_body f16
finish:
    rms_drain
    end
