// `.include "file"`: textual inclusion before macro expansion (like the C preprocessor), so a
// kernel can share macro libraries (kernels/lib/*.inc). The spliced lines keep their origin, so
// diagnostics name the included file and its own line numbers.
#include <algorithm>

#include "base/file_io.h"
#include "isa/asm/assembler.h"
#include "isa/asm/source.h"

namespace npu::isa::detail {
namespace {

constexpr int kMaxIncludeDepth = 16;

std::string directory_of(const std::string& path) {
  const size_t slash = path.rfind('/');
  return slash == std::string::npos ? "" : path.substr(0, slash + 1);
}

// Empty when the file was read, else why not.
std::string read_lines(const std::string& path, std::vector<std::string>* out) {
  try {
    *out = split_source_lines(read_input_file(path, kMaxSourceFileBytes));
  } catch (const InputFileError& e) {
    return e.reason;
  }
  return "";
}

// If `line` is an .include directive: true, with *path set (empty when malformed, *col at the
// problem).
bool parse_include(const std::string& line, std::string* path, int* col) {
  size_t p = skip_ws(line, 0);
  static const std::string kWord = ".include";
  if (line.compare(p, kWord.size(), kWord) != 0) return false;
  size_t q = p + kWord.size();
  if (q < line.size() && line[q] != ' ' && line[q] != '\t' && line[q] != '"') return false;  // e.g. .includex
  q = skip_ws(line, q);
  path->clear();
  *col = static_cast<int>(q) + 1;
  if (q >= line.size() || line[q] != '"') return true;
  const size_t close = line.find('"', q + 1);
  if (close == std::string::npos || close == q + 1) return true;
  const size_t rest = skip_ws(line, close + 1);
  if (rest < line.size() && line[rest] != '#' && line.compare(rest, 2, "//") != 0) {
    *col = static_cast<int>(rest) + 1;
    return true;
  }
  *path = line.substr(q + 1, close - q - 1);
  return true;
}

void splice(const std::vector<std::string>& lines, int file, SourceMap& map, Sink& sink,
            std::vector<std::string>& stack, std::vector<std::string>& out) {
  for (size_t i = 0; i < lines.size(); ++i) {
    out.push_back(lines[i]);
    map.origins.push_back({file, static_cast<int>(i) + 1});
    std::string path;
    int col = 1;
    if (!parse_include(lines[i], &path, &col)) continue;
    out.back().clear();  // the directive itself is not a statement
    const int here = static_cast<int>(out.size());
    if (path.empty()) {
      sink.error_at(here, col, "expected .include \"FILE\"");
      continue;
    }
    const std::string resolved = path[0] == '/' ? path : directory_of(map.files[file]) + path;
    if (std::find(stack.begin(), stack.end(), resolved) != stack.end()) {
      sink.error_at(here, col, "include cycle: '" + path + "' is already being included");
      continue;
    }
    if (static_cast<int>(stack.size()) >= kMaxIncludeDepth) {
      sink.error_at(here, col, "includes nested deeper than " + std::to_string(kMaxIncludeDepth));
      continue;
    }
    std::vector<std::string> inner;
    if (const std::string why = read_lines(resolved, &inner); !why.empty()) {
      sink.error_at(here, col, "cannot include '" + resolved + "': " + why);
      continue;
    }
    map.files.push_back(resolved);
    stack.push_back(resolved);
    splice(inner, static_cast<int>(map.files.size()) - 1, map, sink, stack, out);
    stack.pop_back();
  }
}

}  // namespace

std::vector<std::string> expand_includes(const std::vector<std::string>& lines, const std::string& file,
                                         SourceMap& map, Sink& sink) {
  map.files = {file};
  map.origins.clear();
  std::vector<std::string> stack = {file};
  std::vector<std::string> out;
  splice(lines, 0, map, sink, stack, out);
  return out;
}

}  // namespace npu::isa::detail
