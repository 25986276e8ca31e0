#pragma once
// Reading inputs and writing outputs, for every layer. Inputs are read with a size limit (an
// endless file such as /dev/zero must not exhaust the host) and a directory is refused by name;
// outputs appear whole or not at all (temporary file in the same directory, then rename).
#include <cstdint>
#include <string>
#include <string_view>

#include "base/error.h"

namespace npu {

// Default size limits for the readers; a caller may pass its own.
inline constexpr uint64_t kMaxTextInputBytes = 64ull << 20;    // sources, YAML, CSV
inline constexpr uint64_t kMaxBinaryInputBytes = 16ull << 30;  // .npy tensors, object files, traces

// What read_input_file throws: what() is "'PATH': REASON"; a caller with its own location
// (an assembler diagnostic, a case key) can use the parts.
struct InputFileError : Error {
  InputFileError(std::string path, std::string reason);
  std::string path, reason;
};

// Reads the whole file. Throws InputFileError when the path does not exist, is a directory,
// cannot be read, or holds more than max_bytes (checked while reading, so a pipe or a
// character device such as /dev/zero is bounded too).
std::string read_input_file(const std::string& path, uint64_t max_bytes = kMaxTextInputBytes);

// The checks read_input_file makes before reading (exists, not a directory, a regular file
// within max_bytes), for a parser that names a file now and reads it later.
void check_input_file(const std::string& path, uint64_t max_bytes = kMaxTextInputBytes);

// Writes bytes to path atomically: a temporary file beside it, renamed over it on success
// (AtomicOutputFile, output_file.h: also removed on SIGINT / SIGTERM). On failure the temporary
// is removed and the previous file (if any) is untouched.
void write_file_atomic(const std::string& path, std::string_view bytes);

}  // namespace npu
