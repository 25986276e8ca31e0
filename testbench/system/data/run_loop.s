# Test kernel of the run-limit and interrupt tests (testbench/system/run_limits_cli_test.cc,
# run_interrupt_cli_test.cc): every AIV loops `n` times (n = 0: forever), each iteration a vector
# op (mode 0) or a set_flag / wait_flag pair (mode 1), so the pipes keep retiring work and only
# the run limits (sim.max_instructions, sim.max_cycles) end the endless variant. y stays zero.
.kernel run_loop
.param y,    gm, f32
.param n,    int
.param mode, int

.aiv
    ldp     r1, n
    ldp     r2, mode
    mov     r3, 0
    mov     r4, f32(1.0)
loop:
    bne     r2, 0, flags
    vadds.f32 0, 0, r4, 64
    jmp     next
flags:
    set_flag  vector, mte3, 0
    wait_flag vector, mte3, 0
next:
    add     r3, r3, 1
    bne     r3, r1, loop
    end
