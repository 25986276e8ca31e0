#include "base/output_file.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include <fmt/format.h>

#include "base/error.h"

namespace npu {

namespace {

// The registry: slots of strdup'ed paths. Registration takes the mutex; the signal handler only
// loads the atomic pointers (lock-free), so it never waits on a lock the interrupted code holds.
constexpr int kSlots = 256;
struct Slot {
  std::atomic<const char*> path{nullptr};
  std::atomic<bool> dir{false};
};
Slot g_slots[kSlots];
std::mutex g_mu;
bool g_installed = false;  // under g_mu

// Removes the plain files of a flat directory, then the directory (async-signal-safe: raw
// getdents64 on a fixed buffer, unlinkat, rmdir; no allocation). Deleting while reading may skip
// entries, so passes repeat until one removes nothing.
void remove_flat_dir(const char* dir) {
  const int fd = ::open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    alignas(struct dirent64) char buf[4096];
    for (bool removed = true; removed;) {
      removed = false;
      ::lseek(fd, 0, SEEK_SET);
      for (;;) {
        const ssize_t n = ::getdents64(fd, buf, sizeof buf);
        if (n <= 0) break;
        for (ssize_t off = 0; off < n;) {
          const auto* d = reinterpret_cast<const struct dirent64*>(buf + off);
          off += d->d_reclen;
          const char* name = d->d_name;
          if (name[0] == '.' && (name[1] == 0 || (name[1] == '.' && name[2] == 0))) continue;
          if (::unlinkat(fd, name, 0) == 0) removed = true;
        }
      }
    }
    ::close(fd);
  }
  ::rmdir(dir);
}

extern "C" void remove_temporaries_and_die(int sig) {
  const int saved = errno;
  for (Slot& s : g_slots) {
    const char* p = s.path.load();
    if (p && !s.dir.load()) ::unlink(p);
  }
  for (Slot& s : g_slots) {
    const char* p = s.path.load();
    if (p && s.dir.load()) remove_flat_dir(p);
  }
  errno = saved;
  // SA_RESETHAND restored the default action and SA_NODEFER leaves the signal unblocked: this
  // ends the process with the signal's status.
  ::raise(sig);
}

void install_handler_locked() {
  g_installed = true;
  for (int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;  // nohup: stay ignored
    struct sigaction sa {};
    sa.sa_handler = remove_temporaries_and_die;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND | SA_NODEFER;
    ::sigaction(sig, &sa, nullptr);
  }
}

int register_path(const std::string& path, bool dir) {
  char* copy = ::strdup(path.c_str());
  if (!copy) return -1;
  std::lock_guard<std::mutex> lock(g_mu);
  if (!g_installed) install_handler_locked();
  for (int i = 0; i < kSlots; ++i) {
    if (g_slots[i].path.load()) continue;
    g_slots[i].dir.store(dir);
    g_slots[i].path.store(copy);
    return i;
  }
  std::free(copy);  // full: the path is still removed normally, only not on a signal
  return -1;
}

void unregister_path(int slot) {
  if (slot < 0) return;
  std::lock_guard<std::mutex> lock(g_mu);
  std::free(const_cast<char*>(g_slots[slot].path.exchange(nullptr)));
}

}  // namespace

void install_temporary_cleanup() {
  std::lock_guard<std::mutex> lock(g_mu);
  install_handler_locked();
}

std::string temp_name_beside(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  return fmt::format("{}.tmp.{}.{}", path, static_cast<long>(::getpid()), counter++);
}

TempPath::TempPath(std::string path, Kind kind)
    : path_(std::move(path)), slot_(register_path(path_, kind == Kind::Directory)) {}

TempPath::~TempPath() { unregister_path(slot_); }

AtomicOutputFile::AtomicOutputFile(std::string path) : path_(std::move(path)), temp_(temp_name_beside(path_)) {
  f_ = std::fopen(temp_.path().c_str(), "wb");
  if (!f_) throw Error(fmt::format("cannot create '{}': {}", path_, std::strerror(errno)));
}

AtomicOutputFile::~AtomicOutputFile() {
  if (!f_) return;  // committed, or commit() failed and cleaned up
  std::fclose(f_);
  ::unlink(temp_.path().c_str());
}

void AtomicOutputFile::commit() {
  if (!f_) throw Error(fmt::format("internal: '{}' committed twice", path_));
  bool ok = std::ferror(f_) == 0;
  ok = std::fflush(f_) == 0 && ok;
  int err = errno;
  ok = std::fclose(f_) == 0 && ok;
  if (ok) err = 0;
  else if (err == 0) err = errno;
  f_ = nullptr;
  if (ok && std::rename(temp_.path().c_str(), path_.c_str()) == 0) return;
  if (ok) err = errno;
  ::unlink(temp_.path().c_str());
  throw Error(fmt::format("error writing '{}': {}", path_, err ? std::strerror(err) : "I/O error"));
}

}  // namespace npu
