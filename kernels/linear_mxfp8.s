# linear_mxfp8.s -- AT-09 MXFP8 Linear in one launch (V -> C), a5 (configs/ascend950.yaml):
#   xq, xs = mx_quantize(x, e4m3)                  (AIVs: OCP MX, E8M0 floor scale per 32 along K)
#   y      = bf16(sum_k (xq * 2^xs) (w * 2^ws))    (AICs: mmad_mx, fp32 accumulation in L0C)
#
# Params (in order):
#   x        gm bf16 [M, K]        activations
#   w        gm e4m3 [N, K]        weight elements, row-major (b_trans), already MXFP8
#   ws       gm e8m0 [N, K/32]     weight block scales
#   y        gm bf16 [M, N]        output
#   xw       gm u8 [ceil(K/KC), ceil16(M), KC + 32]   workspace (via_l1 = 0): the quantised x in
#                                  the AICs' L1 stage layout, each row's KC e4m3 elements followed
#                                  by its KC/32 E8M0 scales (kernels/lib/gemm_mx.inc)
#   M        int >= 1              any value (via_l1 = 1: at most 128)
#   K        int >= 32             multiple of 32 (else the shape check faults: see bad_shape; the
#                                  case file's `checks` refuse such shapes with the reason first)
#   N        int >= 16             multiple of 16
#   KC       int                   chunk along K (one L1 stage, one mmad_mx): a multiple of 32, at
#                                  most 1024, with max(ceil16(block rows), block columns) * KC <=
#                                  31744 (an L0 half beside its scales), e.g. 512 at M = 16 (blocks
#                                  of 16 x 48 on 36 AICs), 224 for 128 x 128 blocks, 96 for
#                                  128 x 256 pairs; the AIVs chunk x by the same KC
#   via_l1   int                   0: hand-off through GM; 1: UB -> L1 directly (mov_ub_l1)
# Launch: AIC + AIV (mixed); any block_dim (1 .. chip.clusters).
#
# Stages:
#   1. AIV "quant": tiles of R rows x one chunk of KC columns (a tile = one AIC chunk's x part);
#      MTE2 loads the bf16 tile, VECTOR quantises it (mx_quant_e4m3, kernels/lib/quant_macros.inc),
#      MTE3 stores the e4m3 elements and the scale rows in the AICs' stage layout (rows of
#      KC + 32 bytes, kernels/lib/gemm_mx.inc):
#        via_l1 = 0: the tiles of all of x are split over all AIVs and stored to xw in GM;
#        via_l1 = 1: each cluster's two AIVs quantise all of x (M <= 128) and write it into
#        their AIC's L1 with mov_ub_l1.
#      UB: XB bf16 [R, KC] at 0, X32 fp32 [R, KC], QB e4m3 [R, KC], AM bf16 [R, 32], A32 and SF
#      fp32 [R, 32], SB e8m0 [R, 32]; R = min(M, UB / (7 KC + 352), ceil(M * chunks / AIVs
#      sharing x)): the block amax (vrmax, 7 cycles per block of 32) dominates the vector time,
#      so the tiles are spread over every AIV (decode, through GM: 2-row tiles on 64 of the 72).
#   2. AIV "handoff": via_l1 = 0: a barrier over all AIVs behind the last store (cc_set mte3
#      mode 0 id 0 / cc_wait), then mode 2 id 1 to the cluster's AIC (every AIC reads all rows);
#      via_l1 = 1: mode 2 id 1 only (the cluster's own AIVs wrote its x).
#   3. AIC "linear": kernels/lib/gemm_mx.inc (gemm_aic.inc's work split and drain): W streams
#      from the start; x is resident at the top of L1 when it fits (M <= 128, 96 KiB): with
#      via_l1 = 0 MTE2 copies all of xw there in one DMA once flag 1 is in, with via_l1 = 1 the
#      AIVs wrote it (MTE1 waits for flag 1); a larger x comes per chunk from xw into the stages.
# Sync: AIV rings of one buffer, MTE2 <-> VECTOR 0 (XB) and VECTOR <-> MTE3 0 (QB, SB).
# Cache hints: x, xw and ws normal; w as linear.s (none_cacheable when M <= 128).

.kernel linear_mxfp8
.param x, gm, bf16
.param w, gm, e4m3
.param ws, gm, e8m0
.param y, gm, bf16
.param xw, gm, u8
.param M, int
.param K, int
.param N, int
.param KC, int
.param via_l1, int

.equ GEMM_ESH, 0            # e4m3 elements
.equ GEMM_YSH, 1            # bf16 y
.equ GEMM_L1_RESERVED, kib(96)   # the resident x of via_l1 = 1
.include "lib/gemm_mx.inc"
.include "lib/quant_macros.inc"

.aic
.semantic linear
    gemm_setup idle
    gemm_mx_fit bad_shape
    gemm_mx_prologue 1
    gemm_mx_loop
    end
idle:
    cc_wait mte2, 1                 # consume the hand-off even without work
    end
bad_shape:                          # the shape check failed (see the parameter rules above)
    div   r9, r9, r0

