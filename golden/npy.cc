#include "golden/npy.h"


#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>

#include "base/file_io.h"
#include "base/output_file.h"
#include "base/error.h"
#include "golden/refnum.h"

namespace npu::golden {
namespace {

const char kMagic[] = "\x93NUMPY";

struct DescrInfo {
  const char* descr;
  int size;
  char kind;  // 'f', 'i', 'u'
};
const DescrInfo kDescrs[] = {{"<f2", 2, 'f'}, {"<f4", 4, 'f'}, {"<f8", 8, 'f'}, {"|i1", 1, 'i'},
                             {"<i2", 2, 'i'}, {"<i4", 4, 'i'}, {"|u1", 1, 'u'}, {"<u2", 2, 'u'}};

const DescrInfo* find_descr(const std::string& d) {
  for (const DescrInfo& i : kDescrs)
    if (d == i.descr) return &i;
  return nullptr;
}

std::string supported_list() {
  std::string s;
  for (const DescrInfo& i : kDescrs) s += (s.empty() ? "" : " ") + std::string(i.descr);
  return s;
}

[[noreturn]] void fail(const std::string& name, const std::string& what) {
  throw Error(name + ": " + what);
}

// Minimal parser for the header dict NumPy writes: {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), }
class HeaderParser {
 public:
  HeaderParser(const std::string& text, const std::string& name) : s_(text), name_(name) {}

  void parse(std::string* descr, bool* fortran, std::vector<int64_t>* shape) {
    bool got_descr = false, got_fortran = false, got_shape = false;
    expect('{');
    while (true) {
      skip_ws();
      if (peek() == '}') break;
      std::string key = parse_string();
      expect(':');
      skip_ws();
      if ((key == "descr" && got_descr) || (key == "fortran_order" && got_fortran) || (key == "shape" && got_shape))
        fail(name_, "malformed .npy header: key '" + key + "' given twice");
      if (key == "descr") {
        *descr = parse_string();
        got_descr = true;
      } else if (key == "fortran_order") {
        *fortran = parse_bool();
        got_fortran = true;
      } else if (key == "shape") {
        *shape = parse_shape();
        got_shape = true;
      } else {
        fail(name_, "malformed .npy header: unexpected key '" + key + "'");
      }
      skip_ws();
      if (peek() == ',') {
        ++pos_;
        continue;
      }
      skip_ws();
      if (peek() != '}') bad("',' or '}'");
    }
    ++pos_;
    skip_ws();  // NumPy pads the dict with spaces and ends it with '\n'
    if (pos_ != s_.size()) bad("only padding after the header dict");
    if (!got_descr || !got_fortran || !got_shape)
      fail(name_, "malformed .npy header: needs 'descr', 'fortran_order' and 'shape'");
  }

 private:
  char peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  [[noreturn]] void bad(const std::string& wanted) {
    // A header may be up to 4 GiB (format 2.0): quote at most its first 200 characters.
    const std::string text = s_.size() <= 200 ? s_ : s_.substr(0, 200) + "...";
    fail(name_, "malformed .npy header: expected " + wanted + " at offset " + std::to_string(pos_) +
                    " in \"" + text + "\"");
  }
  void expect(char c) {
    skip_ws();
    if (peek() != c) bad(std::string("'") + c + "'");
    ++pos_;
  }
  std::string parse_string() {
    skip_ws();
    char q = peek();
    if (q != '\'' && q != '"') bad("a quoted string");
    size_t end = s_.find(q, pos_ + 1);
    if (end == std::string::npos) bad("a closing quote");
    std::string out = s_.substr(pos_ + 1, end - pos_ - 1);
    pos_ = end + 1;
    return out;
  }
  bool parse_bool() {
    if (s_.compare(pos_, 4, "True") == 0) {
      pos_ += 4;
      return true;
    }
    if (s_.compare(pos_, 5, "False") == 0) {
      pos_ += 5;
      return false;
    }
    bad("True or False");
  }
  std::vector<int64_t> parse_shape() {
    std::vector<int64_t> shape;
    expect('(');
    while (true) {
      skip_ws();
      if (peek() == ')') {
        ++pos_;
        return shape;
      }
      if (!std::isdigit(static_cast<unsigned char>(peek()))) bad("a dimension");
      int64_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(peek()))) {
        v = v * 10 + (s_[pos_++] - '0');
        if (v > (int64_t(1) << 40)) fail(name_, "malformed .npy header: dimension too large");
      }
      if (peek() == 'L') ++pos_;  // Python 2 longs
      shape.push_back(v);
      skip_ws();
      if (peek() == ',') ++pos_;
      else if (peek() != ')') bad("',' or ')'");
    }
  }

