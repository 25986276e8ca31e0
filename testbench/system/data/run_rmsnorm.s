# Test kernel of the `npusim run` system tests (testbench/system/run_*_test.cc): RMSNorm with
# gamma (docs/numerics.md AT-03, variant A) of one row per AIV: row = block_idx * subblock_dim +
# subblock_idx; rows at or beyond `rows` are skipped. D <= 4096 (UB layout below).
.kernel run_rmsnorm
.param x,     gm, bf16          # [rows, D]
.param gamma, gm, bf16          # [D]
.param y,     gm, bf16          # [rows, D]
.param rows,  int
.param D,     int
.param eps,   f32

.equ X16, 0x0                   # x row, bf16
.equ G16, 0x2000                # gamma, bf16
.equ XF,  0x4000                # x row, f32 (then the result)
.equ GF,  0x8000                # gamma, f32
.equ SQ,  0xC000                # x^2 / D, f32
.equ S,   0x10000               # mean_sq + eps, then rstd (one f32)
.equ Y16, 0x10040               # result, bf16

.aiv
    getsr   r1, block_idx
    getsr   r2, subblock_idx
    getsr   r3, subblock_dim
    mul     r4, r1, r3
    add     r4, r4, r2          # r4 = row
    ldp     r13, rows
    bge     r4, r13, done
    ldp     r5, D
    shl     r6, r5, 1           # row bytes (bf16)
    shl     r14, r5, 2          # row bytes (f32)
    mul     r7, r4, r6          # byte offset of the row
.semantic load
    ldp     r8, x
    add     r8, r8, r7
    mov_gm_ub X16, r8, 1, r6, 0, 0
    ldp     r9, gamma
    mov_gm_ub G16, r9, 1, r6, 0, 0
    set_flag  mte2, vector, 0
    wait_flag mte2, vector, 0
.semantic norm
    itof    r10, r5
    mov     r11, f32(1.0)
    fdiv    r11, r11, r10       # 1/D
    ldp     r12, eps
    vcast.bf16.f32.rne XF, X16, r5
    vcast.bf16.f32.rne GF, G16, r5
    vmul.f32  SQ, XF, XF, r5
    vmuls.f32 SQ, SQ, r11, r5
    vrsum.f32 S, SQ, 1, r5, r14
    vadds.f32 S, S, r12, 1
    vrsqrt.f32 S, S, 1
    vrow.mul.f32 XF, XF, S, 1, r5, r14
    vmul.f32  XF, XF, GF, r5
    vcast.f32.bf16.rne Y16, XF, r5
    set_flag  vector, mte3, 0
    wait_flag vector, mte3, 0
.semantic store
    ldp     r8, y
    add     r8, r8, r7
    mov_ub_gm r8, Y16, 1, r6, 0, 0
done:
    end
