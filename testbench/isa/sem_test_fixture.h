#pragma once
// Shared helpers of the sem_* and iss_* tests: build Instr values directly from the table,
// a small hand-written HwConfig, and typed access to local buffers.
#include <cstring>
#include <initializer_list>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "hw/config/hw_config.h"
#include "hw/config/loader.h"
#include "isa/error.h"
#include "isa/isa.h"
#include "isa/numeric/numeric.h"
#include "isa/sem/core_state.h"
#include "isa/sem/execute.h"
#include "isa/sem/gm.h"
#include "testbench/support/paths.h"
#include "testbench/support/thrown_message.h"

namespace npu::semtest {

using isa::Dtype;
using isa::Op;
using sem::Buffer;

inline isa::Operand R(int n) { return isa::Operand{true, n}; }

struct Arg {
  isa::Operand o;
  template <typename N, std::enable_if_t<std::is_integral_v<N>, int> = 0>
  Arg(N v) : o{false, static_cast<int64_t>(v)} {}
  Arg(isa::Operand op) : o(op) {}
  template <typename E, std::enable_if_t<std::is_enum_v<E>, int> = 0>
  Arg(E e) : o{false, static_cast<int64_t>(e)} {}
};

// Operands in table order (suffixes first); omitted trailing optional fields get their defaults.
inline isa::Instr I(Op op, std::initializer_list<Arg> args) {
  isa::Instr in;
  in.op = op;
  const isa::InstrDef& d = isa::def(op);
  int i = 0;
  for (const Arg& a : args) in.f[i++] = a.o;
  for (; i < d.nfields; ++i) {
    const isa::FieldDef& f = d.fields[i];
    EXPECT_EQ(f.syntax, isa::FieldSyntax::Optional) << d.mnemonic << ": missing operand " << f.name;
    in.f[i] = isa::Operand{f.kind == isa::FieldKind::RegSrc, f.default_value};
  }
  return in;
}

// The shipped machine of each arch (configs/ascend910b.yaml for a2, configs/ascend950.yaml for
// a5: buffer sizes and alignments of docs/machine.md section 2) through the strict loader, cut
// to 2 clusters for the cross-core tests.
inline hw::HwConfig test_hw(isa::Arch arch = isa::Arch::A2) {
  static const hw::HwConfig a2 = hw::load_config(test::source_path("configs/ascend910b.yaml"), {"chip.clusters=2"});
  static const hw::HwConfig a5 = hw::load_config(test::source_path("configs/ascend950.yaml"), {"chip.clusters=2"});
  return arch == isa::Arch::A5 ? a5 : a2;
}

template <typename T>
void put(sem::CoreState& c, Buffer b, uint64_t off, const std::vector<T>& v) {
  ASSERT_LE(off + v.size() * sizeof(T), c.buffer(b).size()) << "test data does not fit";
  if (!v.empty()) std::memcpy(c.buffer(b).data() + off, v.data(), v.size() * sizeof(T));  // an empty one's data() may be null
}
template <typename T>
std::vector<T> get(const sem::CoreState& c, Buffer b, uint64_t off, size_t n) {
  std::vector<T> v(n);
  if (n > 0) std::memcpy(v.data(), c.buffer(b).data() + off, n * sizeof(T));  // an empty v's data() may be null
  return v;
}
inline uint16_t bf(float f) { return num::f32_to_bf16(f); }
inline uint16_t hf(float f) { return num::f32_to_f16(f); }
inline std::vector<uint16_t> bfv(std::initializer_list<float> l) {
  std::vector<uint16_t> v;
  for (float f : l) v.push_back(bf(f));
  return v;
}
inline std::vector<uint16_t> hfv(std::initializer_list<float> l) {
  std::vector<uint16_t> v;
  for (float f : l) v.push_back(hf(f));
  return v;
}
inline uint32_t bits(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
inline float fl(uint32_t u) { float f; std::memcpy(&f, &u, 4); return f; }

// One cluster (AIC + 2 AIVs) with GM, executing dispatched instructions directly.
struct Cluster {
  explicit Cluster(isa::Arch arch = isa::Arch::A2)
      : hw(test_hw(arch)),
        aic({0, isa::CoreType::Aic, 0}, hw.machine(), {}, 1),
        aiv0({0, isa::CoreType::Aiv, 0}, hw.machine(), {}, 1),
        aiv1({0, isa::CoreType::Aiv, 1}, hw.machine(), {}, 1) {}
  hw::HwConfig hw;
  sem::GlobalMemory gm;
  sem::CoreState aic, aiv0, aiv1;

  // Resolves `in` against `core`'s registers (as the scalar unit does) and executes it.
  void exec(sem::CoreState& core, const isa::Instr& in, uint32_t pc = 0) {
    sem::ExecContext ctx;
    ctx.core = &core;
    ctx.gm = &gm;
    ctx.cluster_aic = &aic;
    ctx.cluster_aiv = {&aiv0, &aiv1};
    sem::execute(sem::resolve(core, in, pc), ctx);
  }
  // The fault text of executing `in`, or "" when it succeeds.
  std::string error(sem::CoreState& core, const isa::Instr& in, uint32_t pc = 0) {
    return npu::test::thrown_message([&] { exec(core, in, pc); }, "");
  }
};

}  // namespace npu::semtest