  const std::string& s_;
  const std::string& name_;
  size_t pos_ = 0;
};

uint64_t read_le(const uint8_t* p, int n) {
  uint64_t v = 0;
  for (int k = 0; k < n; ++k) v |= uint64_t(p[k]) << (8 * k);
  return v;
}

// Value of element i of a supported array as double (exact).
double npy_value(const NpyArray& a, int64_t i, const DescrInfo& d) {
  uint64_t b = read_le(a.data.data() + i * d.size, d.size);
  if (d.kind == 'f') {
    if (d.size == 8) {
      double v;
      std::memcpy(&v, &b, 8);
      return v;
    }
    return ref::decode(d.size == 4 ? Dtype::F32 : Dtype::F16, b);
  }
  if (d.kind == 'u') return double(b);
  switch (d.size) {
    case 1: return double(int8_t(b));
    case 2: return double(int16_t(b));
    default: return double(int32_t(b));
  }
}

std::string num_str(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g", v);
  return buf;
}

}  // namespace

int64_t NpyArray::numel() const {
  int64_t n = 1;
  bool overflow = false;
  for (int64_t d : shape) {
    if (d < 0) throw Error("negative dimension in shape " + shape_str(shape));
    if (d == 0) return 0;
    overflow |= __builtin_mul_overflow(n, d, &n);
  }
  if (overflow) throw Error("shape " + shape_str(shape) + " has more than 2^63 elements");
  return n;
}

int NpyArray::itemsize() const {
  const DescrInfo* d = find_descr(descr);
  return d ? d->size : 0;
}

NpyArray parse_npy(const std::vector<uint8_t>& f, const std::string& name) {
  if (f.size() < 10 || std::memcmp(f.data(), kMagic, 6) != 0)
    fail(name, "not a .npy file (missing \\x93NUMPY magic)");
  int major = f[6];
  if (f[7] != 0)
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(f[7]) +
                   " (supported: 1.0, 2.0, 3.0)");
  size_t hlen, hstart;
  if (major == 1) {
    hlen = size_t(read_le(&f[8], 2));
    hstart = 10;
  } else if (major == 2 || major == 3) {
    if (f.size() < 12) fail(name, "truncated .npy header");
    hlen = size_t(read_le(&f[8], 4));
    hstart = 12;
  } else {
    fail(name, "unsupported .npy format version " + std::to_string(major) + "." +
                   std::to_string(f[7]) + " (supported: 1.0, 2.0, 3.0)");
  }
  if (f.size() < hstart + hlen) fail(name, "truncated .npy header");
  std::string header(reinterpret_cast<const char*>(&f[hstart]), hlen);
  NpyArray a;
  bool fortran = false;
  HeaderParser(header, name).parse(&a.descr, &fortran, &a.shape);
  if (fortran) fail(name, "fortran_order True is not supported (write a C-order array)");
  // Byte order: '=' is native (little-endian here); 1-byte types may say '<', '|' or '='.
  if (a.descr.size() == 3 && a.descr[0] == '>' && a.descr[2] != '1')
    fail(name, "big-endian dtype '" + a.descr + "' is not supported (use little-endian '<" +
                   a.descr.substr(1) + "')");
  if (a.descr.size() == 3 && (a.descr[0] == '=' || a.descr[0] == '<' || a.descr[0] == '>' ||
                              a.descr[0] == '|')) {
    a.descr[0] = a.descr[2] == '1' ? '|' : '<';
  }
  const DescrInfo* d = find_descr(a.descr);
  if (!d) fail(name, "unsupported dtype '" + a.descr + "' (supported: " + supported_list() + ")");
  int64_t numel;
  try {
    numel = a.numel();
  } catch (const Error& e) {
    fail(name, e.what());
  }
  uint64_t want;
  if (__builtin_mul_overflow(uint64_t(numel), uint64_t(d->size), &want))
    fail(name, "shape " + shape_str(a.shape) + " of '" + a.descr + "' needs more than 2^64 bytes");
  const uint64_t have = f.size() - hstart - hlen;
  if (have < want)
    fail(name, "truncated data: shape " + shape_str(a.shape) + " of '" + a.descr + "' needs " +
                   std::to_string(want) + " bytes, file has " + std::to_string(have));
  if (have > want)
    fail(name, "trailing data: shape " + shape_str(a.shape) + " of '" + a.descr + "' needs " +
                   std::to_string(want) + " bytes, file has " + std::to_string(have));
  a.data.assign(f.begin() + long(hstart + hlen), f.end());
  return a;
}

