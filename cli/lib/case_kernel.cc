// Binding a parsed case to its kernel: loading the kernel and checking that every kernel
// parameter is given exactly once with the right kind and dtype (case_spec.h).
#include <algorithm>

#include "cli/lib/case_spec.h"
#include "hw/config/kernel_symbols.h"
#include "isa/asm/assembler.h"
#include "isa/error.h"
#include "isa/object.h"
#include "isa/types.h"

namespace npu::cli {
namespace {

const char* kind_name(isa::ParamKind k) {
  switch (k) {
    case isa::ParamKind::Gm: return "gm";
    case isa::ParamKind::Int: return "int";
    case isa::ParamKind::F32: return "f32";
  }
  return "?";
}

std::string declaration(const isa::KernelParam& p) {
  std::string s = ".param " + p.name + ", " + kind_name(p.kind);
  if (p.dtype) s += ", " + std::string(isa::dtype_name(*p.dtype));
  if (p.format != isa::GmFormat::Nd) s += std::string(", ") + isa::gm_format_name(p.format);
  return s;
}

std::string names_of_kind(const isa::Program& prog, bool gm) {
  std::string s;
  for (const isa::KernelParam& p : prog.params)
    if ((p.kind == isa::ParamKind::Gm) == gm) s += (s.empty() ? "" : ", ") + p.name;
  return s.empty() ? "none" : s;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void check_case_against_kernel(const CaseSpec& spec, const isa::Program& prog) {
  std::vector<std::string> errors;
  auto error = [&](const SourceLoc& l, const std::string& path, const std::string& msg) {
    errors.push_back(l.str() + ": error: " + path + ": " + msg);
  };
  for (const isa::KernelParam& p : prog.params) {
    const CaseTensor* t = spec.tensor(p.name);
    const CaseParam* v = spec.param(p.name);
    if (p.kind == isa::ParamKind::Gm) {
      // A gm parameter may be given as 0 under params: an unused pointer (no tensor, address 0).
      if (v && (v->is_float || v->i != 0 || t))
        error(v->loc, "params." + p.name, "'" + p.name + "' is a gm parameter of kernel '" + prog.name +
                                               "'; describe it under tensors (or give 0 for a pointer the kernel does not use)");
      if (!t && !v) {
        error(spec.tensors_loc, "tensors", "missing tensor '" + p.name + "' for the kernel's '" + declaration(p) + "'");
      } else if (t && p.dtype && *p.dtype != t->dtype) {
        error(t->dtype_loc, "tensors." + p.name + ".dtype",
              std::string(isa::dtype_name(t->dtype)) + " does not match the kernel's '" + declaration(p) + "'");
      }
      continue;
    }
    if (t) error(t->loc, "tensors." + p.name, "'" + p.name + "' is an " + kind_name(p.kind) + " parameter of kernel '" + prog.name + "', not a gm tensor; give it under params");
    if (!v) {
      if (!t) error(spec.params_loc, "params", "missing value for the kernel's '" + declaration(p) + "'");
      continue;
    }
    if (p.kind == isa::ParamKind::Int && v->is_float)
      error(v->loc, "params." + p.name, "the kernel's '" + declaration(p) + "' needs an integer, got a number");
  }
  for (const CaseParam& v : spec.params)
    if (prog.param_index(v.name) < 0)
      error(v.loc, "params." + v.name, "kernel '" + prog.name + "' has no parameter '" + v.name + "' (int/f32 parameters: " + names_of_kind(prog, false) + ")");
  for (const CaseTensor& t : spec.tensors)
    if (prog.param_index(t.name) < 0)
      error(t.loc, "tensors." + t.name, "kernel '" + prog.name + "' has no gm parameter '" + t.name + "' (gm parameters: " + names_of_kind(prog, true) + ")");
  if (!errors.empty()) {
    std::string all;
    for (size_t i = 0; i < errors.size(); ++i) all += (i ? "\n" : "") + errors[i];
    throw Error(all);
  }
}

// Tensors marked dtype_from_kernel take the dtype of their .param (an undeclared one is an error).
static void adopt_kernel_dtypes(CaseSpec& spec, const isa::Program& prog) {
  std::vector<std::string> errors;
  for (CaseTensor& t : spec.tensors) {
    if (!t.dtype_from_kernel) continue;
    const int i = prog.param_index(t.name);
    if (i < 0) continue;  // check_case_against_kernel reports it
    const isa::KernelParam& p = prog.params[static_cast<size_t>(i)];
    if (p.dtype) t.dtype = *p.dtype;
    else
      errors.push_back(t.loc.str() + ": error: the kernel's '" + declaration(p) +
                       "' declares no dtype: give this tensor's dtype explicitly");
  }
  if (!errors.empty()) {
    std::string all;
    for (size_t i = 0; i < errors.size(); ++i) all += (i ? "\n" : "") + errors[i];
    throw Error(all);
  }
}

isa::Program load_case_kernel(CaseSpec& spec, const hw::HwConfig& hw) {
  isa::Program prog;
  if (spec.program) {
    try {
      hw::check_kernel_target(*spec.program, hw);
    } catch (const Error& e) {
      throw Error(spec.kernel_loc.str() + ": error: kernel: " + e.what());
    }
    prog = *spec.program;
  } else if (!spec.kernel_source.empty() || ends_with(spec.kernel_path, ".s") || ends_with(spec.kernel_path, ".asm")) {
    isa::AsmResult r = spec.kernel_source.empty()
                           ? isa::assemble_file(spec.kernel_path, hw::asm_target(hw))
                           : isa::assemble(spec.kernel_source, spec.kernel_path, hw::asm_target(hw));
    if (!r.program) {
      std::string d = r.format_diags();
      while (!d.empty() && d.back() == '\n') d.pop_back();
      throw Error(spec.kernel_loc.str() + ": error: kernel: '" + spec.kernel_path + "' does not assemble:\n" + d);
    }
    prog = std::move(*r.program);
  } else {
    try {
      prog = isa::read_object_file(spec.kernel_path, hw.chip.arch);
      hw::check_kernel_target(prog, hw);
    } catch (const Error& e) {
      throw Error(spec.kernel_loc.str() + ": error: kernel: " + e.what());
    }
  }
  adopt_kernel_dtypes(spec, prog);
  check_case_against_kernel(spec, prog);
  // A tensor bound to an `nz` parameter lives in GM in the fractal layout (the runner converts
  // it on the way in and out; the golden sees the logical values).
  for (CaseTensor& t : spec.tensors)
    if (const int i = prog.param_index(t.name); i >= 0) t.format = prog.params[static_cast<size_t>(i)].format;
  return prog;
}

}  // namespace npu::cli
