# linear.s -- AT-09 bf16 Linear: y[M, N] = x[M, K] . W[N, K]^T  (b_trans), fp32 accumulation.
#
# Params (in order):
#   x  gm bf16 [M, K]      activations, row-major
#   w  gm bf16 [N, K]      weights, row-major (each output channel is one row: b_trans)
#   y  gm bf16 [M, N]      output, bf16 RNE of the fp32 sum (written by the FixPipe)
#   M  int  >= 1           rows (tokens); any value
#   K  int  >= 16          reduction length, multiple of 16
#   N  int  >= 16          output channels, multiple of 16
# Launch: AIC only; any block_dim >= 1 (1 .. chip.clusters).
#
# Work split (computed in the kernel from M, N, K and block_dim; see docs/kernels.md):
#   unit          a 128-row x uw-column tile of y; uw = clamp(ceil16(N * ceil(M/128) / block_dim),
#                 16, 128), so that small-M launches still give every AIC work (M=16, N=1536,
#                 24 AICs: uw = 64, one unit each). Units are numbered row-major over y.
#   AIC i         takes the contiguous unit range [T*i/bd, T*(i+1)/bd) (T units in all).
#   block         what one L0C pass computes: two adjacent units of the same row of units when
#                 the AIC has both (mB x 2uw, up to 128 x 256), else one. The last row/column
#                 block may be shorter (M and N tails). With one L0C slot, pairs start at even
#                 unit columns (FixPipe rows of whole 512-byte y lines: an L2 write miss on a
#                 partial line fetches the line from HBM); an AIC whose first unit has an odd
#                 column computes that unit alone and last, after the cold-start HBM traffic.
#   L0C           the whole block in fp32; two 64 KiB slots (ping-pong with the FixPipe) when
#                 ceil16(mB) * nB * 4 <= 64 KiB (nB = the widest block), else one 128 KiB slot
#                 accumulated as two row halves (rows 0..63 at 0, 64.. at 64 KiB; one mmad each
#                 per k-step) with a CUBE <-> FIXP flag per half: the last k-step hands half 0 to
#                 the FixPipe before the cube multiplies half 1, and the next block's first
#                 k-step waits for each half on its own, so the drain overlaps cube work.
#   L0 k-step kt  largest power of two <= 1024 with max(ceil16(mB), nB) * kt * 2 <= 32 KiB (one
#                 half of L0A / L0B): one mmad of mB x kt x nB per step; the halves ping-pong.
#   L1 chunk kL1  the largest multiple of max(kt, 256) with (ceil16(mB) + nB) * kL1 * 2 <= 256 KiB
#                 and nB * kL1 <= 32 Ki elements (W DMAs of at most 64 KiB: short DMAs interleave
#                 the AICs' streams finely and shorten the pipeline tail after the last one):
#                 x chunk [mB, kL1] and W chunk [nB, kL1], one DMA each, form one L1 stage.
#   L1 stages     a ring of S = min(6, 512 KiB / stage bytes) stages (S >= 2): the loader keeps
#                 S - 1 stages in flight ahead of the compute (M=16, N=1536: kL1 = 512, 80 KiB
#                 stages, S = 6; M=N=K=2048: kL1 = 256, 192 KiB stages, S = 2).
#   chunk order   a block visits its nch = ceil(K / kL1) chunks starting at phase
#                 (u + u/2 + block_idx) mod nch, u = its first unit, so concurrent AICs read
#                 different HBM channels / L2 slices instead of all hitting the same ones (W rows
#                 are K * 2 bytes apart; u alone is mostly even when blocks pair two units).
#   The chunk sequence of an AIC runs across its blocks, so MTE2 prefetches the next block's
#   first chunks while the cube finishes the current one.
# Sync (set_flag/wait_flag, ids = buffer index):
#   MTE2 -> MTE1 b   L1 stage b loaded         MTE1 -> MTE2 b   L1 stage b free (preset), b < 6
#   MTE1 -> CUBE p   L0A/L0B half p loaded     CUBE -> MTE1 p   L0 half p free (preset)
#   CUBE -> FIXP s   L0C slot s complete       FIXP -> CUBE s   L0C slot s drained (preset)
#                    (one slot: s = row half of the block)
# Cache hints: x normal (re-read by every AIC); W none_cacheable when M <= 128 (every W row is
#   read by exactly one AIC, once, so it should not evict x from L2), normal otherwise (re-read
#   once per 128-row block of M).

