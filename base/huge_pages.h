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

// Zeroed, page-aligned blocks for buffers that are created and dropped together in numbers (a
// chip's local buffers: 72 cores x 7 buffers). Each used to be a mapping of its own, so every
// 4 KiB a kernel touched was a page fault (thousands per run, ~11 us each on a virtual machine).
// Blocks are carved in order from shared mappings advised for huge pages, so a first touch
// costs one fault per 2 MiB; a block of half a mapping or more gets a mapping of its own. Space
// is never handed out twice (a freed block is no longer zero): a mapping is returned to the
// OS when its last block is freed. Thread-safe. Throws std::bad_alloc when a mapping fails.
void* allocate_zeroed(size_t n);     // n > 0
void free_zeroed(void* p, size_t n);  // a block of allocate_zeroed(n); nullptr: nothing

// Lets the process heap use huge pages (call once, first thing in the process, before any
// thread): the heap grows in steps of `step` bytes (M_TOP_PAD) advised for huge pages, blocks up
// to 32 MiB come from it rather than from mappings of their own, and freed memory stays for
// reuse. A small run's host time was mostly first-touch page faults of its heap (L2 tag
// stores, tensors, the golden's buffers; docs/performance.md). Only speed changes; a C library
// other than glibc keeps its defaults.
void use_huge_pages_for_heap(size_t step = size_t(64) << 20);

}  // namespace npu
