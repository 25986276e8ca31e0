# row_softmax.s -- y = softmax(x) along each row: a user kernel checked from Python
# (docs/python.md, test_row_softmax.py). bf16 in and out, fp32 inside; one AIV does it all.
#   x  gm bf16 [rows, cols]    y  gm bf16 [rows, cols]
#   rows * cols * 4 bytes must fit the fp32 tile (below); cols a multiple of 16.
.kernel row_softmax
.param x, gm, bf16
.param y, gm, bf16
.param rows, int
.param cols, int

.equ XB,  0x00000      # bf16 [rows, cols]: x, then y
.equ X32, 0x08000      # fp32 [rows, cols]
.equ MAX, 0x28000      # fp32 [rows]: row maxima
.equ SUM, 0x28400      # fp32 [rows]: row sums

.aiv
.semantic softmax
    getsr r1, subblock_idx
    bne   r1, 0, done          # the second AIV of the cluster has nothing to do
    ldp   r2, x
    ldp   r3, y
    ldp   r4, rows
    ldp   r5, cols
    mul   r6, r4, r5           # elements
    shl   r7, r6, 1            # bf16 bytes
    shl   r8, r5, 2            # fp32 row stride, bytes
    mov_gm_ub XB, r2, 1, r7, 0, 0
    set_flag  mte2, vector, 0
    wait_flag mte2, vector, 0
    vcast.bf16.f32.rne X32, XB, r6
    vrmax.f32 MAX, X32, r4, r5, r8
    vrow.sub.f32 X32, X32, MAX, r4, r5, r8
    vexp.f32  X32, X32, r6
    vrsum.f32 SUM, X32, r4, r5, r8
    vrow.div.f32 X32, X32, SUM, r4, r5, r8
    vcast.f32.bf16.rne XB, X32, r6
    set_flag  vector, mte3, 0
    wait_flag vector, mte3, 0
    mov_ub_gm r3, XB, 1, r7, 0, 0
done:
    end