.kernel linear
.param x, gm, bf16
.param w, gm, bf16
.param y, gm, bf16
.param M, int
.param K, int
.param N, int

.equ MB_MAX,   128          # rows of an output unit / block
.equ UW_MAX,   128          # max columns of a unit (a block is at most two units)
.equ MH,       64           # rows of one L0C half (one-slot blocks are accumulated in two)
.equ L0_HALF,  kib(32)      # one ping-pong half of L0A / L0B
.equ L0_BUDGET, kib(16)     # elements of one L0 half (bf16)
.equ L1_BYTES, kib(512)    # L1: a ring of S = min(NST_MAX, L1_BYTES / stage bytes) stages
.equ NST_MAX, 6            # stages at most (flag ids 0..5 of MTE2 <-> MTE1)
.equ L1_HALF_ELEMS, kib(128) # bf16 elements of one L1 half
.equ L0C_SLOT_SHIFT, 16     # one L0C slot = 64 KiB
.equ WCH_ELEMS, kib(32)     # W elements per DMA at most (64 KiB)

.reg rNkc, r1       # chunks per block (ceil(K / kL1))
.reg rUend, r2      # end of this AIC's unit range
.reg rNU, r3        # units per row of units
.reg rM, r4
.reg rK, r5
.reg rN, r6
.reg rUW, r7        # unit width uw
.reg rPair, r8      # 0: no pairing; else pairing, -1 or 1 + a remapped unit (see slots_done)
.reg rGs, r9        # scratch of block_geom (and GM bases, loaded when needed)
.reg rNB, r10       # widest block nB (set-up only)
.reg rSB, r10       # bytes of one L1 stage (after set-up)
.reg rKt, r11       # L0 k-step
.reg rKL1, r12      # L1 chunk length along K
.reg rAby, r13      # bytes of the x part of an L1 stage (ceil16(mB) * kL1 * 2)
.reg rSmask, r14    # 1 when L0C has two slots, else 0
.reg rLu, r17       # load cursor: first unit of the block, chunk counter, L1 stage
.reg rLj, r18
.reg rLbuf, r19
.reg rCu, r20       # compute cursor: first unit of the block, chunk counter, L1 stage
.reg rCj, r21
.reg rCbuf, r22
.reg rP, r23        # L0 ping-pong parity (prologue: stage counter)
.reg rSlot, r24     # L0C slot of the current block (prologue: stage limit)
# temporaries: r15 r16 r25 .. r31

# Geometry of the block starting at unit \u: origin (\m0, \n0), rows \mc, columns \nc and width
# \wu in units (2 when pairing is on, the next unit is in this AIC's range and in the same row).
.macro block_geom u, m0, n0, mc, nc, wu
    mov   \m0, \u                   # the unit itself (see rPair for the remapped last one)
    mov   \wu, 1
    beq   rPair, 0, geo\@
    blt   rPair, 1, pr\@
    sub   rGs, rUend, 1
    bne   \u, rGs, pr\@
    sub   \m0, rPair, 1             # the AIC's odd first unit, done last and alone
    jmp   geo\@
pr\@:
    add   rGs, \u, 1
    bge   rGs, rUend, geo\@
    blt   rPair, 1, nr\@
    sub   \n0, rUend, 1
    beq   rGs, \n0, geo\@            # the next one is the remapped unit
nr\@:
    div   \n0, \u, rNU
    mul   \n0, \n0, rNU
    sub   \n0, \u, \n0              # unit column
    bne   rSmask, 0, al\@
    and   rGs, \n0, 1
    bne   rGs, 0, geo\@             # one L0C slot: pairs start at even unit columns
al\@:
    add   rGs, \n0, 1
    beq   rGs, rNU, geo\@
    mov   \wu, 2
geo\@:
    div   \n0, \m0, rNU             # unit row
    mul   \mc, \n0, rNU
    sub   \mc, \m0, \mc             # unit column
    shl   \m0, \n0, 7
    mul   \n0, \mc, rUW
    sub   \mc, rM, \m0
    min   \mc, \mc, MB_MAX
    mul   \nc, \wu, rUW
    sub   rGs, rN, \n0
    min   \nc, \nc, rGs
.endm

