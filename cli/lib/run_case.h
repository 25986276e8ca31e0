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
#include "cli/lib/data_dir.h"
#include "cli/lib/run_result.h"
#include "base/host_phases.h"
#include "hw/top/trace_options.h"

namespace npu::cli {

class ProgressLine;

struct RunOptions {
  std::string case_path;
  std::string config_path;          // resolve_config_path(): "" = the default, a bare name = a shipped config
  std::vector<std::string> sets;    // hardware config overrides "key.path=value"
  std::vector<std::string> vars;    // case var overrides "NAME=VALUE"
  std::vector<std::string> caches;  // per-tensor cache policy overrides "TENSOR=POLICY"
  std::string kernel_path;          // --kernel: replaces the case's kernel ("" = the case's)
  int block_dim = 0;                // --block-dim: replaces the case's block_dim (0 = the case's)
  std::string out_dir;              // "" = write no files
  std::string dump_inputs_dir;      // --dump-inputs: the input tensors as the kernel saw them ("" = none)
  bool iss = false;                 // functional ISS instead of the SystemC model
  std::string race;                 // --race error|warn|off; "" = error on --iss, off on SystemC
  hw::TraceOptions trace;           // --vcd, --trace, --instr-csv, --trace-window, --trace-select
  std::string command_line;         // recorded in stats.json
  // --timing-only: the model runs without data effects (hw::RunOptions::timing_only), so no
  // inputs are generated, no golden runs and no output is read back or judged; the cycles and
  // every timing statistic are those of the full run. SystemC model only, no race checker.
  bool timing_only = false;
  ProgressLine* progress = nullptr;  // the terminal's progress line (progress.h), or none
  HostPhases* host_phases = nullptr;  // host time per phase (`npusim bench`), or none
  // The process exits after this job (`npusim run`): the model is left for its end to free
  // instead of being torn down (hw::RunOptions::keep_model_at_exit).
  bool process_ends_after = false;
};

// Case + config + overrides -> the typed result; with out_dir, also writes the output directory.
RunResult run_case(const RunOptions& opts);
// The same job on a case already parsed (or built, as the Python module does); opts.case_path
// and opts.vars are not used.
RunResult run_case_spec(CaseSpec spec, const RunOptions& opts);
// The same job from step 1's results: a parsed case (opts' case, config, --set, --var, --cache,
// --kernel and --block-dim are not read again) and a loaded config (cfg_path names it in
// messages and stats.json). The kernel tests run their cases through this.
RunResult run_parsed_case(CaseSpec spec, const hw::HwConfig& hw, const std::string& cfg_path,
                          const RunOptions& opts);

// Applies `--cache TENSOR=POLICY` overrides (RunOptions::caches) to the case's tensors; throws
// npu::Error "--cache ARG: error: ..." for a malformed argument, an unknown tensor or policy.
void apply_cache_overrides(CaseSpec& spec, const std::vector<std::string>& overrides);

// Applies --kernel / --block-dim (RunOptions::kernel_path, block_dim) to the case; throws
// npu::Error "--kernel PATH: error: ..." for an unreadable kernel, "--block-dim N: ..." out of range.
void apply_launch_overrides(CaseSpec& spec, const RunOptions& opts);

}  // namespace npu::cli
