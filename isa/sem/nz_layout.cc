#include "isa/sem/nz_layout.h"

#include <algorithm>
#include <cstring>

namespace npu::sem {

void nd_to_nz(const uint8_t* nd, uint64_t rows, uint64_t row_bytes, uint8_t* nz) {
  nd_to_nz_pieces(nd, rows, row_bytes, [nz](uint64_t off, const uint8_t* p, uint64_t n) { std::memcpy(nz + off, p, n); });
}

void nz_to_nd(const uint8_t* nz, uint64_t rows, uint64_t row_bytes, uint8_t* nd) {
  const uint64_t stride = nz_gm_c0_stride(rows);
  for (uint64_t j = 0, b0 = 0; b0 < row_bytes; ++j, b0 += kC0Bytes) {
    const uint64_t n = std::min(kC0Bytes, row_bytes - b0);
    const uint8_t* block = nz + j * stride;
    for (uint64_t r = 0; r < rows; ++r) std::memcpy(nd + r * row_bytes + b0, block + r * kC0Bytes, n);
  }
}

}  // namespace npu::sem
