#include "hw/mem/l2_protocol.h"

namespace npu::hw {

using isa::CacheHint;
using Kind = L2Outcome::Kind;

L2Outcome l2_access(L2Tags& tags, uint64_t block, const L2Access& a, bool full_line) {
  L2Outcome o;
  const int found = tags.find(block);
  o.present = found >= 0;
  o.way = o.present ? uint32_t(found) : 0;
  const bool bypass = a.hint == CacheHint::NoneCacheable;
  auto allocate = [&](bool dirty, bool fetch) {
    L2Tags::Fill fill = tags.insert(block, a, dirty);
    o.way = fill.way;
    o.evicted = fill.evicted;
    o.fetch = fetch;
  };
  if (!a.write) {
    if (o.present) {
      o.kind = Kind::ReadHit;
      if (!bypass) tags.touch(block, o.way, a);
    } else if (bypass) {
      o.kind = Kind::BypassRead;
    } else {
      o.kind = Kind::ReadMiss;
      allocate(false, true);
      o.prefetch_next = a.hint == CacheHint::Prefetch;
    }
  } else if (bypass) {
    o.kind = Kind::BypassWrite;
    if (o.present) {
      o.write_whole_line = tags.dirty(block, o.way);
      tags.set_dirty(block, o.way, false);
    }
  } else if (o.present) {
    o.kind = Kind::WriteHit;
    tags.touch(block, o.way, a);
    tags.set_dirty(block, o.way, true);
  } else {
    o.kind = Kind::WriteMiss;
    allocate(true, !full_line);
  }
  return o;
}

std::optional<L2Tags::Fill> l2_prefetch(L2Tags& tags, uint64_t block, uint32_t region) {
  if (tags.find(block) >= 0) return std::nullopt;
  return tags.insert(block, L2Access{CacheHint::Prefetch, region, false, true}, false);
}

}  // namespace npu::hw
