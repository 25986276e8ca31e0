#pragma once
// Output files that appear whole or not at all, also when the process is interrupted.
//
//   AtomicOutputFile out(path);        // writes go to "<path>.tmp.<pid>.<n>" beside path
//   std::fprintf(out.stream(), ...);   // stream it (a trace, a CSV)
//   out.commit();                      // flush, close, rename over path (npu::Error on failure)
// Destroyed without commit() (an error, an exception), it removes its temporary; path is left
// as it was. write_file_atomic (file_io.h) is the whole-buffer form.
//
// Every live temporary (and every TempPath) is in a process-wide registry that a SIGINT / SIGTERM
// handler empties: it unlinks the registered files, empties and removes the registered
// directories (flat ones: staging directories of plain files), then re-raises the signal with
// its default action, so the process dies with the signal's status. The handler is installed on
// the first registration and only uses async-signal-safe calls on paths stored beforehand. A
// signal that was ignored when the handler would be installed (nohup) stays ignored.
#include <cstdio>
#include <string>

namespace npu {

// Registers path for removal on SIGINT / SIGTERM while this object lives; does not remove it
// itself. For scratch files and staging directories whose owner cleans them up normally.
class TempPath {
 public:
  enum class Kind { File, Directory };
  explicit TempPath(std::string path, Kind kind = Kind::File);
  ~TempPath();
  TempPath(const TempPath&) = delete;
  TempPath& operator=(const TempPath&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  int slot_;
};

class AtomicOutputFile {
 public:
  // Creates the temporary; throws npu::Error "cannot create 'PATH': <reason>".
  explicit AtomicOutputFile(std::string path);
  ~AtomicOutputFile();  // not committed: closes and removes the temporary
  AtomicOutputFile(const AtomicOutputFile&) = delete;
  AtomicOutputFile& operator=(const AtomicOutputFile&) = delete;

  std::FILE* stream() const { return f_; }  // nullptr after commit()
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_.path(); }
  // Flushes, closes and renames the temporary over path. On a write or rename error the
  // temporary is removed and npu::Error "error writing 'PATH': <reason>" is thrown.
  void commit();

 private:
  std::string path_;
  TempPath temp_;
  std::FILE* f_ = nullptr;
};

// Installs the SIGINT / SIGTERM handler now (the first registration does it too), for each of
// the two signals that is not ignored.
void install_temporary_cleanup();

// A temporary name beside path, unique in this process: "<path>.tmp.<pid>.<n>".
std::string temp_name_beside(const std::string& path);

}  // namespace npu
