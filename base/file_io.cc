#include "base/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/format.h>

#include "base/error.h"
#include "base/output_file.h"

namespace npu {

namespace {

// "64 MiB": limits are whole binary units.
std::string limit_text(uint64_t bytes) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (u < 4 && bytes >= 1024 && bytes % 1024 == 0) bytes /= 1024, ++u;
  return fmt::format("{} {}", bytes, units[u]);
}

[[noreturn]] void fail(const std::string& path, const std::string& reason) { throw InputFileError(path, reason); }

[[noreturn]] void too_large(const std::string& path, uint64_t max_bytes) {
  fail(path, fmt::format("larger than the {} limit for this kind of input", limit_text(max_bytes)));
}

struct stat stat_input(const std::string& path, uint64_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) fail(path, "is a directory, not a file");
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > max_bytes) too_large(path, max_bytes);
  return st;
}

}  // namespace

InputFileError::InputFileError(std::string p, std::string r)
    : Error(fmt::format("'{}': {}", p, r)), path(std::move(p)), reason(std::move(r)) {}

void check_input_file(const std::string& path, uint64_t max_bytes) { stat_input(path, max_bytes); }

std::string read_input_file(const std::string& path, uint64_t max_bytes) {
  const struct stat st = stat_input(path, max_bytes);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail(path, fmt::format("cannot open: {}", std::strerror(errno)));
  std::string out;
  if (S_ISREG(st.st_mode)) out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      fail(path, fmt::format("read error: {}", std::strerror(e)));
    }
    if (n == 0) break;
    if (out.size() + static_cast<uint64_t>(n) > max_bytes) {
      ::close(fd);
      too_large(path, max_bytes);
    }
    out.append(buf, static_cast<size_t>(n));
  }
  ::close(fd);
  return out;
}

void write_file_atomic(const std::string& path, std::string_view bytes) {
  AtomicOutputFile out(path);
  std::fwrite(bytes.data(), 1, bytes.size(), out.stream());
  out.commit();  // a short write sets the stream's error flag: commit throws then
}

}  // namespace npu
