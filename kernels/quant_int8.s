# quant_int8.s -- AT-05 per-token symmetric int8 quantisation of bf16 or fp32 rows.
#
# Params (in order):
#   x       gm [M, K]  bf16 (x_f32 = 0) or fp32 (x_f32 = 1), row-major
#   q       gm [M, K]  s8 output
#   scale   gm [M]     fp32 output: the dequant scale scale_deq = 1 / scale_q per row
#   M       int >= 1   any value (tails are handled)
#   K       int >= 1   any value (rows longer than 4096 go in chunks, two passes)
#   x_f32   int 0/1    element type of x
# Launch: AIV only; any block_dim. The rows are split evenly over ALL AIVs of the launch
#   (block_dim * subblock_dim cores; AIV i takes rows [M*i/n, M*(i+1)/n)), so some may get none.
#
# Numerics (docs/numerics.md AT-05; the macros of lib/quant_macros.inc): amax = max |x| per
#   row; scale_q = 127 / amax (fp32); q = sat_int8(rne(fp32(x) * scale_q)); scale_deq =
#   1 / scale_q. amax = 0 rows give q = 0 and scale 0 (127 / 0 = Inf, 0 * Inf = NaN -> 0,
#   1 / Inf = 0; see the macros). Bit-exact with the golden quant_per_token.
#
# Buffers (UB, 192 KiB; C = min(K, 4096) columns per chunk, pitch P = C rounded up to 32,
#   es = 2 or 4 bytes per x element, R rows per tile):
#   0x0000 AMAX fp32 [256]   0x0400 PART fp32 [256] (chunk amax)   0x0800 STAGE bf16 [256]
#   0x0c00 SCQ fp32 [256]    0x1000 SCD fp32 [256]                 0x1400 C127 fp32 [256]
#   0x1800 XB0, XB1 [R, P] x dtype (double-buffered loads), X32 [R, P] fp32, QB0, QB1 [R, P] s8
#   R = min(256, (192 KiB - 6 KiB) / ((2 es + 6) P), max(ceil(rows / 4), 8 KiB of x rows)), rows =
#   this core's rows (about 4 steps per core when rows are long); bf16 K = 4096: R <= 4.
#   K <= 4096: one chunk per row: x is read once. K > 4096: per tile, pass 1 reads the chunks
#   and keeps the running amax; pass 2 reads them again, scales, casts and stores q.
#   Consecutive steps (a tile's chunk in either pass) alternate XB0/QB0 and XB1/QB1, so the
#   next load and the last store overlap the vector work.
# Sync (set_flag/wait_flag):
#   MTE2 -> VECTOR b   XB<b> loaded       VECTOR -> MTE2 b   XB<b> free (preset)   b = 0, 1
#   VECTOR -> MTE3 b   QB<b> ready        MTE3 -> VECTOR b   QB<b> free (preset)
#   VECTOR -> MTE3 2   SCD ready          MTE3 -> VECTOR 2   SCD free (preset)
# Labels: quant.setup, quant.amax (loads and the amax), quant.scale (scale_q, scale_deq and
#   its store), quant.apply (x * scale_q, the int8 cast, the q store).

.kernel quant_int8
.param x, gm
.param q, gm, s8
.param scale, gm, f32
.param M, int
.param K, int
.param x_f32, int

.include "lib/quant_macros.inc"

.equ UB_BYTES, CFG_UB_BYTES     # the target config's UB (docs/kernels.md)
.equ CMAX, 4096            # columns per chunk
.equ RCAP, 256             # max rows per tile (size of the per-row vectors)
.equ AMAX, 0x0000
.equ PART, 0x0400
.equ STAGE, 0x0800
.equ SCQ, 0x0c00
.equ SCD, 0x1000
.equ C127, 0x1400
.equ TILES, 0x1800
.equ STEP_BYTES, kib(8)    # smallest x tile worth its own step (8 KiB measured best of 8, 16, 32)

.reg rXg, r1
.reg rQg, r2
.reg rSg, r3
.reg rK, r4
.reg rEs, r5        # bytes per x element
row_tile_regs r6, r7, r8, r9, r10, r11, r12, r13, r14   # rP .. rCc
.reg rXB0, r15
.reg rXB1, r16
.reg rX32, r17
.reg rQB0, r18
.reg rQB1, r19
.reg rStep, r20     # steps so far: buffer pair rStep & 1
# temporaries: r21 .. r31

# rC0 = rCh * CMAX, rCc = min(CMAX, K - rC0).
.macro chunk_geom
    chunk_cols rCh, rK, CMAX, rC0, rCc
.endm

# MTE2: the chunk [rRc, rCc] at (rRow, rC0) of x -> XB<B>.
.macro load_x B
    mul   r21, rRow, rK
    add   r21, r21, rC0
    mul   r21, r21, rEs
    add   r21, r21, rXg
    mul   r22, rCc, rEs
    mul   r23, rK, rEs
    mul   r24, rP, rEs
    wait_flag vector, mte2, \B
    mov_gm_ub rXB\B, r21, rRc, r22, r23, r24, normal
    set_flag  mte2, vector, \B
.endm

# VECTOR: per-row amax of XB<B> (after its load) into \dst; X32 is the |x| scratch (free: the
# vector pipe is in order, and it is rewritten after the amax).
.macro amax_x DT, B, dst
    wait_flag mte2, vector, \B
    mul   r25, rP, rEs
    mul   r26, rRc, rP
    quant_amax_\DT \dst, STAGE, rX32, rXB\B, rRc, rCc, r25, r26
.endm

