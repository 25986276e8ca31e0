#pragma once
// Synchronisation mutants of the flagship kernels, for the race checker's tests: every pair of
// a set_flag and a wait_flag of the same flag (src, dst, id) and core type, each named by its
// source line (kernels/*.s and their kernels/lib includes; a macro line counts once, however
// often it is expanded), is deleted (its instructions become nop, so no pc moves) in one mutant.
// The mutants run on the ISS with the race checker on at a few small shapes per kernel.
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "isa/program.h"

namespace npu::test {

struct SyncMutant {
  std::string name;      // "aiv: set_flag MTE2 -> VECTOR id 0 at lib/rmsnorm_macros.inc:65 + wait_flag ... at ..."
  isa::Program program;
  isa::CoreType type = isa::CoreType::Aiv;
  std::vector<uint32_t> set_pcs, wait_pcs;  // the deleted instructions
};
std::vector<SyncMutant> flag_pair_mutants(const isa::Program& p);

// How a run ended: completed silently, or the race checker / the ISS reported it.
enum class RunVerdict { Clean, Race, FlagLeftSet, Deadlock, Fault };
const char* verdict_name(RunVerdict v);
RunVerdict classify_run(const std::string& error);  // "" = the run completed

// Runs `program` (kernels/<kernel>.s or a mutant of it) on the ISS on the kernel's mutant config
// at the kernel's shape number `shape` (0 .. mutant_shapes(kernel) - 1), inputs zero, race
// checker on; returns "" or the error text.
// The config the kernel is assembled for and run on: configs/tiny.yaml (a2), or for an a5 kernel
// (linear_mxfp8) configs/ascend950.yaml cut to 2 clusters.
const hw::HwConfig& mutant_config(const std::string& kernel);
int mutant_shapes(const std::string& kernel);
std::string run_mutant(const std::string& kernel, const isa::Program& program, int shape);

// True when some shape's run of `program` reaches one of `pcs` of section `type` (probed by
// turning them into a division by zero).
bool reaches(const std::string& kernel, const isa::Program& program, isa::CoreType type,
             const std::vector<uint32_t>& pcs);

// The first verdict other than Clean over every shape (Clean when all pass).
RunVerdict judge_mutant(const std::string& kernel, const isa::Program& program, std::string* message = nullptr);

}  // namespace npu::test
