# linear_nz.s -- the fractal formats in a small bf16 Linear: y[M, N] = x[M, K] . W[N, K]^T
# (b_trans), fp32 accumulation, with both operands loaded ND -> NZ on the way into L1
# (mov_gm_l1_nz) and read by NZ tile loads (mov_l1_l0a / mov_l1_l0b nz = 1), as real Ascend
# kernels load ND tensors (docs/isa.md "Fractal formats"). With nz = 0 the same program loads
# plain ND copies instead (mov_gm_l1, ND tile loads): same numbers, bit for bit, so the cycle
# difference between the two is the conversion's cost (docs/kernels.md "Fractal formats").
# A demonstration, not a tuned GEMM (kernels/linear.s is): one L1 stage, one L0 buffer, no
# double buffering, so every step waits for the one before it.
#
# Params (in order):
#   x  gm bf16 [M, K]      activations, row-major (ND)
#   w  gm bf16 [N, K]      weights, row-major (ND; each output channel is one row: b_trans)
#   y  gm bf16 [M, N]      output, bf16 RNE of the fp32 sum (written by the FixPipe, ND)
#   M  int 1 .. 128        rows
#   K  int >= 16           reduction length, multiple of 16 (the ND path's 32-byte L1 rows)
#   N  int >= 1            output channels; any value
#   nz int 0 / 1           1: ND -> NZ loads and NZ tile loads; 0: plain ND
# Launch: AIC only; any block_dim (AIC i takes the N tiles i, i + block_dim, ...).
#
# Tiling: N tiles of up to LNZ_TN columns (W rows), K chunks of up to LNZ_KC; per chunk one x
# DMA [M, kc] and one W DMA [tn, kc] into L1, one tile load each into L0A / L0B (W transposed:
# B = [kc, tn]), one mmad accumulating in L0C; per N tile one fix to y. NZ C0 strides: x
# ceil16(M) x 32 bytes, W ceil16(tn) x 32 (whole 16-row fractals, as Ascend's Nd2NzParams).
# Sizes: L0A M x kc x 2 <= 64 KiB, L0B kc x tn x 2 = 64 KiB, L0C M x tn x 4 <= 64 KiB, L1 x at
# 0 (<= 64 KiB), W at 64 KiB (64 KiB).
# Sync: MTE2 -> MTE1 0 (L1 loaded), MTE1 -> MTE2 0 (L1 free, preset), MTE1 -> CUBE 0 (L0
# loaded), CUBE -> MTE1 0 (L0 free, preset), CUBE -> FIXP 0 (L0C done), FIXP -> CUBE 0 (L0C
# drained, preset); the presets are consumed before `end`.

.kernel linear_nz
.param x, gm, bf16
.param w, gm, bf16
.param y, gm, bf16
.param M, int
.param K, int
.param N, int
.param nz, int

.equ LNZ_TN, 128            # columns of an N tile
.equ LNZ_KC, 256            # K chunk: L0B holds LNZ_KC x LNZ_TN bf16 = 64 KiB
.equ LNZ_X_L1, 0            # x chunk in L1
.equ LNZ_W_L1, kib(64)      # W chunk in L1

.reg rX, r1         # x
.reg rW, r2         # w
.reg rY, r3         # y
.reg rM, r4
.reg rK, r5
.reg rN, r6
.reg rNz, r7
.reg rKb, r8        # x / W row bytes (K * 2)
.reg rNb, r9        # y row bytes (N * 2)
.reg rCx, r10       # x's C0 stride in L1 (NZ): ceil16(M) * 32
.reg rN0, r11       # first column of the N tile
.reg rTn, r12       # its width
.reg rCw, r13       # W's C0 stride in L1 (NZ): ceil16(tn) * 32
.reg rK0, r14       # first k of the chunk
.reg rKc, r15       # its length
.reg rKcb, r16      # its bytes per row
.reg rStep, r17     # N tile step: block_dim * LNZ_TN
.reg rA, r18        # GM address of the x chunk
.reg rB, r19        # GM address of the W chunk
.reg rT, r20        # temporary

# The chunk's x and W GM -> L1 by \mv (mov_gm_l1_nz or mov_gm_l1), then L1 -> L0A / L0B (W
# transposed): \sx, \sw the strides both sides use in L1 (C0 strides for NZ, the chunk's row
# bytes for ND), \nz the tile loads' source layout.
.macro lnz_load mv, sx, sw, nz
    \mv LNZ_X_L1, rA, rM, rKcb, rKb, \sx
    \mv LNZ_W_L1, rB, rTn, rKcb, rKb, \sw
    set_flag mte2, mte1, 0
    wait_flag mte2, mte1, 0
    wait_flag cube, mte1, 0       # L0 free
    mov_l1_l0a.bf16 0, LNZ_X_L1, rM, rKc, \sx, 0, \nz
    mov_l1_l0b.bf16 0, LNZ_W_L1, rTn, rKc, \sw, 1, \nz
.endm

.aic
.semantic linear
    ldp   rX, x
    ldp   rW, w
    ldp   rY, y
    ldp   rM, M
    ldp   rK, K
    ldp   rN, N
    ldp   rNz, nz
    shl   rKb, rK, 1
    shl   rNb, rN, 1
    add   rCx, rM, 15
    shr   rCx, rCx, 4
    shl   rCx, rCx, 9
    getsr rT, block_dim
    mul   rStep, rT, LNZ_TN
    getsr rT, block_idx
    mul   rN0, rT, LNZ_TN
    set_flag mte1, mte2, 0        # presets: L1, L0 and L0C free
    set_flag cube, mte1, 0
    set_flag fixp, cube, 0
tile:
    bge   rN0, rN, done
    sub   rTn, rN, rN0
    min   rTn, rTn, LNZ_TN
    add   rCw, rTn, 15
    shr   rCw, rCw, 4
    shl   rCw, rCw, 9
    mul   rB, rN0, rKb
    add   rB, rB, rW              # W row n0
    mov   rA, rX
    mov   rK0, 0
    wait_flag fixp, cube, 0       # L0C drained
chunk:
    sub   rKc, rK, rK0
    min   rKc, rKc, LNZ_KC
    shl   rKcb, rKc, 1
    wait_flag mte1, mte2, 0       # L1 free
    beq   rNz, 0, nd_load
    lnz_load mov_gm_l1_nz, rCx, rCw, 1
    jmp   loaded
nd_load:
    lnz_load mov_gm_l1, rKcb, rKcb, 0
loaded:
    set_flag mte1, mte2, 0        # L1 free
    set_flag mte1, cube, 0
    wait_flag mte1, cube, 0
    bne   rK0, 0, accumulate
    mmad.bf16 0, 0, 0, rM, rKc, rTn, 1
    jmp   multiplied
accumulate:
    mmad.bf16 0, 0, 0, rM, rKc, rTn, 0
multiplied:
    set_flag cube, mte1, 0        # L0 free
    add   rA, rA, rKcb
    add   rB, rB, rKcb
    add   rK0, rK0, rKc
    blt   rK0, rK, chunk
    set_flag cube, fixp, 0
    wait_flag cube, fixp, 0
    shl   rT, rN0, 1
    add   rT, rT, rY
    fix.f32.bf16 rT, 0, rM, rTn, rNb
    set_flag fixp, cube, 0        # L0C drained
    add   rN0, rN0, rStep
    jmp   tile
done:
    wait_flag mte1, mte2, 0       # consume the presets' last releases
    wait_flag cube, mte1, 0
    wait_flag fixp, cube, 0
    end
