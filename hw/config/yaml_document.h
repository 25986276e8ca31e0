#pragma once
// Hardware configs and case files are one YAML document each. YAML::Load reads the first
// document and silently drops the rest; this refuses a second one instead.
#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>

namespace npu::hw {

// A config or case file may hold this much (real ones are kilobytes).
inline constexpr uint64_t kMaxYamlFileBytes = 4ull << 20;

// Like YAML::Load, but a second document is a YAML::ParserException at its start, so callers
// report it with the same file:line:col as a syntax error.
YAML::Node load_one_yaml_document(const std::string& text);

}  // namespace npu::hw