# ---------------------------------------------------------------- AIV stage (quantisation)
.reg vM, r1
.reg vK, r2
.reg vKC, r3
.reg vVia, r4
.reg vNch, r5       # chunks per row
.reg vR, r6         # rows per tile
.reg vIt, r7        # work item (row tile * nch + chunk)
.reg vEnd, r8
.reg vX32, r10      # UB offsets
.reg vQB, r11
.reg vAM, r12
.reg vA32, r13
.reg vSF, r14
.reg vSB, r15
.reg vC16, r16      # ceil16(M): rows of a resident chunk
# temporaries: r17 .. r31

.aiv
.semantic quant
    ldp   vM, M
    ldp   vK, K
    ldp   vKC, KC
    ldp   vVia, via_l1
    mx_check vM, vK, vKC, vVia, r17, r18, vbad
    add   vNch, vK, vKC
    sub   vNch, vNch, 1
    div   vNch, vNch, vKC
    mul   r17, vKC, 7
    add   r17, r17, 352
    mov   vR, CFG_UB_BYTES
    div   vR, vR, r17
    min   vR, vR, vM                # rows of a tile: what UB holds, ...
    getsr r18, subblock_dim
    beq   vVia, 0, sp
    mov   r17, r18                  # ... and small enough that the tiles reach every AIV sharing x
    jmp   sh
sp:
    getsr r17, block_dim
    mul   r17, r17, r18
sh:
    mul   r18, vM, vNch
    add   r18, r18, r17
    sub   r18, r18, 1
    div   r18, r18, r17             # ceil(M * nch / AIVs)
    min   vR, vR, r18
    add   vC16, vM, 15
    and   vC16, vC16, -16
    mul   vX32, vR, vKC
    shl   vX32, vX32, 1             # X32 after XB [R, KC] bf16
    mul   vQB, vR, vKC
    mul   r17, vQB, 4
    add   vQB, vX32, r17            # QB after X32 [R, KC] fp32
    mul   r17, vR, vKC
    add   vAM, vQB, r17
    shl   r17, vR, 6
    add   vA32, vAM, r17            # AM bf16 [R, 32]
    shl   r17, vR, 7
    add   vSF, vA32, r17            # A32 fp32 [R, 32]
    add   vSB, vSF, r17             # SF fp32 [R, 32], then SB e8m0 [R, 32]
    # items: row tiles x chunks; via_l1 = 0 over all AIVs, 1 over the cluster's two
    add   r17, vM, vR
    sub   r17, r17, 1
    div   r17, r17, vR
    mul   r17, r17, vNch            # items
    getsr r18, subblock_idx
    getsr r19, subblock_dim
    bne   vVia, 0, own
    getsr r20, block_idx
    mul   r20, r20, r19
    add   r18, r18, r20             # AIV index
    getsr r20, block_dim
    mul   r19, r19, r20             # all AIVs
own:
    mul   vIt, r17, r18
    div   vIt, vIt, r19
    add   r18, r18, 1
    mul   vEnd, r17, r18
    div   vEnd, vEnd, r19
    bge   vIt, vEnd, handoff
    ring_preset mte2, vector, 1
    ring_preset vector, mte3, 1
item:
    div   r17, vIt, vNch            # row tile
    mul   r18, r17, vNch
    sub   r18, vIt, r18             # chunk j
    mul   r19, r17, vR              # first row r0
    sub   r20, vM, r19
    min   r20, r20, vR              # rows
    mul   r21, r18, vKC             # first column c0
    sub   r22, vK, r21
    min   r22, r22, vKC             # columns kc
    mul   r23, r19, vK
    add   r23, r23, r21             # r0 * K + c0
    shl   r24, r23, 1
    ldp   r25, x
    add   r24, r24, r25
    shl   r25, vK, 1
    shl   r26, r22, 1
    wait_flag vector, mte2, 0
    mov_gm_ub 0, r24, r20, r26, r25, r26, normal
    set_flag  mte2, vector, 0
    wait_flag mte2, vector, 0
    wait_flag mte3, vector, 0
    mx_quant_e4m3 vQB, vSB, 0, vX32, vAM, vA32, vSF, r20, r22, r24, r25, r26, r27, r28
    set_flag  vector, mte2, 0
    set_flag  vector, mte3, 0
    wait_flag vector, mte3, 0
    shr   r24, r22, 5               # scales per row
    add   r26, vKC, 32              # row pitch of the stage layout
    mul   r25, r18, vC16
    add   r25, r25, r19
    mul   r25, r25, r26             # chunk j, row r0
    bne   vVia, 0, tol1
    ldp   r27, xw
    add   r25, r25, r27
    mov_ub_gm r25, vQB, r20, r22, r22, r26, normal
    add   r25, r25, vKC
    mov_ub_gm r25, vSB, r20, r24, 32, r26, normal
    jmp   stored
tol1:
    add   r25, r25, MX_XL1
    mov_ub_l1 r25, vQB, r20, r22, r22, r26
    add   r25, r25, vKC
    mov_ub_l1 r25, vSB, r20, r24, 32, r26
stored:
    set_flag  mte3, vector, 0
    add   vIt, vIt, 1
    blt   vIt, vEnd, item
    ring_drain mte2, vector, 1
    ring_drain vector, mte3, 1
.semantic handoff
handoff:
    bne   vVia, 0, mine
    cc_set  mte3, 0, 0              # barrier over all AIVs, behind this AIV's last store
    cc_wait mte3, 0
mine:
    cc_set  mte3, 2, 1              # this cluster's AIC may read x
    end
vbad:                               # the shape check failed (see the parameter rules above)
    div   r17, r17, r0
