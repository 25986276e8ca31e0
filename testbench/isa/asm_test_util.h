#pragma once
// Helpers for the ISA tests (header-only; used by encoding_*, disasm_*, object_* and asm_* tests).
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "isa/encoding.h"
#include "isa/program.h"
#include "isa/validate.h"

namespace npu::isa::test {

// The core type an instruction can run on (random when it runs on both).
inline CoreType core_for(const InstrDef& d, std::mt19937_64& rng) {
  if (d.cores == CoreMask::AicOnly) return CoreType::Aic;
  if (d.cores == CoreMask::AivOnly) return CoreType::Aiv;
  return rng() & 1 ? CoreType::Aic : CoreType::Aiv;
}

// A random value in [lo, hi], biased towards the ends (where encoding bugs live).
inline int64_t pick(std::mt19937_64& rng, int64_t lo, int64_t hi) {
  switch (rng() % 8) {
    case 0: return lo;
    case 1: return hi;
    case 2: return lo + (hi > lo ? 1 : 0);
    case 3: return 0 >= lo && 0 <= hi ? 0 : lo;
    default: {
      uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo);
      uint64_t r = rng();
      if (span != ~0ull) r %= span + 1;
      return static_cast<int64_t>(static_cast<uint64_t>(lo) + r);
    }
  }
}

// A random instruction of `op` that validate() accepts on (A5, core); targets < ntargets,
// parameter indices < nparams.
inline Instr random_instr(Op op, CoreType core, std::mt19937_64& rng, int64_t ntargets, int64_t nparams) {
  const InstrDef& d = def(op);
  for (int attempt = 0; attempt < 10000; ++attempt) {
    Instr in;
    in.op = op;
    for (int i = 0; i < d.nfields; ++i) {
      const FieldDef& f = d.fields[i];
      Operand& o = in.f[i];
      switch (f.kind) {
        case FieldKind::RegDst:
        case FieldKind::RegSrc: o = {true, pick(rng, 0, 31)}; break;
        case FieldKind::RegOrImm:
        case FieldKind::URegOrImm:
          if (rng() % 3 == 0) o = {true, pick(rng, 0, 31)};
          else o = {false, pick(rng, imm_min(f), imm_max(f))};
          break;
        case FieldKind::Target: o = {false, pick(rng, 0, ntargets - 1)}; break;
        case FieldKind::Param: o = {false, pick(rng, 0, nparams - 1)}; break;
        default: o = {false, pick(rng, imm_min(f), imm_max(f))}; break;
      }
    }
    if (validate(in, Arch::A5, core).empty()) return in;
  }
  ADD_FAILURE() << "no valid random operands for " << d.mnemonic;
  return Instr{};
}

// A random program: both sections, every opcode that the section's core can run, several times.
inline Program random_program(std::mt19937_64& rng, int copies) {
  Program p;
  p.name = "random_kernel";
  p.params = {{"x", ParamKind::Gm, Dtype::BF16}, {"n", ParamKind::Int, std::nullopt}, {"eps", ParamKind::F32, std::nullopt}};
  for (CoreType ct : {CoreType::Aic, CoreType::Aiv}) {
    CodeSection& s = ct == CoreType::Aic ? p.aic : p.aiv;
    s.present = true;
    int n = 0;
    for (const InstrDef& d : table())
      if (d.cores == CoreMask::Any || (d.cores == CoreMask::AicOnly) == (ct == CoreType::Aic)) n += copies;
    for (int c = 0; c < copies; ++c)
      for (const InstrDef& d : table()) {
        if (d.cores != CoreMask::Any && (d.cores == CoreMask::AicOnly) != (ct == CoreType::Aic)) continue;
        s.code.push_back(random_instr(d.op, ct, rng, n + 1, static_cast<int64_t>(p.params.size())));
      }
    s.labels = {{0, "start"}, {5, "body.part-1/x"}, {static_cast<uint32_t>(n / 2), "mid"}};
  }
  return p;
}

}  // namespace npu::isa::test
