# gemm_chip.s -- whole-chip bf16 GEMM tiled the way the vendor's Atlas A2 matmul templates tile
# it: c[M, N] = a[M, K] . b[K, N] (b in torch's [K, N] layout, no b_trans), fp32 accumulation,
# bf16 out. The kernel of docs/fidelity.md's vendor-library GEMM anchor.
#
# Params (in order):
#   a  gm bf16 [M, K]      row-major
#   b  gm bf16 [K, N]      row-major
#   c  gm bf16 [M, N]      output, bf16 RNE of the fp32 sum (written by the FixPipe)
#   M  int >= 1            rows; any value
#   K  int >= 16           multiple of 16
#   N  int >= 16           multiple of 16
#   SW int >= 1            swizzle offset: tiles grouped SW rows / columns at a time (vendor: 3)
#   SD int                 swizzle direction: 0 row groups (Zn), 1 column groups (Nz), < 0 the
#                          vendor's choice (Zn when M > N, else Nz)
#   NZ int 0 / 1           1: a and b go GM -> L1 as ND -> NZ (mov_gm_l1_nz), as the vendor's
#                          kernel loads torch's ND tensors, and the tile loads read NZ; 0: plain
#                          ND copies and ND tile loads (same L0 contents, same c bits)
# Launch: AIC only; any block_dim >= 1. Needs L1 >= 384 KiB, L0A / L0B >= 32 / 64 KiB,
# L0C >= 128 KiB (ascend910b; the shapes below are fixed, not derived from the config).
#
# What it copies (public sources: hicann/catlass, Huawei's CANN GEMM templates for Atlas A2,
# examples 00_basic_matmul and 06_optimized_matmul, include/catlass/gemm/block/block_swizzle.hpp,
# block_mmad_preload.hpp):
#   tile        c is cut into tiles of 128 x 256 (L1TileShape<128, 256, 256>); tile t of T runs on
#               AIC t mod block_dim (a core takes t = block_idx, block_idx + block_dim, ...).
#   swizzle     tile t -> (row, column) of tiles by GemmIdentityBlockSwizzle<SW, SD>: the tiles
#               are walked in groups of SW tile rows (SD = 0, "Zn", the vendor's when M > N) or SW
#               tile columns (SD = 1, "Nz", M <= N), snaking: odd groups run backwards. With the
#               vendor's SW = 3 the tiles in flight at once form a compact patch (24 AICs: 8 x 3
#               at a square n), whose a rows and b columns several AICs share in L2; SW = 1,
#               SD = 0 is plain row-major order (24 consecutive tiles of one tile row).
#   K chunks    each tile walks K in chunks of 256 (the L1 K step) starting at chunk
#               block_idx mod nch (nch = ceil(K / 256); catlass's enableShuffleK), so concurrent
#               AICs read different k ranges of their shared rows.
#   L1          two stages (ping-pong) of a [128, 256] + b [256, 256] = 192 KiB each; MTE2 loads
#               the next chunk, also the next tile's first, while the cube works on this one.
#   L0          k-steps of 64 (L0TileShape<128, 256, 64>): a [128, 64] to L0A, b [64, 256] to L0B,
#               both ping-ponged in halves of L0A / L0B.
#   L0C         one 128 x 256 fp32 tile (all of L0C), accumulated as two row halves (0..63 at 0,
#               64.. at L0C / 2) with a CUBE <-> FIXP flag each, so the FixPipe drains half 0 while
#               the cube finishes half 1, and the next tile's half 0 starts once half 0 is out
#               (catlass overlaps the same with its unit flag).
# Sync (set_flag / wait_flag, ids = buffer index):
#   MTE2 -> MTE1 s   L1 stage s loaded      MTE1 -> MTE2 s   stage s free (preset)
#   MTE1 -> CUBE p   L0 half p loaded       CUBE -> MTE1 p   L0 half p free (preset)
#   CUBE -> FIXP h   L0C row half h done    FIXP -> CUBE h   half h drained (preset)

.kernel gemm_chip
.param a, gm, bf16
.param b, gm, bf16
.param c, gm, bf16
.param M, int
.param K, int
.param N, int
.param SW, int
.param SD, int
.param NZ, int

.include "lib/ring.inc"

