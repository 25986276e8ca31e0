#include "isa/dtype_rules.h"

#include <fmt/format.h>

namespace npu::isa {
namespace {

using D = Dtype;

// Indexed by DtypeRule.
constexpr std::array<DtypeRuleDef, 9> kRules = {{
    {DtypeRule::Any, {}, {}},
    {DtypeRule::ConvSource, {}, {}},
    // docs/machine.md section 4: vector dtypes fp32, fp16, bf16, int32, int16, int8, fp8 on a5.
    {DtypeRule::VecArith, {D::F32, D::F16, D::BF16, D::S32, D::S16, D::S8}, {D::E4M3, D::E5M2}},
    {DtypeRule::VecFloat, {D::F32, D::F16, D::BF16}, {D::E4M3, D::E5M2}},
    // Copies, fills and casts also move u8 bytes and, on a5, the E8M0 scales of MX data.
    {DtypeRule::VecCopy, {D::F32, D::F16, D::BF16, D::S32, D::S16, D::S8, D::U8}, {D::E4M3, D::E5M2, D::E8M0}},
    {DtypeRule::Cast, {D::F32, D::F16, D::BF16, D::S32, D::S16, D::S8, D::U8}, {D::E4M3, D::E5M2, D::E8M0}},
    {DtypeRule::Mmad, {D::BF16, D::F16, D::S8, D::F32}, {}},
    {DtypeRule::Tile, {D::F32, D::F16, D::BF16, D::S32, D::S16, D::S8, D::U8}, {D::E4M3, D::E5M2, D::E8M0}},
    {DtypeRule::FixConv, {}, {},
     {{{D::F32, {D::BF16, D::F16, D::F32}}, {D::S32, {D::F32, D::BF16, D::F16, D::S32}}}}, 2},
}};

constexpr bool rules_in_enum_order() {
  for (size_t i = 0; i < kRules.size(); ++i)
    if (static_cast<size_t>(kRules[i].rule) != i) return false;
  return kRules.size() == static_cast<size_t>(DtypeRule::FixConv) + 1;
}
static_assert(rules_in_enum_order(), "kRules must list every DtypeRule in enum order");

bool unchecked(const DtypeRuleDef& r) { return r.any.n == 0 && r.nconv == 0; }

}  // namespace

std::string DtypeList::names() const {
  std::string s;
  for (int i = 0; i < n; ++i) s += (i ? ", " : "") + std::string(dtype_name(v[i]));
  return s;
}

const DtypeRuleDef& dtype_rule(DtypeRule r) { return kRules[static_cast<int>(r)]; }

std::string allowed_names(DtypeRule r, Arch arch) {
  const DtypeRuleDef& d = dtype_rule(r);
  std::string s = d.any.names();
  if (arch == Arch::A5 && d.a5.n) s += ", " + d.a5.names();
  return s;
}

bool dtype_allowed(DtypeRule r, Dtype dt, Arch arch) {
  const DtypeRuleDef& d = dtype_rule(r);
  if (unchecked(d)) return true;
  return d.any.has(dt) || (arch == Arch::A5 && d.a5.has(dt));
}

bool conversion_allowed(DtypeRule r, Dtype from, Dtype to) {
  const DtypeRuleDef& d = dtype_rule(r);
  for (int i = 0; i < d.nconv; ++i)
    if (d.conv[i].from == from) return d.conv[i].to.has(to);
  return false;
}

std::string conversion_names(DtypeRule r) {
  const DtypeRuleDef& d = dtype_rule(r);
  std::string s;
  for (int i = 0; i < d.nconv; ++i)
    s += fmt::format("{}{} -> {}", i ? "; " : "", dtype_name(d.conv[i].from), d.conv[i].to.names());
  return s;
}

namespace {

// Calls bad(message) for every dtype field of `in` its rule refuses on arch; the message is
// built only then (the semantics ask this for every instruction they execute).
template <class Bad>
void check_dtypes(const Instr& in, Arch arch, Bad bad) {
  const InstrDef& d = in.d();
  int source = -1;  // the first dtype field: the source of a conversion rule
  for (int i = 0; i < d.nfields; ++i) {
    const FieldDef& f = d.fields[i];
    if (f.kind != FieldKind::Enum || f.etype != EnumType::Dtype) continue;
    if (source < 0) source = i;
    const Dtype dt = static_cast<Dtype>(in.f[i].value);
    const DtypeRuleDef& r = dtype_rule(f.dtypes);
    if (r.nconv) {
      const Dtype from = static_cast<Dtype>(in.f[source].value);
      if (!conversion_allowed(f.dtypes, from, dt))
        bad(fmt::format("'{}' cannot convert {} to {} (allowed: {})", d.mnemonic, dtype_name(from),
                        dtype_name(dt), conversion_names(f.dtypes)));
    } else if (!dtype_allowed(f.dtypes, dt, arch)) {
      bad(fmt::format("'{}' does not support dtype {} (allowed: {})", d.mnemonic, dtype_name(dt),
                      allowed_names(f.dtypes, arch)));
    }
  }
}

}  // namespace

std::vector<std::string> dtype_errors(const Instr& in, Arch arch) {
  std::vector<std::string> errs;
  check_dtypes(in, arch, [&](std::string e) { errs.push_back(std::move(e)); });
  return errs;
}

std::string first_dtype_error(const Instr& in, Arch arch) {
  std::string first;
  check_dtypes(in, arch, [&](std::string e) {
    if (first.empty()) first = std::move(e);
  });
  return first;
}

}  // namespace npu::isa
