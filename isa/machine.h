#pragma once
// What the ISA layer (semantics, ISS) needs to know of the machine it runs on. The ISA owns the
// description; hw::HwConfig embeds it (HwConfig::buffers is a BufferDesc) and fills it from the
// YAML (hw/config/schema.cc), so no number here has a value of its own in C++.
#include <cstdint>

#include "isa/isa.h"

namespace npu::isa {

// Capacities (bytes) and alignments (bytes) of one core's local buffers.
struct BufferDesc {
  uint64_t l1 = 0, l0a = 0, l0b = 0, l0c = 0, bias_table = 0, fixpipe = 0, ub = 0;
  uint32_t l1_align = 32, l0a_align = 512, l0b_align = 512, l0c_align = 64, bias_table_align = 64,
           fixpipe_align = 128, ub_align = 32;
};

struct MachineDesc {
  Arch arch = Arch::A2;
  int aiv_per_cluster = 2;  // a cluster is 1 AIC + this many AIVs
  BufferDesc buffers;
  // The run limit both backends apply (sim.max_instructions): instructions the scalar units
  // issue before the run ends as a hang.
  uint64_t max_instructions = 0;
};

}  // namespace npu::isa
