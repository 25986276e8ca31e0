# rope.s -- interleaved-pair RoPE on the last `rope` dims of every D-wide segment of each row
# (the golden `rope`; kernels/lib/rope.inc, docs/mla-prolog.md). A building block of the
# MLAProlog, unhurried: one segment at a time, barriers between the pipes.
#
# Params (in order):
#   x     gm bf16 [t, segs, D] (or [t, D] with segs = 1), row-major
#   cos   gm bf16 [t, rope]
#   sin   gm bf16 [t, rope]
#   y     gm bf16, shape of x (the first D - rope dims of each segment are copied from x)
#   t     int >= 1
#   segs  int >= 1
#   D     int, segs * D <= 49152 (a whole row in UB, below lib/rope.inc's buffers)
#   rope  int, even, 2 <= rope <= min(D, 512)
# Launch: AIV only; any block_dim. Rows split evenly over ALL AIVs (some may get none).
# Numerics: bit-exact with the golden (fp32 products, one fp32 add or subtract, one RNE).
# Buffers: UB [0, ROPE_BASE = 96 KiB) one bf16 row (the copy of the pass-through dims);
#   lib/rope.inc above.

.kernel rope
.param x, gm, bf16
.param cos, gm, bf16
.param sin, gm, bf16
.param y, gm, bf16
.param t, int
.param segs, int
.param D, int
.param rope, int

.include "lib/quant_macros.inc"     # aiv_rows
.include "lib/rope.inc"

.equ XROW, 0

.reg rX, r1
.reg rC, r2
.reg rS, r3
.reg rY, r4
.reg rSegs, r5
.reg rD, r6
.reg rN, r7        # pairs: rope / 2
.reg rRow, r8
.reg rEnd, r9
.reg rRowB, r10    # bytes of one row
.reg rSeg, r11
.reg rGx, r12
.reg rGy, r13
.reg rGc, r14
.reg rGs, r15
.reg rOff, r16     # byte offset of the rope dims in a segment
# temporaries: r20 .. r27

.aiv
.semantic rope.setup
    ldp   rX, x
    ldp   rC, cos
    ldp   rS, sin
    ldp   rY, y
    ldp   rSegs, segs
    ldp   rD, D
    ldp   rN, rope
    sub   rOff, rD, rN
    shl   rOff, rOff, 1
    shr   rN, rN, 1
    mul   rRowB, rSegs, rD
    shl   rRowB, rRowB, 1
    aiv_rows t, rRow, rEnd, r20, r21, r22, r23, r24
rows:
    bge   rRow, rEnd, finish
.semantic rope.copy
    mul   r20, rRow, rRowB
    add   r21, r20, rX
    mov_gm_ub XROW, r21, 1, rRowB, 0, 0, normal
    barrier mte2
    add   r22, r20, rY
    mov_ub_gm r22, XROW, 1, rRowB, 0, 0, normal
    barrier mte3
.semantic rope.token
    shl   r23, rN, 2                  # bytes of one cos / sin row (rope * 2)
    mul   r23, r23, rRow
    add   rGc, r23, rC
    add   rGs, r23, rS
    rope_token rGc, rGs, rN, r24
.semantic rope.rotate
    add   rGx, r21, rOff
    add   rGy, r22, rOff
    mov   rSeg, 0
segs:
    rope_segment rGx, rGy, rN, r24
    shl   r25, rD, 1
    add   rGx, rGx, r25
    add   rGy, rGy, r25
    add   rSeg, rSeg, 1
    blt   rSeg, rSegs, segs
    add   rRow, rRow, 1
    jmp   rows
finish:
    end
