// npusim._npusim: the C++ half of the Python module. python/npusim/__init__.py is the API (and
// its documentation); it normalises the arguments and calls these functions, which build a case
// (cli/lib/case_spec.h) and run it through the same job as `npusim run` (run_case_spec).
// npu::Error becomes npusim.Error carrying the same located message as the CLI prints.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "base/build_info.h"
#include "base/file_io.h"
#include "cli/lib/case_spec.h"
#include "cli/lib/run_case.h"
#include "cli/lib/run_report.h"
#include "cli/lib/run_stats_json.h"
#include "golden/compare.h"
#include "golden/npy.h"
#include "isa/asm/assembler.h"
#include "isa/error.h"
#include "isa/object.h"
#include "isa/types.h"

namespace py = pybind11;

namespace npu::python {
namespace {

using cli::CaseSpec;
using cli::CaseTensor;
using cli::SourceLoc;
using cli::TensorRole;

// A position in the call, not in a file: "npusim.run(inputs['x'])" (SourceLoc line 0).
SourceLoc arg_loc(const std::string& what) { return SourceLoc{"npusim.run(" + what + ")", 0, 0}; }

// __init__.py passes C-contiguous, little-endian arrays; dtype.str is NumPy's descr ('<f4').
golden::NpyArray to_npy(const py::array& a) {
  golden::NpyArray n;
  n.descr = py::str(a.dtype().attr("str"));
  for (py::ssize_t i = 0; i < a.ndim(); ++i) n.shape.push_back(static_cast<int64_t>(a.shape(i)));
  const auto* p = static_cast<const uint8_t*>(a.data());
  n.data.assign(p, p + a.nbytes());
  return n;
}

py::array from_npy(const golden::NpyArray& n) {
  py::array out(py::dtype(n.descr), std::vector<py::ssize_t>(n.shape.begin(), n.shape.end()));
  std::memcpy(out.mutable_data(), n.data.data(), n.data.size());
  return out;
}

isa::Dtype parse_dtype(const std::string& name, const SourceLoc& where) {
  auto d = isa::parse_keyword(isa::EnumType::Dtype, name);
  if (!d) {
    std::string all;
    for (int i = 0; i < isa::enum_count(isa::EnumType::Dtype); ++i)
      all += (all.empty() ? "" : ", ") + std::string(isa::keyword(isa::EnumType::Dtype, i));
    throw Error(where.str() + ": error: bad dtype '" + name + "' (dtypes: " + all + ")");
  }
  return static_cast<isa::Dtype>(*d);
}

using InputArg = std::tuple<std::string, std::string, py::array>;                   // name, dtype or "", values
using TensorArg = std::tuple<std::string, std::string, std::vector<int64_t>, bool>;  // name, dtype, shape, output
using ParamArg = std::tuple<std::string, bool, int64_t, double>;                    // name, is_float, int, float

CaseSpec build_case(const std::string& kernel, bool is_source, const std::vector<InputArg>& inputs,
                    const std::vector<TensorArg>& tensors, const std::vector<ParamArg>& params, int block_dim) {
  CaseSpec spec;
  spec.path = "npusim.run";
  spec.kernel_loc = arg_loc("kernel");
  spec.block_dim_loc = arg_loc("block_dim");
  spec.tensors_loc = arg_loc("inputs, outputs");
  spec.params_loc = arg_loc("params");
  if (is_source) {
    spec.kernel_path = "<kernel>";  // names it in messages; .include paths resolve from the current directory
    spec.kernel_source = kernel;
  } else {
    try {
      check_input_file(kernel, std::max(isa::kMaxSourceFileBytes, isa::kMaxObjectFileBytes));
    } catch (const InputFileError& e) {
      throw Error(spec.kernel_loc.str() + ": error: cannot read '" + kernel + "': " + e.reason);
    }
    spec.kernel_path = kernel;
  }
  if (block_dim < 1 || block_dim > 1000000)
    throw Error(spec.block_dim_loc.str() + ": error: " + std::to_string(block_dim) + " is not in 1..1000000");
  spec.block_dim = block_dim;
  for (const auto& [name, dtype, array] : inputs) {
    CaseTensor t;
    t.name = name;
    t.loc = t.dtype_loc = arg_loc("inputs['" + name + "']");
    t.role = TensorRole::Input;
    t.dtype_from_kernel = dtype.empty();
    if (!dtype.empty()) t.dtype = parse_dtype(dtype, t.loc);
    auto values = std::make_shared<golden::NpyArray>(to_npy(array));
    t.shape = values->shape;
    if (t.shape.empty()) throw Error(t.loc.str() + ": error: a 0-d array (give it a shape, e.g. [1])");
    t.init.kind = cli::InitSpec::Kind::Array;
    t.init.array = std::move(values);
    t.init.path = "inputs['" + name + "']";
    t.init.loc = t.loc;
    spec.tensors.push_back(std::move(t));
  }
  for (const auto& [name, dtype, shape, output] : tensors) {
    CaseTensor t;
    t.name = name;
    t.loc = t.dtype_loc = arg_loc(std::string(output ? "outputs" : "workspaces") + "['" + name + "']");
    t.role = output ? TensorRole::Output : TensorRole::Workspace;
    t.dtype = parse_dtype(dtype, t.loc);
    for (int64_t d : shape)
      if (d < 1) throw Error(t.loc.str() + ": error: shape dimensions must be >= 1");
    if (shape.empty()) throw Error(t.loc.str() + ": error: empty shape");
    t.shape = shape;
    spec.tensors.push_back(std::move(t));
  }
  for (const auto& [name, is_float, i, f] : params)
    spec.params.push_back(cli::CaseParam{name, is_float, i, f, arg_loc("params['" + name + "']")});
  return spec;
}

py::dict result_dict(const cli::RunResult& r) {
  py::dict outputs, raw, dtypes;
  for (const auto& [name, t] : r.outputs) {
    outputs[py::str(name)] = from_npy(golden::values_npy(t));
    if (golden::has_raw_npy(t.dtype())) raw[py::str(name)] = from_npy(golden::raw_npy(t));
    dtypes[py::str(name)] = std::string(isa::dtype_name(t.dtype()));
  }
  py::dict d;
  d["outputs"] = outputs;
  d["raw"] = raw;
  d["dtypes"] = dtypes;
  d["stats_json"] = cli::stats_json(r).dump();
  d["report"] = cli::format_report(r);
  d["exit_code"] = r.exit_code;
  d["warnings"] = r.warnings;
  return d;
}

cli::RunOptions run_options(const std::string& config, const std::vector<std::string>& sets, const std::string& trace,
                            const std::string& vcd, bool iss, const std::string& race, const std::string& out) {
  cli::RunOptions o;
  o.config_path = config;
  o.sets = sets;
  o.trace.json_path = trace;
  o.trace.vcd_path = vcd;
  o.iss = iss;
  o.race = race;
  o.out_dir = out;
  o.command_line = "python3: npusim.run";
  return o;
}

py::dict run(const std::string& kernel, bool is_source, const std::vector<InputArg>& inputs,
             const std::vector<TensorArg>& tensors, const std::vector<ParamArg>& params, int block_dim,
             const std::string& config, const std::vector<std::string>& sets, const std::string& trace,
             const std::string& vcd, bool iss, const std::string& race, const std::string& out) {
  CaseSpec spec = build_case(kernel, is_source, inputs, tensors, params, block_dim);
  return result_dict(cli::run_case_spec(std::move(spec), run_options(config, sets, trace, vcd, iss, race, out)));
}

py::dict run_case_file(const std::string& path, const std::vector<std::string>& vars, const std::string& config,
                       const std::vector<std::string>& sets, const std::string& trace, const std::string& vcd, bool iss,
                       const std::string& race, const std::string& out) {
  cli::RunOptions o = run_options(config, sets, trace, vcd, iss, race, out);
  o.case_path = path;
  o.vars = vars;
  o.command_line = "python3: npusim.run_case";
  return result_dict(cli::run_case(o));
}

// The comparison rule of docs/numerics.md (golden/compare.h) on two arrays of values.
py::dict compare(const py::array& out, const py::array& ref, double atol, double rtol, double ratio) {
  auto tensor_of = [](const py::array& a, const char* what) {
    golden::NpyArray n = to_npy(a);
    try {
      return golden::tensor_from_npy(n, n.descr == "<i4" ? isa::Dtype::S32 : isa::Dtype::F32, what);
    } catch (const Error& e) {
      throw Error(std::string("npusim.compare: ") + e.what());
    }
  };
  const golden::Tensor t = tensor_of(out, "out"), r = tensor_of(ref, "ref");
  if (t.shape() != r.shape())
    throw Error("npusim.compare: out is " + golden::shape_str(t.shape()) + " but ref is " + golden::shape_str(r.shape()));
  const golden::CompareResult c = golden::compare(t, r, golden::Tolerance{atol, rtol, ratio});
  py::dict d;
  d["passed"] = c.pass;
  d["numel"] = c.numel;
  d["bad_count"] = c.bad_count;
  d["allowed_bad"] = c.allowed_bad;
  d["nonfinite_count"] = c.nonfinite_count;
  d["first_bad"] = c.first_bad;
  d["max_abs_err"] = c.max_abs_err;
  d["max_rel_err"] = c.max_rel_err;
  d["bad_ratio"] = c.bad_ratio;
  d["summary"] = golden::format_result("out", c);
  return d;
}

py::dict default_tolerance(const std::string& dtype) {
  const golden::Tolerance t = golden::default_tolerance(parse_dtype(dtype, SourceLoc{"npusim.default_tolerance", 0, 0}));
  py::dict d;
  d["atol"] = t.atol;
  d["rtol"] = t.rtol;
  d["max_error_ratio"] = t.max_error_ratio;
  return d;
}

}  // namespace
}  // namespace npu::python

PYBIND11_MODULE(_npusim, m) {
  using namespace npu::python;
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 0);  // SystemC's banner at the first elaboration
  py::register_exception<npu::Error>(m, "Error", PyExc_RuntimeError);
  m.def("run", &run);
  m.def("run_case", &run_case_file);
  m.def("compare", &compare);
  m.def("default_tolerance", &default_tolerance);
  m.def("version", [] { return std::string(npu::build_version()) + " (git " + npu::build_git_hash() + ")"; });
}
