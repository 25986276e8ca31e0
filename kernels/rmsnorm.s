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
# Numerics (NUMERICS.md AT-03): x32 = fp32(x); per element sq = (x32 * x32) * (1/D) in fp32,
#   summed per row in fp32 in blocks (b = 64/32/16 columns summed in order, then the block sums in order; chunks added in order); var = sum + eps;
#   rstd = vrsqrt(var) or 1 / vsqrt(var); y = x32 * rstd [* fp32(gamma)] [+ fp32(beta)];
#   one RNE cast to the output dtype.
#
# Buffers (UB, 192 KiB; C = min(D, 4096) columns per chunk, R rows per tile):
#   0x0000  ACC, PART, RSTD, ONES  fp32 [256] each (per-row sums, partial sums / var, rstd, 1.0)
#   0x1000  G32 fp32 [C], B32 fp32 [C], GST [C] and BST [C] (gamma / beta staging, x dtype)
#   then    XB [R, C] (x dtype), W32 [R, C] fp32, SQ [R, C] fp32, YB [R, C] (x dtype)
#   R = min(256, (192 KiB - 4 KiB - 12 C) / (12 C)).
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

.equ UB_BYTES, kib(192)
.equ CMAX, 4096            # columns per chunk
.equ RCAP, 256             # max rows per tile (size of the per-row vectors)
.equ ACC, 0
.equ PART, 1024
.equ RSTD, 2048
.equ ONES, 3072
.equ G32, 4096
.equ OPT_B, 1              # variant B (sqrt + div)
.equ OPT_GAMMA, 2
.equ OPT_BETA, 4
.equ OPT_RSTD, 8

.reg rXg, r1
.reg rGg, r2
.reg rBg, r3
.reg rYg, r4
.reg rRg, r5
.reg rD, r6
.reg rEps, r7
.reg rOpt, r8       # OPT_* bits
.reg rInvD, r9      # fp32 1/D
.reg rC, r10        # chunk columns
.reg rR, r11        # rows per tile
.reg rNch, r12      # chunks per row
.reg rRow, r13      # first row of the tile
.reg rEnd, r14      # end of this core's rows
.reg rRc, r15       # rows of the tile
.reg rCh, r16       # chunk index
.reg rC0, r17       # first column of the chunk
.reg rCc, r18       # columns of the chunk
.reg rXB, r19
.reg rW32, r20
.reg rSQ, r21
.reg rYB, r22
.reg rB32, r23
.reg rGST, r24
.reg rBST, r25
# temporaries: r26 .. r31

# Chunk geometry: rC0 = rCh * C, rCc = min(C, D - rC0).
.macro chunk_geom
    mul   rC0, rCh, rC
    sub   rCc, rD, rC0
    min   rCc, rCc, rC
.endm

# MTE2 loads the x chunk [rRc, rCc] of the tile into XB; VECTOR casts it to fp32 in W32.
.macro load_x DT
    mul   r26, rRow, rD
    add   r26, r26, rC0
    shl   r26, r26, 1
    add   r26, r26, rXg
    shl   r27, rCc, 1
    shl   r28, rD, 1
    shl   r29, rC, 1
    mul   r30, rRc, rC
    wait_flag vector, mte2, 0
    mov_gm_ub rXB, r26, rRc, r27, r28, r29, normal
    set_flag  mte2, vector, 0
    wait_flag mte2, vector, 0
    vcast.\DT.f32.rne rW32, rXB, r30
    set_flag  vector, mte2, 0
.endm

# Load a [rCc] chunk of a per-column vector (GM base \src) through staging \st (flag \id)
# and cast it to fp32 at \dst.
.macro load_vec DT, src, st, dst, id
    shl   r26, rC0, 1
    add   r26, r26, \src
    shl   r27, rCc, 1
    wait_flag vector, mte2, \id
    mov_gm_ub \st, r26, 1, r27, 0, 0, normal
    set_flag  mte2, vector, \id
    wait_flag mte2, vector, \id
    vcast.\DT.f32.rne \dst, \st, rCc
    set_flag  vector, mte2, \id
