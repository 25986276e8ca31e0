// XOR-folded hash, as real last-level caches and DRAM controllers spread addresses: the target
// of column c of row r is c XOR fold(r), where fold XORs the row number's bits together in
// chunks of log2(targets) bits (Intel's LLC slice hash is an XOR of physical address bits:
// Maurice et al., "Reverse Engineering Intel Last-Level Cache Complex Addressing Using
// Performance Counters", RAID 2015; permutation-based DRAM interleaving XORs the bank bits with
// higher bits: Zhang, Zhu and Zhang, MICRO 2000). A contiguous row still covers every target
// once, while units one row (or any power of two of rows) apart land on different targets.
// For a target count that is not a power of two, XOR would leave [0, targets), so the fold is
// added modulo targets instead (a rotation of the row, still a permutation).
#include <string>

#include "hw/pluggable/slice_mapping.h"

namespace npu::hw {
namespace {

class XorMapping final : public SliceMapping {
 public:
  XorMapping(uint32_t targets, int hash_bits) : targets_(targets), pow2_((targets & (targets - 1)) == 0) {
    while ((uint64_t{1} << chunk_) < targets) ++chunk_;
    row_mask_ = hash_bits == 0 || hash_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << hash_bits) - 1;
  }
  uint32_t slice_of(uint32_t column, uint64_t row) const override {
    const uint32_t f = fold(row);
    return pow2_ ? column ^ f : static_cast<uint32_t>((uint64_t{column} + f) % targets_);
  }
  uint32_t column_of(uint32_t slice, uint64_t row) const override {
    const uint32_t f = fold(row);
    return pow2_ ? slice ^ f : static_cast<uint32_t>((uint64_t{slice} + targets_ - f % targets_) % targets_);
  }

 private:
  uint32_t fold(uint64_t row) const {
    if (chunk_ == 0) return 0;  // one target
    row &= row_mask_;
    uint64_t f = 0;
    for (; row != 0; row >>= chunk_) f ^= row & ((uint64_t{1} << chunk_) - 1);
    return static_cast<uint32_t>(pow2_ ? f : f % targets_);
  }
  uint32_t targets_;
  bool pow2_;
  int chunk_ = 0;
  uint64_t row_mask_ = 0;
};

}  // namespace

void register_xor_mapping(SliceMappingRegistry& r) {
  r.add({"xor",
         "XOR-folded hash: column c of row r on target c XOR fold(r) (added modulo targets when "
         "targets is not a power of two)",
         {{"hash_bits", ParamSpec::Type::Int, 0, 64, 0,
           "Low bits of the row number folded into the hash (0: all of them)."}},
         [](const SliceShape& s, const ParamValues& p) {
           return std::make_unique<XorMapping>(s.slices, static_cast<int>(p.at("hash_bits")));
         }});
}

}  // namespace npu::hw
