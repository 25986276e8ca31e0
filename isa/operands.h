#pragma once
// Typed operand views, one struct per instruction, generated from isa/instructions.def.
// isa::ops::VADD has the members dt (Dtype), dst, src0, src1, count (uint64_t), in table
// order, read from an instruction's operand values (registers already read: see
// sem::DispatchedInstr::as). Semantics read `o.dst` instead of looking an operand up by name,
// and a misspelt operand is a compile error.
//
// Member types by field kind: RD the register number (int); RS, URI, UIMM the value (uint64_t);
// RI, IMM, TGT the signed value (int64_t); PARAM the parameter index (int); SFX/EN/OPT_EN the
// enum (Pipe, VecOp, ...); DT a Dtype.
#include <cstdint>

#include "isa/isa.h"

namespace npu::isa::ops {

// The named first parameters keep `, ##__VA_ARGS__` dropping its comma when there are no fields.
#define NPU_OPS_ARGC(_, ...) NPU_OPS_ARGC_(_, ##__VA_ARGS__, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define NPU_OPS_ARGC_(_, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, n, ...) n
#define NPU_OPS_CAT(a, b) NPU_OPS_CAT_(a, b)
#define NPU_OPS_CAT_(a, b) a##b
#define NPU_OPS_APPLY(m, ...) m(__VA_ARGS__)
#define NPU_OPS_UNPAREN(...) __VA_ARGS__
// Member i: `T name = static_cast<T>(v_[i]);` from the field's (T, name).
#define NPU_OPS_MEMBER(i, tn) NPU_OPS_APPLY(NPU_OPS_MEMBER_, i, NPU_OPS_UNPAREN tn)
#define NPU_OPS_MEMBER_(i, T, name) T name = static_cast<T>(v_[i]);
#define NPU_OPS_E0(i)
#define NPU_OPS_E1(i, f) NPU_OPS_MEMBER(i, f)
#define NPU_OPS_E2(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E1(i + 1, __VA_ARGS__)
#define NPU_OPS_E3(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E2(i + 1, __VA_ARGS__)
#define NPU_OPS_E4(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E3(i + 1, __VA_ARGS__)
#define NPU_OPS_E5(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E4(i + 1, __VA_ARGS__)
#define NPU_OPS_E6(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E5(i + 1, __VA_ARGS__)
#define NPU_OPS_E7(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E6(i + 1, __VA_ARGS__)
#define NPU_OPS_E8(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E7(i + 1, __VA_ARGS__)
#define NPU_OPS_E9(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E8(i + 1, __VA_ARGS__)
#define NPU_OPS_E10(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E9(i + 1, __VA_ARGS__)
#define NPU_OPS_E11(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E10(i + 1, __VA_ARGS__)
#define NPU_OPS_E12(i, f, ...) NPU_OPS_MEMBER(i, f) NPU_OPS_E11(i + 1, __VA_ARGS__)
#define NPU_OPS_EACH(_, ...) NPU_OPS_CAT(NPU_OPS_E, NPU_OPS_ARGC(_, ##__VA_ARGS__))(0, ##__VA_ARGS__)

#define RD(n) (int, n)
#define RS(n) (uint64_t, n)
#define OPT_RS(n, dreg) (uint64_t, n)
#define RI(n, b) (int64_t, n)
#define URI(n, b) (uint64_t, n)
#define OPT_RI(n, b, d) (int64_t, n)
#define IMM(n, b) (int64_t, n)
#define UIMM(n, b) (uint64_t, n)
#define OPT_UIMM(n, b, d) (uint64_t, n)
#define TGT(n) (int64_t, n)
#define PARAM(n) (int, n)
#define SFX(n, e) (e, n)
#define EN(n, e) (e, n)
#define OPT_EN(n, e, d) (e, n)
#define DT(n, rule) (Dtype, n)

#define INSN(id, opcode, mn, pipe, timing, cores, arch, flops, summary, ...) \
  struct id {                                                                \
    static constexpr Op kOp = Op::id;                                        \
    explicit id(const int64_t* v) : v_(v) {}                                 \
    const int64_t* v_;                                                       \
    NPU_OPS_EACH(_, ##__VA_ARGS__)                                           \
  };
#include "isa/instructions.def"
#undef INSN

#undef RD
#undef RS
#undef OPT_RS
#undef RI
#undef URI
#undef OPT_RI
#undef IMM
#undef UIMM
#undef OPT_UIMM
#undef TGT
#undef PARAM
#undef SFX
#undef EN
#undef OPT_EN
#undef DT

}  // namespace npu::isa::ops