# \dst = first element (along K) of chunk number \j of the block starting at unit \u. Chunks are
# visited from phase p = (u + u/2 + block_idx) mod nch on, wrapping: W rows are K * 2 bytes
# apart, so without a phase every AIC would read the same few HBM channels / L2 slices at once;
# u + u/2 + block_idx spreads the phases of concurrent AICs over all nch values (u alone is
# mostly even when blocks pair two units).
.macro chunk_k0 dst, u, j
    shr   \dst, \u, 1
    add   \dst, \dst, \u
    getsr rGs, block_idx
    add   \dst, \dst, rGs
    rem   \dst, \dst, rNkc
    add   \dst, \dst, \j
    blt   \dst, rNkc, nw\@
    sub   \dst, \dst, rNkc
nw\@:
    mul   \dst, \dst, rKL1
.endm

# \dst = number of L1 stages: min(NST_MAX, L1 bytes / stage bytes) (>= 2 by the choice of kL1).
.macro nstages dst
    mov   \dst, L1_BYTES
    div   \dst, \dst, rSB
    min   \dst, \dst, NST_MAX
.endm

# MTE2 parts of filling L1 stage \B (x chunk to r31, W chunk to rGs; cache hint \H for W):
#   stage_0  the whole stage: wait until free, x, W, mark full
#   stage_1  W only (waits until free; the "full" flag comes with stage_2)
#   stage_2  x only, then mark full
.macro stage_0 B, H
    wait_flag mte1, mte2, \B
    mov_gm_l1 r31, r27, r29, r25, r15, r16, normal
    mov_gm_l1 rGs, r28, r30, r25, r15, r16, \H
    set_flag  mte2, mte1, \B
.endm
.macro stage_1 B, H
    wait_flag mte1, mte2, \B
    mov_gm_l1 rGs, r28, r30, r25, r15, r16, \H
.endm
.macro stage_2 B, H
    mov_gm_l1 r31, r27, r29, r25, r15, r16, normal
    set_flag  mte2, mte1, \B
.endm

# stage_MODE on the stage numbered rLbuf (flag ids are immediates: one test per stage; a case
# that ran leaves rLbuf unchanged, so the later tests fall through).
.macro stage_case MODE, H, I
    bne   rLbuf, \I, nx\@
    stage_\MODE \I, \H
nx\@:
.endm
.macro stage_any MODE, H
    stage_case \MODE, \H, 0
    stage_case \MODE, \H, 1
    stage_case \MODE, \H, 2
    stage_case \MODE, \H, 3
    stage_case \MODE, \H, 4
    stage_case \MODE, \H, 5
.endm

# Load (part of) the chunk at the load cursor into L1 stage rLbuf, then advance the cursor.
.macro load_next MODE
    block_geom rLu, r27, r28, r29, r30, r26
    chunk_k0 r31, rLu, rLj
    sub   r25, rK, r31
    min   r25, r25, rKL1
    shl   r25, r25, 1               # burst: chunk length in bytes
    mul   r27, r27, rK
    add   r27, r27, r31
    shl   r27, r27, 1
    ldp   rGs, x
    add   r27, r27, rGs             # &x[m0, k0]
    mul   r28, r28, rK
    add   r28, r28, r31
    shl   r28, r28, 1
    ldp   rGs, w
    add   r28, r28, rGs             # &w[n0, k0]
    shl   r15, rK, 1                # GM row stride
    shl   r16, rKL1, 1              # L1 row stride
    mul   r31, rLbuf, rSB           # L1 x part of the stage
    add   rGs, r31, rAby            # L1 W part
    blt   rM, MB_MAX + 1, nc\@
    stage_any \MODE, normal
    jmp   done\@
nc\@:
    stage_any \MODE, none_cacheable
done\@:
    add   rLj, rLj, 1
    blt   rLj, rNkc, adv\@
    mov   rLj, 0
    add   rLu, rLu, r26
adv\@:
    add   rLbuf, rLbuf, 1
    nstages r26
    blt   rLbuf, r26, wrap\@
    mov   rLbuf, 0
wrap\@:
.endm