.endm

# gamma / beta chunk rCh -> G32 / B32 (each only if enabled).
.macro load_gamma_beta DT
    and   r31, rOpt, OPT_GAMMA
    beq   r31, 0, nog\@
    load_vec \DT, rGg, rGST, G32, 1
nog\@:
    and   r31, rOpt, OPT_BETA
    beq   r31, 0, nob\@
    load_vec \DT, rBg, rBST, rB32, 2
nob\@:
.endm

# Scale the fp32 chunk in W32 by rstd, gamma, beta; cast to DT and store it to y.
.macro scale_store DT
    shl   r29, rC, 2
    vrow.mul.f32 rW32, rW32, RSTD, rRc, rCc, r29
    and   r31, rOpt, OPT_GAMMA
    beq   r31, 0, sg\@
    vcol.mul.f32 rW32, rW32, G32, rRc, rCc, r29
sg\@:
    and   r31, rOpt, OPT_BETA
    beq   r31, 0, sb\@
    vcol.add.f32 rW32, rW32, rB32, rRc, rCc, r29
sb\@:
    mul   r30, rRc, rC
    wait_flag mte3, vector, 0
    vcast.f32.\DT.rne rYB, rW32, r30
    set_flag  vector, mte3, 0
    mul   r26, rRow, rD
    add   r26, r26, rC0
    shl   r26, r26, 1
    add   r26, r26, rYg
    shl   r27, rCc, 1
    shl   r28, rC, 1
    shl   r29, rD, 1
    wait_flag vector, mte3, 0
    mov_ub_gm r26, rYB, rRc, r27, r28, r29, normal
    set_flag  mte3, vector, 0
.endm

# The whole per-core loop for element type DT (bf16 or f16).
.macro rms_body DT
    # per-column vectors once, when the row is a single chunk
    bne   rNch, 1, tiles\@
    mov   rCh, 0
    chunk_geom
    load_gamma_beta \DT
tiles\@:
    bge   rRow, rEnd, done\@
    sub   rRc, rEnd, rRow
    min   rRc, rRc, rR
    # ---- pass 1: sum over the row of (x * x) * (1/D)
    vdup.f32 ACC, 0, rRc
    mov   rCh, 0
p1\@:
    chunk_geom
    load_x \DT
    mul   r30, rRc, rC
    shl   r29, rC, 2
    vmul.f32  rSQ, rW32, rW32, r30
    vmuls.f32 rSQ, rSQ, rInvD, r30
    # Blocked sum (accuracy: a sequential fp32 sum over 4096 columns drifts by ulps from the
    # golden's): b = 64, 32 or 16, the largest with rCc % b == 0 and C % (8 b) == 0 (the level-2
    # stride C / b * 4 bytes must be 32-byte aligned). Level 1 sums each b-column block in place
    # (SQ viewed as [rRc * C / b, b]); level 2 sums each row's rCc / b block sums in order.
    # No such b (e.g. D = 16): one sequential sum per row.
    mov   r26, 64
bk\@:
    sub   r27, r26, 1
    and   r27, rCc, r27
    bne   r27, 0, bn\@
    shl   r28, r26, 3
    sub   r28, r28, 1
    and   r28, rC, r28
    beq   r28, 0, bs\@
bn\@:
    shr   r26, r26, 1
    bge   r26, 16, bk\@
    vrsum.f32 PART, rSQ, rRc, rCc, r29
    jmp   be\@
bs\@:
    div   r27, rC, r26              # block slots per row (C / b)
    mul   r28, r27, rRc
    shl   r31, r26, 2
    vrsum.f32 rSQ, rSQ, r28, r26, r31
    div   r28, rCc, r26             # blocks of this chunk per row
    shl   r27, r27, 2
    vrsum.f32 PART, rSQ, rRc, r28, r27
