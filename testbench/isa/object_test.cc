// Object file write/read (isa/object.h).
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "isa/asm/assembler.h"
#include "isa/disasm.h"
#include "isa/encoding.h"
#include "isa/error.h"
#include "isa/object.h"
#include "testbench/isa/asm_test_util.h"
#include "testbench/support/thrown_message.h"

namespace npu::isa {
namespace {

void expect_same(const Program& a, const Program& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.target_config, b.target_config);
  EXPECT_EQ(a.target_symbols, b.target_symbols);
  ASSERT_EQ(a.params.size(), b.params.size());
  for (size_t i = 0; i < a.params.size(); ++i) {
    EXPECT_EQ(a.params[i].name, b.params[i].name);
    EXPECT_EQ(a.params[i].kind, b.params[i].kind);
    EXPECT_EQ(a.params[i].dtype, b.params[i].dtype);
    EXPECT_EQ(a.params[i].format, b.params[i].format);
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
  const std::vector<uint8_t> head = {1, 0, 0, 0, 'k',                 // name
                                     1, 0, 0, 0,                      // 1 param
                                     1, 0, 0, 0, 'n', 1, 0, 0};       // "n", int, no dtype
  const std::vector<uint8_t> target = {3, 0, 0, 0, 'c', 'f', 'g',    // target config "cfg"
                                       1, 0, 0, 0,                    // 1 target constant
                                       5, 0, 0, 0, 'C', 'F', 'G', '_', 'X',  // "CFG_X"
                                       0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};  // = -2
  const std::vector<uint8_t> tail = {2,                               // aiv only
                                     1, 0, 0, 0,                      // 1 instruction
                                     1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,  // end = opcode 1
                                     0, 0, 0, 0};                     // no labels
  p.target_config = "cfg";
  p.target_symbols = {{"CFG_X", -2}};
  std::vector<uint8_t> expect = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '3'};
  for (int i = 0; i < 8; ++i) expect.push_back(static_cast<uint8_t>(isa_fingerprint() >> (8 * i)));
  for (const auto* part : {&head, &target, &tail}) expect.insert(expect.end(), part->begin(), part->end());
  EXPECT_EQ(write_object(p), expect);
  expect_same(read_object(expect), p);
  // The same kernel without target constants as formats 2 and 1 wrote it (no constants; v1 no
  // fingerprint either) still reads.
  p.target_config.clear();
  p.target_symbols.clear();
  std::vector<uint8_t> v2 = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '2'};
  for (int i = 0; i < 8; ++i) v2.push_back(static_cast<uint8_t>(isa_fingerprint() >> (8 * i)));
  std::vector<uint8_t> v1 = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1'};
  for (auto* v : {&v2, &v1})
    for (const auto* part : {&head, &tail}) v->insert(v->end(), part->begin(), part->end());
  expect_same(read_object(v2), p);
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
  return npu::test::thrown_message([&] { read_object(b); }, "no error");
}

TEST(Object, CorruptFilesGiveClearErrors) {
  EXPECT_EQ(read_error({'E', 'L', 'F'}), "not an npusim object file (bad magic; expected \"NPUSIMO3\")");
  // The hand-made files below are version 1 (no ISA fingerprint), which is still read.
  std::vector<uint8_t> b = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1', 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0};
  b.insert(b.end(), 16, 0);
  b[8 + 8 + 1 + 4] = 0xee;  // opcode of the first aic instruction
  b.insert(b.end(), 4, 0);
  EXPECT_EQ(read_error(b), "object file: aic pc 0: decode: unknown opcode 0xee in word 0x000000000000000000000000000000ee");
  // A huge instruction count must not allocate: it is a truncation error.
  std::vector<uint8_t> huge = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1', 0, 0, 0, 0, 0, 0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(read_error(huge), "object file: aic section: 4294967295 instructions (limit 1048575)");
  huge[17] = 0xfe, huge[18] = 0xff, huge[19] = 0x0f, huge[20] = 0;  // 1048574: within the limit
  EXPECT_EQ(read_error(huge), "object file truncated at byte 21 (reading instructions)");
  std::vector<uint8_t> labels = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1', 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0,
                                 0xff, 0xff, 0xff, 0xff};  // no instructions, 2^32 - 1 labels
  EXPECT_EQ(read_error(labels), "object file truncated at byte 25 (reading labels)");
  std::vector<uint8_t> params = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1', 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff};
  EXPECT_EQ(read_error(params), "object file: 4294967295 parameters (limit 256)");
  std::vector<uint8_t> badmask = {'N', 'P', 'U', 'S', 'I', 'M', 'O', '1', 0, 0, 0, 0, 0, 0, 0, 0, 4};
  EXPECT_EQ(read_error(badmask), "object file: bad section mask 4");
}