# One L0 k-step on L0 half \P: MTE1 loads A [mCur, ks] and B^T [ks, nCur], CUBE multiplies.
# Live: r27 mCur, r28 nCur, r29 kc, r30 kk, r15 L1 row stride, r16 L1 x part; rP is free here
# (the caller sets it after the step). One L0C slot (rSmask = 0): l0_split instead.
.macro l0_step P
    beq   rSmask, 0, sp\@
    sub   r31, r29, r30
    min   r31, r31, rKt             # ks
    shl   r25, r30, 1
    add   r25, r25, r16             # x tile in L1
    add   r26, r25, rAby            # W tile in L1
    wait_flag cube, mte1, \P
    mov_l1_l0a.bf16 \P * L0_HALF, r25, r27, r31, r15
    mov_l1_l0b.bf16 \P * L0_HALF, r26, r28, r31, r15, 1
    set_flag  mte1, cube, \P
    wait_flag mte1, cube, \P
    shl   r25, rSlot, L0C_SLOT_SHIFT
    bne   rCj, 0, acc\@
    bne   r30, 0, acc\@
    mmad.bf16 r25, \P * L0_HALF, \P * L0_HALF, r27, r31, r28, 1
    jmp   mm\@
acc\@:
    mmad.bf16 r25, \P * L0_HALF, \P * L0_HALF, r27, r31, r28, 0
mm\@:
    set_flag  cube, mte1, \P
    jmp   end\@
sp\@:
    l0_split \P
end\@:
.endm

# The k-step with one L0C slot (blocks wider than 128 columns, up to 128 x 256): the block is
# accumulated as two row halves, rows 0 .. 63 at L0C 0 and rows 64 .. mCur-1 at L0C 64 KiB (A is
# dense [mCur, ks], so half 1's A starts 64 rows in; both share B), each with its own
# CUBE <-> FIXP flag (id = half). The last k-step hands half 0 to the FixPipe before the cube
# multiplies half 1, and the next block's first k-step waits for each half separately, so the
# drain of half 0 overlaps cube work instead of stalling it. Row halves keep whole y rows (full
# 512-byte lines) in each FixPipe write.
.macro l0_split P
    sub   r31, r29, r30
    min   r31, r31, rKt             # ks
    shl   r25, r30, 1
    add   r25, r25, r16             # x tile in L1
    add   r26, r25, rAby            # W tile in L1
    wait_flag cube, mte1, \P
    mov_l1_l0a.bf16 \P * L0_HALF, r25, r27, r31, r15
    mov_l1_l0b.bf16 \P * L0_HALF, r26, r28, r31, r15, 1
    set_flag  mte1, cube, \P
    wait_flag mte1, cube, \P
    # rP = 1 on the block's last k-step
    mov   rP, 0
    add   r25, rCj, 1
    bne   r25, rNkc, nl\@
    add   r25, r30, rKt
    blt   r25, r29, nl\@
    mov   rP, 1
nl\@:
    min   r26, r27, MH              # rows of half 0
    sub   rGs, r27, MH              # rows of half 1 (<= 0: none)
    shl   r25, r31, 7
    add   r25, r25, \P * L0_HALF    # A rows 64 .. in L0A (dense [mCur, ks])
    bne   rCj, 0, acc\@
    bne   r30, 0, acc\@
    wait_flag fixp, cube, 0         # block start: each half waits for its own drain
    mmad.bf16 0, \P * L0_HALF, \P * L0_HALF, r26, r31, r28, 1
    beq   rP, 0, f0\@
    set_flag  cube, fixp, 0
f0\@:
    blt   rGs, 1, mm\@
    wait_flag fixp, cube, 1
    mmad.bf16 kib(64), r25, \P * L0_HALF, rGs, r31, r28, 1
    jmp   mm\@
acc\@:
    mmad.bf16 0, \P * L0_HALF, \P * L0_HALF, r26, r31, r28, 0
    beq   rP, 0, f1\@
    set_flag  cube, fixp, 0         # half 0 complete: the FixPipe starts on it
f1\@:
    blt   rGs, 1, mm\@
    mmad.bf16 kib(64), r25, \P * L0_HALF, rGs, r31, r28, 0
mm\@:
    set_flag  cube, mte1, \P
.endm

# FixPipe drains L0C slot \S to y (r25 = &y[m0, n0], r27 mCur, r28 nCur, r31 row stride).
.macro fix_slot S
    set_flag  cube, fixp, \S
    wait_flag cube, fixp, \S
    fix.f32.bf16 r25, \S * kib(64), r27, r28, r31
    set_flag  fixp, cube, \S
.endm

# MTE1 waits until stage rCbuf is loaded (wait_stage) / marks it free again (free_stage).
.macro flag_case OP, SRC, DST, I
    bne   rCbuf, \I, nx\@
    \OP \SRC, \DST, \I
