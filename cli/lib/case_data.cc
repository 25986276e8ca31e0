// GM placement, initial tensor contents and parameter values of a case (case_data.h).
#include "cli/lib/case_data.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <map>

#include <fmt/format.h>

#include "isa/error.h"
#include "golden/golden.h"
#include "golden/npy.h"
#include "golden/random.h"

namespace npu::cli {
namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

std::vector<TensorPlacement> place_tensors(const CaseSpec& spec, uint64_t line_bytes) {
  if (line_bytes == 0) line_bytes = 1;
  const GmLayout& l = spec.gm_layout;
  const uint64_t align = std::max<uint64_t>(l.align, line_bytes);  // both powers of two in practice
  const uint64_t guard = align_up(l.guard, line_bytes);
  std::vector<TensorPlacement> out;
  uint64_t next = align_up(l.first, align);
  for (const CaseTensor& t : spec.tensors) {
    out.push_back(TensorPlacement{t.name, next, t.bytes()});
    // An empty tensor still takes a byte when there is no guard, so no two share a base.
    const uint64_t end = next + std::max<uint64_t>(t.bytes(), guard ? 0 : 1);
    next = align_up(align_up(end, line_bytes) + guard, align);
  }
  return out;
}

namespace {

// x[i] = v rounded RNE into the dtype; a finite v that overflows it is an error (`what`).
void set_checked(golden::Tensor& x, int64_t i, double v, const std::string& what) {
  x.set(i, v);
  if (std::isfinite(v) && !std::isfinite(x.get(i)))
    throw Error(what + " " + fmt::format("{}", v) + " overflows " + std::string(isa::dtype_name(x.dtype())));
}

// The plants of t.init (parsed and range-checked by the case parser) applied to x.
void apply_plants(const CaseTensor& t, golden::Tensor& x) {
  for (size_t n = 0; n < t.init.plants.size(); ++n) {
    const InitPlant& pl = t.init.plants[n];
    int64_t first = 0, count = 1;
    for (size_t d = 0; d < t.shape.size(); ++d) {
      first = first * t.shape[d] + (d < pl.at.size() ? pl.at[d] : 0);
      if (d >= pl.at.size()) count *= t.shape[d];
    }
    const std::string what = pl.loc.str() + ": error: tensors." + t.name + ".init.plant[" +
                             std::to_string(n) + "].value: value";
    for (int64_t i = first; i < first + count; ++i) set_checked(x, i, pl.value, what);
  }
}

// A random draw; with quantize: per_channel made in bf16 and quantised per row (AT-05).
golden::QuantResult random_draw(const CaseTensor& t) {
  const InitSpec& in = t.init;
  const isa::Dtype dt = in.quantize_per_channel ? isa::Dtype::BF16 : t.dtype;
  golden::Rng rng(in.seed);
  golden::Tensor x = in.kind == InitSpec::Kind::Uniform ? golden::random_uniform(dt, t.shape, in.a, in.b, rng)
                                                         : golden::random_normal(dt, t.shape, in.a, in.b, rng);
  if (!in.quantize_per_channel) return {std::move(x), {}};
  return golden::quant_per_token(x);
}

golden::Tensor generate(const CaseSpec* spec, const CaseTensor& t) {
  const InitSpec& in = t.init;
  const std::string where = in.loc.str() + ": error: tensors." + t.name + ".init: ";
  switch (in.kind) {
    case InitSpec::Kind::Zeros:
      return golden::Tensor(t.dtype, t.shape);
    case InitSpec::Kind::Uniform:
    case InitSpec::Kind::Normal:
      return random_draw(t).q;
    case InitSpec::Kind::ScalesOf: {
      const CaseTensor* src = spec ? spec->tensor(in.source) : nullptr;
      if (!src) throw Error(where + "internal: no tensor '" + in.source + "' to take scales of");
      golden::Tensor s(t.dtype, t.shape);
      s.bytes() = random_draw(*src).scale.bytes();  // f32 [rows] as the tensor's shape
      return s;
    }
    case InitSpec::Kind::Fill: {
      golden::Tensor x(t.dtype, t.shape);
      if (x.numel() == 0) return x;
      set_checked(x, 0, in.value, where + "fill value");
      for (int64_t i = 1; i < x.numel(); ++i) x.set_bits(i, x.bits(0));
      return x;
    }
    case InitSpec::Kind::Array:
      try {
        return golden::tensor_from_npy(*in.array, t.dtype, in.path);
      } catch (const Error& e) {
        throw Error(where + e.what());
      }
    case InitSpec::Kind::File: {
      golden::Tensor x;
      // The file may hold a wider dtype (up to 8 bytes, '<f8') plus a header: read no more.
      const uint64_t max_bytes = static_cast<uint64_t>(t.numel()) * 8 + kMaxNpyHeaderBytes;
      try {
        x = golden::read_input(in.path, t.dtype, max_bytes);
      } catch (const Error& e) {
        throw Error(where + e.what());
      }
      if (x.shape() != t.shape)
        throw Error(where + "'" + in.path + "' holds shape " + golden::shape_str(x.shape()) +
                    " but the tensor is " + std::string(isa::dtype_name(t.dtype)) +
                    golden::shape_str(t.shape));
      return x;
    }
  }
  throw Error(where + "bad init kind");
}

}  // namespace

golden::Tensor make_initial_tensor(const CaseSpec& spec, const CaseTensor& t) {
  golden::Tensor x = generate(&spec, t);
  apply_plants(t, x);
  return x;
}

std::vector<golden::Tensor> make_initial_tensors(const CaseSpec& spec) {
  std::map<std::string, golden::Tensor> scales;  // of the per-channel draws made so far, by tensor
  std::vector<golden::Tensor> out;
  for (const CaseTensor& t : spec.tensors) {
    const InitSpec& in = t.init;
    const bool drawn = in.kind == InitSpec::Kind::Uniform || in.kind == InitSpec::Kind::Normal;
    golden::Tensor x = [&] {
      if (drawn && in.quantize_per_channel) {
        golden::QuantResult r = random_draw(t);
        scales.emplace(t.name, std::move(r.scale));
        return std::move(r.q);
      }
      const auto it = in.kind == InitSpec::Kind::ScalesOf ? scales.find(in.source) : scales.end();
      if (it == scales.end()) return generate(&spec, t);
      golden::Tensor s(t.dtype, t.shape);
      s.bytes() = it->second.bytes();
      return s;
    }();
    apply_plants(t, x);
    out.push_back(std::move(x));
  }
  return out;
}

golden::Tensor make_initial_tensor(const CaseTensor& t) {
  golden::Tensor x = generate(nullptr, t);
  apply_plants(t, x);
  return x;
}

bool has_initial_contents(const CaseTensor& t) {
  return t.role == TensorRole::Input || t.init.kind != InitSpec::Kind::Zeros || !t.init.plants.empty();
}

golden::Tensor read_golden_file(const CaseTensor& t) {
  const std::string where = t.golden_loc.str() + ": error: tensors." + t.name + ".golden.file: ";
  golden::Tensor r;
  try {
    // Up to 8 bytes an element ('<f8') plus a header: read no more.
    const uint64_t max_bytes = static_cast<uint64_t>(t.numel()) * 8 + kMaxNpyHeaderBytes;
    r = golden::reference_from_npy(golden::read_npy(t.golden_file, max_bytes), t.dtype, t.golden_file);
  } catch (const Error& e) {
    throw Error(where + e.what());
  }
  if (r.shape() != t.shape)
    throw Error(where + "'" + t.golden_file + "' holds shape " + golden::shape_str(r.shape()) +
                " but the output is " + std::string(isa::dtype_name(t.dtype)) + golden::shape_str(t.shape));
  return r;
}

std::vector<int64_t> kernel_param_values(const CaseSpec& spec, const isa::Program& program,
                                         const std::vector<TensorPlacement>& placement) {
  std::vector<int64_t> v;
  for (const isa::KernelParam& p : program.params) {
    if (p.kind == isa::ParamKind::Gm) {
      int64_t base = -1;
      for (const TensorPlacement& tp : placement)
        if (tp.name == p.name) base = static_cast<int64_t>(tp.base);
      if (base < 0 && spec.param(p.name)) base = 0;  // an unused pointer (check_case_against_kernel)
      if (base < 0) throw Error("internal: no placement for gm parameter '" + p.name + "'");
      v.push_back(base);
      continue;
    }
    const CaseParam* cp = spec.param(p.name);
    if (!cp) throw Error("internal: no value for parameter '" + p.name + "'");
    if (p.kind == isa::ParamKind::Int) {
      v.push_back(cp->i);
      continue;
    }
    // f32: the RNE fp32 bit pattern, zero-extended (ldp gives the register these 64 bits).
    if (std::fabs(cp->f) > static_cast<double>(FLT_MAX))
      throw Error(cp->loc.str() + ": error: params." + p.name + ": " + std::to_string(cp->f) +
                  " overflows f32");
    float f = static_cast<float>(cp->f);
    uint32_t bits;
    std::memcpy(&bits, &f, sizeof bits);
    v.push_back(static_cast<int64_t>(bits));
  }
  return v;
}

}  // namespace npu::cli
