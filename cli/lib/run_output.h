#pragma once
// The output directory of `npusim run`, written so that no half-written result is ever left
// behind: everything goes into a staging directory next to DIR (".DIR.tmp.<pid>"), which
// replaces DIR in one rename when commit() is called. An existing DIR is kept untouched until
// then (swapped with the stage in one renameat2 where the file system can, else moved aside to
// ".DIR.old.<pid>"; deleted after the rename). A stage that is
// destroyed without commit() (an error, an exception) or interrupted by SIGINT / SIGTERM is
// deleted.
#include <memory>
#include <string>

#include "base/output_file.h"

namespace npu::cli {

struct RunResult;

// The file that marks a directory as npusim's: stats.json for --out, this for --dump-inputs.
inline constexpr const char* kRunIndex = "stats.json";
inline constexpr const char* kInputsIndex = "inputs.json";

// Throws npu::Error unless `dir` can be written by a run: it must not exist, or be an empty
// directory, or hold a previous run's output (its `marker` file), and its parent must exist. This
// keeps `--out .` or `--out ~/src` from replacing a directory that npusim did not create.
void check_output_dir(const std::string& dir, const std::string& marker = kRunIndex);

class OutputStage {
 public:
  // check_output_dir(dir, marker), then creates the stage
  explicit OutputStage(const std::string& dir, const std::string& marker = kRunIndex);
  ~OutputStage();
  OutputStage(const OutputStage&) = delete;
  OutputStage& operator=(const OutputStage&) = delete;

  const std::string& path() const { return stage_; }     // write files here
  std::string file(const std::string& name) const { return stage_ + "/" + name; }
  void write_text(const std::string& name, const std::string& text) const;
  void commit();  // throws npu::Error when the rename fails (the stage is then deleted)

 private:
  std::string dir_, stage_;
  std::unique_ptr<TempPath> stage_tmp_;  // SIGINT / SIGTERM remove the stage (base/output_file.h)
  bool committed_ = false;
};

// Writes dir/ with stats.json, report.txt, config.yaml (the resolved hardware config) and, per
// output tensor, <name>.npy (values), <name>.raw.npy (bits, 16- and 8-bit types) and, when it is
// compared, <name>.golden.npy (the golden's values, as <name>.npy); staged as
// above, so dir/ holds either the complete previous run or the complete new one.
// Also inputs/<name>.npy (+ .raw.npy) for every tensor in res.inputs, written as the outputs are.
void write_run_outputs(const std::string& dir, const RunResult& res, const std::string& config_yaml);

// --dump-inputs DIR: DIR/<name>.npy (+ .raw.npy) for every tensor in res.inputs and DIR/inputs.json
// (name, dtype, shape, role, init of each); staged as above.
void write_run_inputs(const std::string& dir, const RunResult& res);

}  // namespace npu::cli
