#pragma once
// Global memory (GM): a sparse, byte-addressed store shared by every core of a launch.
// Pages are allocated on first write; reading never-written bytes gives 0.
//
// Regions (named tensors: name, base, size) make out-of-bounds GM accesses detectable: once at
// least one region is registered, an access must lie entirely inside ONE region, otherwise
// access_ok() is false and the instruction semantics raise a fault. region_at() is also what
// per-tensor statistics and per-tensor cache policies use to find the tensor of an address.
// read()/write() themselves are unchecked (the host uses them to load inputs and read outputs).
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/huge_pages.h"

namespace npu::sem {

struct GmRegion {
  std::string name;
  uint64_t base = 0;
  uint64_t size = 0;
  uint64_t end() const { return base + size; }
};

class GlobalMemory {
 public:
  // capacity: highest valid address + 1 (HbmConfig::size); 0 = no limit.
  explicit GlobalMemory(uint64_t capacity = 0) : capacity_(capacity) {}

  // Registers a tensor. Throws npu::Error on size 0, overlap with another region, a duplicate
  // name, or an end beyond the capacity.
  const GmRegion& add_region(const std::string& name, uint64_t base, uint64_t size);
  const std::vector<GmRegion>& regions() const { return regions_; }  // sorted by base
  const GmRegion* region_at(uint64_t addr) const;                    // nullptr if none
  const GmRegion* region_named(const std::string& name) const;       // nullptr if none

  // True when [addr, addr + bytes) may be accessed: inside the capacity and, when regions are
  // registered, inside a single region. bytes == 0 is always fine.
  bool access_ok(uint64_t addr, uint64_t bytes) const;

  void read(uint64_t addr, void* dst, uint64_t bytes) const;
  void write(uint64_t addr, const void* src, uint64_t bytes);
  std::vector<uint8_t> read_bytes(uint64_t addr, uint64_t bytes) const;
  void fill(uint64_t addr, uint8_t value, uint64_t bytes);

  uint64_t capacity() const { return capacity_; }
  uint64_t bytes_allocated() const { return chunks_.size() * kChunkBytes; }

  // Storage comes in chunks of kChunkBytes, zero until written, each in one transparent huge
  // page where the host gives them (base/huge_pages.h): writing a large tensor costs a fault per
  // chunk, not one per 4 KiB.
  static constexpr uint64_t kChunkBytes = kHugePageBytes;

 private:
  uint8_t* chunk_for_write(uint64_t chunk_index);
  uint64_t capacity_;
  std::vector<GmRegion> regions_;
  std::unordered_map<uint64_t, HugeChunk> chunks_;
};

}  // namespace npu::sem
