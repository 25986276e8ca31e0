#pragma once
// The counters of an L2 slice, kept once per slice and once per region (tensor). Every access
// lands in exactly one of read_hits, read_misses, write_hits, write_misses, bypass_reads,
// bypass_writes. Evictions and dirty write-backs are charged to the region that owned the
// victim line; everything else to the region of the access.
#include <cstdint>
#include <vector>

#include "hw/mem/stats.h"

namespace npu::hw {

struct L2Counters {
  uint64_t read_hits = 0, read_misses = 0, write_hits = 0, write_misses = 0;
  uint64_t hits_under_miss = 0;  // hits on a line whose fill had not returned yet (waited for it)
  uint64_t bypass_reads = 0;     // none_cacheable read misses served from HBM, not allocated
  uint64_t bypass_writes = 0;    // none_cacheable writes (always go to HBM)
  uint64_t writethrough_updates = 0;  // ... of which updated a present line
  uint64_t evictions = 0, dirty_writebacks = 0;
  uint64_t prefetch_fills = 0;  // lines fetched by next-line prefetch (not requester accesses)
  uint64_t normal_accesses = 0, none_cacheable_accesses = 0, prefetch_accesses = 0;  // by effective hint
  uint64_t bytes_read = 0, bytes_written = 0;  // requested bytes, as seen by the requesters

  uint64_t accesses() const {
    return read_hits + read_misses + write_hits + write_misses + bypass_reads + bypass_writes;
  }
  L2Counters& operator+=(const L2Counters& o);

  struct Field {
    uint64_t L2Counters::*member;
    const char* name;
    const char* unit;
    const char* description;
  };
  static const std::vector<Field>& fields();
};

// Registers every field of *c and the derived rates (hit_rate, read_hit_rate) in g.
void register_l2_counters(StatGroup& g, const L2Counters* c);
// Registers, as formulas, the sums over `parts` (for the L2 total).
void register_l2_totals(StatGroup& g, std::vector<const L2Counters*> parts);

}  // namespace npu::hw
