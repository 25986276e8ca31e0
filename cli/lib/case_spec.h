#pragma once
// A case file (docs/case-format.md): one run of one kernel on concrete tensors, with the golden
// reference and tolerances that judge its outputs. Parsing is strict, as for hardware configs:
// every problem is reported as "FILE:LINE:COL: error: key.path: message" and the parser keeps
// going, so one npu::Error carries every error of the file (one per line).
//
// Two stages: parse_case_* checks the file on its own (keys, types, expressions, dtypes, init
// specs, that input files exist, golden names and attributes); check_case_against_kernel then
// checks the bindings to the assembled kernel's parameters (every parameter given, gm
// parameters bound to tensors of the declared dtype, no unknown names).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/lib/case_expr.h"
#include "hw/config/hw_config.h"
#include "isa/program.h"
#include "golden/compare.h"
#include "golden/npy.h"
#include "golden/registry.h"

namespace npu::cli {

// Where something was written: "case.yaml:12:5".
struct SourceLoc {
  std::string file;
  int line = 1, col = 1;  // 1-based; line 0: not a file position (str() is `file` alone)
  std::string str() const;
};

enum class TensorRole { Input, Output, Workspace };
const char* role_name(TensorRole r);  // "input", "output", "workspace"

// One `plant` entry: after the generator, every element whose leading indices are `at` (a
// prefix of the tensor's index, so [r] is a whole row) becomes `value`.
struct InitPlant {
  std::vector<int64_t> at;
  double value = 0;
  SourceLoc loc;        // the entry
};

struct InitSpec {
  enum class Kind { Zeros, Uniform, Normal, Fill, File, Array, ScalesOf };
  Kind kind = Kind::Zeros;
  // uniform / normal with `quantize: per_channel`: the draw is made in bf16 (a weight as a bf16
  // model holds it) and quantised per row (AT-05, golden quant_per_token) into this s8 [rows,
  // cols] tensor; a tensor with `{scales_of: NAME}` (kind ScalesOf, source = NAME) holds the
  // f32 [rows] dequant scales of that quantisation.
  bool quantize_per_channel = false;
  std::string source;
  double a = 0, b = 0;  // uniform: [lo, hi); normal: mean, std
  uint64_t seed = 0;
  double value = 0;     // fill
  std::string path;     // file: absolute, or relative to the current directory
  std::shared_ptr<const golden::NpyArray> array;  // array: the values (from the Python module), read as a file
  SourceLoc loc;        // the `init` value (file errors point here)
  std::vector<InitPlant> plants;  // applied in order, after the generator
  std::string describe() const;  // "uniform[-1, 1) seed 1", "file w.npy", ... (", 2 planted")
};

struct CaseTensor {
  std::string name;
  isa::Dtype dtype = isa::Dtype::F32;
  std::vector<int64_t> shape;
  TensorRole role = TensorRole::Input;
  InitSpec init;                         // inputs; outputs and workspaces start as zeros
  std::optional<isa::CacheHint> cache;   // overrides the kernel's DMA hints for this tensor
  std::string golden_file;               // outputs: `golden: {file: F.npy}`, the reference values
  SourceLoc golden_loc;                  // its `file` value
  bool dtype_from_kernel = false;        // dtype = the kernel's .param dtype (the Python module)
  SourceLoc loc, dtype_loc;              // the tensor's key; its dtype value
  isa::GmFormat format = isa::GmFormat::Nd;  // its layout in GM: the kernel parameter's (`nz`)
  int64_t numel() const;
  // As a matrix of rows x row_bytes: the last dimension is a row (a scalar is one row of one).
  uint64_t rows() const;
  uint64_t row_bytes() const;
  uint64_t bytes() const;  // in GM: dense rows (ND), or with NZ's padding (isa/sem/nz_layout.h)
};

// A non-gm kernel parameter value: int params hold `i`; f32 params hold `f` (as written).
struct CaseParam {
  std::string name;
  bool is_float = false;  // written as a float literal
  int64_t i = 0;
  double f = 0;
  SourceLoc loc;          // the key
};

struct GoldenBinding {
  bool present = false;
  std::string name;
  golden::Attrs attrs;                       // as written (text), checked against the golden
  std::map<std::string, std::string> inputs;   // golden input name -> case tensor
  std::map<std::string, std::string> outputs;  // golden output name -> case tensor
  std::map<std::string, SourceLoc> input_locs, output_locs;  // the golden-side keys
  SourceLoc loc;                             // the `golden` key
};

// One entry of `launches` (docs/case-format.md): its fields default to the top-level ones;
// its params are the top-level ones with its own replacing or adding by name.
struct CaseLaunch {
  std::string kernel_path;  // resolved
  SourceLoc kernel_loc;
  int block_dim = 1;
  SourceLoc block_dim_loc;
  std::vector<CaseParam> params;
  int repeat = 1;
  SourceLoc loc;            // the entry
};
inline constexpr int64_t kMaxLaunches = 10000;  // in all, repeats included

// Where the tensors go in GM (`gm_layout`, docs/case-format.md "GM layout"): in file order, the
// first at `first`, each base aligned to `align` (never less than the L2 line), and an unmapped
// guard gap of at least `guard` bytes (rounded up to whole lines) after each tensor.
struct GmLayout {
  uint64_t first = 0x100000;  // 1 MiB: address 0 is never a tensor
  uint64_t align = 0;         // 0: the L2 line
  uint64_t guard = 4096;
};
inline constexpr int64_t kMaxGmLayoutBytes = int64_t{1} << 40;  // bound of each gm_layout value

struct CaseSpec {
  std::string path;   // the case file as given
  std::string dir;    // its directory (relative paths resolve against it)
  std::string kernel_path;  // resolved
  std::string kernel_source;  // non-empty: the kernel's source text (kernel_path only names it)
  std::shared_ptr<const isa::Program> program;  // set: the kernel, assembled (kernel_path only names it)
  SourceLoc kernel_loc;
  int block_dim = 1;
  SourceLoc block_dim_loc;
  CaseVars vars;                    // after --var overrides
  std::vector<CaseParam> params;    // file order
  SourceLoc params_loc;             // `params` key, or the document start if absent
  std::vector<CaseTensor> tensors;  // file order = GM placement order
  SourceLoc tensors_loc;
  GoldenBinding golden;
  std::map<std::string, golden::Tolerance> tolerances;  // explicit ones, complete (defaults filled)
  std::optional<double> flops;      // useful work for the TFLOPS figure, if given (whole sequence)
  std::vector<CaseLaunch> launches;  // empty: one launch of kernel / block_dim / params
  SourceLoc launches_loc;
  bool l2_cold_between_launches = false;  // l2_between_launches: cold (flush) or warm (default)
  GmLayout gm_layout;
  std::string description;