.equ TM_ROWS, 128           # tile rows (L1TileShape M)
.equ TN_COLS, 256           # tile columns (L1TileShape N)
.equ KL1, 256               # L1 K step (L1TileShape K)
.equ KL0, 64                # L0 K step (L0TileShape K)
.equ MH, 64                 # rows of one L0C half
.equ A_ROW, KL1 * 2         # L1 row pitch of an a chunk [128, 256] (bytes)
.equ B_ROW, TN_COLS * 2     # L1 row pitch of a b chunk [256, 256]
.equ A_BYTES, TM_ROWS * A_ROW
.equ STAGE, A_BYTES + KL1 * B_ROW     # one L1 stage: a chunk, then b chunk (192 KiB)
.equ A_C0, TM_ROWS * 32     # NZ: C0 stride of an a chunk (128 rows of 32 bytes per column block)
.equ B_C0, KL1 * 32         # NZ: C0 stride of a b chunk (256 k rows per column block)
.equ L0A_HALF, CFG_L0A_BYTES / 2
.equ L0B_HALF, CFG_L0B_BYTES / 2
.equ L0C_HALF, CFG_L0C_BYTES / 2

.reg rM, r1
.reg rK, r2
.reg rN, r3
.reg rTm, r4        # tile rows
.reg rTn, r5        # tile columns
.reg rT, r6         # tiles in all
.reg rNch, r7       # K chunks per tile
.reg rPh, r8        # first chunk: block_idx mod nch
.reg rLt, r9        # load cursor: tile, chunk counter, L1 stage
.reg rLj, r10
.reg rLs, r11
.reg rCt, r12       # compute cursor: tile, chunk counter, L1 stage
.reg rCj, r13
.reg rCs, r14
.reg rP, r15        # L0 ping-pong half
.reg rBd, r16       # block_dim
# temporaries: r17 .. r31

# Jump to \D1 when the swizzle direction is 1 (Nz): SD = 1, or SD < 0 and M <= N (catlass
# 06_optimized_matmul's choice). Uses r31.
.macro swz_dir D1
    ldp   r31, SD
    beq   r31, 1, \D1
    beq   r31, 0, z\@
    bge   rN, rM, \D1
z\@:
.endm

# Tile \t -> origin (\m0, \n0), rows \mc, columns \nc (GemmIdentityBlockSwizzle<SW, SD>).
# Uses r29 .. r31.
.macro tile_geom t, m0, n0, mc, nc
    mov   r29, rTn                  # d = 1: groups of tile columns ...
    mov   r30, rTm                  # ... walking down the rows
    swz_dir sw\@
    mov   r29, rTm                  # d = 0: groups of tile rows, walking along the columns
    mov   r30, rTn
sw\@:
    ldp   r31, SW
    mul   r31, r30, r31
    div   \m0, \t, r31              # group
    rem   \n0, \t, r31              # index inside the group
    ldp   r31, SW
    mul   \mc, \m0, r31             # first grouped index of the group
    sub   \nc, r29, \mc
    min   \nc, \nc, r31             # its width (the last group may be narrower)
    rem   r31, \n0, \nc
    add   \mc, \mc, r31             # grouped index
    div   \n0, \n0, \nc             # other index
    and   r31, \m0, 1
    beq   r31, 0, fw\@
    sub   \n0, r30, \n0             # odd groups snake back
    sub   \n0, \n0, 1
fw\@:
    swz_dir dn\@
    mov   \m0, \mc                  # d = 0: (row, column) = (grouped, other)
    jmp   og\@
dn\@:
    mov   \m0, \n0                  # d = 1: (row, column) = (other, grouped)
    mov   \n0, \mc
og\@:
    mul   \m0, \m0, TM_ROWS
    mul   \n0, \n0, TN_COLS
    sub   \mc, rM, \m0
    min   \mc, \mc, TM_ROWS
    sub   \nc, rN, \n0
    min   \nc, \nc, TN_COLS
.endm

# \k0 = first K element of chunk \j of a tile (chunks from rPh on, wrapping), \kc its length.
.macro chunk_k j, k0, kc
    add   \k0, \j, rPh
    blt   \k0, rNch, nw\@
    sub   \k0, \k0, rNch
nw\@:
    mul   \k0, \k0, KL1
    sub   \kc, rK, \k0
    min   \kc, \kc, KL1
