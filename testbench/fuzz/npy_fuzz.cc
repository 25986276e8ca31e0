// Fuzz target: the .npy reader (golden/npy.h) on arbitrary bytes, then the input
// conventions (the array as a tensor of every npusim dtype). An accepted array must serialise
// and parse back unchanged, and each tensor's values file must hold its elements' f32 codes.
#include "testbench/fuzz/fuzz_target.h"
#include "golden/npy.h"
#include "golden/refnum.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npu;
  fuzz::tolerate_input_errors([&] {
    const golden::NpyArray a = golden::parse_npy(std::vector<uint8_t>(data, data + size), "fuzz.npy");
    const golden::NpyArray b = golden::parse_npy(golden::serialize_npy(a), "again.npy");
    if (b.descr != a.descr || b.shape != a.shape || b.data != a.data) fuzz::finding("npy round trip changed the array");
    for (int d = 0; d <= static_cast<int>(golden::Dtype::E8M0); ++d)  // every dtype (E8M0 is the last)
      fuzz::tolerate_input_errors([&] {
        const golden::Tensor t = golden::tensor_from_npy(a, static_cast<golden::Dtype>(d), "fuzz.npy");
        // The values file (converted a block at a time) holds encode(F32, value) of every element.
        const golden::NpyArray v = golden::values_npy(t);
        if (t.dtype() == golden::Dtype::S32) return;
        for (int64_t i = 0; i < t.numel(); ++i) {
          uint32_t got = 0;
          for (int k = 0; k < 4; ++k) got |= uint32_t(v.data[size_t(i * 4 + k)]) << (8 * k);
          if (got != golden::ref::encode(golden::Dtype::F32, t.get(i))) fuzz::finding("values_npy differs from encode(F32, get(i))");
        }
      });
  });
  return 0;
}
