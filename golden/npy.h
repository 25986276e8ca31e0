#pragma once
// NumPy .npy files (format v1.0/2.0/3.0, little-endian, C order) and the npusim conventions
// for test data. Errors are npu::Error naming the file and the problem.
//
// Conventions (the case runner and tests rely on them):
//  - An output tensor `name` is written as `name.npy` holding its exact values as '<f4'
//    (s32 outputs as '<i4', since fp32 cannot hold every int32), and, for 16- and 8-bit
//    types, `name.raw.npy` holding its bits ('<u2' for bf16/f16/s16, '|u1' for s8/u8/e4m3/
//    e5m2/e8m0).
//  - An input file for a tensor of dtype D may be:
//      '<f4', '<f8' (and '<f2'): values, rounded RNE into D (float D); a finite value that
//          overflows D is an error; for integer D every value must be an integer in range;
//      for bf16/f16: '<u2' = raw bits;  for e4m3/e5m2/e8m0: '|u1' = raw bits;
//      for integer D: any integer descr whose values fit D ('|i1' for s8, '<i4' for s32...).
#include <cstdint>
#include <string>
#include <vector>

#include "base/file_io.h"
#include "golden/tensor.h"

namespace npu::golden {

// One array as stored: descr is normalised to NumPy's spelling ('<f4', '|i1', ...).
struct NpyArray {
  std::string descr;
  std::vector<int64_t> shape;
  std::vector<uint8_t> data;  // little-endian, C order
  int64_t numel() const;
  int itemsize() const;
};

// Supported descrs: <f2 <f4 <f8 |i1 <i2 <i4 |u1 <u2 ('=' and '<' accepted for 1-byte types too).
NpyArray parse_npy(const std::vector<uint8_t>& file_bytes, const std::string& name);
// Reads at most max_bytes (an endless or huge file is refused, base/file_io.h).
NpyArray read_npy(const std::string& path, uint64_t max_bytes = kMaxBinaryInputBytes);
std::vector<uint8_t> serialize_npy(const NpyArray& a);  // v1.0 (v2.0 when the header needs it)
// Atomic: writes a temp file in the same directory, then renames it over `path`.
void write_npy(const std::string& path, const NpyArray& a);

// Output conventions (see above).
NpyArray values_npy(const Tensor& t);         // '<f4' values ('<i4' for s32)
bool has_raw_npy(Dtype d);                   // 16- and 8-bit types
NpyArray raw_npy(const Tensor& t);            // the bits; throws for 32-bit types
// Writes dir/name.npy and (if has_raw_npy) dir/name.raw.npy.
void write_output(const std::string& dir, const std::string& name, const Tensor& t);

// Input conventions (see above). `name` appears in error messages (usually the path).
Tensor tensor_from_npy(const NpyArray& a, Dtype dtype, const std::string& name);
Tensor read_input(const std::string& path, Dtype dtype, uint64_t max_bytes = kMaxBinaryInputBytes);
// The reference values of an output of dtype `output` (a golden file): a float array ('<f2',
// '<f4', '<f8') for a float output is read as f32 values (not rounded into the output's dtype;
// '<f8' is rounded RNE to f32), anything else as an input of dtype `output` (raw bits, integers).
Tensor reference_from_npy(const NpyArray& a, Dtype output, const std::string& name);
// The natural tensor of a file: '<f4'->f32, '<f2'->f16, '<i4'->s32, '<i2'->s16, '|i1'->s8,
// '|u1'->u8; '<f8' and '<u2' have no npusim type and throw (use read_input with a dtype).
Tensor read_npy_tensor(const std::string& path);

}  // namespace npu::golden
