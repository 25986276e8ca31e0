#pragma once
// What the trace sinks (Chrome trace, CSV, label statistics) receive: an InstrRecord resolved by
// the TraceSession into names, disassembly, label and memory traffic. Plain data; the string
// views point into the session's caches and stay valid until the session ends.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hw/core/trace_observer.h"
#include "isa/types.h"

namespace npu::hw {

struct TraceEvent {
  int core = 0;                          // index into TraceLayout::cores (launch order)
  isa::Pipe unit = isa::Pipe::Scalar;
  bool dispatch = false;                 // SCALAR dispatching an instruction to `target`
  isa::Pipe target = isa::Pipe::Scalar;
  uint32_t pc = 0;
  isa::Op op = isa::Op::NOP;
  std::string_view mnemonic, disasm, label;
  std::string_view source;               // "kernels/x.s:12 (via ...)" (Program::where), "" if unknown
  int label_id = 0;                      // index into TraceLayout::labels (0 = no label)
  uint64_t dispatch_cycle = 0;           // pipe instructions: when it entered the queue; else start
  uint64_t start = 0, end = 0;           // busy [start, end)
  uint64_t stall = 0;
  StallReason reason = StallReason::None;
  std::string_view wait_what;            // for waits: "MTE2 -> VECTOR id 0", "cc id 3", ...
  uint64_t bytes = 0;                    // data moved (DMA, tile loads, fix); 0 for compute
  uint64_t flops = 0;                    // cube: 2 m n k; vector arithmetic: elements
  uint64_t l2_hits = 0, l2_misses = 0, l2_bypass = 0, hbm_bytes = 0;  // GM paths
};

struct TraceCore {
  std::string name;                      // "cluster0.aiv1"
  isa::CoreType type = isa::CoreType::Aic;
};

// Names the sinks need: cores in launch order, labels ("" first), the clock.
struct TraceLayout {
  std::vector<TraceCore> cores;
  std::vector<std::string> labels;
  double clock_ghz = 1;
};

}  // namespace npu::hw
