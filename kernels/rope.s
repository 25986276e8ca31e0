# rope.s -- interleaved-pair RoPE on the last `rope` dims of every D-wide segment of each row
# (the golden `rope`; kernels/lib/rope.inc, docs/mla-prolog.md). A building block of the
# MLAProlog, untuned: one segment at a time, barriers between the pipes.
#
# Params (in order):
#   x     gm bf16 [t, segs, D] (or [t, D] with segs = 1), row-major
#   cos   gm bf16 [t, rope]
#   sin   gm bf16 [t, rope]
#   y     gm bf16, shape of x (the first D - rope dims of each segment are copied from x)
#   units int = t * segs >= 1: the D-wide segments
#   segs  int >= 1 (segments per token)
#   D     int <= 49152 (a whole segment in UB, below lib/rope.inc's buffers)
#   rope  int, even, 2 <= rope <= min(D, 512)
#   use_vprot int 0/1  0: the pair swap through the DMA (2-byte bursts, lib/rope.inc);
#         1: the vprot instruction on the segment in UB (needs (D - rope) * 2 % 32 == 0)
# Launch: AIV only; any block_dim. The segments are split evenly over ALL AIVs (AIV i takes
#   [units*i/n, units*(i+1)/n); some may get none); cos / sin are gathered once per token an
#   AIV meets.
# Numerics: bit-exact with the golden (fp32 products, one fp32 add or subtract, one RNE).
# Buffers: UB [0, ROPE_BASE = 96 KiB) one bf16 segment (the copy of the pass-through dims);
#   lib/rope.inc above.

.kernel rope
.param x, gm, bf16
.param cos, gm, bf16
.param sin, gm, bf16
.param y, gm, bf16
.param units, int
.param segs, int
.param D, int
.param rope, int
.param use_vprot, int

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
.reg rU, r8        # this core's next segment (flat index over t * segs)
.reg rUEnd, r9
.reg rSegB, r10    # bytes of one segment
.reg rTok, r11     # token whose cos / sin are in UB (-1: none)
.reg rGx, r12
.reg rGy, r13
.reg rGc, r14
.reg rGs, r15
.reg rOff, r16     # byte offset of the rope dims in a segment
.reg rRot, r17     # use_vprot
.reg rRope, r18    # rope
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
    ldp   rRot, use_vprot
    mov   rRope, rN
    sub   rOff, rD, rN
    shl   rOff, rOff, 1
    shr   rN, rN, 1
    shl   rSegB, rD, 1                # bytes of one segment
    mov   rTok, -1
    aiv_rows units, rU, rUEnd, r20, r21, r22, r23, r24
next:
    bge   rU, rUEnd, finish
.semantic rope.copy
    mul   r20, rU, rSegB
    add   rGx, r20, rX
    add   rGy, r20, rY
    mov_gm_ub XROW, rGx, 1, rSegB, 0, 0, normal
    barrier mte2
    bne   rRot, 0, token              # vprot: rotate in UB, then store the segment once
    mov_ub_gm rGy, XROW, 1, rSegB, 0, 0, normal
    barrier mte3
token:
.semantic rope.token
    div   r21, rU, rSegs              # the segment's token
    beq   r21, rTok, rotate           # its cos / sin are in UB already
    mov   rTok, r21
    shl   r23, rN, 2                  # bytes of one cos / sin row (rope * 2)
    mul   r23, r23, rTok
    add   rGc, r23, rC
    add   rGs, r23, rS
    bne   rRot, 0, token_rot
    rope_token rGc, rGs, rN, r24
    jmp   rotate
token_rot:
    rope_token_rot rGc, rGs, rRope, r24
rotate:
    bne   rRot, 0, rotate_vprot
.semantic rope.rotate
    add   rGx, rGx, rOff
    add   rGy, rGy, rOff
    rope_segment rGx, rGy, rN, r24
    add   rU, rU, 1
    jmp   next
rotate_vprot:
    add   r25, rOff, XROW
    rope_rot r25, rRope
    mov_ub_gm rGy, XROW, 1, rSegB, 0, 0, normal
    barrier mte3
    add   rU, rU, 1
    jmp   next
finish:
    end
