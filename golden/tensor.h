#pragma once
// A plain host tensor for goldens and test data: element type, C-order shape, and the raw
// little-endian element bits. Values are read and written as double (exact for every npusim
// type); writes round once with RNE (see refnum.h).
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "isa/numeric/dtype.h"
#include "golden/refnum.h"

namespace npu::golden {

using num::Dtype;

class Tensor {
 public:
  Tensor() = default;
  Tensor(Dtype dtype, std::vector<int64_t> shape);  // zero-filled (all-zero bits)

  // Build from values, each rounded RNE into dtype (non-saturating; see refnum.h).
  static Tensor from_values(Dtype dtype, std::vector<int64_t> shape, const std::vector<double>& v);
  static Tensor from_floats(Dtype dtype, std::vector<int64_t> shape, const std::vector<float>& v);
  // Build from next_value(), called once per element in flat C order, each rounded RNE into
  // dtype: the tight loop of the generators (no per-element index check or dispatch on size).
  template <class Gen>
  static Tensor generate(Dtype dtype, std::vector<int64_t> shape, bool saturate, Gen&& next_value) {
    Tensor t(dtype, std::move(shape));
    switch (t.elem_size()) {
      case 1: t.fill_from<uint8_t>(saturate, next_value); break;
      case 2: t.fill_from<uint16_t>(saturate, next_value); break;
      default: t.fill_from<uint32_t>(saturate, next_value); break;
    }
    return t;
  }
  // Build from raw element bits (low size bytes of each entry).
  static Tensor from_bits(Dtype dtype, std::vector<int64_t> shape, const std::vector<uint64_t>& b);

  Dtype dtype() const { return dtype_; }
  const std::vector<int64_t>& shape() const { return shape_; }
  int rank() const { return int(shape_.size()); }
  int64_t dim(int i) const;        // negative i counts from the end; throws when out of range
  int64_t numel() const { return numel_; }
  int elem_size() const;

  double get(int64_t i) const;     // exact value of element i (flat C-order index)
  void set(int64_t i, double v, bool saturate = false);
  double at(int64_t r, int64_t c) const;  // rank-2 shorthand
  uint64_t bits(int64_t i) const;
  void set_bits(int64_t i, uint64_t b);

  std::vector<double> to_doubles() const;
  std::vector<float> to_floats() const;  // exact for all types but s32 beyond 2^24

  const std::vector<uint8_t>& bytes() const { return bytes_; }
  std::vector<uint8_t>& bytes() { return bytes_; }

  std::string describe() const;    // "bf16[16, 4096]"

 private:
  void check_index(int64_t i) const;
  uint64_t raw_bits(int64_t i) const;  // no index check (callers loop over [0, numel))
  template <class Word, class Gen>
  void fill_from(bool saturate, Gen& next_value) {
    uint8_t* p = bytes_.data();
    const bool bf16 = dtype_ == Dtype::BF16;  // the common input type: its fast path inline
    const int64_t n = numel_;  // a local: the byte stores below may alias any member
    for (int64_t i = 0; i < n; ++i, p += sizeof(Word)) {
      const double v = next_value();
      uint64_t b;
      if (!bf16 || !ref::encode_normal(8, 7, 127, v, &b)) b = ref::encode(dtype_, v, saturate);
      const Word w = static_cast<Word>(b);
      std::memcpy(p, &w, sizeof w);  // little-endian host, as everywhere GM bytes are copied
    }
  }
  Dtype dtype_ = Dtype::F32;
  std::vector<int64_t> shape_;
  int64_t numel_ = 0;
  std::vector<uint8_t> bytes_;
};

std::string shape_str(const std::vector<int64_t>& shape);  // "[16, 4096]"
// A rank-2 tensor [R, C] as [C, R], bit for bit (a weight [K, N] as linear()'s [N, K]).
Tensor transposed_bits(const Tensor& w);

}  // namespace npu::golden
