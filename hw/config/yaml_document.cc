#include "hw/config/yaml_document.h"

#include <vector>

namespace npu::hw {
namespace {

// The 0-based line of the first document marker "---" (at column 0) below line `after`, or -1.
int marker_below(const std::string& text, int after) {
  int line = 0;
  for (size_t pos = 0; pos < text.size(); ++line) {
    const size_t end = text.find('\n', pos);
    const std::string l = text.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
    const bool marker = l.compare(0, 3, "---") == 0 && (l.size() == 3 || l[3] == ' ' || l[3] == '\t' || l[3] == '\r');
    if (marker && line > after) return line;
    if (end == std::string::npos) break;
    pos = end + 1;
  }
  return -1;
}

}  // namespace

YAML::Node load_one_yaml_document(const std::string& text) {
  std::vector<YAML::Node> docs = YAML::LoadAll(text);
  if (docs.size() <= 1) return docs.empty() ? YAML::Node() : docs[0];
  // Blame the "---" that starts the second document (an empty one has no content to point at);
  // without one (a "..." end marker), the second document's content.
  YAML::Mark m = docs[1].Mark();
  if (const int marker = marker_below(text, docs[0].Mark().line); marker >= 0) {
    m = YAML::Mark();
    m.line = marker;
    m.column = 0;
  }
  throw YAML::ParserException(m, "a second YAML document starts here; the file must hold one document "
                                 "(the rest would be ignored)");
}

}  // namespace npu::hw
