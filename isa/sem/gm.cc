#include "isa/sem/gm.h"

#include <algorithm>
#include <cstring>

#include "isa/error.h"

namespace npu::sem {

const GmRegion& GlobalMemory::add_region(const std::string& name, uint64_t base, uint64_t size) {
  if (size == 0) throw Error("GM region '" + name + "' has size 0");
  if (base + size < base || (capacity_ && base + size > capacity_))
    throw Error("GM region '" + name + "' ends beyond the GM capacity");
  for (const auto& r : regions_) {
    if (r.name == name) throw Error("GM region '" + name + "' registered twice");
    if (base < r.end() && r.base < base + size)
      throw Error("GM region '" + name + "' overlaps region '" + r.name + "'");
  }
  auto it = std::upper_bound(regions_.begin(), regions_.end(), base,
                             [](uint64_t b, const GmRegion& r) { return b < r.base; });
  return *regions_.insert(it, GmRegion{name, base, size});
}

const GmRegion* GlobalMemory::region_at(uint64_t addr) const {
  auto it = std::upper_bound(regions_.begin(), regions_.end(), addr,
                             [](uint64_t a, const GmRegion& r) { return a < r.base; });
  if (it == regions_.begin()) return nullptr;
  --it;
  return addr < it->end() ? &*it : nullptr;
}

const GmRegion* GlobalMemory::region_named(const std::string& name) const {
  for (const auto& r : regions_)
    if (r.name == name) return &r;
  return nullptr;
}

bool GlobalMemory::access_ok(uint64_t addr, uint64_t bytes) const {
  if (bytes == 0) return true;
  if (addr + bytes < addr) return false;
  if (capacity_ && addr + bytes > capacity_) return false;
  if (regions_.empty()) return true;
  const GmRegion* r = region_at(addr);
  return r && addr + bytes <= r->end();
}

uint8_t* GlobalMemory::chunk_for_write(uint64_t index) {
  auto it = chunks_.find(index);
  if (it == chunks_.end()) it = chunks_.emplace(index, HugeChunk()).first;  // zero-filled by the OS
  return it->second.data();
}

void GlobalMemory::read(uint64_t addr, void* dst, uint64_t bytes) const {
  auto* out = static_cast<uint8_t*>(dst);
  while (bytes) {
    uint64_t off = addr % kChunkBytes;
    uint64_t n = std::min(bytes, kChunkBytes - off);
    auto it = chunks_.find(addr / kChunkBytes);
    if (it == chunks_.end())
      std::memset(out, 0, n);
    else
      std::memcpy(out, it->second.data() + off, n);
    out += n;
    addr += n;
    bytes -= n;
  }
}

void GlobalMemory::write(uint64_t addr, const void* src, uint64_t bytes) {
  auto* in = static_cast<const uint8_t*>(src);
  while (bytes) {
    uint64_t off = addr % kChunkBytes;
    uint64_t n = std::min(bytes, kChunkBytes - off);
    std::memcpy(chunk_for_write(addr / kChunkBytes) + off, in, n);
    in += n;
    addr += n;
    bytes -= n;
  }
}

std::vector<uint8_t> GlobalMemory::read_bytes(uint64_t addr, uint64_t bytes) const {
  std::vector<uint8_t> v(bytes);
  read(addr, v.data(), bytes);
  return v;
}

void GlobalMemory::fill(uint64_t addr, uint8_t value, uint64_t bytes) {
  while (bytes) {
    uint64_t off = addr % kChunkBytes;
    uint64_t n = std::min(bytes, kChunkBytes - off);
    std::memset(chunk_for_write(addr / kChunkBytes) + off, value, n);
    addr += n;
    bytes -= n;
  }
}

}  // namespace npu::sem
