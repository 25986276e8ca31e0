#pragma once
// Address geometry of the L2 and small value types shared by the memory system.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "hw/config/hw_config.h"
#include "hw/pluggable/slice_mapping.h"

namespace npu::hw {

// "0x1f00" (for error messages).
inline std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// A byte range of global memory.
struct GmRange {
  uint64_t addr = 0;
  uint64_t bytes = 0;
};

// Lines are spread across slices: global line n = addr / line lives in slice mapping.slice_of(n)
// (L2Config::slice_mapping; modulo: n % slices) as slice-local block n / slices, which maps to
// set block % sets with tag block / sets.
struct L2Geometry {
  uint32_t line = 0, slices = 0, sets = 0, ways = 0;
  std::shared_ptr<const SliceMapping> mapping;  // set by from()

  // Validates the L2Config (size = slices * sets * ways * line); throws npu::Error otherwise.
  static L2Geometry from(const L2Config& cfg);

  uint64_t line_index(uint64_t addr) const { return addr / line; }
  uint32_t slice_of(uint64_t addr) const { return mapping->slice_of(line_index(addr)); }
  uint64_t block_of(uint64_t addr) const { return line_index(addr) / slices; }
  uint64_t line_base(uint64_t addr) const { return addr - addr % line; }
  // First byte of a slice-local block (for write-backs of victims).
  uint64_t block_addr(uint32_t slice, uint64_t block) const {
    return mapping->line_of(slice, block) * static_cast<uint64_t>(line);
  }
};

}  // namespace npu::hw
