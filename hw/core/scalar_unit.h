#pragma once
// The scalar unit of a core: fetches in order and runs sem::step_scalar.
//   scalar instruction   ScalarConfig::{alu,mul,div,fp,branch} cycles (by timing class)
//   dispatch             ScalarConfig::dispatch cycles, then the instruction is in the pipe's
//                        queue; if the queue is full when the scalar unit is ready, it stalls
//                        (queue_full) until the pipe takes an instruction
//   sync on SCALAR       CoreModel::run_sync on the scalar unit itself
//   barrier              waits until the selected pipes have drained (barrier stall), + sync cycles
//   end                  waits until every pipe has drained (barrier stall); the core ends then
// Scalar-only instructions touch registers alone, so their cycles are accumulated locally and
// paid with one wait before the next interaction with the rest of the core (exact, and far
// fewer context switches); the accumulation is flushed at least every kMaxLocalCycles so a
// scalar-only loop still lets time advance (and the watchdog fire).
#include <cstdint>

#include <systemc>

#include "hw/core/unit_stats.h"
#include "isa/types.h"

namespace npu::hw {

class CoreModel;

class ScalarUnit : public sc_core::sc_module {
 public:
  static constexpr uint64_t kMaxLocalCycles = 4096;
  ScalarUnit(sc_core::sc_module_name name, CoreModel& core);

 private:
  void run();
  void flush();                 // pay the locally accumulated cycles
  void wait_drained(isa::PipeSel sel, UnitWait why);

  CoreModel& core_;
  uint64_t local_ticks_ = 0;
};

}  // namespace npu::hw
