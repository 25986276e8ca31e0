#pragma once
// Shared by the core/sync timing tests and the co-simulation tests: a small hand-built config
// with round numbers (1 GHz, so a cycle is 1000 ps) and a way to write programs as isa::Instr
// values without the assembler.
#include <cstdint>
#include <string>
#include <vector>

#include "hw/config/hw_config.h"
#include "isa/isa.h"
#include "isa/program.h"

namespace npu::coretest {

using isa::Op;

// Every figure used by the derivations in the tests' comments.
inline hw::HwConfig test_config() {
  hw::HwConfig c;
  c.chip.name = "coretest";
  c.chip.arch = isa::Arch::A2;
  c.chip.clusters = 4;
  c.chip.aiv_per_cluster = 2;
  c.chip.clock_ghz = 1.0;
  c.buffers = {512 << 10, 64 << 10, 64 << 10, 128 << 10, 1 << 10, 7 << 10, 192 << 10};
  c.scalar.alu = 1;
  c.scalar.mul = 2;
  c.scalar.div = 4;
  c.scalar.fp = 2;
  c.scalar.branch = 1;
  c.scalar.dispatch = 1;
  c.scalar.sync = 1;
  c.scalar.queue_depth.fill(4);
  c.mte.gm_ub = {64, 10};
  c.mte.ub_gm = {32, 20};
  c.mte.gm_l1 = {128, 10};
  c.mte.l1_l0a = {256, 2};
  c.mte.l1_l0b = {128, 2};
  c.mte.l1_fb = {32, 15};
  c.mte.ub_l1 = {128, 0};
  c.mte.l1_ub = {128, 0};
  c.mte.l0c_gm = {64, 5};
  c.mte.l0c_ub = {128, 0};
  c.mte.max_outstanding = 8;
  c.cube = {2, 16, 16, 16, 32, 8, 32};
  c.vector.startup = 2;
  c.vector.repeat_bytes = 256;
  c.vector.cycles_per_repeat = {{"VecBinary", 2},       {"VecDiv", 4},          {"VecScalar", 1},
                                {"VecUnary", 1},        {"VecTranscend", 2},    {"VecTranscend.f16", 4},
                                {"VecTranscend.bf16", 4}, {"VecCast", 1},       {"VecCopy", 1},
                                {"VecReduce", 7},       {"VecReduce.f32", 3},   {"VecReduceMax", 7},
                                {"VecBroadcast", 2}};
  c.l2.slices = 2;
  c.l2.ways = 4;
  c.l2.line = 512;
  c.l2.size = 2ull * 64 * 4 * 512;  // 64 sets per slice
  c.l2.replacement = "lru";
  c.l2.read_hit_latency = 20;
  c.l2.write_hit_latency = 10;
  c.l2.slice_bytes_per_cycle = 128;
  c.l2.mshrs_per_slice = 8;
  c.hbm.size = 1ull << 30;
  c.hbm.channels = 2;
  c.hbm.bandwidth_gbps = 128;
  c.hbm.channel_bytes_per_cycle = 64;  // 128 GB/s / 1 GHz / 2 channels
  c.hbm.latency = 100;
  c.hbm.interleave = 512;
  c.noc.aiv_read_bytes_per_cycle = 128;
  c.noc.aiv_write_bytes_per_cycle = 128;
  c.noc.aic_read_bytes_per_cycle = 128;  // AIC ports as AIV ones: the hand derivations use one rate
  c.noc.aic_write_bytes_per_cycle = 128;
  c.noc.latency = 0;
  c.sim.watchdog_cycles = 100000;
  return c;
}

// An operand: an immediate / enum value / target, or a register (R(n)).
struct Opd {
  bool reg = false;
  int64_t v = 0;
  Opd(int64_t x) : v(x) {}  // NOLINT: implicit on purpose
  Opd(isa::Pipe p) : v(static_cast<int64_t>(p)) {}
  Opd(isa::Dtype d) : v(static_cast<int64_t>(d)) {}
};
inline Opd R(int n) {
  Opd o(n);
  o.reg = true;
  return o;
}

// Operands in table order (suffixes first); omitted trailing operands take their defaults.
inline isa::Instr I(Op op, std::vector<Opd> ops = {}) {
  isa::Instr in;
  in.op = op;
  const isa::InstrDef& d = isa::def(op);
  for (int i = 0; i < d.nfields; ++i) {
    if (i < static_cast<int>(ops.size())) {
      in.f[i].is_reg = ops[i].reg || d.fields[i].kind == isa::FieldKind::RegDst ||
                       d.fields[i].kind == isa::FieldKind::RegSrc;
      in.f[i].value = ops[i].v;
    } else {
      in.f[i].is_reg = d.fields[i].kind == isa::FieldKind::RegSrc;
      in.f[i].value = d.fields[i].default_value;
    }
  }
  return in;
}

struct Code {
  std::vector<isa::Instr> v;
  int pc() const { return static_cast<int>(v.size()); }
  Code& operator()(Op op, std::vector<Opd> ops = {}) {
    v.push_back(I(op, std::move(ops)));
    return *this;
  }
};

// Kernel parameters are all GM addresses or integers named p0, p1, ...
inline isa::Program make_program(const std::string& name, int nparams, const Code* aic, const Code* aiv) {
  isa::Program p;
  p.name = name;
  for (int i = 0; i < nparams; ++i) p.params.push_back({"p" + std::to_string(i), isa::ParamKind::Int, {}});
  if (aic) {
    p.aic.present = true;
    p.aic.code = aic->v;
  }
  if (aiv) {
    p.aiv.present = true;
    p.aiv.code = aiv->v;
  }
  return p;
}

}  // namespace npu::coretest
