#include "isa/encoding.h"

#include <fmt/format.h>

#include <algorithm>

#include "isa/error.h"

namespace npu::isa {
namespace {

uint64_t mask(int width) { return width >= 64 ? ~0ull : (1ull << width) - 1; }

void put(Word& w, int pos, int width, uint64_t v) {
  v &= mask(width);
  int word = pos / 64, off = pos % 64;
  w[word] |= v << off;
  if (off + width > 64) w[word + 1] |= v >> (64 - off);
}

uint64_t get(const Word& w, int pos, int width) {
  int word = pos / 64, off = pos % 64;
  uint64_t v = w[word] >> off;
  if (off + width > 64) v |= w[word + 1] << (64 - off);
  return v & mask(width);
}

bool is_signed(FieldKind k) { return k == FieldKind::RegOrImm || k == FieldKind::Imm; }

int64_t sign_extend(uint64_t v, int bits) {
  if (bits >= 64) return static_cast<int64_t>(v);
  uint64_t sign = 1ull << (bits - 1);
  return static_cast<int64_t>((v ^ sign) - sign);
}

}  // namespace

int64_t imm_min(const FieldDef& f) {
  if (f.kind == FieldKind::Enum || !is_signed(f.kind)) return 0;
  return f.bits >= 64 ? INT64_MIN : -(int64_t{1} << (f.bits - 1));
}

int64_t imm_max(const FieldDef& f) {
  switch (f.kind) {
    case FieldKind::RegDst:
    case FieldKind::RegSrc: return kNumRegs - 1;
    case FieldKind::Enum: return enum_count(f.etype) - 1;
    default: break;
  }
  if (is_signed(f.kind)) return f.bits >= 64 ? INT64_MAX : (int64_t{1} << (f.bits - 1)) - 1;
  return f.bits >= 63 ? INT64_MAX : (int64_t{1} << f.bits) - 1;
}

int field_offset(const InstrDef& d, int i) {
  int pos = kOpcodeBits;
  for (int j = 0; j < i; ++j) pos += d.fields[j].width();
  return pos;
}

std::string field_value_error(const FieldDef& f, const Operand& o) {
  bool reg_field = f.kind == FieldKind::RegDst || f.kind == FieldKind::RegSrc;
  if (o.is_reg) {
    if (!f.may_be_register()) return fmt::format("'{}' cannot be a register", f.name);
    if (o.value < 0 || o.value >= kNumRegs)
      return fmt::format("'{}': no register r{} (r0..r{})", f.name, o.value, kNumRegs - 1);
    return "";
  }
  if (reg_field) return fmt::format("'{}' must be a register", f.name);
  if (o.value < imm_min(f) || o.value > imm_max(f)) {
    if (f.kind == FieldKind::Enum)
      return fmt::format("'{}': {} value {} out of range (0..{})", f.name, enum_type_name(f.etype),
                         o.value, imm_max(f));
    return fmt::format("immediate out of range for '{}': {} (allowed {}..{})", f.name, o.value,
                       imm_min(f), imm_max(f));
  }
  return "";
}

Word encode(const Instr& in) {
  if (!is_valid_op(in.op))
    throw Error(fmt::format("encode: bad opcode {}", static_cast<int>(in.op)));
  const InstrDef& d = in.d();
  Word w{0, 0};
  put(w, 0, kOpcodeBits, static_cast<uint64_t>(in.op));
  int pos = kOpcodeBits;
  for (int i = 0; i < d.nfields; ++i) {
    const FieldDef& f = d.fields[i];
    const Operand& o = in.f[i];
    std::string err = field_value_error(f, o);
    if (!err.empty()) throw Error(fmt::format("encode {}: {}", d.mnemonic, err));
    uint64_t v = static_cast<uint64_t>(o.value);
    if (f.kind == FieldKind::RegOrImm || f.kind == FieldKind::URegOrImm) {
      put(w, pos, 1, o.is_reg ? 1 : 0);
      put(w, pos + 1, f.width() - 1, v);
    } else {
      put(w, pos, f.width(), v);
    }
    pos += f.width();
  }
  return w;
}

Instr decode(const Word& w) {
  unsigned opc = static_cast<unsigned>(get(w, 0, kOpcodeBits));
  Instr in;
  in.op = static_cast<Op>(opc);
  if (!is_valid_op(in.op))
    throw Error(fmt::format("decode: unknown opcode {:#x} in word {:#018x}{:016x}", opc, w[1], w[0]));
  const InstrDef& d = in.d();
  int pos = kOpcodeBits;
  for (int i = 0; i < d.nfields; ++i) {
    const FieldDef& f = d.fields[i];
    Operand& o = in.f[i];
    switch (f.kind) {
      case FieldKind::RegDst:
      case FieldKind::RegSrc:
        o.is_reg = true;
        o.value = static_cast<int64_t>(get(w, pos, 5));
        break;
      case FieldKind::RegOrImm:
      case FieldKind::URegOrImm: {
        int payload = f.width() - 1;
        uint64_t v = get(w, pos + 1, payload);
        if (get(w, pos, 1)) {
          if (v >= static_cast<uint64_t>(kNumRegs))
            throw Error(fmt::format("decode {}: field '{}' holds a register with nonzero unused bits",
                                    d.mnemonic, f.name));
          o.is_reg = true;
          o.value = static_cast<int64_t>(v);
        } else if (f.kind == FieldKind::RegOrImm) {
          // Payload is max(5, bits) wide; bits above `bits` must be the sign extension... they
          // are defined as unused, so they must be zero.
          if (payload > f.bits && (v >> f.bits) != 0)
            throw Error(fmt::format("decode {}: field '{}' has nonzero unused bits", d.mnemonic, f.name));
          o.value = sign_extend(v, f.bits);
        } else {
          if (payload > f.bits && (v >> f.bits) != 0)
            throw Error(fmt::format("decode {}: field '{}' has nonzero unused bits", d.mnemonic, f.name));
          o.value = static_cast<int64_t>(v);
        }
        break;
      }
      case FieldKind::Imm: o.value = sign_extend(get(w, pos, f.bits), f.bits); break;
      case FieldKind::Enum: {
        int64_t v = static_cast<int64_t>(get(w, pos, f.bits));
        if (v >= enum_count(f.etype))
          throw Error(fmt::format("decode {}: field '{}': {} value {} out of range (0..{})", d.mnemonic,
                                  f.name, enum_type_name(f.etype), v, enum_count(f.etype) - 1));
        o.value = v;
        break;
      }
      default: o.value = static_cast<int64_t>(get(w, pos, f.bits)); break;
    }
    pos += f.width();
  }
  // Every bit past the last field is unused and must be zero.
  for (int b = pos; b < kInstrBits; b += 64 - b % 64) {
    int width = std::min(64 - b % 64, kInstrBits - b);
    if (get(w, b, width) != 0)
      throw Error(fmt::format("decode {}: nonzero unused bits above bit {} in word {:#018x}{:016x}",
                              d.mnemonic, pos, w[1], w[0]));
  }
  return in;
}

}  // namespace npu::isa
