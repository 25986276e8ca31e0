// The data-directory lookup (data_dir.h).
#include "cli/lib/data_dir.h"

#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <vector>

#include "isa/error.h"

namespace npu::cli {
namespace fs = std::filesystem;

namespace {

constexpr const char* kDefaultConfig = "configs/ascend910b.yaml";

std::string find_upwards(fs::path dir) {
  std::error_code ec;
  for (int depth = 0; depth < 64 && !dir.empty(); ++depth) {
    for (const fs::path& cand : {dir, dir / "share" / "npusim"})
      if (fs::is_regular_file(cand / kDefaultConfig, ec)) return cand.lexically_normal().string();
    if (dir == dir.parent_path()) break;
    dir = dir.parent_path();
  }
  return "";
}

// The directories the lookup starts from (data_dir.h), in order.
std::vector<fs::path> start_dirs() {
  std::vector<fs::path> dirs;
  std::error_code ec;
  auto add = [&](const fs::path& d) {
    if (std::find(dirs.begin(), dirs.end(), d) == dirs.end()) dirs.push_back(d);
  };
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&data_dir), &info) && info.dli_fname && info.dli_fname[0] == '/')
    add(fs::path(info.dli_fname).parent_path());
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) add(exe.parent_path());
  fs::path cwd = fs::current_path(ec);
  if (!ec) add(cwd);
  return dirs;
}

}  // namespace

std::string data_dir() {
  std::string searched;
  for (const fs::path& d : start_dirs()) {
    if (std::string found = find_upwards(d); !found.empty()) return found;
    searched += (searched.empty() ? "" : ", ") + d.string();
  }
  throw Error(std::string("no npusim data directory: ") + kDefaultConfig + " was found neither above " + searched +
              " nor in a share/npusim there; pass --config HW.yaml or set NPUSIM_CONFIG");
}

namespace {

// A shipped config: through the build tree's links to the file in the sources (what the report names).
std::string shipped_config(const std::string& rel) {
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(data_dir()) / rel, ec);
  return ec ? data_dir() + "/" + rel : p.string();
}

}  // namespace

std::string default_config_path() {
  if (const char* e = std::getenv("NPUSIM_CONFIG"); e && *e) return e;
  return shipped_config(kDefaultConfig);
}

std::string resolve_config_path(const std::string& arg) {
  if (arg.empty()) return default_config_path();
  const bool bare = arg.find('/') == std::string::npos &&
                    !(arg.size() >= 5 && arg.compare(arg.size() - 5, 5, ".yaml") == 0);
  std::error_code ec;
  if (bare && !fs::exists(arg, ec)) return shipped_config("configs/" + arg + ".yaml");
  return arg;
}

}  // namespace npu::cli