TEST(Object, CarriesTheIsaFingerprintAndRefusesAnotherIsa) {
  std::mt19937_64 rng(11);
  std::vector<uint8_t> bytes = write_object(test::random_program(rng, 1));
  ASSERT_GT(bytes.size(), 16u);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 8), "NPUSIMO3");
  uint64_t fp = 0;
  for (int i = 0; i < 8; ++i) fp |= uint64_t{bytes[8 + i]} << (8 * i);
  EXPECT_EQ(fp, isa_fingerprint());
  std::vector<uint8_t> other = bytes;
  other[8] ^= 1;  // built for another ISA
  EXPECT_EQ(read_error(other), fmt::format("object file built for ISA {:016x}, this npusim has ISA {:016x}: "
                                         "re-assemble it with this npusim (npusim asm)",
                                         fp ^ 1, fp));
}

// A valid object (both sections, parameters, flags, a branch, semantic labels) and each kind of
// invalid object made from it by editing its bytes: the loader applies validate_program, the
// assembler's own checks, so each is an error naming the section, pc and instruction (or the
// label, parameter or name), not a run-time fault or a disassembly that does not re-assemble.
const char* kValidSource = R"(.kernel k
.param x, gm, bf16
.param n, int
.aic
.semantic mm
    mmad.bf16 0x0, 0x0, 0x0, 16, 16, 16
    end
.aiv
.semantic start
    ldp r1, n
    set_flag mte2, vector, 0
    wait_flag mte2, vector, 0
    vexp.f32 0x0, 0x100, 64
    cc_set vector, 1, 0
.semantic loop
loop:
    sub r1, r1, 1
    bne r1, 0, loop
    end
)";