nx\@:
.endm
.macro wait_stage
    flag_case wait_flag, mte2, mte1, 0
    flag_case wait_flag, mte2, mte1, 1
    flag_case wait_flag, mte2, mte1, 2
    flag_case wait_flag, mte2, mte1, 3
    flag_case wait_flag, mte2, mte1, 4
    flag_case wait_flag, mte2, mte1, 5
.endm
.macro free_stage
    flag_case set_flag, mte1, mte2, 0
    flag_case set_flag, mte1, mte2, 1
    flag_case set_flag, mte1, mte2, 2
    flag_case set_flag, mte1, mte2, 3
    flag_case set_flag, mte1, mte2, 4
    flag_case set_flag, mte1, mte2, 5
.endm

.aic
.semantic linear
    ldp   rM, M
    ldp   rK, K
    ldp   rN, N

    # ---- work split
    add   r25, rM, 15
    and   r25, r25, -16
    min   r25, r25, MB_MAX          # r25 = ceil16(mB)
    add   r26, rM, MB_MAX - 1
    shr   r26, r26, 7               # r26 = unit rows (blocks along M)
    getsr r29, block_dim
    mul   rUW, rN, r26
    add   rUW, rUW, r29
    sub   rUW, rUW, 1
    div   rUW, rUW, r29
    add   rUW, rUW, 15
    and   rUW, rUW, -16
    max   rUW, rUW, 16
    min   rUW, rUW, UW_MAX
    min   rUW, rUW, rN
    add   rNU, rN, rUW
    sub   rNU, rNU, 1
    div   rNU, rNU, rUW
    mul   r27, rNU, r26             # T = units in all
    getsr r28, block_idx
    mul   rLu, r27, r28
    div   rLu, rLu, r29             # first unit of this AIC
    add   r28, r28, 1
    mul   rUend, r27, r28
    div   rUend, rUend, r29
    bge   rLu, rUend, finish        # no unit for this AIC
    # pairing: possible when some AIC has two units or more
    mov   rPair, 0
    mov   rNB, rUW
    bge   r29, r27, no_pair
    mov   rPair, 1
    shl   rNB, rUW, 1
no_pair:
    # L0C slots
    mul   r27, r25, rNB
    mov   rSmask, 1
    blt   r27, kib(16) + 1, slots_done
    mov   rSmask, 0
slots_done:
    # One L0C slot: pairs start at even unit columns (whole 512-byte y lines per FixPipe row, so
    # L2 write misses need no line fill from HBM). An AIC whose first unit has an odd column
    # does that unit alone and last (when the cold-start HBM traffic is over): its range is
    # shifted by one and the last position stands for it, rPair = that unit + 1; else rPair = -1.
    beq   rPair, 0, rm_done
    mov   rPair, -1
    bne   rSmask, 0, rm_done
    div   r27, rLu, rNU
    mul   r27, r27, rNU
    sub   r27, rLu, r27
    and   r27, r27, 1
    beq   r27, 0, rm_done
    add   rPair, rLu, 1
    add   rLu, rLu, 1
    add   rUend, rUend, 1
rm_done:
    # kt: largest power of two <= 1024 with max(ceil16(mB), nB) * kt <= 16 Ki elements
    max   r27, r25, rNB
    mov   rKt, 1024
kt_loop:
    mul   r28, rKt, r27
    blt   r28, L0_BUDGET + 1, kt_done
    shr   rKt, rKt, 1
    jmp   kt_loop
kt_done:
    # kL1: the largest multiple of max(kt, 256) with (ceil16(mB) + nB) * kL1 <= 128 Ki elements
    # (a stage fits in half of L1, so at least two stages) and nB * kL1 <= WCH_ELEMS (W DMAs
    # of at most 64 KiB), at least max(kt, 256).
    add   r27, r25, rNB
    mov   r28, L1_HALF_ELEMS
    div   r28, r28, r27
    mov   r29, WCH_ELEMS
    div   r29, r29, rNB
    min   r28, r28, r29
    max   r29, rKt, 256
    div   r28, r28, r29
    max   r28, r28, 1
    mul   rKL1, r28, r29
    add   rNkc, rK, rKL1
    sub   rNkc, rNkc, 1
    div   rNkc, rNkc, rKL1
    mul   rAby, r25, rKL1
    shl   rAby, rAby, 1
    # stage bytes (rNB is not needed any more: r10 holds rSB from here on)
    add   r27, r25, rNB
    mul   r27, r27, rKL1
    shl   rSB, r27, 1

    # ---- preset the "free" flags
    set_flag mte1, mte2, 0          # NST_MAX = 6 stages
    set_flag mte1, mte2, 1
    set_flag mte1, mte2, 2
    set_flag mte1, mte2, 3
    set_flag mte1, mte2, 4
    set_flag mte1, mte2, 5
    set_flag cube, mte1, 0
    set_flag cube, mte1, 1
    set_flag fixp, cube, 0
    set_flag fixp, cube, 1

    mov   rLj, 0
    mov   rLbuf, 0
    mov   rCu, rLu
    mov   rCj, 0
    mov   rCbuf, 0
    mov   rP, 0
    mov   rSlot, 0
    # ---- prologue: fill all but one L1 stage (the main loop then keeps S - 1 chunks in flight)
    nstages rSlot
    sub   rSlot, rSlot, 1
