// .npy reading/writing, the npusim output/input conventions, and malformed-file errors.
#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "isa/error.h"
#include "golden/npy.h"
#include "golden/refnum.h"
#include "testbench/support/thrown_message.h"

namespace npu::golden {
namespace {

// A '<f4' array of `values`, shape {n}.
NpyArray f32_npy(std::initializer_list<float> values) {
  NpyArray f;
  f.descr = "<f4";
  f.shape = {int64_t(values.size())};
  for (float v : values) {
    uint8_t b[4];
    std::memcpy(b, &v, 4);
    f.data.insert(f.data.end(), b, b + 4);
  }
  return f;
}

// A fresh empty directory per test (removed with its files at the end).
class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/npusim_npy_test_XXXXXX";
    ASSERT_NE(mkdtemp(tmpl), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override {
    for (const std::string& f : files()) std::remove((dir_ + "/" + f).c_str());
    rmdir(dir_.c_str());
  }
  std::vector<std::string> files() const {
    std::vector<std::string> out;
    DIR* d = opendir(dir_.c_str());
    while (dirent* e = d ? readdir(d) : nullptr)
      if (std::strcmp(e->d_name, ".") && std::strcmp(e->d_name, "..")) out.push_back(e->d_name);
    if (d) closedir(d);
    std::sort(out.begin(), out.end());
    return out;
  }
  std::string path(const std::string& name) const { return dir_ + "/" + name; }
  void write_bytes(const std::string& name, const std::vector<uint8_t>& b) {
    std::ofstream(path(name), std::ios::binary).write(reinterpret_cast<const char*>(b.data()),
                                                      std::streamsize(b.size()));
  }
  std::string error_reading(const std::string& name) {
    try {
      read_npy(path(name));
    } catch (const Error& e) {
      std::string s = e.what();
      return s.substr(dir_.size() + 1);  // drop the directory for stable golden text
    }
    return "(no error)";
  }
  // A well-formed file with a hand-written header dict.
  std::vector<uint8_t> with_header(const std::string& dict, size_t data_bytes, int major = 1) {
    std::vector<uint8_t> b = {0x93, 'N', 'U', 'M', 'P', 'Y', uint8_t(major), 0};
    std::string h = dict + "\n";
    for (int k = 0; k < (major == 1 ? 2 : 4); ++k) b.push_back(uint8_t(h.size() >> (8 * k)));
    b.insert(b.end(), h.begin(), h.end());
    b.insert(b.end(), data_bytes, 0);
    return b;
  }
  std::string dir_;
};

TEST_F(NpyTest, HeaderMatchesNumpyLayout) {
  // np.save of a (2, 3) float32 array: magic, v1.0, header length 118 (total 128 = 2 * 64).
  NpyArray a{"<f4", {2, 3}, std::vector<uint8_t>(24, 0)};
  std::vector<uint8_t> b = serialize_npy(a);
  ASSERT_EQ(b.size(), 128u + 24u);
  EXPECT_EQ(b[6], 1);
  EXPECT_EQ(b[8] | (b[9] << 8), 118);
  std::string header(b.begin() + 10, b.begin() + 128);
  EXPECT_EQ(header.substr(0, 59), "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }");
  EXPECT_EQ(header.back(), '\n');
  // 1-d and 0-d shapes use Python tuple syntax.
  std::vector<uint8_t> one = serialize_npy(NpyArray{"|u1", {5}, std::vector<uint8_t>(5)});
  EXPECT_NE(std::string(one.begin(), one.end()).find("'shape': (5,), }"), std::string::npos);
  std::vector<uint8_t> zero = serialize_npy(NpyArray{"<f8", {}, std::vector<uint8_t>(8)});
  EXPECT_NE(std::string(zero.begin(), zero.end()).find("'shape': (), }"), std::string::npos);
}

TEST_F(NpyTest, RoundTripEverySupportedDescr) {
  for (const char* descr : {"<f2", "<f4", "<f8", "|i1", "<i2", "<i4", "|u1", "<u2"}) {
    NpyArray a;
    a.descr = descr;
    a.shape = {3, 2};
    int size = descr[2] - '0';
    for (int i = 0; i < 6 * size; ++i) a.data.push_back(uint8_t(i * 37 + 1));
    std::string p = path(std::string("a") + descr[1] + descr[2] + ".npy");
    write_npy(p, a);
    NpyArray b = read_npy(p);
    EXPECT_EQ(b.descr, a.descr) << descr;
    EXPECT_EQ(b.shape, a.shape) << descr;
    EXPECT_EQ(b.data, a.data) << descr;
  }
  // Version 2.0 header (4-byte length) is read too.
  write_bytes("v2.npy", with_header("{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }", 4, 2));
  EXPECT_EQ(read_npy(path("v2.npy")).shape, (std::vector<int64_t>{2}));
}

TEST_F(NpyTest, OutputConventionEveryDtype) {
  // Values file is exact f32 ('<i4' for s32); 16/8-bit types also get their raw bits.
  struct Case {
    Dtype d;
    std::vector<double> v;
    const char* raw;  // descr of .raw.npy, or nullptr
  };
  const Case cases[] = {{Dtype::F32, {1.5, -2}, nullptr},
                        {Dtype::BF16, {1.0078125, -3}, "<u2"},
                        {Dtype::F16, {0.0009765625, 65504}, "<u2"},
                        {Dtype::S32, {2147483647, -5}, nullptr},
                        {Dtype::S16, {-32768, 7}, "<u2"},
                        {Dtype::S8, {-128, 127}, "|u1"},
                        {Dtype::U8, {255, 0}, "|u1"},
                        {Dtype::E4M3, {448, -0.015625}, "|u1"},
                        {Dtype::E5M2, {57344, 0.25}, "|u1"},
                        {Dtype::E8M0, {1, 0.5}, "|u1"}};
  for (const Case& c : cases) {
    Tensor t = Tensor::from_values(c.d, {2}, c.v);
    std::string name = std::string("t_") + std::to_string(int(c.d));
    write_output(dir_, name, t);
    NpyArray vals = read_npy(path(name + ".npy"));
    EXPECT_EQ(vals.descr, c.d == Dtype::S32 ? "<i4" : "<f4");
    Tensor back = tensor_from_npy(vals, c.d, name);
    EXPECT_EQ(back.bytes(), t.bytes()) << int(c.d);  // values reload bit-exactly
    std::ifstream raw(path(name + ".raw.npy"));
    EXPECT_EQ(bool(raw), c.raw != nullptr) << int(c.d);
    if (c.raw) {
      NpyArray r = read_npy(path(name + ".raw.npy"));
      EXPECT_EQ(r.descr, c.raw);
      EXPECT_EQ(r.data, t.bytes());
    }
  }
  // Nothing but the outputs is left behind (no temporary files).
  std::vector<std::string> f = files();
  EXPECT_EQ(f.size(), 18u);
  for (const std::string& n : f) EXPECT_EQ(n.find(".tmp"), std::string::npos) << n;
}

TEST_F(NpyTest, ValuesFileHoldsEncodeF32OfEveryCode) {
  // values_npy converts a block at a time; each element must be what its definition gives,
  // encode(F32, get(i)): every code of the 8- and 16-bit types (NaNs, infinities, subnormals,
  // -0), and f32 specials (a payload NaN canonicalised, subnormals, infinities), past one block.
  const Dtype types[] = {Dtype::BF16, Dtype::F16, Dtype::S16, Dtype::S8, Dtype::U8,
                         Dtype::E4M3, Dtype::E5M2, Dtype::E8M0, Dtype::F32};
  const uint32_t f32_codes[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x807FFFFFu, 0x3F800000u,
                                0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00001u, 0x7F800001u};
  for (Dtype d : types) {
    const int es = ref::size_of(d);
    // 16-bit tensors larger than 2^16 elements take a lookup table: twice over every code.
    const int64_t n = d == Dtype::F32 ? 5000 : es == 2 ? (int64_t(2) << 16) + 7 : int64_t(1) << (8 * es);
    Tensor t(d, {n});
    for (int64_t i = 0; i < n; ++i) {
      const uint32_t code = d == Dtype::F32 ? f32_codes[i % 10] ^ uint32_t(i / 10 % 2) : uint32_t(i);
      for (int k = 0; k < es; ++k) t.bytes()[size_t(i * es + k)] = uint8_t(code >> (8 * k));
    }
    const NpyArray a = values_npy(t);
    ASSERT_EQ(a.descr, "<f4");
    ASSERT_EQ(a.data.size(), size_t(n) * 4);
    int64_t mismatches = 0;
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t want = ref::encode(Dtype::F32, t.get(i));
      uint32_t got = 0;
      for (int k = 0; k < 4; ++k) got |= uint32_t(a.data[size_t(i * 4 + k)]) << (8 * k);
      if (got != want && mismatches++ < 5)
        ADD_FAILURE() << ref::name_of(d) << " element " << i << ": " << std::hex << got << " != " << want;
    }
    EXPECT_EQ(mismatches, 0) << ref::name_of(d);
  }
}

TEST_F(NpyTest, InputConventions) {
  // f32 values into bf16 round RNE: 1.00390625 ties to 1.0, 1.005859375 -> 1.0078125.
  const NpyArray f = f32_npy({1.00390625f, 1.005859375f});
  write_npy(path("x.npy"), f);
  Tensor x = read_input(path("x.npy"), Dtype::BF16);
  EXPECT_EQ(x.get(0), 1.0);
  EXPECT_EQ(x.get(1), 1.0078125);
  // '<u2' into bf16 is raw bits.
  write_npy(path("raw.npy"), NpyArray{"<u2", {1}, {0x81, 0x3F}});
  EXPECT_EQ(read_input(path("raw.npy"), Dtype::BF16).get(0), 1.0078125);
  // '|i1' into s8 exact; '|u1' into e4m3 raw bits.
  write_npy(path("q.npy"), NpyArray{"|i1", {2}, {0x80, 0x05}});
  EXPECT_EQ(read_input(path("q.npy"), Dtype::S8).to_doubles(), (std::vector<double>{-128, 5}));
  write_npy(path("e.npy"), NpyArray{"|u1", {2}, {0x7E, 0x38}});
  EXPECT_EQ(read_input(path("e.npy"), Dtype::E4M3).to_doubles(), (std::vector<double>{448, 1}));
  EXPECT_THROW(read_input(path("q.npy"), Dtype::E4M3), Error);  // '|i1' is not e4m3 bits
  // '<i2' into s32 widens exactly.
  write_npy(path("i2.npy"), NpyArray{"<i2", {1}, {0x00, 0x80}});
  EXPECT_EQ(read_input(path("i2.npy"), Dtype::S32).get(0), -32768.0);
  // Natural tensor type.
  EXPECT_EQ(read_npy_tensor(path("q.npy")).dtype(), Dtype::S8);
}

TEST_F(NpyTest, InputConversionErrors) {
  const NpyArray f = f32_npy({1.5f, 1e6f});
  try {
    tensor_from_npy(f, Dtype::S8, "x.npy");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "x.npy: value 1.5 at flat index 0 is not an integer in the range of s8");
  }
  try {
    tensor_from_npy(f, Dtype::E4M3, "x.npy");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "x.npy: value 1000000 at flat index 1 overflows e4m3");
  }
  try {
    tensor_from_npy(NpyArray{"<i4", {1}, {1, 0, 0, 0}}, Dtype::BF16, "w.npy");
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(),
                 "w.npy: dtype '<i4' cannot be loaded as bf16 (use '<f4'/'<f8' values, or '<u2' raw bits)");
  }
  try {
    write_npy(path("u2.npy"), NpyArray{"<u2", {1}, {0, 0}});
    read_npy_tensor(path("u2.npy"));
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("dtype '<u2' has no npusim tensor type"), std::string::npos);
  }
}

