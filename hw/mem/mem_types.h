#pragma once
// Address geometry of the L2 and small value types shared by the memory system.
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>

#include "hw/config/hw_config.h"
#include "hw/mem/divisor.h"
#include "hw/pluggable/slice_mapping.h"
#include "isa/types.h"

namespace npu::hw {

// "0x1f00" (for error messages).
inline std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// One line request (a line or part of one) as the memory system's models serve it: what a TLM
// payload and its MemExtension carry. MemSystem's own modules pass it to each other by direct
// call (GmPort -> Interconnect -> L2Slice -> Hbm): the same arithmetic in the same order as
// through their TLM sockets, without a socket hop, a payload or an sc_time per layer.
struct LineRequest {
  uint64_t addr = 0;
  uint64_t bytes = 0;
  bool write = false;
  isa::CacheHint hint = isa::CacheHint::Normal;  // after the region override
  uint32_t region = 0;
  uint64_t accepted = 0;  // out, writes: tick the line crossed the core's link (Interconnect)
};

// A byte range of global memory.
struct GmRange {
  uint64_t addr = 0;
  uint64_t bytes = 0;
};

// Where a line lives. The L2 has `sets` sets in all (l2_total_sets: any l2.size), dealt
// round-robin to the slices: global line n has global set g = n % sets and tag t = n / sets; g
// lies in row r = g / slices, column c = g % slices. The rows every slice has (r < full_rows)
// go through the slice mapping (L2Config::slice_mapping permutes the columns of each row, keyed
// by row number t * full_rows + r, which is n / slices when slices divide sets); the last,
// partial row (when they do not) stays in column order. In its slice the line is block
// t * sets_of(slice) + r, i.e. local set r and tag t. With modulo and slices dividing sets this
// is plain interleaving: slice n % slices, block n / slices.
struct L2Geometry {
  uint32_t line = 0, slices = 0, ways = 0;
  uint64_t sets = 0;         // whole L2
  uint64_t full_rows = 0;    // sets / slices: the sets every slice has
  uint32_t extra = 0;        // sets % slices: slices [0, extra) hold one more
  std::shared_ptr<const SliceMapping> mapping;  // set by from()

  // Checks the L2Config with the loader's rules (l2_rules.h); throws npu::Error otherwise.
  static L2Geometry from(const L2Config& cfg);

  uint32_t sets_of(uint32_t slice) const { return static_cast<uint32_t>(full_rows + (slice < extra)); }
  uint64_t line_index(uint64_t addr) const { return line_div_.div(addr); }
  // The slice holding addr's line and the line's block there, in one pass.
  struct Location {
    uint32_t slice;
    uint64_t block;
  };
  Location locate(uint64_t addr) const {
    const Place p = place(line_index(addr));
    const uint32_t s = p.row < full_rows ? mapping->slice_of(p.column, p.tag * full_rows + p.row) : p.column;
    return Location{s, p.tag * sets_of(s) + p.row};
  }
  uint32_t slice_of(uint64_t addr) const { return locate(addr).slice; }
  uint64_t block_of(uint64_t addr) const { return locate(addr).block; }
  uint64_t line_base(uint64_t addr) const { return addr - line_div_.mod(addr); }
  // First byte of a slice-local block (for write-backs of victims).
  uint64_t block_addr(uint32_t slice, uint64_t block) const {
    const bool full = slice >= extra;  // a slice of full_rows sets
    const uint64_t tag = full ? rows_div_.div(block) : block / sets_of(slice);
    const uint64_t row = full ? rows_div_.mod(block) : block % sets_of(slice);
    const uint32_t column = row < full_rows ? mapping->column_of(slice, tag * full_rows + row) : slice;
    return (tag * sets + row * slices + column) * static_cast<uint64_t>(line);
  }

 private:
  struct Place {
    uint64_t tag, row;
    uint32_t column;
  };
  Place place(uint64_t n) const {
    const uint64_t g = sets_div_.mod(n);
    return Place{sets_div_.div(n), slices_div_.div(g), static_cast<uint32_t>(slices_div_.mod(g))};
  }
  // line, sets, slices, full_rows as divisors (from() sets them)
  Divisor line_div_, sets_div_, slices_div_, rows_div_;
};

}  // namespace npu::hw