.endm

# Load the chunk at the load cursor (if any) and advance the cursor.
.macro load_next
    bge   rLt, rT, done\@
    tile_geom rLt, r17, r18, r20, r21   # m0, n0, mc (= a bursts), nc
    chunk_k rLj, r19, r22               # k0, kc (= b bursts)
    mul   r26, r17, rK
    add   r26, r26, r19
    shl   r26, r26, 1
    ldp   r31, a
    add   r26, r26, r31                 # &a[m0, k0]
    mul   r27, r19, rN
    add   r27, r27, r18
    shl   r27, r27, 1
    ldp   r31, b
    add   r27, r27, r31                 # &b[k0, n0]
    shl   r21, r21, 1                   # b burst: nc * 2 bytes
    shl   r22, r22, 1                   # a burst: kc * 2 bytes ...
    shl   r23, rK, 1                    # a GM row stride
    shl   r24, rN, 1                    # b GM row stride
    mul   r25, rLs, STAGE
    ring_call load_stage, 0, rLs, 2
    add   rLj, rLj, 1
    blt   rLj, rNch, adv\@
    mov   rLj, 0
    add   rLt, rLt, rBd
adv\@:
    xor   rLs, rLs, 1
done\@:
.endm

# MTE2: chunk rLj of tile rLt into L1 stage \S (r25 its L1 base): a is mc (r20) bursts of
# kc * 2 bytes (r22), b is kc bursts of nc * 2 bytes (r21).
.macro load_stage S, X
    shr   r28, r22, 1
    wait_flag mte1, mte2, \S
    ldp   r29, NZ
    bne   r29, 0, nz\@
    mov_gm_l1 r25, r26, r20, r22, r23, A_ROW, normal
    add   r25, r25, A_BYTES
    mov_gm_l1 r25, r27, r28, r21, r24, B_ROW, normal
    jmp   ld\@
nz\@:
    mov_gm_l1_nz r25, r26, r20, r22, r23, A_C0, normal
    add   r25, r25, A_BYTES
    mov_gm_l1_nz r25, r27, r28, r21, r24, B_C0, normal
ld\@:
    set_flag  mte2, mte1, \S
.endm

# One k-step (kk = r19, ks = r22) of the chunk in stage rCs: MTE1 loads a [mc, ks] and
# b [ks, nc] into L0 half rP, the cube multiplies both row halves. r20 mc, r21 nc, r23 1 on the
# tile's first k-step, r24 1 on its last; r25 the stage's L1 base.
.macro kstep
    mul   r26, rP, L0A_HALF
    mul   r27, rP, L0B_HALF
    add   r28, r25, r19
    add   r28, r28, r19                 # a tile in L1: stage + kk * 2
    mul   r29, r19, B_ROW
    add   r29, r29, r25
    add   r29, r29, A_BYTES             # b tile: stage + A_BYTES + kk * B_ROW
    ring_flag wait_flag, cube, mte1, rP, 2
    ldp   r30, NZ
    bne   r30, 0, nz\@
    mov_l1_l0a.bf16 r26, r28, r20, r22, A_ROW
    mov_l1_l0b.bf16 r27, r29, r22, r21, B_ROW
    jmp   ld\@
nz\@:
    shr   r28, r19, 4
    mul   r28, r28, A_C0
    add   r28, r28, r25                 # NZ a tile: stage + (kk / 16) * A_C0
    shl   r29, r19, 5
    add   r29, r29, r25
    add   r29, r29, A_BYTES             # NZ b tile: row kk of the b part, stage + A_BYTES + kk * 32
    mov_l1_l0a.bf16 r26, r28, r20, r22, A_C0, 0, 1
    mov_l1_l0b.bf16 r27, r29, r22, r21, B_C0, 0, 1
ld\@:
    ring_flag set_flag, mte1, cube, rP, 2
    ring_flag wait_flag, mte1, cube, rP, 2
    min   r28, r20, MH                  # rows of half 0
    sub   r29, r20, MH                  # rows of half 1 (<= 0: none)
    beq   r23, 0, acc0\@
    wait_flag fixp, cube, 0             # tile start: half 0 drained
    mmad.bf16 0, r26, r27, r28, r22, r21, 1
    jmp   h1\@
