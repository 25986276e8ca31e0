// The generated input tensors are pinned bit for bit: an FNV-1a hash of every tensor's bytes
// and of the Rng's next output afterwards (the generators write the state back), over dtypes,
// ranges that reach the general encode path (saturation, ints, e4m3) and lengths that are not
// multiples of a SIMD block. The hashes were computed with the scalar element-by-element
// generator (commit e1ef579) before the batched path existed, so both paths must reproduce them.
#include <cstdint>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "golden/random.h"

namespace npu::golden {
namespace {

uint64_t fnv1a(const std::vector<uint8_t>& bytes, uint64_t h = 0xCBF29CE484222325ull) {
  for (uint8_t b : bytes) h = (h ^ b) * 0x100000001B3ull;
  return h;
}

struct Draw {
  const char* what;
  bool normal;
  Dtype dtype;
  int64_t n;
  double a, b;
  uint64_t seed;
  uint64_t hash;  // of the bytes, then of the next u64's 8 bytes
};

// Hashes from the element-by-element generator (see the file comment).
const Draw kDraws[] = {
    {"bf16 [-1,1] README x", false, Dtype::BF16, 16 * 4096, -1, 1, 1, 0x3C93DA5AD0EF6408ull},
    {"bf16 [-0.1,0.1] README w", false, Dtype::BF16, 1536 * 4096, -0.1, 0.1, 3, 0x58E695B528B5F616ull},
    {"bf16 [-0.1,0.1] odd n", false, Dtype::BF16, 100003, -0.1, 0.1, 3, 0x68016E3C3EFD3F8Dull},
    {"f32 [-1,1]", false, Dtype::F32, 4099, -1, 1, 9, 0x48B818D42F68861Dull},
    {"f16 [-1e5,1e5] saturates", false, Dtype::F16, 5001, -1e5, 1e5, 11, 0xE61EF483B685430Dull},
    {"f16 [0,1e-6] subnormals", false, Dtype::F16, 777, 0, 1e-6, 12, 0x828BD2E51BA17746ull},
    {"e5m2 [-1e5,1e5]", false, Dtype::E5M2, 1025, -1e5, 1e5, 13, 0x557DD79BC6604A46ull},
    {"e4m3 [-500,500]", false, Dtype::E4M3, 1001, -500, 500, 14, 0xB8B50A97FC6AD260ull},
    {"s8 [-200,200]", false, Dtype::S8, 999, -200, 200, 5, 0x2DC258AA71205176ull},
    {"bf16 [2,2] constant", false, Dtype::BF16, 33, 2, 2, 6, 0xB14CB1E7EC7EB81Bull},
    {"bf16 tiny n", false, Dtype::BF16, 3, -1, 1, 7, 0xDF24B5BE871A5267ull},
    {"bf16 normal", true, Dtype::BF16, 2049, 0, 1, 8, 0x6BBBA7D03B498B54ull},
    {"f32 normal", true, Dtype::F32, 1001, 2, 0.5, 10, 0x224D024D95AFF08Bull},
};

uint64_t draw_hash(const Draw& d, SimdPath path) {
  Rng r(d.seed);
  Tensor t = d.normal ? random_normal(d.dtype, {d.n}, d.a, d.b, r) : random_uniform(d.dtype, {d.n}, d.a, d.b, r, path);
  const uint64_t next = r.next_u64();
  std::vector<uint8_t> tail(8);
  for (int i = 0; i < 8; ++i) tail[size_t(i)] = uint8_t(next >> (8 * i));
  return fnv1a(tail, fnv1a(t.bytes()));
}

const char* path_name(SimdPath p) {
  switch (p) {
    case SimdPath::Portable: return "Portable";
    case SimdPath::Avx2: return "Avx2";
    case SimdPath::Avx512: return "Avx512";
    default: return "Auto";
  }
}

TEST(GoldenGenerate, TensorsMatchPinnedHashes) {
  for (const Draw& d : kDraws) EXPECT_EQ(draw_hash(d, SimdPath::Auto), d.hash) << d.what;
}

TEST(GoldenGenerate, EveryPathGivesTheSameBits) {
  std::string missing;
  for (SimdPath p : {SimdPath::Portable, SimdPath::Avx2, SimdPath::Avx512}) {
    if (!simd_path_available(p)) {
      missing += std::string(" ") + path_name(p);
      continue;
    }
    for (const Draw& d : kDraws) EXPECT_EQ(draw_hash(d, p), d.hash) << d.what << " path " << path_name(p);
  }
  if (!missing.empty()) GTEST_SKIP() << "the CPU lacks" << missing << " (the other paths were checked)";
}

// The SIMD paths cut a large tensor into two threads' halves of four (Avx2) or eight (Avx512)
// SIMD lanes each (jump-ahead) plus serial leftovers: lengths that are odd at every cut (2^21 + 147:
// halves 2^20 + 73 and 2^20 + 74, eight lanes of 2^17 + 9 steps, a partial last 8-step block
// and leftovers of 1 and 2), against the element-by-element path, for each dtype they handle.
TEST(GoldenGenerate, LargeOddTensorIsTheSameOnEveryPath) {
  std::string missing;
  std::vector<SimdPath> paths;
  for (SimdPath p : {SimdPath::Avx2, SimdPath::Avx512})
    if (simd_path_available(p)) paths.push_back(p);
    else missing += std::string(" ") + path_name(p);
  for (Dtype dt : {Dtype::BF16, Dtype::F32, Dtype::F16, Dtype::E5M2})
    for (int64_t n : {(int64_t(1) << 20) * 2 + 15, (int64_t(1) << 20) * 2 + 147}) {
      const Draw d{"large odd", false, dt, n, -3, 3, 21, 0};
      const uint64_t portable = paths.empty() ? 0 : draw_hash(d, SimdPath::Portable);
      for (SimdPath p : paths)
        EXPECT_EQ(draw_hash(d, p), portable) << int(dt) << " n " << n << " path " << path_name(p);
    }
  if (!missing.empty()) GTEST_SKIP() << "the CPU lacks" << missing << " (the other paths were checked)";
}

}  // namespace
}  // namespace npu::golden
