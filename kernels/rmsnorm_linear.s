# rmsnorm_linear.s -- AT-10 RMSNorm + Linear (V -> C) in one launch:
#   xn = bf16_rne(RMSNorm(x, gamma, eps))          (AIVs, fp32 inside, into the GM workspace xn)
#   y  = bf16_rne(xn[M, K] . W[N, K]^T)             (AICs, fp32 accumulation in L0C)
#
# Params (in order):
#   x        gm bf16 [M, K]   activations
#   gamma    gm bf16 [K]      RMSNorm weight
#   w        gm bf16 [N, K]   projection weight, row-major (b_trans)
#   y        gm bf16 [M, N]   output
#   xn       gm bf16 [M, K]   workspace: the normalised activations (also a useful debug output)
#   M        int >= 1         any value
#   K        int >= 16        multiple of 16 (the RMSNorm width D)
#   N        int >= 16        multiple of 16
#   eps      f32              e.g. 1e-6
#   variant  int              0 = rsqrt, 1 = sqrt + div (AT-03 variants)
# Launch: AIC + AIV (mixed); any block_dim (1 .. chip.clusters). The M rows are split evenly over
#   ALL block_dim * 2 AIVs; the output blocks of y are dealt round-robin to the block_dim AICs
#   exactly as in linear.s (same units, blocks, tiling and chunk order; see its header).
#
# Stages and hand-off (cross-core flags, isa/sem/sync.h):
#   1. AIV "rmsnorm": as rmsnorm.s with has_gamma = 1, bf16, no beta, no rstd; rows -> xn.
#   2. AIV "handoff": cc_set MTE3 mode 0 id 0 (queued behind the last xn store, so it fires when
#      this AIV's rows have landed) is a barrier over every AIV of the launch; each AIV waits for
#      it (cc_wait id 0) and then sets mode 2 id 1: once both AIVs of a cluster have set, that
#      cluster's AIC gains one on flag 1. Every AIC needs every row of xn, which is why the
#      barrier comes first: a mode-2 set alone would only say "my cluster's rows are done".
#   3. AIC "linear": MTE2 streams the W parts of the first S - 1 L1 stages at once (overlapping
#      stage 1), then cc_wait id 1 (in MTE2, so only xn loads wait), loads the xn parts of those
#      stages, then runs the pipeline of linear.s (L1 ring of S stages, 64 KiB W DMAs).
# Cache policy: x, gamma normal; xn normal (written by the AIVs, read back at once by every
#   AIC: it should stay in L2); W none_cacheable when M <= 128 (each W row is read by exactly one
#   AIC, once: keeping it would only evict xn), normal when M > 128 (re-read per 128-row block).

.kernel rmsnorm_linear
.param x, gm, bf16
.param gamma, gm, bf16
.param w, gm, bf16
.param y, gm, bf16
.param xn, gm, bf16
.param M, int
.param K, int
.param N, int
.param eps, f32
.param variant, int

# ================================================================ AIV stage (RMSNorm)
.include "lib/rmsnorm_macros.inc"   # UB layout and the AIV-stage macros (as kernels/rmsnorm.s)


# ---------------------------------------------------------------- AIC definitions
.equ MB_MAX,   128          # rows of an output unit / block
.equ UW_MAX,   128          # max columns of a unit (a block is at most two units)
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
.reg rPair, r8      # 1 when blocks may pair two units
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
    div   \m0, \u, rNU
    mul   \n0, \m0, rNU
    sub   \n0, \u, \n0              # unit column
    mov   \wu, 1
    beq   rPair, 0, one\@
    add   rGs, \u, 1
    bge   rGs, rUend, one\@
    add   rGs, \n0, 1
    beq   rGs, rNU, one\@
    mov   \wu, 2
one\@:
    shl   \m0, \m0, 7
    mul   \n0, \n0, rUW
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
    ldp   rGs, xn
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
# Live: r27 mCur, r28 nCur, r29 kc, r30 kk, r15 L1 row stride, r16 L1 x part.
.macro l0_step P
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

.aiv
.semantic rmsnorm
    ldp   rXg, x
    ldp   rGg, gamma
    ldp   rYg, xn
    mov   rBg, 0                    # no beta
    mov   rRg, 0                    # no rstd output
    ldp   rD, K
    ldp   rEps, eps
    ldp   rOpt, variant
    and   rOpt, rOpt, 1
    or    rOpt, rOpt, OPT_GAMMA
    rms_setup M
    rms_body bf16
    wait_flag vector, mte2, 0
    wait_flag vector, mte2, 1
    wait_flag vector, mte2, 2
    wait_flag mte3, vector, 0
    wait_flag mte3, vector, 1
.semantic handoff
    cc_set  mte3, 0, 0              # barrier over all AIVs, behind this AIV's last xn store
    cc_wait mte3, 0
    cc_set  mte3, 2, 1              # this cluster's AIC may read xn
    end

# ================================================================ AIC stage (Linear)
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
    bge   rLu, rUend, idle        # no unit for this AIC
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
    # ---- prologue: stream the W part of all but one L1 stage while the AIVs are still
    # normalising, then wait for their hand-off (cross-core flag 1, in MTE2: only xn loads wait)
    # and load the xn parts of the same stages (the cursor is walked again from the start).
    nstages rSlot
    sub   rSlot, rSlot, 1
pro_w:
    load_next 1
    add   rP, rP, 1
    bge   rP, rSlot, pro_wd
    blt   rLu, rUend, pro_w
pro_wd:
    cc_wait mte2, 1
    mov   rLu, rCu
    mov   rLj, 0
    mov   rLbuf, 0
pro_x:
    load_next 2
    sub   rP, rP, 1
    bne   rP, 0, pro_x
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
    end
idle:
    cc_wait   mte2, 1               # consume the hand-off even without work
    end
