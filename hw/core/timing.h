#pragma once
// How long a pipe instruction takes: pure functions of the configuration and the instruction's
// shape (sem::shape_of), testable without a SystemC kernel. Every figure comes from HwConfig.
//
//   cube    mmad:    startup + ceil(m/m0) * ceil(n/n0) * ceil(k/k0(dtype))
//                    k0: bf16/f16 -> k0_b16, s8 -> k0_s8, f32 -> k0_f32; mmad_mx (fp8) -> k0_fp8
//   vector           max(min_cycles, ceil(startup + passes * repeats * cycles_per_repeat(class, dtype)))
//                    repeats: element-wise ops ceil(count * esize / repeat_bytes), esize = the
//                    instruction's dtype size (vcast: sdt, the source, sem::shape_of); row ops (vrsum,
//                    vrmax, vramax, vrow, vcol) rows * ceil(cols * esize / repeat_bytes), since a
//                    row never shares a repeat with the next one (rows are `stride` apart).
//                    dtype for the lookup: dt; vcast: sdt (VectorConfig::cycles).
//                    passes (vector_passes()): 1 for every op, because the configured
//                    cycles_per_repeat are measured per instruction (msKPP), internal passes
//                    included (vrsqrt, vrec: VecUnary 1.0); except vramax 2: the hardware has no
//                    abs-max reduction, it is an abs pass followed by the row-max pass.
//   local MTE path   startup + ceil(bytes / bytes_per_cycle)     (L1->L0A/L0B, L1->FB, a5 paths)
//                    L1->L0A/L0B with trans = 1: bytes / trans_bytes_per_cycle
//   GM MTE path      see PipeUnit: the own part above, overlapped with the GmPort transfer.
// Durations are whole cycles (rounded up), so every pipe event lands on a cycle boundary.
#include <cstdint>

#include "hw/config/hw_config.h"
#include "isa/sem/dispatched.h"
#include "isa/sem/shape.h"

namespace npu::hw {

// Which data path an instruction uses, or nullptr for cube/vector/scalar/sync instructions.
const PathConfig* path_of(const MteConfig& mte, isa::TimingClass c);
// True for the paths whose far side is GM (mov_gm_ub, mov_gm_l1, mov_gm_l1_nz, mov_ub_gm, fix).
bool is_gm_path(isa::TimingClass c);

uint32_t cube_k0(const CubeConfig& cube, isa::Dtype dt);
// The whole chip's cube peak for inputs of dtype dt: 2 * clusters * m0 * n0 * k0(dt) * clock.
double cube_peak_tflops(const HwConfig& hw, isa::Dtype dt);
uint64_t cube_cycles(const CubeConfig& cube, const sem::InstrShape& s);

int vector_passes(isa::Op op);
uint64_t vector_repeats(const VectorConfig& v, const sem::DispatchedInstr& di, const sem::InstrShape& s);
uint64_t vector_cycles(const VectorConfig& v, const sem::DispatchedInstr& di, const sem::InstrShape& s);

// max(min_cycles, startup + ceil(bytes / bytes_per_cycle)); a transposing tile load (trans)
// moves at trans_bytes_per_cycle where the path has one.
uint64_t path_cycles(const PathConfig& p, uint64_t bytes, bool trans = false);

// Cycles of any non-scalar, non-sync instruction when it does not touch GM, or the path's own
// part (startup + bytes / rate) when it does.
uint64_t own_cycles(const HwConfig& hw, const sem::DispatchedInstr& di, const sem::InstrShape& s);

// Cycles the scalar unit spends on one instruction it executes itself (by timing class).
uint32_t scalar_cycles(const ScalarConfig& sc, isa::TimingClass c);

// Multiply-accumulates of an mmad / mmad_mx (m * n * k), 0 for anything else.
uint64_t macs_of(const sem::DispatchedInstr& di, const sem::InstrShape& s);
// FLOPs of an instruction by its table row's flops column: elements, or 2 per MAC, or 0.
uint64_t flops_of(const sem::DispatchedInstr& di, const sem::InstrShape& s);

}  // namespace npu::hw
