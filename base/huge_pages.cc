#include "base/huge_pages.h"

#include <sys/mman.h>
#include <unistd.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

namespace npu {

namespace {

// n bytes (a multiple of kHugePageBytes) of zeroed memory aligned to kHugePageBytes, advised for
// huge pages: twice the size mapped, then the unaligned ends unmapped.
unsigned char* map_huge_aligned(size_t n) {
  const size_t span = n + kHugePageBytes;
  void* m = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t base = reinterpret_cast<uintptr_t>(m);
  const uintptr_t aligned = (base + kHugePageBytes - 1) & ~uintptr_t(kHugePageBytes - 1);
  if (aligned > base) munmap(m, aligned - base);
  if (const uintptr_t tail = base + span - (aligned + n)) munmap(reinterpret_cast<void*>(aligned + n), tail);
  auto* p = reinterpret_cast<unsigned char*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(p, n, MADV_HUGEPAGE);  // a hint: its failure changes nothing but speed
#endif
  return p;
}

size_t round_up(size_t n, size_t to) { return (n + to - 1) / to * to; }

// The shared mappings of allocate_zeroed: 32 MiB each (virtual; only touched huge pages cost).
class ZeroedArena {
 public:
  static constexpr size_t kMapBytes = size_t(32) << 20, kPage = 4096;

  void* allocate(size_t n) {
    n = round_up(n, kPage);
    if (n >= kMapBytes / 2) return map_huge_aligned(round_up(n, kHugePageBytes));
    std::lock_guard<std::mutex> lock(mu_);
    if (!current_ || used_ + n > kMapBytes) {
      current_ = map_huge_aligned(kMapBytes);
      used_ = 0;
      live_[current_] = 0;
    }
    void* p = current_ + used_;
    used_ += n;
    ++live_[current_];
    return p;
  }

  void free(void* p, size_t n) {
    n = round_up(n, kPage);
    if (n >= kMapBytes / 2) {
      munmap(p, round_up(n, kHugePageBytes));
      return;
    }
    release(p);
  }

 private:
  // One block of the mapping holding p fewer; the last one unmaps it.
  void release(void* p) {
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.upper_bound(static_cast<unsigned char*>(p));
    --it;  // the mapping holding p (allocate put it there)
    if (--it->second > 0) return;
    if (it->first == current_) current_ = nullptr;  // its free space may not be zero any more
    munmap(it->first, kMapBytes);
    live_.erase(it);
  }

  std::mutex mu_;
  unsigned char* current_ = nullptr;  // the mapping new blocks come from
  size_t used_ = 0;                   // bytes of it handed out
  std::map<unsigned char*, size_t> live_;  // every mapping with its count of blocks not freed
};

ZeroedArena& arena() {
  static ZeroedArena* a = new ZeroedArena;  // never destroyed: blocks may be freed at exit
  return *a;
}

}  // namespace

HugeChunk::HugeChunk() : p_(map_huge_aligned(kHugePageBytes)) {}

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

void* allocate_zeroed(size_t n) { return arena().allocate(n); }

void free_zeroed(void* p, size_t n) {
  if (p) arena().free(p, n);
}

void use_huge_pages_for_heap(size_t step) {
#if defined(__GLIBC__)
  mallopt(M_MMAP_THRESHOLD, 32 << 20);       // glibc's largest: blocks below it come from the heap
  mallopt(M_TRIM_THRESHOLD, int(4 * step));  // freed memory stays for the next allocations
  mallopt(M_TOP_PAD, int(step));             // each growth of the heap adds `step` bytes
  // Grow the heap now and advise the new part; a later growth is in small pages (glibc advises
  // only under its glibc.malloc.hugetlb tunable, which must be set before the process starts).
  // The growth writes a chunk header at the end of the block, before the advice: the 2 MiB
  // around it are then small pages, so the block is `step` long, and that spot is `step` bytes
  // up, past what a run the size of the README's uses (allocations fill the heap from below).
  char* before = static_cast<char*>(sbrk(0));
  void* volatile grow = std::malloc(step);  // volatile: the compiler must not drop the pair
  std::free(grow);
  char* after = static_cast<char*>(sbrk(0));
  if (before != reinterpret_cast<char*>(-1) && after > before) advise_huge_pages(before, size_t(after - before));
#else
  (void)step;
#endif
}

}  // namespace npu
