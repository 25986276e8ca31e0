# Streams each AIC's own bytes_per_core slice of src into a ring of L1 buffers with 64 KiB DMAs
# that bypass L2 (testbench/timing/hbm_saturation_test.cc).
.kernel hbm_stream
.param src, gm
.param bytes_per_core, int
.aic
    ldp     r1, src
    ldp     r2, bytes_per_core
    getsr   r3, block_idx
    mul     r4, r2, r3
    add     r1, r1, r4            # this core's slice
    mov     r5, 0                 # bytes issued
loop:
    and     r6, r5, 0x3FFFF       # ring of 4 x 64 KiB L1 buffers
    mov_gm_l1 r6, r1, 1, 0x10000, 0x10000, 0x10000, none_cacheable
    add     r1, r1, 0x10000
    add     r5, r5, 0x10000
    blt     r5, r2, loop
    end
