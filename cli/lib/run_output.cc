// Staged, all-or-nothing output directory (run_output.h).
#include "cli/lib/run_output.h"

#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "cli/lib/run_report.h"
#include "cli/lib/run_result.h"
#include "cli/lib/run_stats_json.h"
#include "isa/error.h"
#include "isa/types.h"
#include "golden/npy.h"

namespace npu::cli {
namespace fs = std::filesystem;

namespace {

std::string sibling(const fs::path& dir, const std::string& tag) {
  fs::path name = dir.filename();
  return (dir.parent_path() / ("." + name.string() + "." + tag + "." + std::to_string(::getpid()))).string();
}

// Without a trailing separator ("out/" -> "out"), and absolute for "." and "..", so that
// filename() and parent_path() name the directory itself and its parent.
fs::path normalise(const std::string& dir) {
  fs::path p = fs::path(dir).lexically_normal();
  if (p.empty() || p == "." || p == ".." || p.filename() == "..") p = fs::absolute(p).lexically_normal();
  if (p.filename().empty() && p.has_relative_path()) p = p.parent_path();
  return p;
}

}  // namespace

void check_output_dir(const std::string& dir, const std::string& marker) {
  const std::string opt = (marker == kInputsIndex ? "--dump-inputs " : "--out ") + dir;
  fs::path d = normalise(dir);
  std::error_code ec;
  fs::path parent = d.parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw Error(opt + ": the parent directory " + parent.string() + " does not exist");
  if (!fs::exists(d, ec)) return;
  if (!fs::is_directory(d, ec)) throw Error(opt + ": exists and is not a directory");
  fs::path cwd = fs::current_path(ec);
  fs::path abs = normalise(fs::absolute(d, ec).string());
  bool holds_cwd = !ec && std::mismatch(abs.begin(), abs.end(), cwd.begin(), cwd.end()).first == abs.end();
  if (holds_cwd) throw Error(opt + ": is the current directory or one of its parents");
  if (fs::is_empty(d, ec) || fs::is_regular_file(d / marker, ec)) return;
  throw Error(opt + ": exists and is not the output of a previous run (no " + marker + "); "
              "not replacing it");
}

OutputStage::OutputStage(const std::string& dir, const std::string& marker) {
  check_output_dir(dir, marker);
  fs::path d = normalise(dir);
  dir_ = d.string();
  std::error_code ec;
  stage_ = sibling(d, "tmp");
  stage_tmp_ = std::make_unique<TempPath>(stage_, TempPath::Kind::Directory);
  fs::remove_all(stage_, ec);
  if (!fs::create_directory(stage_, ec) || ec)
    throw Error("--out " + dir + ": cannot create " + stage_ + ": " + ec.message());
}

OutputStage::~OutputStage() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(stage_, ec);
}

void OutputStage::write_text(const std::string& name, const std::string& text) const {
  std::ofstream out(file(name), std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw Error("cannot write " + file(name));
}

void OutputStage::commit() {
  std::error_code ec;
  // Swap the stage and DIR in one step where the file system can (Linux renameat2): a signal
  // then finds either the old DIR in place or the new one, and removes only the stage path.
  if (fs::exists(dir_, ec) && ::renameat2(AT_FDCWD, stage_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) == 0) {
    committed_ = true;
    fs::remove_all(stage_, ec);  // the previous results
    return;
  }
  std::string old;
  if (fs::exists(dir_, ec)) {
    old = sibling(dir_, "old");
    fs::remove_all(old, ec);
    fs::rename(dir_, old, ec);
    if (ec) throw Error("cannot replace " + dir_ + ": " + ec.message());
  }
  fs::rename(stage_, dir_, ec);
  if (ec) {
    std::error_code ec2;
    if (!old.empty()) fs::rename(old, dir_, ec2);  // put the previous results back
    throw Error("cannot move the results to " + dir_ + ": " + ec.message());
  }
  committed_ = true;
  if (!old.empty()) fs::remove_all(old, ec);
}

void write_run_outputs(const std::string& dir, const RunResult& res, const std::string& config_yaml) {
  OutputStage stage(dir);
  stage.write_text("stats.json", stats_json(res).dump(2) + "\n");
  stage.write_text("report.txt", format_report(res));
  stage.write_text("config.yaml", config_yaml);
  for (const auto& [name, t] : res.outputs) golden::write_output(stage.path(), name, t);
  for (const auto& [name, t] : res.references)
    golden::write_npy(stage.file(name + ".golden.npy"), golden::values_npy(t));
  if (!res.inputs.empty()) {
    fs::create_directory(stage.file("inputs"));
    for (const auto& [name, t] : res.inputs) golden::write_output(stage.file("inputs"), name, t);
  }
  stage.commit();
}

void write_run_inputs(const std::string& dir, const RunResult& res) {
  OutputStage stage(dir, kInputsIndex);
  nlohmann::json index = nlohmann::json::array();
  for (const TensorRecord& t : res.tensors) {
    auto it = res.inputs.find(t.name);
    if (it == res.inputs.end()) continue;
    golden::write_output(stage.path(), t.name, it->second);
    index.push_back({{"name", t.name}, {"dtype", isa::dtype_name(t.dtype)}, {"shape", t.shape}, {"role", t.role},
                     {"init", t.init}, {"raw", golden::has_raw_npy(t.dtype)}});
  }
  stage.write_text(kInputsIndex, index.dump(2) + "\n");
  stage.commit();
}

}  // namespace npu::cli
