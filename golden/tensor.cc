#include "golden/tensor.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "base/error.h"
#include "base/huge_pages.h"
#include "golden/refnum.h"

namespace npu::golden {

std::string shape_str(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

Tensor::Tensor(Dtype dtype, std::vector<int64_t> shape) : dtype_(dtype), shape_(std::move(shape)) {
  numel_ = 1;
  for (int64_t d : shape_) {
    if (d < 0) throw Error("tensor shape " + shape_str(shape_) + " has a negative dimension");
    numel_ *= d;
  }
  const size_t n = size_t(numel_) * size_t(ref::size_of(dtype_));
  if (n >= 2 * kHugePageBytes) {  // a large tensor: huge pages before the zeroing touches them
    bytes_.reserve(n);
    advise_huge_pages(bytes_.data(), n);
  }
  bytes_.assign(n, 0);
}

namespace {

// from_values / from_floats: the element count first, then one RNE rounding per value.
template <class T>
Tensor from_vector(Dtype dtype, std::vector<int64_t> shape, const std::vector<T>& v) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  if (int64_t(v.size()) != n) {
    Tensor t(dtype, std::move(shape));  // the shape's own error first (a negative dimension)
    throw Error("tensor " + t.describe() + " needs " + std::to_string(t.numel()) + " values, got " +
                std::to_string(v.size()));
  }
  const T* next = v.data();
  return Tensor::generate(dtype, std::move(shape), /*saturate=*/false, [&] { return double(*next++); });
}

}  // namespace

Tensor Tensor::from_values(Dtype dtype, std::vector<int64_t> shape, const std::vector<double>& v) {
  return from_vector(dtype, std::move(shape), v);
}

Tensor Tensor::from_floats(Dtype dtype, std::vector<int64_t> shape, const std::vector<float>& v) {
  return from_vector(dtype, std::move(shape), v);
}

Tensor Tensor::from_bits(Dtype dtype, std::vector<int64_t> shape, const std::vector<uint64_t>& b) {
  Tensor t(dtype, std::move(shape));
  if (int64_t(b.size()) != t.numel())
    throw Error("tensor " + t.describe() + " needs " + std::to_string(t.numel()) + " values, got " +
                std::to_string(b.size()));
  for (int64_t i = 0; i < t.numel(); ++i) t.set_bits(i, b[size_t(i)]);
  return t;
}

int64_t Tensor::dim(int i) const {
  int r = rank();
  int j = i < 0 ? i + r : i;
  if (j < 0 || j >= r)
    throw Error("tensor " + describe() + " has no dimension " + std::to_string(i));
  return shape_[size_t(j)];
}

int Tensor::elem_size() const { return ref::size_of(dtype_); }

void Tensor::check_index(int64_t i) const {
  if (i < 0 || i >= numel_)
    throw Error("element " + std::to_string(i) + " out of range for tensor " + describe());
}

uint64_t Tensor::bits(int64_t i) const {
  check_index(i);
  return raw_bits(i);
}

uint64_t Tensor::raw_bits(int64_t i) const {
  int n = elem_size();
  uint64_t b = 0;
  for (int k = 0; k < n; ++k) b |= uint64_t(bytes_[size_t(i * n + k)]) << (8 * k);
  return b;
}

void Tensor::set_bits(int64_t i, uint64_t b) {
  check_index(i);
  int n = elem_size();
  for (int k = 0; k < n; ++k) bytes_[size_t(i * n + k)] = uint8_t(b >> (8 * k));
}

double Tensor::get(int64_t i) const { return ref::decode(dtype_, bits(i)); }

void Tensor::set(int64_t i, double v, bool saturate) {
  set_bits(i, ref::encode(dtype_, v, saturate));
}

double Tensor::at(int64_t r, int64_t c) const {
  if (rank() != 2) throw Error("at(r, c) on tensor " + describe() + " that is not rank 2");
  if (r < 0 || r >= shape_[0] || c < 0 || c >= shape_[1])
    throw Error("index [" + std::to_string(r) + ", " + std::to_string(c) + "] out of range for " +
                describe());
  return get(r * shape_[1] + c);
}

std::vector<double> Tensor::to_doubles() const {
  std::vector<double> v(static_cast<size_t>(numel_));
  ref::decode_n(dtype_, bytes_.data(), numel_, v.data());
  return v;
}

std::vector<float> Tensor::to_floats() const {
  std::vector<float> v(static_cast<size_t>(numel_));
  for (int64_t i = 0; i < numel_; ++i) v[size_t(i)] = float(ref::decode(dtype_, raw_bits(i)));
  return v;
}

std::string Tensor::describe() const { return std::string(ref::name_of(dtype_)) + shape_str(shape_); }

namespace {

// out[j, i] = in[i, j] for in [k, n] of Word elements, in 32 x 32 blocks (both sides' lines stay
// in cache while a block is moved).
template <class Word>
void transpose_words(const uint8_t* in, uint8_t* out, int64_t k, int64_t n) {
  constexpr int64_t kB = 32;
  for (int64_t i0 = 0; i0 < k; i0 += kB)
    for (int64_t j0 = 0; j0 < n; j0 += kB)
      for (int64_t i = i0; i < std::min(k, i0 + kB); ++i)
        for (int64_t j = j0; j < std::min(n, j0 + kB); ++j)
          std::memcpy(out + (j * k + i) * int64_t(sizeof(Word)), in + (i * n + j) * int64_t(sizeof(Word)), sizeof(Word));
}

}  // namespace

Tensor transposed_bits(const Tensor& w) {
  if (w.rank() != 2) throw Error("transposed_bits: expected a rank-2 tensor, got " + w.describe());
  const int64_t k = w.dim(0), n = w.dim(1);
  Tensor t(w.dtype(), {n, k});
  const uint8_t* in = w.bytes().data();
  uint8_t* out = t.bytes().data();
  switch (w.elem_size()) {  // the bytes of each element move unchanged
    case 1: transpose_words<uint8_t>(in, out, k, n); break;
    case 2: transpose_words<uint16_t>(in, out, k, n); break;
    case 4: transpose_words<uint32_t>(in, out, k, n); break;
    default: throw Error("transposed_bits: elements of " + std::to_string(w.elem_size()) + " bytes");
  }
  return t;
}

}  // namespace npu::golden