acc0\@:
    mmad.bf16 0, r26, r27, r28, r22, r21, 0
h1\@:
    beq   r24, 0, nl0\@
    set_flag  cube, fixp, 0             # half 0 complete: the FixPipe takes it
nl0\@:
    beq   r23, 0, nf1\@
    wait_flag fixp, cube, 1
nf1\@:
    blt   r29, 1, nh1\@
    mul   r30, r22, MH * 2
    add   r30, r30, r26                 # a rows 64.. (dense [mc, ks] in L0A)
    beq   r23, 0, acc1\@
    mmad.bf16 L0C_HALF, r30, r27, r29, r22, r21, 1
    jmp   nh1\@
acc1\@:
    mmad.bf16 L0C_HALF, r30, r27, r29, r22, r21, 0
nh1\@:
    beq   r24, 0, nl1\@
    set_flag  cube, fixp, 1
nl1\@:
    ring_flag set_flag, cube, mte1, rP, 2
    xor   rP, rP, 1
.endm

.aic
.semantic gemm_chip
    ldp   rM, M
    ldp   rK, K
    ldp   rN, N
    getsr rBd, block_dim
    add   rTm, rM, TM_ROWS - 1
    div   rTm, rTm, TM_ROWS
    add   rTn, rN, TN_COLS - 1
    div   rTn, rTn, TN_COLS
    mul   rT, rTm, rTn
    add   rNch, rK, KL1 - 1
    div   rNch, rNch, KL1
    getsr rLt, block_idx
    rem   rPh, rLt, rNch
    bge   rLt, rT, idle
    mov   rLj, 0
    mov   rLs, 0
    mov   rCt, rLt
    mov   rCj, 0
    mov   rCs, 0
    mov   rP, 0
    ring_preset mte2, mte1, 2           # L1 stages free
    ring_preset mte1, cube, 2           # L0 halves free
    ring_preset cube, fixp, 2           # L0C halves drained
    load_next                           # the prologue: one stage ahead
loop:
    load_next
    # ---- compute the chunk at the compute cursor
    tile_geom rCt, r17, r18, r20, r21   # m0, n0, mc, nc
    chunk_k rCj, r19, r22
    mov   r30, r22                      # kc
    mul   r25, rCs, STAGE
    ring_flag wait_flag, mte2, mte1, rCs, 2
    mov   r19, 0
ks:
    sub   r22, r30, r19
    min   r22, r22, KL0                 # ks
    mov   r23, 0
    bne   rCj, 0, nf
    bne   r19, 0, nf
    mov   r23, 1                        # the tile's first k-step
nf:
    mov   r24, 0
    add   r31, rCj, 1
    bne   r31, rNch, nlast
    add   r31, r19, KL0
    blt   r31, r30, nlast
    mov   r24, 1                        # its last
nlast:
    mov   r31, r30                      # kstep uses r26 .. r30: keep kc in r31 across it
    kstep
    mov   r30, r31
    add   r19, r19, KL0
    blt   r19, r30, ks
    ring_flag set_flag, mte1, mte2, rCs, 2   # stage free once MTE1 has read it
    xor   rCs, rCs, 1
    add   rCj, rCj, 1
    blt   rCj, rNch, next
    # ---- tile complete: the FixPipe writes both row halves
    mul   r25, r17, rN
    add   r25, r25, r18
    shl   r25, r25, 1
    ldp   r26, c
    add   r25, r25, r26                 # &c[m0, n0]
    shl   r27, rN, 1                    # row stride
    min   r28, r20, MH
    sub   r29, r20, MH
    wait_flag cube, fixp, 0
    fix.f32.bf16 r25, 0, r28, r21, r27
    set_flag  fixp, cube, 0
    wait_flag cube, fixp, 1
    blt   r29, 1, nd1
    mul   r26, r27, MH
    add   r25, r25, r26                 # &c[m0 + 64, n0]
    fix.f32.bf16 r25, L0C_HALF, r29, r21, r27
nd1:
    set_flag  fixp, cube, 1
    mov   rCj, 0
    add   rCt, rCt, rBd
next:
    blt   rCt, rT, loop
    ring_drain mte2, mte1, 2
    ring_drain mte1, cube, 2
    ring_drain cube, fixp, 2
idle:
    end