class InvalidObject : public ::testing::Test {
 protected:
  void SetUp() override {
    AsmResult r = assemble(kValidSource, "k.s", Arch::A2);
    ASSERT_TRUE(r.program) << r.format_diags();
    prog_ = *r.program;
    bytes_ = write_object(prog_);
    ASSERT_EQ(error(bytes_), "no error");
  }
  static std::string error(const std::vector<uint8_t>& b, Arch arch = Arch::A2) {
    return npu::test::thrown_message([&] { read_object(b, arch); }, "no error");
  }
  // Offset of `what`, which occurs exactly once in the object.
  size_t find(const std::vector<uint8_t>& what) const {
    auto it = std::search(bytes_.begin(), bytes_.end(), what.begin(), what.end());
    EXPECT_NE(it, bytes_.end());
    EXPECT_EQ(std::search(it + 1, bytes_.end(), what.begin(), what.end()), bytes_.end());
    return static_cast<size_t>(it - bytes_.begin());
  }
  static std::vector<uint8_t> word_bytes(const Instr& in) {
    const Word w = encode(in);
    std::vector<uint8_t> b;
    for (uint64_t half : {w[0], w[1]})
      for (int i = 0; i < 8; ++i) b.push_back(static_cast<uint8_t>(half >> (8 * i)));
    return b;
  }
  // The object with aiv instruction `pc` re-encoded after `edit` changed it.
  template <typename F>
  std::vector<uint8_t> edit_aiv(size_t pc, F&& edit, std::vector<uint8_t> b = {}) const {
    if (b.empty()) b = bytes_;
    Instr in = prog_.aiv.code[pc];
    const size_t at = find(word_bytes(in));
    edit(in);
    const std::vector<uint8_t> w = word_bytes(in);
    std::copy(w.begin(), w.end(), b.begin() + static_cast<long>(at));
    return b;
  }
  // The object with the 4-byte little-endian value before the string record of `name` (the
  // label pc for a label) set to v.
  std::vector<uint8_t> edit_before_name(const std::string& name, uint32_t v) const {
    std::vector<uint8_t> rec{static_cast<uint8_t>(name.size()), 0, 0, 0};
    rec.insert(rec.end(), name.begin(), name.end());
    std::vector<uint8_t> b = bytes_;
    const size_t at = find(rec) - 4;
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
    return b;
  }
  // The object with the first byte of the string `name` set to c.
  std::vector<uint8_t> rename(const std::string& name, char c) const {
    std::vector<uint8_t> rec{static_cast<uint8_t>(name.size()), 0, 0, 0};
    rec.insert(rec.end(), name.begin(), name.end());
    std::vector<uint8_t> b = bytes_;
    b[find(rec) + 4] = static_cast<uint8_t>(c);
    return b;
  }
  Program prog_;
  std::vector<uint8_t> bytes_;
};

TEST_F(InvalidObject, InstructionsAreValidatedAsTheAssemblerDoes) {
  // aiv: 0 ldp, 1 set_flag, 2 wait_flag, 3 vexp, 4 cc_set, 5 sub, 6 bne, 7 end.
  EXPECT_EQ(error(edit_aiv(1, [](Instr& i) { i.f[1].value = i.f[0].value; })),
            "aiv pc 1 (set_flag mte2, mte2, 0): 'set_flag': src and dst must be different pipes (both mte2)");
  EXPECT_EQ(error(edit_aiv(2, [](Instr& i) { i.f[1].value = static_cast<int64_t>(Pipe::Cube); })),
            "aiv pc 2 (wait_flag mte2, cube, 0): 'wait_flag': pipe cube does not exist on AIV");
  EXPECT_EQ(error(edit_aiv(3, [](Instr& i) { i.f[0].value = static_cast<int64_t>(Dtype::S32); })),
            "aiv pc 3 (vexp.s32 0x0, 0x100, 64): 'vexp' does not support dtype s32 (allowed: f32, f16, bf16)");
  EXPECT_EQ(error(edit_aiv(4, [](Instr& i) { i.f[1].value = 3; })),
            "aiv pc 4 (cc_set vector, 3, 0): 'cc_set': mode 3 out of range (0..2)");
  EXPECT_EQ(error(edit_aiv(6, [](Instr& i) { i.f[2].value = 9; })),
            "aiv pc 6 (bne r1, 0, L9): branch target 9 outside the section (0..8)");
  EXPECT_EQ(error(edit_aiv(0, [](Instr& i) { i.f[1].value = 2; })),
            "aiv pc 0 (ldp r1, p2): parameter index 2 but the kernel has 2 parameters");
  const Instr mmad = prog_.aic.code[0];
  EXPECT_EQ(error(edit_aiv(3, [&](Instr& i) { i = mmad; })),
            "aiv pc 3 (mmad.bf16 0x0, 0x0, 0x0, 16, 16, 16, 1): 'mmad' runs only on AIC cores, not in the aiv section");
  // Several problems: all of them, one line each.
  std::vector<uint8_t> two = edit_aiv(4, [](Instr& i) { i.f[1].value = 3; });
  two = edit_aiv(1, [](Instr& i) { i.f[1].value = i.f[0].value; }, two);
  EXPECT_EQ(error(two),
            "aiv pc 1 (set_flag mte2, mte2, 0): 'set_flag': src and dst must be different pipes (both mte2)\n"
            "aiv pc 4 (cc_set vector, 3, 0): 'cc_set': mode 3 out of range (0..2)");
  // An a5 object on an a2 config: valid for a5 (the default), refused for a2.
  AsmResult a5 = assemble(".aic\n    mmad_mx.e4m3 0x0, 0x0, 0x0, r1, r2, 16, 32, 16\n    end\n", "a5.s", Arch::A5);
  ASSERT_TRUE(a5.program) << a5.format_diags();
  const std::vector<uint8_t> b5 = write_object(*a5.program);
  EXPECT_EQ(error(b5, Arch::A5), "no error");
  EXPECT_EQ(error(b5, Arch::A2),
            "aic pc 0 (mmad_mx.e4m3 0x0, 0x0, 0x0, r1, r2, 16, 32, 16, 1): 'mmad_mx' is only available on a5 (target arch is a2)");
}

