#pragma once
// The local buffers of a core, listed once: their config keys (buffers.<key>.size and .align,
// declared by the schema and checked by the loader) and their kernel constants
// (CFG_<symbol>_BYTES and CFG_<symbol>_ALIGN, hw/config/kernel_symbols.h).
#include <array>

#include "hw/config/hw_config.h"

namespace npu::hw {

struct BufferRow {
  const char* key;     // "l1": buffers.l1.size, buffers.l1.align
  const char* symbol;  // "L1": CFG_L1_BYTES, CFG_L1_ALIGN
  uint64_t BufferConfig::*size;
  uint32_t BufferConfig::*align;
  const char* what;    // "AIC L1 buffer"
};

inline constexpr std::array<BufferRow, 7> kBufferRows = {{
    {"l1", "L1", &BufferConfig::l1, &BufferConfig::l1_align, "AIC L1 buffer"},
    {"l0a", "L0A", &BufferConfig::l0a, &BufferConfig::l0a_align, "AIC L0A (cube left operand)"},
    {"l0b", "L0B", &BufferConfig::l0b, &BufferConfig::l0b_align, "AIC L0B (cube right operand)"},
    {"l0c", "L0C", &BufferConfig::l0c, &BufferConfig::l0c_align, "AIC L0C (cube accumulator)"},
    {"bias_table", "BT", &BufferConfig::bias_table, &BufferConfig::bias_table_align, "AIC BiasTable"},
    {"fixpipe", "FB", &BufferConfig::fixpipe, &BufferConfig::fixpipe_align,
     "AIC FixPipe buffer (per-channel quant scales)"},
    {"ub", "UB", &BufferConfig::ub, &BufferConfig::ub_align, "AIV Unified Buffer"},
}};

}  // namespace npu::hw