be\@:
    vadd.f32  ACC, ACC, PART, rRc
    add   rCh, rCh, 1
    blt   rCh, rNch, p1\@
    # ---- rstd
    vadds.f32 PART, ACC, rEps, rRc
    and   r31, rOpt, OPT_RSTD
    beq   r31, 0, rf\@
    wait_flag mte3, vector, 1       # RSTD still being stored for the previous tile?
rf\@:
    and   r31, rOpt, OPT_B
    bne   r31, 0, vb\@
    vrsqrt.f32 RSTD, PART, rRc
    jmp   vd\@
vb\@:
    vsqrt.f32 PART, PART, rRc
    vdiv.f32  RSTD, ONES, PART, rRc
vd\@:
    and   r31, rOpt, OPT_RSTD
    beq   r31, 0, rd\@
    shl   r26, rRow, 2
    add   r26, r26, rRg
    shl   r27, rRc, 2
    set_flag  vector, mte3, 1
    wait_flag vector, mte3, 1
    mov_ub_gm r26, RSTD, 1, r27, 0, 0, normal
    set_flag  mte3, vector, 1
rd\@:
    # ---- pass 2: scale and store, chunk by chunk
    mov   rCh, 0
p2\@:
    chunk_geom
    beq   rNch, 1, p2s\@
    load_x \DT                      # long rows: read the chunk again
    load_gamma_beta \DT
p2s\@:
    scale_store \DT
    add   rCh, rCh, 1
    blt   rCh, rNch, p2\@
    add   rRow, rRow, rRc
    jmp   tiles\@
done\@:
.endm

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
    # rows of this AIV: [rows * i / n, rows * (i + 1) / n), i = block_idx * subblock_dim + subblock_idx
    getsr r26, block_idx
    getsr r27, subblock_dim
    getsr r28, subblock_idx
    getsr r29, block_dim
    mul   r26, r26, r27
    add   r26, r26, r28             # i
    mul   r29, r29, r27             # n
    ldp   r30, rows
    mul   rRow, r30, r26
    div   rRow, rRow, r29
    add   r26, r26, 1
    mul   rEnd, r30, r26
    div   rEnd, rEnd, r29
    # 1/D in fp32
    itof  r26, rD
    mov   r27, f32(1.0)
    fdiv  rInvD, r27, r26
    # chunking and buffer layout
    min   rC, rD, CMAX
    add   rNch, rD, rC
    sub   rNch, rNch, 1
    div   rNch, rNch, rC
    mul   r26, rC, 12               # bytes per tile element column set: 12 C
    mov   rR, UB_BYTES - G32
    sub   rR, rR, r26
    div   rR, rR, r26
    min   rR, rR, RCAP
    shl   r27, rC, 2
    add   rB32, r27, G32            # B32 = G32 + 4C
    add   rGST, rB32, r27           # GST = G32 + 8C
    shl   r28, rC, 1
    add   rBST, rGST, r28           # BST = G32 + 10C
    add   rXB, rBST, r28            # XB  = G32 + 12C
    mul   r29, rR, rC
    shl   r29, r29, 1               # R C * 2
    add   rW32, rXB, r29
    shl   r30, r29, 1               # R C * 4
    add   rSQ, rW32, r30
    add   rYB, rSQ, r30
    # presets: every buffer starts free
    set_flag vector, mte2, 0
    set_flag vector, mte2, 1
    set_flag vector, mte2, 2
    set_flag mte3, vector, 0
    set_flag mte3, vector, 1
    and   r31, rOpt, OPT_B
    beq   r31, 0, no_ones
    vdup.f32 ONES, f32(1.0), RCAP
no_ones:
    ldp   r26, is_f16
    bne   r26, 0, body_f16
    rms_body bf16
    jmp   finish
body_f16:
    rms_body f16
finish:
    wait_flag vector, mte2, 0
    wait_flag vector, mte2, 1
    wait_flag vector, mte2, 2
    wait_flag mte3, vector, 0
    wait_flag mte3, vector, 1
    end