TEST_F(InvalidObject, NamesLabelsAndLimitsAreValidated) {
  EXPECT_EQ(error(edit_before_name("loop", 9)),
            "aiv semantic label 1 'loop' at pc 9: beyond the end of the section (8 instructions)");
  EXPECT_EQ(error(edit_before_name("loop", 0)), "aiv semantic label 1 'loop' at pc 0: not after the previous label (pc 0)");
  EXPECT_EQ(error(edit_before_name("mm", 2)), "no error");  // a label may follow the last instruction
  EXPECT_EQ(error(rename("start", ' ')), "aiv semantic label 0 ' tart' at pc 0: bad name (letters, digits, _ . - /)");
  EXPECT_EQ(error(rename("k", '-')), "bad kernel name '-' (an identifier)");
  EXPECT_EQ(error(rename("x", '1')), "parameter 0: bad name '1'");
  EXPECT_EQ(error(rename("n", 'x')), "parameter 1: 'x' is already declared as parameter 0");
  EXPECT_EQ(error(rename("n", '\n')), "parameter 1: bad name '\\x0a'");
  // The assembler always names the kernel (.kernel, else the file's stem), so an empty name is
  // not something it writes.
  Program unnamed = prog_;
  unnamed.name.clear();
  EXPECT_EQ(error(write_object(unnamed)), "no kernel name (the assembler always writes one: re-assemble the kernel)");
  // Neither section: the section mask byte (after the last parameter and the empty target
  // constants: config "" and count 0) cleared, and what followed it removed.
  std::vector<uint8_t> none(bytes_.begin(), bytes_.begin() + static_cast<long>(find({'n', 1, 0, 0}) + 4 + 8));
  none.push_back(0);
  EXPECT_EQ(error(none), "no code: neither an aic nor an aiv section");
}

TEST(KernelName, ASourceWithoutDotKernelIsNamedAfterItsFile) {
  const char* src = ".aiv\n    end\n";
  for (const auto& [file, name] : std::vector<std::pair<std::string, std::string>>{
           {"dir/softmax.s", "softmax"}, {"my-kernel.v2.s", "my_kernel"}, {"3x.s", "_3x"}, {"", "kernel"}}) {
    AsmResult r = assemble(src, file, Arch::A2);
    ASSERT_TRUE(r.program) << r.format_diags();
    EXPECT_EQ(r.program->name, name) << file;
  }
  AsmResult named = assemble(".kernel k2\n.aiv\n    end\n", "dir/softmax.s", Arch::A2);
  ASSERT_TRUE(named.program);
  EXPECT_EQ(named.program->name, "k2");
}

