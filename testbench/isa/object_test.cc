// Object file write/read (isa/object.h).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "isa/asm/assembler.h"
#include "isa/disasm.h"
#include "isa/error.h"
#include "isa/object.h"
#include "testbench/isa/asm_test_util.h"

namespace npu::isa {
namespace {

void expect_same(const Program& a, const Program& b) {
  EXPECT_EQ(a.name, b.name);
  ASSERT_EQ(a.params.size(), b.params.size());
  for (size_t i = 0; i < a.params.size(); ++i) {
    EXPECT_EQ(a.params[i].name, b.params[i].name);
    EXPECT_EQ(a.params[i].kind, b.params[i].kind);
    EXPECT_EQ(a.params[i].dtype, b.params[i].dtype);
  }
  for (CoreType ct : {CoreType::Aic, CoreType::Aiv}) {
    const CodeSection &x = a.section(ct), &y = b.section(ct);
    EXPECT_EQ(x.present, y.present);
    ASSERT_EQ(x.code.size(), y.code.size());
    for (size_t pc = 0; pc < x.code.size(); ++pc) ASSERT_EQ(x.code[pc], y.code[pc]) << core_type_name(ct) << " pc " << pc;
    ASSERT_EQ(x.labels.size(), y.labels.size());
    for (size_t i = 0; i < x.labels.size(); ++i) {
      EXPECT_EQ(x.labels[i].pc, y.labels[i].pc);
      EXPECT_EQ(x.labels[i].name, y.labels[i].name);
    }
  }
}

TEST(Object, HandCheckedBytes) {
  // .kernel k, one int param "n", an aiv section with `end` and no labels.
  Program p;
  p.name = "k";
  p.params = {{"n", ParamKind::Int, std::nullopt}};
  p.aiv.present = true;
  Instr end;
  end.op = Op::END;
  p.aiv.code = {end};
  const std::vector<uint8_t> body = {1, 0, 0, 0, 'k',                 // name
                                     1, 0, 0, 0,                      // 1 param
                                     1, 0, 0, 0, 'n', 1, 0, 0,        // "n", int, no dtype
                                     2,                               // aiv only
                                     1, 0, 0, 0,                      // 1 instruction
                                     1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // end = opcode 1
                                     0, 0, 0, 0};                     // no labels
  std::vector<uint8_t> expect = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '2'};
  for (int i = 0; i < 8; ++i) expect.push_back(static_cast<uint8_t>(isa_fingerprint() >> (8 * i)));
  expect.insert(expect.end(), body.begin(), body.end());
  EXPECT_EQ(write_object(p), expect);
  expect_same(read_object(expect), p);
  // The same kernel as format 1 wrote it (no fingerprint) still reads.
  std::vector<uint8_t> v1 = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1'};
  v1.insert(v1.end(), body.begin(), body.end());
  expect_same(read_object(v1), p);
}

TEST(Object, RandomProgramRoundTrip) {
  std::mt19937_64 rng(7);
  Program p = test::random_program(rng, 4);
  std::vector<uint8_t> bytes = write_object(p);
  Program q = read_object(bytes);
  expect_same(p, q);
  EXPECT_EQ(write_object(q), bytes);
}

TEST(Object, EveryTruncationIsAnErrorNotACrash) {
  std::mt19937_64 rng(8);
  std::vector<uint8_t> bytes = write_object(test::random_program(rng, 1));
  for (size_t n = 0; n < bytes.size(); ++n) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    EXPECT_THROW(read_object(cut), Error) << "length " << n;
  }
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  try {
    read_object(longer);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "object file: 1 unexpected bytes after the last section");
  }
}

std::string read_error(const std::vector<uint8_t>& b) {
  try {
    read_object(b);
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

TEST(Object, CorruptFilesGiveClearErrors) {
  EXPECT_EQ(read_error({'E', 'L', 'F'}), "not an npusim object file (bad magic; expected \"NPUSIMO2\")");
  // The hand-made files below are version 1 (no ISA fingerprint), which is still read.
  std::vector<uint8_t> b = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1', 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0};
  b.insert(b.end(), 16, 0);
  b[8 + 8 + 1 + 4] = 0xee;  // opcode of the first aic instruction
  b.insert(b.end(), 4, 0);
  EXPECT_EQ(read_error(b), "object file: aic pc 0: decode: unknown opcode 0xee in word 0x000000000000000000000000000000ee");
  // A huge instruction count must not allocate: it is a truncation error.
  std::vector<uint8_t> huge = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1', 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(read_error(huge), "object file truncated at byte 21 (reading instructions)");
  std::vector<uint8_t> badmask = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1', 0, 0, 0, 0, 0, 0, 0, 0, 4};
  EXPECT_EQ(read_error(badmask), "object file: bad section mask 4");
}

TEST(Object, CarriesTheIsaFingerprintAndRefusesAnotherIsa) {
  std::mt19937_64 rng(11);
  std::vector<uint8_t> bytes = write_object(test::random_program(rng, 1));
  ASSERT_GT(bytes.size(), 16u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "NPUSIMO2");
  uint64_t fp = 0;
  for (int i = 0; i < 8; ++i) fp |= uint64_t{bytes[8 + i]} << (8 * i);
  EXPECT_EQ(fp, isa_fingerprint());
  std::vector<uint8_t> other = bytes;
  other[8] ^= 1;  // built for another ISA
  EXPECT_EQ(read_error(other), fmt::format("object file built for ISA {:016x}, this npusim has ISA {:016x}: "
                                         "re-assemble it with this npusim (npusim asm)",
                                         fp ^ 1, fp));
}

TEST(Object, RandomByteFlipsNeverCrash) {
  std::mt19937_64 rng(9);
  std::vector<uint8_t> bytes = write_object(test::random_program(rng, 1));
  for (int k = 0; k < 2000; ++k) {
    std::vector<uint8_t> b = bytes;
    for (int j = 0; j < 3; ++j) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    try {
      Program p = read_object(b);
      (void)disassemble_program(p);
    } catch (const Error&) {
    }
  }
}

TEST(Object, FileHelpersWriteAtomically) {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / ("npusim_object_test_" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::mt19937_64 rng(10);
  Program p = test::random_program(rng, 1);
  std::string path = (dir / "k.npuo").string();
  write_object_file(path, p);
  expect_same(read_object_file(path), p);
  // Only the final file exists: no temp file left behind.
  int files = 0;
  for (auto& e : fs::directory_iterator(dir)) files += e.is_regular_file();
  EXPECT_EQ(files, 1);
  // Writing into a missing directory fails cleanly and leaves nothing.
  EXPECT_THROW(write_object_file((dir / "no/such/dir.npuo").string(), p), Error);
  EXPECT_THROW(read_object_file((dir / "missing.npuo").string()), Error);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace npu::isa