TEST_F(NpyTest, MalformedFilesGiveClearErrors) {
  write_bytes("magic.npy", {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0});
  EXPECT_EQ(error_reading("magic.npy"), "magic.npy: not a .npy file (missing \\x93NUMPY magic)");
  std::string ok = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }";
  std::vector<uint8_t> t = with_header(ok, 20);
  write_bytes("trunc.npy", t);
  EXPECT_EQ(error_reading("trunc.npy"),
            "trunc.npy: truncated data: shape [2, 3] of '<f4' needs 24 bytes, file has 20");
  write_bytes("long.npy", with_header(ok, 28));
  EXPECT_EQ(error_reading("long.npy"),
            "long.npy: trailing data: shape [2, 3] of '<f4' needs 24 bytes, file has 28");
  write_bytes("fortran.npy",
              with_header("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }", 24));
  EXPECT_EQ(error_reading("fortran.npy"),
            "fortran.npy: fortran_order True is not supported (write a C-order array)");
  write_bytes("big.npy", with_header("{'descr': '>f4', 'fortran_order': False, 'shape': (2,), }", 8));
  EXPECT_EQ(error_reading("big.npy"),
            "big.npy: big-endian dtype '>f4' is not supported (use little-endian '<f4')");
  write_bytes("c8.npy", with_header("{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }", 16));
  EXPECT_EQ(error_reading("c8.npy"),
            "c8.npy: unsupported dtype '<c8' (supported: <f2 <f4 <f8 |i1 <i2 <i4 |u1 <u2)");
  write_bytes("noshape.npy", with_header("{'descr': '<f4', 'fortran_order': False, }", 0));
  EXPECT_EQ(error_reading("noshape.npy"),
            "noshape.npy: malformed .npy header: needs 'descr', 'fortran_order' and 'shape'");
  std::vector<uint8_t> v9 = with_header(ok, 24);
  v9[6] = 9;
  write_bytes("v9.npy", v9);
  EXPECT_EQ(error_reading("v9.npy"),
            "v9.npy: unsupported .npy format version 9.0 (supported: 1.0, 2.0, 3.0)");
  write_bytes("hdr.npy", with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2; 3), }", 24));
  EXPECT_EQ(error_reading("hdr.npy").substr(0, 56),
            "hdr.npy: malformed .npy header: expected ',' or ')' at o");
  // Not a readable file: missing, a directory, endless (base/file_io.h bounds every read).
  auto error_of = [](const std::string& p, uint64_t limit) -> std::string {
    return npu::test::thrown_message([&] { read_npy(p, limit); });
  };
  EXPECT_EQ(error_of(path("missing.npy"), kMaxBinaryInputBytes),
            "'" + path("missing.npy") + "': cannot open: No such file or directory");
  EXPECT_EQ(error_of(dir_, kMaxBinaryInputBytes), "'" + dir_ + "': is a directory, not a file");
  EXPECT_EQ(error_of("/dev/zero", 1 << 20), "'/dev/zero': larger than the 1 MiB limit for this kind of input");
  // '<i1' and '=f4' are normalised ('=' is native little-endian).
  write_bytes("eq.npy", with_header("{'descr': '=f4', 'fortran_order': False, 'shape': (1,), }", 4));
  EXPECT_EQ(read_npy(path("eq.npy")).descr, "<f4");
}

