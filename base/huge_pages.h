#pragma once
// Memory for large host buffers in transparent huge pages where the kernel gives them: a first
// touch then costs one fault per 2 MiB instead of one per 4 KiB page (a GM image of tens of MiB
// was thousands of page faults, a visible share of a small run's time; docs/performance.md).
// Only a hint: on a kernel without transparent huge pages the memory is the same, in small pages.
#include <cstddef>

namespace npu {

inline constexpr size_t kHugePageBytes = size_t(2) << 20;

// `kHugePageBytes` of zeroed memory aligned to kHugePageBytes, advised for huge pages; freed by
// the destructor. Throws std::bad_alloc when the mapping fails.
class HugeChunk {
 public:
  HugeChunk();
  ~HugeChunk();
  HugeChunk(HugeChunk&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
  HugeChunk& operator=(HugeChunk&& o) noexcept;
  HugeChunk(const HugeChunk&) = delete;
  HugeChunk& operator=(const HugeChunk&) = delete;
  unsigned char* data() const { return p_; }

 private:
  unsigned char* p_ = nullptr;
};

// Advises the whole huge pages inside [p, p + n) (nothing when there are none): call before the
// first touch, e.g. between a vector's reserve() and its resize().
void advise_huge_pages(void* p, size_t n);

}  // namespace npu
