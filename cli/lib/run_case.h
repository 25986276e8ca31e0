#pragma once
// `npusim run CASE`: the whole job (docs/case-format.md, "Running a case").
//   1. parse and check the case, load the hardware config (+ --set overrides), assemble the
//      kernel and check the case's bindings against its parameters;
//   2. place the tensors in GM, build the inputs, start the golden on them on a second thread
//      (it only reads the initial tensors; a golden that does not fit the tensors is reported
//      before any simulation error, as if it had run first);
//   3. run the launch on the SystemC model (or the ISS), read the outputs back, compare each
//      golden-checked output with the comparison rule of docs/numerics.md;
//   4. derive the roofline; write the output directory (stats.json, report.txt, ...: staged, see
//      run_output.h).
//      (--timing-only skips the inputs' data, the golden and the comparison.)
// Any problem in 1-2, a kernel fault or hang in 3, or an unwritable output directory throws
// npu::Error (exit code 2); nothing is written then.
#include <string>
#include <vector>

#include "cli/lib/case_spec.h"
#include "cli/lib/run_result.h"
#include "hw/top/trace_options.h"

namespace npu::cli {

class ProgressLine;

struct RunOptions {
  std::string case_path;
  std::string config_path;          // "" = default_config_path()
  std::vector<std::string> sets;    // hardware config overrides "key.path=value"
  std::vector<std::string> vars;    // case var overrides "NAME=VALUE"
  std::vector<std::string> caches;  // per-tensor cache policy overrides "TENSOR=POLICY"
  std::string kernel_path;          // --kernel: replaces the case's kernel ("" = the case's)
  int block_dim = 0;                // --block-dim: replaces the case's block_dim (0 = the case's)
  std::string out_dir;              // "" = write no files
  bool iss = false;                 // functional ISS instead of the SystemC model
  std::string race;                 // --race error|warn|off; "" = error on --iss, off on SystemC
  hw::TraceOptions trace;           // --vcd, --trace, --instr-csv, --trace-window, --trace-select
  std::string command_line;         // recorded in stats.json
  // --timing-only: the model runs without data effects (hw::RunOptions::timing_only), so no
  // inputs are generated, no golden runs and no output is read back or judged; the cycles and
  // every timing statistic are those of the full run. SystemC model only, no race checker.
  bool timing_only = false;
  ProgressLine* progress = nullptr;  // the terminal's progress line (progress.h), or none
};

// Case + config + overrides -> the typed result; with out_dir, also writes the output directory.
RunResult run_case(const RunOptions& opts);

// Applies `--cache TENSOR=POLICY` overrides (RunOptions::caches) to the case's tensors; throws
// npu::Error "--cache ARG: error: ..." for a malformed argument, an unknown tensor or policy.
void apply_cache_overrides(CaseSpec& spec, const std::vector<std::string>& overrides);

// Applies --kernel / --block-dim (RunOptions::kernel_path, block_dim) to the case; throws
// npu::Error "--kernel PATH: error: ..." for an unreadable kernel, "--block-dim N: ..." out of range.
void apply_launch_overrides(CaseSpec& spec, const RunOptions& opts);

// The config used without --config: $NPUSIM_CONFIG, else configs/ascend910b.yaml in the
// directory of the npusim executable or one of its parents (a build tree inside the source
// tree), else in the current directory or one of its parents. Throws when none exists.
std::string default_config_path();

}  // namespace npu::cli
