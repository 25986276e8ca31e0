#pragma once
// Where the tests find the repository and the built binary.
#include <string>

namespace npu::test {

std::string source_dir();                          // $NPUSIM_SOURCE_DIR, else the configured tree
std::string source_path(const std::string& rel);   // source_dir() / rel
std::string system_data(const std::string& file);  // testbench/system/data/<file>
std::string npusim_bin();                          // $NPUSIM_BIN, else <build>/bin/npusim

}  // namespace npu::test
