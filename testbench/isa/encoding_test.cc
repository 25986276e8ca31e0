// The ISA table itself and the encoder/decoder (isa/encoding.h).
#include <gtest/gtest.h>

#include <set>
#include <type_traits>

#include "isa/error.h"
#include "isa/operands.h"
#include "testbench/isa/asm_test_util.h"

namespace npu::isa {
namespace {

TEST(EncodingTable, OpcodesAndMnemonicsAreDistinct) {
  std::set<int> ops;
  std::set<std::string_view> mns;
  for (const InstrDef& d : table()) {
    EXPECT_TRUE(ops.insert(static_cast<int>(d.op)).second) << d.mnemonic;
    EXPECT_TRUE(mns.insert(d.mnemonic).second) << "duplicate mnemonic " << d.mnemonic;
    EXPECT_EQ(find_mnemonic(d.mnemonic), &d);
  }
  EXPECT_EQ(static_cast<int>(ops.size()), kNumOps);
  EXPECT_LE(kNumOps, 1 << kOpcodeBits);
}

// Opcodes are what object files and VCD traces carry: once released, an instruction keeps its
// opcode, whatever rows are added or moved in isa/instructions.def. These are the values of
// the first object-file format (row order at the time), written out here independently.
TEST(EncodingTable, OpcodesAreStable) {
  const std::vector<std::pair<std::string_view, int>> released = {
    {"nop", 0x00}, {"end", 0x01}, {"mov", 0x02}, {"add", 0x03}, {"sub", 0x04}, {"mul", 0x05},
    {"div", 0x06}, {"rem", 0x07}, {"and", 0x08}, {"or", 0x09}, {"xor", 0x0a}, {"shl", 0x0b},
    {"shr", 0x0c}, {"sra", 0x0d}, {"min", 0x0e}, {"max", 0x0f}, {"fadd", 0x10}, {"fsub", 0x11},
    {"fmul", 0x12}, {"fdiv", 0x13}, {"fsqrt", 0x14}, {"itof", 0x15}, {"ftoi", 0x16}, {"ldp", 0x17},
    {"getsr", 0x18}, {"beq", 0x19}, {"bne", 0x1a}, {"blt", 0x1b}, {"bge", 0x1c}, {"jmp", 0x1d},
    {"mov_gm_ub", 0x1e}, {"mov_ub_gm", 0x1f}, {"mov_gm_l1", 0x20}, {"mov_l1_l0a", 0x21},
    {"mov_l1_l0b", 0x22}, {"mov_l1_fb", 0x23}, {"mov_ub_l1", 0x24}, {"mov_l1_ub", 0x25},
    {"mmad", 0x26}, {"mmad_mx", 0x27}, {"fix", 0x28}, {"fix_ub", 0x29}, {"vadd", 0x2a},
    {"vsub", 0x2b}, {"vmul", 0x2c}, {"vdiv", 0x2d}, {"vmax", 0x2e}, {"vmin", 0x2f}, {"vadds", 0x30},
    {"vmuls", 0x31}, {"vmaxs", 0x32}, {"vmins", 0x33}, {"vabs", 0x34}, {"vneg", 0x35},
    {"vrelu", 0x36}, {"vexp", 0x37}, {"vln", 0x38}, {"vsqrt", 0x39}, {"vrsqrt", 0x3a},
    {"vrec", 0x3b}, {"vcast", 0x3c}, {"vdup", 0x3d}, {"vcopy", 0x3e}, {"vrsum", 0x3f},
    {"vrmax", 0x40}, {"vramax", 0x41}, {"vrow", 0x42}, {"vcol", 0x43}, {"set_flag", 0x44},
    {"wait_flag", 0x45}, {"barrier", 0x46}, {"cc_set", 0x47}, {"cc_wait", 0x48},
    {"ldub", 0x70},  // issue 13 (KV-cache slots)
    {"mov_gm_l1_nz", 0x50},  // issue 14: the fractal-format DMA (0x50-0x57 are fractal formats)
  };
  for (const auto& [mnemonic, opc] : released) {
    const InstrDef* d = find_mnemonic(mnemonic);
    ASSERT_NE(d, nullptr) << mnemonic << " was removed: its opcode must stay unused";
    EXPECT_EQ(opcode(d->op), opc) << mnemonic;
  }
  EXPECT_TRUE(is_valid_op(Op::CC_WAIT));
  EXPECT_FALSE(is_valid_op(static_cast<Op>(0xff)));
}

// The generated operand views (isa/operands.h) read each member from its field's position.
TEST(EncodingTable, OperandViewsFollowTheTableOrder) {
  std::array<int64_t, kMaxFields> v{};
  for (int i = 0; i < kMaxFields; ++i) v[i] = 100 + i;
  auto at = [](Op op, const char* name) { return 100 + def(op).field_index(name); };
  const ops::FIX_UB f(v.data());
  EXPECT_EQ(static_cast<int64_t>(f.sub), at(Op::FIX_UB, "sub"));
  EXPECT_EQ(static_cast<int64_t>(f.dst_stride), at(Op::FIX_UB, "dst_stride"));
  EXPECT_EQ(static_cast<int64_t>(f.scale), at(Op::FIX_UB, "scale"));
  EXPECT_EQ(static_cast<int64_t>(f.relu), at(Op::FIX_UB, "relu"));
  const ops::VCOL c(v.data());
  EXPECT_EQ(static_cast<int64_t>(c.v), at(Op::VCOL, "v"));
  EXPECT_EQ(static_cast<int64_t>(c.stride), at(Op::VCOL, "stride"));
  const ops::MMAD_MX m(v.data());
  EXPECT_EQ(static_cast<int64_t>(m.sb), at(Op::MMAD_MX, "sb"));
  EXPECT_EQ(static_cast<int64_t>(m.init), at(Op::MMAD_MX, "init"));
  static_assert(std::is_same_v<decltype(c.dt), Dtype> && std::is_same_v<decltype(c.op), VecOp> &&
                std::is_same_v<decltype(m.sa), uint64_t>);
}

// Spike's check-opcode-overlap in our terms: every bit of the word belongs to at most one field.
TEST(EncodingTable, FieldsAreDisjointAndInsideTheWord) {
  for (const InstrDef& d : table()) {
    std::vector<int> owner(kInstrBits, -1);
    for (int b = 0; b < kOpcodeBits; ++b) owner[b] = 99;
    for (int i = 0; i < d.nfields; ++i) {
      int lo = field_offset(d, i), w = d.fields[i].width();
      ASSERT_GT(w, 0) << d.mnemonic << "." << d.fields[i].name;
      ASSERT_LE(lo + w, kInstrBits) << d.mnemonic << "." << d.fields[i].name;
      for (int b = lo; b < lo + w; ++b) {
        EXPECT_EQ(owner[b], -1) << d.mnemonic << " bit " << b << " claimed twice";
        owner[b] = i;
      }
    }
    EXPECT_EQ(field_offset(d, d.nfields), d.encoded_bits()) << d.mnemonic;
  }
}

TEST(EncodingTable, FieldsAreWellFormed) {
  for (const InstrDef& d : table()) {
    std::set<std::string_view> names;
    bool seen_operand = false, seen_optional = false;
    for (int i = 0; i < d.nfields; ++i) {
      const FieldDef& f = d.fields[i];
      EXPECT_TRUE(names.insert(f.name).second) << d.mnemonic << ": field " << f.name << " twice";
      if (f.kind == FieldKind::Enum) {
        // Every keyword value fits in the field, and the field is not wider than needed + slack.
        EXPECT_LE(enum_count(f.etype), 1 << f.bits) << d.mnemonic << "." << f.name;
        for (int v = 0; v < enum_count(f.etype); ++v) EXPECT_FALSE(keyword(f.etype, v).empty());
      } else {
        EXPECT_EQ(f.etype, EnumType::None) << d.mnemonic << "." << f.name;
      }
      if (f.kind == FieldKind::RegDst || f.kind == FieldKind::RegSrc) EXPECT_EQ(f.bits, 5);
      // Suffixes come first, optional operands last.
      if (f.syntax == FieldSyntax::Suffix) {
        EXPECT_FALSE(seen_operand) << d.mnemonic;
        EXPECT_EQ(f.kind, FieldKind::Enum) << d.mnemonic;
      } else if (f.syntax == FieldSyntax::Operand) {
        EXPECT_FALSE(seen_optional) << d.mnemonic << ": required operand after an optional one";
        seen_operand = true;
      } else {
        seen_optional = seen_operand = true;
        Operand dflt{f.kind == FieldKind::RegSrc, f.default_value};
        EXPECT_EQ(field_value_error(f, dflt), "") << d.mnemonic << "." << f.name << " default";
      }
    }
  }
}

TEST(Encoding, HandEncodedWord) {
  // add r3, r1, -2: opcode 0x03; rd=3 at [12:8]; rs1=1 at [17:13]; src flag 0 at bit 18,
  // payload -2 as 32-bit two's complement at [50:19] = 0xfffffffe.
  Instr in;
  in.op = Op::ADD;
  in.f[0] = {true, 3};
  in.f[1] = {true, 1};
  in.f[2] = {false, -2};
  Word w = encode(in);
  uint64_t expect = 0x03 | (3ull << 8) | (1ull << 13) | (0xfffffffeull << 19);
  EXPECT_EQ(w[0], expect);
  EXPECT_EQ(w[1], 0u);
  EXPECT_EQ(decode(w), in);
  // Register form: flag bit 18 set, payload = 7.
  in.f[2] = {true, 7};
  w = encode(in);
  EXPECT_EQ(w[0], 0x03 | (3ull << 8) | (1ull << 13) | (1ull << 18) | (7ull << 19));
  EXPECT_EQ(decode(w), in);
}

TEST(Encoding, FieldStraddlingTheHalfWord) {
  // mov r1, imm64: rd [12:8], flag bit 13, payload [77:14] crosses bit 64.
  Instr in;
  in.op = Op::MOV;
  in.f[0] = {true, 1};
  in.f[1] = {false, INT64_MIN + 12345};
  Word w = encode(in);
  EXPECT_EQ(w[1], static_cast<uint64_t>(INT64_MIN + 12345) >> 50);
  EXPECT_EQ(decode(w), in);
}

TEST(Encoding, RoundTripEveryOpcodeRandomOperands) {
  std::mt19937_64 rng(1234);
  for (const InstrDef& d : table()) {
    for (int k = 0; k < 300; ++k) {
      Instr in = test::random_instr(d.op, test::core_for(d, rng), rng, 1 << 20, 256);
      Word w = encode(in);
      Instr back = decode(w);
      ASSERT_EQ(back, in) << d.mnemonic;
      ASSERT_EQ(encode(back), w);
    }
  }
}

TEST(Encoding, EncodeRejectsValuesThatDoNotFit) {
  Instr in;
  in.op = Op::VADD;
  in.f[1] = {false, 1 << 18};  // dst is an 18-bit offset
  in.f[2] = {true, 1};
  in.f[3] = {false, 0};
  in.f[4] = {false, 64};
  try {
    encode(in);
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "encode vadd: immediate out of range for 'dst': 262144 (allowed 0..262143)");
  }
  in.f[1] = {true, 32};
  EXPECT_THROW(encode(in), Error);
  in.f[1] = {false, 0};
  in.f[0] = {false, 10};  // dtype 10 has no keyword
  EXPECT_THROW(encode(in), Error);
  Instr add;
  add.op = Op::ADD;
  add.f[0] = {false, 1};  // rd must be a register
  add.f[1] = {true, 1};
  EXPECT_THROW(encode(add), Error);
}

TEST(Encoding, DecodeRejectsBadWords) {
  auto msg = [](Word w) {
    try {
      decode(w);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(msg({0xff, 0}), "decode: unknown opcode 0xff in word 0x000000000000000000000000000000ff");
  // end has no fields: any bit above bit 7 is unused.
  EXPECT_EQ(msg({0x01 | (1ull << 40), 0}),
            "decode end: nonzero unused bits above bit 8 in word 0x00000000000000000000010000000001");
  EXPECT_EQ(msg({0x01, 1ull << 63}), "decode end: nonzero unused bits above bit 8 in word 0x80000000000000000000000000000001");
  // getsr rd, sreg: sreg is 3 bits at [15:13]; value 7 has no keyword.
  EXPECT_EQ(msg({0x18 | (7ull << 13), 0}), "decode getsr: field 'sreg': special register value 7 out of range (0..4)");
  // add with a register src whose payload is 32 (>= 32 registers).
  EXPECT_EQ(msg({0x03 | (1ull << 18) | (32ull << 19), 0}),
            "decode add: field 'src' holds a register with nonzero unused bits");
}

}  // namespace
}  // namespace npu::isa

namespace npu::isa {
namespace {

TEST(Validate, ProgramLevelChecks) {
  Program p;
  p.name = "k";
  p.params = {{"x", ParamKind::Gm, std::nullopt}};
  p.aiv.present = true;
  Instr j;
  j.op = Op::JMP;
  j.f[0] = {false, 3};  // the section has 2 instructions: targets 0..2 are inside
  Instr l;
  l.op = Op::LDP;
  l.f[0] = {true, 1};
  l.f[1] = {false, 1};  // only parameter 0 exists
  p.aiv.code = {j, l};
  p.aic.present = true;
  Instr m;
  m.op = Op::MMAD_MX;  // a5 only
  m.f[4] = {true, 0};  // sa, sb: register fields carry is_reg = true (isa/encoding.h)
  m.f[5] = {true, 0};
  p.aic.code = {m};
  std::vector<std::string> errs = validate_program(p, Arch::A2);
  ASSERT_EQ(errs.size(), 3u);
  EXPECT_EQ(errs[0], "aic pc 0 (mmad_mx.e4m3 0x0, 0x0, 0x0, r0, r0, 0, 0, 0, 0): 'mmad_mx' is only available on a5 (target arch is a2)");
  EXPECT_EQ(errs[1], "aiv pc 0 (jmp L3): branch target 3 outside the section (0..2)");
  EXPECT_EQ(errs[2], "aiv pc 1 (ldp r1, p1): parameter index 1 but the kernel has 1 parameters");
  EXPECT_TRUE(validate_program(p, Arch::A5).size() == 2u);
}

TEST(Validate, RegisterZeroMayBeWritten) {
  Instr a;
  a.op = Op::ADD;
  a.f[0] = {true, 0};
  a.f[1] = {true, 0};
  a.f[2] = {false, 1};
  EXPECT_TRUE(validate(a, Arch::A2, CoreType::Aic).empty());
}

}  // namespace
}  // namespace npu::isa