// Every invalid object above is refused by the assembler too: its source does not assemble.
TEST(InvalidObjectSource, TheAssemblerRejectsTheSameThings) {
  for (const char* src : {".aiv\n    set_flag mte2, mte2, 0\n    end\n", ".aiv\n    wait_flag mte2, cube, 0\n    end\n",
                          ".aiv\n    vexp.s32 0x0, 0x100, 64\n    end\n", ".aiv\n    cc_set vector, 3, 0\n    end\n",
                          ".aiv\n    mmad.bf16 0x0, 0x0, 0x0, 16, 16, 16\n    end\n", ".kernel -\n.aiv\n    end\n",
                          ".param 1, int\n.aiv\n    end\n", ".param x, int\n.param x, int\n.aiv\n    end\n",
                          ".aiv\n.semantic a b\n    end\n", ".kernel k\n"})
    EXPECT_FALSE(assemble(src, "t.s", Arch::A2).program) << src;
}

// Random corruption: an error, or an object whose disassembly re-assembles to the same bytes.
TEST(Object, RandomByteFlipsNeverCrash) {
  std::mt19937_64 rng(9);
  std::vector<uint8_t> bytes = write_object(test::random_program(rng, 1));
  int loaded = 0;
  for (int k = 0; k < 2000; ++k) {
    std::vector<uint8_t> b = bytes;
    for (int j = 0; j < 3; ++j) b[rng() % b.size()] ^= static_cast<uint8_t>(1u << (rng() % 8));
    Program p;
    try {
      p = read_object(b);
    } catch (const Error&) {
      continue;
    }
    // What loads is what the assembler could have written: its text assembles back to it.
    AsmResult r = assemble(disassemble_program(p), "flipped.s", Arch::A5);
    ASSERT_TRUE(r.program) << r.format_diags();
    ASSERT_EQ(write_object(*r.program), b) << disassemble_program(p);
    ++loaded;
  }
  EXPECT_GT(loaded, 0);  // some flips hit operand bits and stay valid
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

// A gm parameter kept NZ in GM (`.param w, gm, bf16, nz`): the parameter's flag byte carries it
// (bit 0 a dtype, bit 1 NZ), it survives write / read and disassembly, and a layout on a non-gm
// parameter in a file is refused.
TEST(Object, NzParameterLayout) {
  AsmResult r = assemble(".kernel k\n.param w, gm, bf16, nz\n.param v, gm, nz\n.param n, int\n.aic\n    end\n", "k.s", Arch::A2);
  ASSERT_TRUE(r.program) << r.format_diags();
  const Program& p = *r.program;
  EXPECT_EQ(p.params[0].format, GmFormat::Nz);
  EXPECT_EQ(p.params[1].format, GmFormat::Nz);
  EXPECT_FALSE(p.params[1].dtype.has_value());
  EXPECT_EQ(p.params[2].format, GmFormat::Nd);
  std::vector<uint8_t> bytes = write_object(p);
  // "w": 1-byte name length field, then the name, kind gm (0), flags 3, dtype bf16.
  const std::vector<uint8_t> w = {1, 0, 0, 0, 'w', 0, 3, static_cast<uint8_t>(Dtype::BF16)};
  EXPECT_NE(std::search(bytes.begin(), bytes.end(), w.begin(), w.end()), bytes.end());
  expect_same(read_object(bytes), p);
  const std::string text = disassemble_program(read_object(bytes));
  EXPECT_NE(text.find(".param w, gm, bf16, nz\n.param v, gm, nz\n.param n, int\n"), std::string::npos) << text;
  // "n" (int) with the NZ flag: refused.
  const std::vector<uint8_t> n = {1, 0, 0, 0, 'n', 1, 0, 0};
  auto at = std::search(bytes.begin(), bytes.end(), n.begin(), n.end());
  ASSERT_NE(at, bytes.end());
  at[6] = 2;
  EXPECT_EQ(npu::test::thrown_message([&] { read_object(bytes); }, "no error"),
            "object file: parameter 'n' has a layout but is not a gm parameter");
}

}  // namespace
}  // namespace npu::isa
