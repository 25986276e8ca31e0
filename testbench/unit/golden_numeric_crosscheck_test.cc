// Cross-check: the goldens' own conversions (refnum.h) against isa/numeric, the code under
// test. Two independent implementations of docs/numerics.md must agree bit for bit on every
// code (decode) and on a deterministic sweep of doubles (encode, RNE, with and without
// saturation). Inf inputs under saturation and e8m0 encodes of non-powers of two are left
// out: docs/numerics.md does not pin them down.
#include <cmath>

#include <gtest/gtest.h>

#include "isa/numeric/numeric.h"
#include "golden/random.h"
#include "golden/refnum.h"

namespace npu::golden {
namespace {

const Dtype kAll[] = {Dtype::F32, Dtype::F16,  Dtype::BF16, Dtype::S32,  Dtype::S16,
                      Dtype::S8,  Dtype::U8,   Dtype::E4M3, Dtype::E5M2, Dtype::E8M0};

bool same(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
}

TEST(GoldenNumericCrossCheck, DecodeEveryCode) {
  for (Dtype d : kAll) {
    if (ref::size_of(d) > 2) continue;
    uint64_t n = uint64_t(1) << (8 * ref::size_of(d));
    int bad = 0;
    for (uint64_t b = 0; b < n && bad < 5; ++b) {
      double r = ref::decode(d, b), t = num::decode_bits(d, b);
      if (!same(r, t)) {
        ++bad;
        ADD_FAILURE() << ref::name_of(d) << " code 0x" << std::hex << b << ": golden " << r
                      << ", numeric " << t;
      }
    }
  }
}

TEST(GoldenNumericCrossCheck, EncodeSweep) {
  Rng rng(2024);
  for (Dtype d : kAll) {
    if (d == Dtype::E8M0) continue;
    int bad = 0;
    double maxv = ref::max_finite(d);
    for (int i = 0; i < 20000 && bad < 5; ++i) {
      // Values around the type's range: random magnitudes, exact ties and specials.
      double v;
      switch (i % 4) {
        case 0: v = rng.uniform(-1.2, 1.2) * maxv; break;
        case 1: v = std::ldexp(rng.uniform(-2, 2), int(rng.uniform(-160, 40))); break;
        case 2: {  // midpoint of two adjacent codes of d (ties)
          uint64_t code = rng.next_u64() & ((uint64_t(1) << (8 * ref::size_of(d))) - 1);
          double a = ref::decode(d, code), b = ref::decode(d, code + 1);
          v = std::isfinite(a) && std::isfinite(b) ? a / 2 + b / 2 : 0.5;
          break;
        }
        default: {
          const double sp[] = {0.0, -0.0, NAN, -NAN, maxv, -maxv, 0.5, -2.5, 1e-45, 3e38};
          v = sp[(i / 4) % 10];
        }
      }
      for (bool sat : {false, true}) {
        uint64_t r = ref::encode(d, v, sat);
        uint64_t t = num::encode_bits(d, v, num::RoundMode::Rne, sat);
        uint64_t mask = ref::size_of(d) == 4 ? 0xFFFFFFFFu : ref::size_of(d) == 2 ? 0xFFFFu : 0xFFu;
        if (r != (t & mask)) {
          ++bad;
          ADD_FAILURE() << ref::name_of(d) << " encode(" << v << ", saturate=" << sat
                        << "): golden 0x" << std::hex << r << ", numeric 0x" << (t & mask);
        }
      }
    }
  }
}

TEST(GoldenNumericCrossCheck, E8M0PowersOfTwo) {
  for (int e = -127; e <= 127; ++e)
    EXPECT_EQ(ref::encode(Dtype::E8M0, std::ldexp(1, e)),
              num::encode_bits(Dtype::E8M0, std::ldexp(1, e)) & 0xFF)
        << e;
}

}  // namespace
}  // namespace npu::golden
