#pragma once
// `npusim run CASE`: the whole job (docs/case-format.md, "Running a case").
//   1. parse and check the case, load the hardware config (+ --set overrides), assemble the
//      kernel and check the case's bindings against its parameters;
//   2. place the tensors in GM, build the inputs, start the golden on them on a second thread
//      (it only reads the initial tensors; a golden that does not fit the tensors is reported
//      before any simulation error, as if it had run first);
//   3. run the launch on the SystemC model (or the ISS), read the outputs back, compare each
//      golden-checked output with the comparison rule of docs/numerics.md;
//   4. build stats.json and the report; write the output directory (staged, see run_output.h).
// Any problem in 1-2, a kernel fault or hang in 3, or an unwritable output directory throws
// npu::Error (exit code 2); nothing is written then.
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/lib/case_spec.h"
#include "hw/top/trace_options.h"

#include "testbench/golden/compare.h"
#include "testbench/golden/tensor.h"

namespace npu::cli {

inline constexpr int kExitPass = 0, kExitCompareFail = 1, kExitBadInput = 2;

struct RunOptions {
  std::string case_path;
  std::string config_path;          // "" = default_config_path()
  std::vector<std::string> sets;    // hardware config overrides "key.path=value"
  std::vector<std::string> vars;    // case var overrides "NAME=VALUE"
  std::vector<std::string> caches;  // per-tensor cache policy overrides "TENSOR=POLICY"
  std::string out_dir;              // "" = write no files
  bool iss = false;                 // functional ISS instead of the SystemC model
  bool timing_only = false;         // SystemC without data effects (hw/top/run.h): no golden, no compare
  std::string race;                 // --race error|warn|off; "" = error on --iss, off on SystemC
  hw::TraceOptions trace;           // --vcd, --trace, --instr-csv, --trace-window, --trace-select
};

struct OutputVerdict {
  std::string tensor;
  std::string golden_output;        // "" when no golden output is bound to it
  bool compared = false;
  golden::CompareResult result;
};

struct RunResult {
  int exit_code = kExitPass;        // kExitPass, or kExitCompareFail when a comparison failed
  nlohmann::json stats;             // what stats.json holds
  std::string report;               // what report.txt holds (and `npusim run` prints)
  std::vector<OutputVerdict> verdicts;            // output tensors, file order
  std::map<std::string, golden::Tensor> outputs;  // final contents of the output tensors
  std::map<std::string, golden::Tensor> references;  // the golden of each compared output tensor
  std::vector<std::string> warnings;  // --race warn: the race checker's findings
};

RunResult run_case(const RunOptions& opts);

// Applies `--cache TENSOR=POLICY` overrides (RunOptions::caches) to the case's tensors; throws
// npu::Error "--cache ARG: error: ..." for a malformed argument, an unknown tensor or policy.
void apply_cache_overrides(CaseSpec& spec, const std::vector<std::string>& overrides);

// The config used without --config: $NPUSIM_CONFIG, else configs/ascend910b.yaml in the
// directory of the npusim executable or one of its parents (a build tree inside the source
// tree), else in the current directory or one of its parents. Throws when none exists.
std::string default_config_path();

}  // namespace npu::cli
