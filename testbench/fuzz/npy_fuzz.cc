// Fuzz target: the .npy reader (golden/npy.h) on arbitrary bytes, then the input
// conventions (the array as a tensor of every npusim dtype). An accepted array must serialise
// and parse back unchanged.
#include "testbench/fuzz/fuzz_target.h"
#include "golden/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npu;
  fuzz::tolerate_input_errors([&] {
    const golden::NpyArray a = golden::parse_npy(std::vector<uint8_t>(data, data + size), "fuzz.npy");
    const golden::NpyArray b = golden::parse_npy(golden::serialize_npy(a), "again.npy");
    if (b.descr != a.descr || b.shape != a.shape || b.data != a.data) fuzz::finding("npy round trip changed the array");
    for (int d = 0; d <= static_cast<int>(golden::Dtype::E8M0); ++d)  // every dtype (E8M0 is the last)
      fuzz::tolerate_input_errors([&] { (void)golden::tensor_from_npy(a, static_cast<golden::Dtype>(d), "fuzz.npy"); });
  });
  return 0;
}
