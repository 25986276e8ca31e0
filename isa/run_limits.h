#pragma once
// The run limits (the config keys sim.max_cycles and sim.max_instructions): the one wording of the
// error both backends raise when a run exceeds one, naming the key and how to raise it.
#include <cstdint>
#include <string>

namespace npu::isa {

// "run limit: the run needs more than sim.max_instructions = 1000 instructions (raise it with
// --set sim.max_instructions=N or --max-instructions N)"
inline std::string run_limit_exceeded(const std::string& key, uint64_t limit, const std::string& unit,
                                      const std::string& option) {
  return "run limit: the run needs more than " + key + " = " + std::to_string(limit) + " " + unit +
         " (raise it with --set " + key + "=N or " + option + " N)";
}

// Instructions the scalar units issue: every executed instruction once, dispatched or not.
inline std::string max_instructions_exceeded(uint64_t limit) {
  return run_limit_exceeded("sim.max_instructions", limit, "instructions", "--max-instructions");
}

// Simulated cycles (the SystemC model only: the ISS has no time).
inline std::string max_cycles_exceeded(uint64_t limit) {
  return run_limit_exceeded("sim.max_cycles", limit, "cycles", "--max-cycles");
}

}  // namespace npu::isa