  const CaseTensor* tensor(const std::string& name) const;  // nullptr if absent
  const CaseParam* param(const std::string& name) const;
  // Tolerance of an output: the case's, else golden::default_tolerance(dtype).
  golden::Tolerance tolerance_for(const CaseTensor& t) const;
};

// var_overrides: "NAME=EXPR" strings (from `npusim run --var`); each must name a var of the
// file and replaces its value before anything is evaluated.
CaseSpec parse_case_string(const std::string& text, const std::string& name, const std::string& dir,
                           const std::vector<std::string>& var_overrides = {});
CaseSpec parse_case_file(const std::string& path, const std::vector<std::string>& var_overrides = {});

// Bindings to the kernel's parameters (see above); throws npu::Error listing every mismatch.
void check_case_against_kernel(const CaseSpec& spec, const isa::Program& program);

// Takes spec.program (refused when assembled for another config), or assembles
// spec.kernel_source, or spec.kernel_path (a .s source, for `hw`: its arch and CFG_
// constants; anything else is read as an object file, refused when assembled with other
// constants), gives the tensors marked dtype_from_kernel their .param dtype, and checks the
// bindings. Assembler diagnostics are part of the error.
isa::Program load_case_kernel(CaseSpec& spec, const hw::HwConfig& hw);

}  // namespace npu::cli
