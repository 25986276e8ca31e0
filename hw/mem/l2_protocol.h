#pragma once
// The cache protocol of one L2 slice as a plain function of the tags and one access, without
// time: lookup, hit or miss, allocation (write-back, write-allocate), eviction, bypass of
// none_cacheable accesses and the write-back decision for a bypassing write. L2Slice (the TLM
// timing shell) turns the outcome into MSHR, port and HBM timelines; l2_slice.h gives the
// timing of each case.
#include <cstdint>
#include <optional>

#include "hw/mem/l2_tags.h"

namespace npu::hw {

struct L2Outcome {
  enum class Kind {
    ReadHit,      // served from L2 (a none_cacheable read hit leaves replacement state alone)
    ReadMiss,     // line allocated; its data must be fetched (fetch = true)
    BypassRead,   // none_cacheable read miss: the bytes come from HBM, nothing allocated
    WriteHit,     // line now dirty
    WriteMiss,    // line allocated dirty; fetched to merge unless the write covers it (fetch)
    BypassWrite,  // none_cacheable write: goes to HBM; a present line is updated in place
  };
  Kind kind = Kind::ReadHit;
  bool present = false;  // the line was in L2 before the access
  uint32_t way = 0;      // of the present or the allocated line
  bool fetch = false;    // the whole line must be read from HBM (an allocating miss)
  // BypassWrite to a dirty line: the merged whole line goes to HBM and the line is now clean.
  bool write_whole_line = false;
  L2Tags::Evicted evicted;  // what an allocation displaced (valid = false: nothing)
  // A prefetch-hinted read miss: the shell also fetches the next l2.prefetch_lines lines
  // (l2_prefetch on each; they may live in other slices).
  bool prefetch_next = false;
};

// Applies access a to block (slice-local) in tags; full_line: the access covers the whole line.
L2Outcome l2_access(L2Tags& tags, uint64_t block, const L2Access& a, bool full_line);

// A prefetch fill of block for region: allocates it clean (policy sees hint prefetch,
// prefetch_fill = true) and returns the fill; nothing (nullopt) when the line is present.
std::optional<L2Tags::Fill> l2_prefetch(L2Tags& tags, uint64_t block, uint32_t region);

}  // namespace npu::hw