NpyArray read_npy(const std::string& path, uint64_t max_bytes) {
  std::vector<uint8_t> bytes;
  {
    const std::string text = read_input_file(path, max_bytes);
    bytes.assign(text.begin(), text.end());
  }
  return parse_npy(bytes, path);
}

namespace {

// The header (magic, version, length, dict padded to 64 bytes) of a's file; checks a.
std::vector<uint8_t> npy_header(const NpyArray& a) {
  const DescrInfo* d = find_descr(a.descr);
  if (!d) throw Error("cannot write .npy with unsupported dtype '" + a.descr + "'");
  if (a.data.size() != size_t(a.numel()) * size_t(d->size))
    throw Error("cannot write .npy: data size " + std::to_string(a.data.size()) +
                " does not match shape " + shape_str(a.shape) + " of '" + a.descr + "'");
  std::string shape = "(";
  for (size_t i = 0; i < a.shape.size(); ++i) shape += std::to_string(a.shape[i]) + ", ";
  if (a.shape.size() > 1) shape.resize(shape.size() - 2);
  if (a.shape.size() == 1) shape.resize(shape.size() - 1);  // "(n,)"
  shape += ")";
  std::string header =
      "{'descr': '" + a.descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so that magic + length field + header + '\n' is a multiple of 64.
  int major = header.size() + 1 + 10 > 65535 ? 2 : 1;
  size_t pre = major == 1 ? 10 : 12;
  size_t total = pre + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::vector<uint8_t> out(kMagic, kMagic + 6);
  out.push_back(uint8_t(major));
  out.push_back(0);
  size_t hl = header.size();
  for (size_t k = 0; k < pre - 8; ++k) out.push_back(uint8_t(hl >> (8 * k)));
  out.insert(out.end(), header.begin(), header.end());
  return out;
}

}  // namespace

std::vector<uint8_t> serialize_npy(const NpyArray& a) {
  std::vector<uint8_t> out = npy_header(a);
  out.insert(out.end(), a.data.begin(), a.data.end());
  return out;
}

// The header and the data written straight from a (no joined copy of a large array).
void write_npy(const std::string& path, const NpyArray& a) {
  const std::vector<uint8_t> header = npy_header(a);
  AtomicOutputFile out(path);
  std::fwrite(header.data(), 1, header.size(), out.stream());
  std::fwrite(a.data.data(), 1, a.data.size(), out.stream());
  out.commit();  // a short write sets the stream's error flag: commit throws then
}

namespace {

void store_le32(uint8_t* p, uint32_t b) {
  for (int k = 0; k < 4; ++k) p[k] = uint8_t(b >> (8 * k));
}

// encode(F32, value) of n elements of type d, decoded a block at a time. Every non-NaN value
// of every type but s32 is exact in f32, so float() of it is that encoding; NaNs take encode's
// canonical code.
void f32_codes(Dtype d, const uint8_t* src, int64_t n, uint8_t* dst) {
  constexpr int64_t kBlock = 4096;
  double v[kBlock];
  const int es = ref::size_of(d);
  for (int64_t i0 = 0; i0 < n; i0 += kBlock) {
    const int64_t m = std::min(kBlock, n - i0);
    ref::decode_n(d, src + i0 * es, m, v);
    for (int64_t j = 0; j < m; ++j) {
      uint32_t b;
      if (std::isnan(v[j])) {
        b = uint32_t(ref::encode(Dtype::F32, v[j]));
      } else {
        const float f = float(v[j]);
        std::memcpy(&b, &f, 4);
      }
      store_le32(dst + (i0 + j) * 4, b);
    }
  }
}

}  // namespace

NpyArray values_npy(const Tensor& t) {
  NpyArray a;
  a.shape = t.shape();
  if (t.dtype() == Dtype::S32) {
    a.descr = "<i4";
    a.data = t.bytes();
    return a;
  }
  a.descr = "<f4";
  const int64_t n = t.numel();
  a.data.resize(size_t(n) * 4);
  const uint8_t* src = t.bytes().data();
  if (t.elem_size() != 2 || n <= (int64_t(1) << 16)) {
    f32_codes(t.dtype(), src, n, a.data.data());
    return a;
  }
  // A large 16-bit tensor: the codes of all 2^16 values once, then one lookup per element.
  std::vector<uint8_t> every(size_t(2) << 16), table(size_t(4) << 16);
  for (uint32_t c = 0; c < (1u << 16); ++c) every[2 * c] = uint8_t(c), every[2 * c + 1] = uint8_t(c >> 8);
  f32_codes(t.dtype(), every.data(), int64_t(1) << 16, table.data());
  for (int64_t i = 0; i < n; ++i) {
    const uint32_t c = uint32_t(src[2 * i]) | uint32_t(src[2 * i + 1]) << 8;
    std::memcpy(a.data.data() + i * 4, table.data() + size_t(c) * 4, 4);
  }
  return a;
}

