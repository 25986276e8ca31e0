#include "base/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>
#include <new>

namespace npu {

HugeChunk::HugeChunk() {
  // Twice the size, then the unaligned ends unmapped: an aligned chunk the kernel can back with
  // one huge page.
  const size_t span = 2 * kHugePageBytes;
  void* m = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t base = reinterpret_cast<uintptr_t>(m);
  const uintptr_t aligned = (base + kHugePageBytes - 1) & ~uintptr_t(kHugePageBytes - 1);
  if (aligned > base) munmap(m, aligned - base);
  if (const uintptr_t tail = base + span - (aligned + kHugePageBytes))
    munmap(reinterpret_cast<void*>(aligned + kHugePageBytes), tail);
  p_ = reinterpret_cast<unsigned char*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(p_, kHugePageBytes, MADV_HUGEPAGE);  // a hint: its failure changes nothing but speed
#endif
}

HugeChunk::~HugeChunk() {
  if (p_) munmap(p_, kHugePageBytes);
}

HugeChunk& HugeChunk::operator=(HugeChunk&& o) noexcept {
  if (this != &o) {
    if (p_) munmap(p_, kHugePageBytes);
    p_ = o.p_;
    o.p_ = nullptr;
  }
  return *this;
}

void advise_huge_pages(void* p, size_t n) {
#ifdef MADV_HUGEPAGE
  const uintptr_t b = reinterpret_cast<uintptr_t>(p);
  const uintptr_t first = (b + kHugePageBytes - 1) & ~uintptr_t(kHugePageBytes - 1);
  const uintptr_t last = (b + n) & ~uintptr_t(kHugePageBytes - 1);
  if (last > first) madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
  (void)p;
  (void)n;
#endif
}

}  // namespace npu
