#pragma once
// The scalar unit's view of an instruction: fetch, execute scalar-pipe instructions, and
// classify everything else (dispatch into a pipe, barrier, end).
//
// Scalar semantics (instructions.def): 64-bit wrapping integer ALU; div/rem signed toward zero
// (division by zero is a fault; INT64_MIN / -1 wraps); shifts use src & 63; fadd/fsub/fmul/
// fdiv/fsqrt act on the low 32 bits as fp32 (RNE, result zero-extended); itof rounds RNE;
// ftoi truncates toward zero and saturates to int64 (NaN -> 0); ldp reads a kernel parameter;
// ldub a sign-extended int32 of UB (4-byte aligned, in bounds, else a fault); getsr a special register; branches compare signed 64-bit values.
#include <cstdint>

#include "isa/isa.h"
#include "isa/program.h"
#include "isa/sem/core_state.h"
#include "isa/sem/dispatched.h"

namespace npu::sem {

// The instruction at core.pc; a fault when pc is past the end of the section (the core ran
// off its code without `end`).
const isa::Instr& fetch(const CoreState& core, const isa::CodeSection& code);

struct ScalarOutcome {
  enum class Kind : uint8_t {
    Next,        // executed on the scalar unit (registers written); continue at next_pc
    Dispatch,    // push `di` into the queue of pipe `pipe`, then continue at next_pc
    SyncScalar,  // a sync op whose pipe is SCALAR (set_flag scalar,..., wait_flag ...,scalar,
                 // cc_set/cc_wait scalar): the scalar unit itself executes `di` via sync.h,
                 // blocking while it cannot complete; then next_pc
    Barrier,     // wait until the pipes selected by `barrier` have drained, then next_pc
    End,         // wait until every pipe has drained, then the core has ended
  };
  Kind kind = Kind::Next;
  uint32_t next_pc = 0;
  isa::Pipe pipe = isa::Pipe::Scalar;         // Dispatch / SyncScalar
  isa::PipeSel barrier = isa::PipeSel::All;   // Barrier
  DispatchedInstr di;                         // Dispatch / SyncScalar
};

// Executes or classifies `in`, the instruction at core.pc. Does NOT change core.pc: the caller
// commits next_pc once it accepts the outcome. For kinds other than Next it has no side
// effect, so a caller that cannot accept it yet (queue full, barrier pending) may call it again
// later. Faults (npu::Error): an instruction not available on this core type or architecture,
// division by zero, a parameter index out of range.
ScalarOutcome step_scalar(CoreState& core, const isa::Instr& in);

// Instruction classes.
bool is_scalar_op(isa::Op op);  // executes on the scalar unit itself (kind Next/Barrier/End)
bool is_sync_op(isa::Op op);    // set_flag, wait_flag, cc_set, cc_wait (pipe from an operand)
bool is_data_op(isa::Op op);    // everything execute() handles (DMA, cube, fixpipe, vector)

}  // namespace npu::sem