bool has_raw_npy(Dtype d) { return ref::size_of(d) <= 2; }

NpyArray raw_npy(const Tensor& t) {
  if (!has_raw_npy(t.dtype()))
    throw Error(std::string("no raw .npy for 32-bit tensor ") + t.describe());
  NpyArray a;
  a.shape = t.shape();
  a.descr = t.elem_size() == 2 ? "<u2" : "|u1";
  a.data = t.bytes();
  return a;
}

void write_output(const std::string& dir, const std::string& name, const Tensor& t) {
  std::string base = dir.empty() ? name : dir + "/" + name;
  write_npy(base + ".npy", values_npy(t));
  if (has_raw_npy(t.dtype())) write_npy(base + ".raw.npy", raw_npy(t));
}

Tensor tensor_from_npy(const NpyArray& a, Dtype dtype, const std::string& name) {
  const DescrInfo* d = find_descr(a.descr);
  if (!d) fail(name, "unsupported dtype '" + a.descr + "'");
  if (a.data.size() / size_t(d->size) != uint64_t(a.numel()) || a.data.size() % size_t(d->size))
    fail(name, std::to_string(a.data.size()) + " data bytes do not match shape " + shape_str(a.shape) + " of '" +
                   a.descr + "'");
  Tensor t(dtype, a.shape);
  const char* tn = ref::name_of(dtype);
  bool raw16 = (dtype == Dtype::BF16 || dtype == Dtype::F16) && a.descr == "<u2";
  bool raw8 = (dtype == Dtype::E4M3 || dtype == Dtype::E5M2 || dtype == Dtype::E8M0) &&
              a.descr == "|u1";
  if (raw16 || raw8) {
    t.bytes() = a.data;
    return t;
  }
  if (ref::is_float(dtype)) {
    if (d->kind != 'f')
      fail(name, "dtype '" + a.descr + "' cannot be loaded as " + tn + " (use '<f4'/'<f8' values" +
                     (ref::size_of(dtype) == 2 ? ", or '<u2' raw bits)"
                      : ref::size_of(dtype) == 1 ? ", or '|u1' raw bits)" : ")"));
    for (int64_t i = 0; i < t.numel(); ++i) {
      double v = npy_value(a, i, *d);
      t.set(i, v);
      if (std::isfinite(v) && !std::isfinite(t.get(i)))
        fail(name, "value " + num_str(v) + " at flat index " + std::to_string(i) +
                       " overflows " + tn);
    }
    return t;
  }
  // Integer target: exact values only.
  double lo = dtype == Dtype::U8 ? 0.0 : -ref::max_finite(dtype) - 1, hi = ref::max_finite(dtype);
  for (int64_t i = 0; i < t.numel(); ++i) {
    double v = npy_value(a, i, *d);
    if (!(v == std::floor(v)) || v < lo || v > hi)
      fail(name, "value " + num_str(v) + " at flat index " + std::to_string(i) +
                     " is not an integer in the range of " + tn);
    t.set(i, v);
  }
  return t;
}

Tensor read_input(const std::string& path, Dtype dtype, uint64_t max_bytes) {
  return tensor_from_npy(read_npy(path, max_bytes), dtype, path);
}

Tensor reference_from_npy(const NpyArray& a, Dtype output, const std::string& name) {
  const DescrInfo* d = find_descr(a.descr);
  const bool float_values = d && d->kind == 'f' && ref::is_float(output);
  return tensor_from_npy(a, float_values ? Dtype::F32 : output, name);
}

Tensor read_npy_tensor(const std::string& path) {
  NpyArray a = read_npy(path);
  Dtype d;
  if (a.descr == "<f4") d = Dtype::F32;
  else if (a.descr == "<f2") d = Dtype::F16;
  else if (a.descr == "<i4") d = Dtype::S32;
  else if (a.descr == "<i2") d = Dtype::S16;
  else if (a.descr == "|i1") d = Dtype::S8;
  else if (a.descr == "|u1") d = Dtype::U8;
  else
    fail(path, "dtype '" + a.descr + "' has no npusim tensor type; load it with an explicit dtype");
  Tensor t(d, a.shape);
  t.bytes() = a.data;
  return t;
}

}  // namespace npu::golden
