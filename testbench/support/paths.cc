#include "testbench/support/paths.h"

#include <cstdlib>

namespace npu::test {

std::string source_dir() {
  if (const char* env = std::getenv("NPUSIM_SOURCE_DIR"); env && *env) return env;
  return NPUSIM_SOURCE_DIR;
}

std::string source_path(const std::string& rel) { return source_dir() + "/" + rel; }

std::string system_data(const std::string& file) { return source_path("testbench/system/data/" + file); }

std::string npusim_bin() {
  if (const char* b = std::getenv("NPUSIM_BIN"); b && *b) return b;
  return std::string(NPUSIM_BINARY_DIR) + "/bin/npusim";
}

}  // namespace npu::test
