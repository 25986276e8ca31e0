#include "hw/mem/region_table.h"

#include <algorithm>

#include "isa/error.h"

namespace npu::hw {

uint32_t RegionTable::add(const std::string& name, uint64_t base, uint64_t bytes,
                          std::optional<isa::CacheHint> override_hint) {
  if (bytes == 0) throw Error("GM region '" + name + "' is empty");
  for (const Region& r : regions_) {
    if (r.name == name) throw Error("GM region '" + name + "' defined twice");
    if (base < r.base + r.bytes && r.base < base + bytes)
      throw Error("GM region '" + name + "' overlaps region '" + r.name + "'");
  }
  regions_.push_back(Region{name, base, bytes, override_hint});
  uint32_t id = static_cast<uint32_t>(regions_.size());
  by_base_.insert(std::upper_bound(by_base_.begin(), by_base_.end(), id,
                                   [&](uint32_t a, uint32_t b) {
                                     return regions_[a - 1].base < regions_[b - 1].base;
                                   }),
                  id);
  return id;
}

void RegionTable::set_override(uint32_t id, std::optional<isa::CacheHint> hint) {
  if (id == kNone || id > regions_.size()) throw Error("no GM region with id " + std::to_string(id));
  regions_[id - 1].override_hint = hint;
}

void RegionTable::set_override(const std::string& name, std::optional<isa::CacheHint> hint) {
  set_override(id_of(name), hint);
}

uint32_t RegionTable::id_of(const std::string& name) const {
  for (size_t i = 0; i < regions_.size(); ++i)
    if (regions_[i].name == name) return static_cast<uint32_t>(i + 1);
  throw Error("no GM region named '" + name + "'");
}

uint32_t RegionTable::lookup(uint64_t addr) const {
  uint64_t lo, hi;
  return lookup(addr, &lo, &hi);
}

uint32_t RegionTable::lookup(uint64_t addr, uint64_t* lo, uint64_t* hi) const {
  // Last region whose base <= addr, if addr falls inside it; else the gap between it and the next.
  auto it = std::upper_bound(by_base_.begin(), by_base_.end(), addr,
                             [&](uint64_t a, uint32_t id) { return a < regions_[id - 1].base; });
  *lo = 0;
  *hi = it == by_base_.end() ? UINT64_MAX : regions_[*it - 1].base;
  if (it == by_base_.begin()) return kNone;
  const Region& r = regions_[*std::prev(it) - 1];
  if (addr - r.base < r.bytes) {
    *lo = r.base;
    *hi = r.base + r.bytes;
    return *std::prev(it);
  }
  *lo = r.base + r.bytes;
  return kNone;
}

const std::string& RegionTable::name(uint32_t id) const {
  static const std::string none;
  return id == kNone || id > regions_.size() ? none : regions_[id - 1].name;
}

}  // namespace npu::hw