# The fp32 source of quant_apply: bf16 is widened into X32 (XB<B> free at once); fp32 is read
# from XB<B> itself (free after quant_apply).
.macro widen_bf16 B
    mul   r26, rRc, rP
    vcast.bf16.f32.rne rX32, rXB\B, r26
    set_flag  vector, mte2, \B
.endm
.macro widen_f32 B
.endm
.macro apply_bf16 B
    quant_apply rQB\B, rX32, rX32, SCQ, rRc, rCc, r27, r26
.endm
.macro apply_f32 B
    mul   r26, rRc, rP
    quant_apply rQB\B, rX32, rXB\B, SCQ, rRc, rCc, r27, r26
    set_flag  vector, mte2, \B
.endm

# x * scale_q -> int8 in QB<B>, then MTE3 stores the q chunk.
.macro apply_store DT, B
.semantic quant.apply
    shl   r27, rP, 2
    widen_\DT \B
    wait_flag mte3, vector, \B
    apply_\DT \B
    set_flag  vector, mte3, \B
    mul   r21, rRow, rK
    add   r21, r21, rC0
    add   r21, r21, rQg
    wait_flag vector, mte3, \B
    mov_ub_gm r21, rQB\B, rRc, rCc, rP, rK, normal
    set_flag  mte3, vector, \B
.endm

# scale_q from AMAX; scale_deq stored to scale[rRow ..].
.macro scales
.semantic quant.scale
    quant_scale_q SCQ, C127, AMAX, rRc
    wait_flag mte3, vector, 2
    quant_scale_deq SCD, SCQ, rRc
    set_flag  vector, mte3, 2
    shl   r21, rRow, 2
    add   r21, r21, rSg
    shl   r22, rRc, 2
    wait_flag vector, mte3, 2
    mov_ub_gm r21, SCD, 1, r22, 0, 0, normal
    set_flag  mte3, vector, 2
.endm

# The steps; B = buffer pair.
.macro single_step DT, B        # a whole row per chunk: load, amax, scales, apply
.semantic quant.amax
    load_x \B
    amax_x \DT, \B, AMAX
    scales
    apply_store \DT, \B
.endm
.macro pass1_step DT, B         # long rows, pass 1: the chunk's amax into the running AMAX
.semantic quant.amax
    load_x \B
    amax_x \DT, \B, PART
    set_flag  vector, mte2, \B
    quant_amax_merge AMAX, PART, rRc
.endm
.macro pass2_step DT, B         # long rows, pass 2: load the chunk again and apply
.semantic quant.amax
    load_x \B
    wait_flag mte2, vector, \B
    apply_store \DT, \B
.endm

# One step of kind KIND on the buffer pair rStep & 1.
.macro step KIND, DT
    and   r28, rStep, 1
    bne   r28, 0, s1\@
    \KIND \DT, 0
    jmp   se\@
s1\@:
    \KIND \DT, 1
se\@:
    add   rStep, rStep, 1
.endm

# The per-core loop for element type DT (bf16 or f32).
.macro q_body DT
tiles\@:
    bge   rRow, rEnd, done\@
    sub   rRc, rEnd, rRow
    min   rRc, rRc, rR
    mov   rCh, 0
    bne   rNch, 1, long\@
    chunk_geom
    step  single_step, \DT
    jmp   next\@
long\@:
.semantic quant.amax
    vdup.f32 AMAX, 0, rRc
p1\@:
    chunk_geom
    step  pass1_step, \DT
    add   rCh, rCh, 1
    blt   rCh, rNch, p1\@
    scales
    mov   rCh, 0
p2\@:
    chunk_geom
    step  pass2_step, \DT
    add   rCh, rCh, 1
    blt   rCh, rNch, p2\@
next\@:
    add   rRow, rRow, rRc
    jmp   tiles\@
done\@:
.endm

.aiv
.semantic quant.setup
    ldp   rXg, x
    ldp   rQg, q
    ldp   rSg, scale
    ldp   rK, K
    ldp   r21, x_f32
    mov   rEs, 2
    beq   r21, 0, es_ok
    mov   rEs, 4
es_ok:
    aiv_rows M, rRow, rEnd, r21, r22, r23, r24, r25
    chunk_layout rK, CMAX, rNch, rP, r21
    # R = min(RCAP, (UB_BYTES - TILES) / ((2 es + 6) P))
    shl   r22, rEs, 1
    add   r22, r22, 6
    mul   r22, r22, rP
    mov   rR, UB_BYTES - TILES
    div   rR, rR, r22
    min   rR, rR, RCAP
    mul   r23, rP, rEs
    cap_tile_rows rR, rRow, rEnd, r23, STEP_BYTES, r22, r24
    # XB0, XB1 (R P es each), X32 (4 R P), QB0, QB1 (R P each)
    mul   r23, rR, rP
    mul   r24, r23, rEs
    mov   rXB0, TILES
    add   rXB1, rXB0, r24
    add   rX32, rXB1, r24
    shl   r25, r23, 2
    add   rQB0, rX32, r25
    add   rQB1, rQB0, r23
    # presets: every buffer starts free
    set_flag vector, mte2, 0
    set_flag vector, mte2, 1
    set_flag mte3, vector, 0
    set_flag mte3, vector, 1
    set_flag mte3, vector, 2
    quant_consts C127, RCAP
    mov   rStep, 0
    ldp   r21, x_f32
    bne   r21, 0, body_f32
    q_body bf16
    jmp   finish
body_f32:
    q_body f32
finish:
.semantic quant.setup
    wait_flag vector, mte2, 0
    wait_flag vector, mte2, 1
    wait_flag mte3, vector, 0
    wait_flag mte3, vector, 1
    wait_flag mte3, vector, 2
    end
