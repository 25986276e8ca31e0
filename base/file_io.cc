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

std::string read_input_file(const std::string& path, uint64_t max_bytes) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0)
    throw Error(fmt::format("'{}': cannot open: {}", path, std::strerror(errno)));
  if (S_ISDIR(st.st_mode)) throw Error(fmt::format("'{}': is a directory, not a file", path));
  if (S_ISREG(st.st_mode) && static_cast<uint64_t>(st.st_size) > max_bytes)
    throw Error(fmt::format("'{}': {} bytes is larger than the {}-byte limit for this input", path,
                            static_cast<uint64_t>(st.st_size), max_bytes));
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw Error(fmt::format("'{}': cannot open: {}", path, std::strerror(errno)));
  std::string out;
  if (S_ISREG(st.st_mode)) out.reserve(static_cast<size_t>(st.st_size));
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      throw Error(fmt::format("'{}': read error: {}", path, std::strerror(e)));
    }
    if (n == 0) break;
    if (out.size() + static_cast<uint64_t>(n) > max_bytes) {
      ::close(fd);
      throw Error(fmt::format("'{}': larger than the {}-byte limit for this input", path, max_bytes));
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