pro:
    load_next 0
    add   rP, rP, 1
    bge   rP, rSlot, pro_done
    blt   rLu, rUend, pro
pro_done:
    mov   rP, 0
    mov   rSlot, 0
main:
    bge   rLu, rUend, compute
    load_next 0
compute:
    # ---- compute the chunk at the compute cursor
    block_geom rCu, r25, r26, r27, r28, r29
    chunk_k0 r30, rCu, rCj
    sub   r29, rK, r30
    min   r29, r29, rKL1            # kc
    shl   r15, rKL1, 1              # L1 row stride
    mul   r16, rCbuf, rSB           # L1 x part of the stage
    bne   rCj, 0, no_start
    beq   rSmask, 0, no_start       # one slot: l0_split waits per half
    beq   rSlot, 0, ws0
    wait_flag fixp, cube, 1         # block start: wait until the FixPipe drained the slot
    jmp   no_start
ws0:
    wait_flag fixp, cube, 0
no_start:
    wait_stage
    mov   r30, 0
    bne   rP, 0, kpong
kping:
    l0_step 0
    mov   rP, 1
    add   r30, r30, rKt
    bge   r30, r29, kend
kpong:
    l0_step 1
    mov   rP, 0
    add   r30, r30, rKt
    blt   r30, r29, kping
kend:
    free_stage                      # the stage is free once MTE1 has read it
    add   rCj, rCj, 1
    blt   rCj, rNkc, next_chunk
    # ---- block complete: FixPipe writes it out
    block_geom rCu, r25, r26, r27, r28, r29
    mul   r25, r25, rN
    add   r25, r25, r26
    shl   r25, r25, 1
    ldp   rGs, y
    add   r25, r25, rGs             # &y[m0, n0]
    shl   r31, rN, 1
    bne   rSmask, 0, two_slots
    # one slot: half 0 was handed over on the last k-step; half 1 follows its last mmad
    min   r26, r27, MH              # rows of half 0
    sub   r27, r27, MH              # rows of half 1
    blt   r27, 1, h1none
    set_flag  cube, fixp, 1
h1none:
    wait_flag cube, fixp, 0
    fix.f32.bf16 r25, 0, r26, r28, r31
    set_flag  fixp, cube, 0
    blt   r27, 1, fxd
    wait_flag cube, fixp, 1
    mul   r26, r31, MH
    add   r25, r25, r26             # &y[m0 + 64, n0]
    fix.f32.bf16 r25, kib(64), r27, r28, r31
    set_flag  fixp, cube, 1
    jmp   fxd
two_slots:
    beq   rSlot, 0, fx0
    fix_slot 1
    jmp   fxd
fx0:
    fix_slot 0
fxd:
    mov   rCj, 0
    add   rCu, rCu, r29
    xor   rSlot, rSlot, rSmask
next_chunk:
    add   rCbuf, rCbuf, 1
    nstages r31
    blt   rCbuf, r31, cwrap
    mov   rCbuf, 0
cwrap:
    blt   rCu, rUend, main

    # ---- consume the presets so every flag ends clear
    wait_flag mte1, mte2, 0
    wait_flag mte1, mte2, 1
    wait_flag mte1, mte2, 2
    wait_flag mte1, mte2, 3
    wait_flag mte1, mte2, 4
    wait_flag mte1, mte2, 5
    wait_flag cube, mte1, 0
    wait_flag cube, mte1, 1
    wait_flag fixp, cube, 0
    wait_flag fixp, cube, 1
finish:
    end