// The header is checked whole: the shape product and its byte size may not overflow (once
// UB, and accepted with a tiny payload), the payload is exactly what the shape needs, keys
// appear once, nothing but padding follows the dict, and only versions x.0 are read.
TEST_F(NpyTest, HeaderAudit) {
  auto dict = [](const std::string& descr, const std::string& shape) {
    return "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  };
  // 2^32 x 2^32 elements = 2^64: used to wrap to 0 elements and read a 0-byte payload.
  write_bytes("wrap.npy", with_header(dict("<f4", "(4294967296, 4294967296)"), 0));
  EXPECT_EQ(error_reading("wrap.npy"), "wrap.npy: shape [4294967296, 4294967296] has more than 2^63 elements");
  // 2^22 x 2^40 = 2^62 elements fit int64; as '<f8' they need 2^65 bytes.
  write_bytes("bytes.npy", with_header(dict("<f8", "(4194304, 1099511627776)"), 8));
  EXPECT_EQ(error_reading("bytes.npy"), "bytes.npy: shape [4194304, 1099511627776] of '<f8' needs more than 2^64 bytes");
  // A zero dimension makes an empty array whatever the others are.
  write_bytes("empty.npy", with_header(dict("<f4", "(0, 1099511627776)"), 0));
  EXPECT_EQ(read_npy(path("empty.npy")).numel(), 0);
  write_bytes("empty_extra.npy", with_header(dict("<f4", "(0, 1099511627776)"), 4));
  EXPECT_EQ(error_reading("empty_extra.npy"),
            "empty_extra.npy: trailing data: shape [0, 1099511627776] of '<f4' needs 0 bytes, file has 4");
  write_bytes("dim.npy", with_header(dict("<f4", "(1099511627777,)"), 0));
  EXPECT_EQ(error_reading("dim.npy"), "dim.npy: malformed .npy header: dimension too large");
  write_bytes("neg.npy", with_header(dict("<f4", "(-1,)"), 0));
  EXPECT_EQ(error_reading("neg.npy").substr(0, 65), "neg.npy: malformed .npy header: expected a dimension at offset 51");
  write_bytes("twice.npy", with_header("{'descr': '<f4', 'descr': '<i4', 'fortran_order': False, 'shape': (1,), }", 4));
  EXPECT_EQ(error_reading("twice.npy"), "twice.npy: malformed .npy header: key 'descr' given twice");
  write_bytes("junk.npy", with_header(dict("<f4", "(1,)") + " junk", 4));
  const std::string junk = "junk.npy: malformed .npy header: expected only padding after the header dict at offset " +
                           std::to_string(dict("<f4", "(1,)").size() + 1);
  EXPECT_EQ(error_reading("junk.npy").substr(0, junk.size()), junk);
  write_bytes("fortran.npy", with_header("{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", 4));
  EXPECT_EQ(error_reading("fortran.npy").substr(0, 64), "fortran.npy: malformed .npy header: expected True or False at of");
  write_bytes("descr.npy", with_header("{'descr': 4, 'fortran_order': False, 'shape': (1,), }", 4));
  EXPECT_EQ(error_reading("descr.npy").substr(0, 65), "descr.npy: malformed .npy header: expected a quoted string at off");
  std::vector<uint8_t> minor = with_header(dict("<f4", "(1,)"), 4);
  minor[7] = 5;
  write_bytes("minor.npy", minor);
  EXPECT_EQ(error_reading("minor.npy"), "minor.npy: unsupported .npy format version 1.5 (supported: 1.0, 2.0, 3.0)");
  // Header length beyond the file (format 2.0: a 4-byte length).
  std::vector<uint8_t> hl = with_header(dict("<f4", "(1,)"), 4, 2);
  hl[8] = 0xff, hl[9] = 0xff, hl[10] = 0xff, hl[11] = 0x7f;
  write_bytes("hlen.npy", hl);
  EXPECT_EQ(error_reading("hlen.npy"), "hlen.npy: truncated .npy header");
  // A long malformed header is quoted only in part.
  write_bytes("long.npy", with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x" + std::string(5000, 'y'), 0));
  const std::string e = error_reading("long.npy");
  EXPECT_LT(e.size(), 400u) << e;
  EXPECT_EQ(e.substr(e.size() - 4), "...\"");
  // A hand-built array whose data does not match its shape is refused, not read past its end.
  NpyArray bad{"<f4", {4}, std::vector<uint8_t>(8)};
  EXPECT_THROW(tensor_from_npy(bad, Dtype::F32, "bad"), Error);
}

TEST_F(NpyTest, WriteFailureNamesThePathAndLeavesNothing) {
  try {
    write_npy(path("no_such_dir/x.npy"), NpyArray{"<f4", {1}, {0, 0, 0, 0}});
    FAIL();
  } catch (const Error& e) {
    std::string s = e.what();
    EXPECT_EQ(s, "cannot create '" + path("no_such_dir/x.npy") + "': No such file or directory");
  }
  EXPECT_TRUE(files().empty());
  // Overwriting replaces the file whole.
  write_npy(path("x.npy"), NpyArray{"<f4", {1}, {0, 0, 0x80, 0x3F}});
  write_npy(path("x.npy"), NpyArray{"<f4", {2}, {0, 0, 0, 0x40, 0, 0, 0x40, 0x40}});
  EXPECT_EQ(read_npy(path("x.npy")).shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(files(), (std::vector<std::string>{"x.npy"}));
}

}  // namespace
}  // namespace npu::golden
