// Layers point one way (docs/architecture.md): base -> isa -> hw -> golden / calib -> cli. Every
// `#include "dir/..."` in a product directory must name the directory itself or one it may use,
// and every product directory must be listed here, so a new one cannot slip past the rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "testbench/support/paths.h"

namespace fs = std::filesystem;

namespace {

const std::vector<std::string> kIsa = {"isa/numeric", "isa", "isa/asm", "isa/sem", "isa/check", "isa/iss"};
const std::vector<std::string> kHw = {"hw/pluggable", "hw/config", "hw/mem", "hw/core", "hw/top"};

std::vector<std::string> join(std::initializer_list<std::vector<std::string>> parts) {
  std::vector<std::string> v;
  for (const auto& p : parts) v.insert(v.end(), p.begin(), p.end());
  return v;
}

// Directory -> the directories it may include besides itself.
std::map<std::string, std::vector<std::string>> allowed() {
  const std::vector<std::string> base = {"base"};
  std::vector<std::string> isa = join({base, kIsa});
  std::vector<std::string> hw = join({isa, kHw});
  return {
      {"base", {}},
      {"isa/numeric", base},
      {"isa", {"base", "isa/numeric"}},
      {"isa/asm", {"base", "isa/numeric", "isa"}},
      {"isa/sem", {"base", "isa/numeric", "isa"}},
      {"isa/check", {"base", "isa/numeric", "isa", "isa/sem"}},
      {"isa/iss", {"base", "isa/numeric", "isa", "isa/sem", "isa/check"}},
      {"hw/pluggable", isa},
      {"hw/config", join({isa, {"hw/pluggable"}})},
      {"hw/mem", join({isa, {"hw/pluggable", "hw/config"}})},
      {"hw/core", join({isa, {"hw/pluggable", "hw/config", "hw/mem"}})},
      {"hw/top", join({isa, {"hw/pluggable", "hw/config", "hw/mem", "hw/core"}})},
      // Independent of the code under test: element types only, no semantics and no model.
      {"golden", {"base", "isa/numeric"}},
      {"calib", hw},
      {"cli/lib", join({hw, {"golden", "calib"}})},
      {"cli", join({hw, {"golden", "calib", "cli/lib"}})},
      // The Python module: a front end like cli/ (pybind11 headers are system headers).
      {"python", join({hw, {"golden", "calib", "cli/lib"}})},
  };
}

// Directories that are not product code (tests, data, the build).
bool skipped(const std::string& rel) {
  for (const char* top : {"testbench", "kernels", "configs", "calibration", "docs", "scripts", "cmake"})
    if (rel == top || rel.rfind(std::string(top) + "/", 0) == 0) return true;
  return rel.rfind("build", 0) == 0 || rel[0] == '.';
}

bool is_source(const fs::path& p) {
  const std::string e = p.extension().string();
  return e == ".h" || e == ".cc" || e == ".def" || e == ".inc";
}

// The includes of one file of `dir` that name a directory outside `ok` ("file:line: ...").
std::vector<std::string> include_violations(const std::string& file, const std::string& dir,
                                            const std::vector<std::string>& ok, std::istream& in) {
  static const std::regex include_re(R"re(^\s*#\s*include\s+"([^"]+)")re");
  std::vector<std::string> out;
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    std::smatch m;
    if (!std::regex_search(line, m, include_re)) continue;
    const std::string target = fs::path(m[1].str()).parent_path().generic_string();
    if (target.empty() || target == dir) continue;  // generated .inc files, the directory itself
    if (std::find(ok.begin(), ok.end(), target) == ok.end())
      out.push_back(file + ":" + std::to_string(n) + ": '" + dir + "' must not include \"" + m[1].str() + "\"");
  }
  return out;
}

std::vector<std::string> violations_of(const std::string& dir, const std::string& text) {
  std::istringstream in(text);
  return include_violations(dir + "/x.cc", dir, allowed().at(dir), in);
}

TEST(IncludeDirection, TheRuleRefusesAnUpwardInclude) {
  EXPECT_EQ(violations_of("isa/sem", "#include <vector>\n#include \"isa/isa.h\"\n  #include \"hw/config/hw_config.h\"\n"),
            std::vector<std::string>{"isa/sem/x.cc:3: 'isa/sem' must not include \"hw/config/hw_config.h\""});
  EXPECT_EQ(violations_of("golden", "#include \"isa/sem/gm.h\"\n").size(), 1u);  // goldens stay independent
  EXPECT_EQ(violations_of("hw/core", "#include \"hw/top/run.h\"\n").size(), 1u);
  EXPECT_TRUE(violations_of("hw/core", "#include \"isa/sem/gm.h\"\n#include \"hw/core/timing.h\"\n").empty());
}

TEST(IncludeDirection, EveryProductIncludePointsDown) {
  const fs::path root = npu::test::source_dir();
  const auto rules = allowed();
  std::set<std::string> seen_dirs;
  std::vector<std::string> violations;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    const std::string rel = fs::relative(it->path(), root).generic_string();
    if (it->is_directory()) {
      if (skipped(rel)) it.disable_recursion_pending();
      continue;
    }
    if (!is_source(it->path())) continue;
    const std::string dir = fs::path(rel).parent_path().generic_string();
    if (dir.empty()) continue;
    seen_dirs.insert(dir);
    auto rule = rules.find(dir);
    if (rule == rules.end()) {
      violations.push_back(rel + ": directory '" + dir + "' has no layer in include_direction_test.cc");
      continue;
    }
    std::ifstream in(it->path());
    for (std::string& v : include_violations(rel, dir, rule->second, in)) violations.push_back(std::move(v));
  }
  EXPECT_TRUE(violations.empty()) << [&] {
    std::string s;
    for (const auto& v : violations) s += v + "\n";
    return s;
  }();
  // The walk saw the tree (a wrong source_dir would pass vacuously).
  for (const char* d : {"base", "isa/sem", "isa/iss", "hw/core", "golden", "calib", "cli/lib"})
    EXPECT_TRUE(seen_dirs.count(d)) << d;
}

}  // namespace
