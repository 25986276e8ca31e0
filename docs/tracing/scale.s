# scale.s -- y = scale * x (fp32) through UB, the worked example of docs/tracing.md.
# Each AIV of the launch streams `tiles` tiles of 16 KiB: MTE2 loads a tile (GM -> UB), VECTOR
# scales it into an output buffer, MTE3 stores it (UB -> GM).
#   double_buffer = 1: tiles alternate between two input and two output buffers (flag ids 0 and
#                      1), so MTE2 loads tile i+1 while VECTOR works on tile i and MTE3 stores
#                      tile i-1.
#   double_buffer = 0: the "broken" variant: every tile uses buffer 0 and flag id 0, so a load
#                      waits for the previous tile's vector op and a vector op for the previous
#                      store: the three pipes take turns.
# Sync per buffer b: vector->mte2 b "input b free" (preset), mte2->vector b "input b loaded",
# vector->mte3 b "output b ready", mte3->vector b "output b free" (preset).
.kernel scale
.param x, gm, f32
.param y, gm, f32
.param tiles, int               # per AIV, even
.param scale, f32
.param double_buffer, int

.equ TB, kib(16)                # tile bytes
.equ TE, 4096                   # tile elements (f32)
.equ IN0, 0x0
.equ IN1, 0x4000
.equ OUT0, 0x8000
.equ OUT1, 0xC000

.macro tile IN, OUT, ID
    wait_flag vector, mte2, \ID
    mov_gm_ub \IN, r6, 1, r12, 0, 0
    set_flag  mte2, vector, \ID
    wait_flag mte2, vector, \ID
    wait_flag mte3, vector, \ID
    vmuls.f32 \OUT, \IN, r13, r14
    set_flag  vector, mte2, \ID
    set_flag  vector, mte3, \ID
    wait_flag vector, mte3, \ID
    mov_ub_gm r7, \OUT, 1, r12, 0, 0
    set_flag  mte3, vector, \ID
    add   r6, r6, r12
    add   r7, r7, r12
.endm

.aiv
.semantic setup
    getsr r1, block_idx
    getsr r2, subblock_dim
    getsr r3, subblock_idx
    mul   r1, r1, r2
    add   r1, r1, r3            # AIV index
    ldp   r4, tiles
    mul   r5, r1, r4
    shl   r5, r5, 14            # byte offset of this AIV's first tile (tiles * 16 KiB)
    ldp   r6, x
    add   r6, r6, r5
    ldp   r7, y
    add   r7, r7, r5
    mov   r12, TB
    ldp   r13, scale
    mov   r14, TE
    mov   r8, 0
    ldp   r15, double_buffer
    set_flag vector, mte2, 0
    set_flag vector, mte2, 1
    set_flag mte3, vector, 0
    set_flag mte3, vector, 1
.semantic stream
    beq   r15, 0, single
pair:
    bge   r8, r4, drain
    tile  IN0, OUT0, 0
    tile  IN1, OUT1, 1
    add   r8, r8, 2
    jmp   pair
single:
    bge   r8, r4, drain
    tile  IN0, OUT0, 0
    add   r8, r8, 1
    jmp   single
drain:
.semantic drain
    wait_flag vector, mte2, 0
    wait_flag vector, mte2, 1
    wait_flag mte3, vector, 0
    wait_flag mte3, vector, 1
    end
