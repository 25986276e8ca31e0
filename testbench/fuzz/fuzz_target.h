#pragma once
// Shared by the fuzz targets (testbench/fuzz/*_fuzz.cc, docs/testing.md). Each target feeds one
// product reader arbitrary bytes through its public API. npu::Error is the expected answer to
// bad input; anything else (another exception, a crash, a sanitizer report, a hang, a broken
// round trip) is a finding. Each source builds two ways (testbench/fuzz/CMakeLists.txt): with
// libFuzzer (clang, NPUSIM_FUZZ) it fuzzes; with replay_main.cc (any build) it replays the seed
// corpus and the committed regression inputs.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/error.h"

namespace npu::fuzz {

inline std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

// The option arguments a text input carries on lines "<prefix>ARG" (e.g. "#set chip.clusters=4"
// in a config, which YAML reads as a comment), in order, without the prefix.
inline std::vector<std::string> directive_lines(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  for (size_t pos = 0; pos < text.size();) {
    size_t end = text.find('\n', pos);
    if (end == std::string::npos) end = text.size();
    if (text.compare(pos, prefix.size(), prefix) == 0 && end - pos >= prefix.size())
      out.push_back(text.substr(pos + prefix.size(), end - pos - prefix.size()));
    pos = end + 1;
  }
  return out;
}

// Runs f(); an npu::Error (bad input, reported as such) is the expected outcome and is dropped.
template <class F>
void tolerate_input_errors(F&& f) {
  try {
    f();
  } catch (const npu::Error&) {
  }
}

// An accepted input broke an invariant of the reader (e.g. a round trip): a finding.
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "fuzz finding: %s\n", what.c_str());
  std::abort();
}

}  // namespace npu::fuzz
