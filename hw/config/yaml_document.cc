#include "hw/config/yaml_document.h"

#include <yaml-cpp/eventhandler.h>

#include <sstream>

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

// Builds nothing: remembers where a document starts and where its first node is.
class DocumentMarks : public YAML::EventHandler {
 public:
  YAML::Mark start, first_node;
  bool has_node = false;

  void OnDocumentStart(const YAML::Mark& m) override { start = m; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}

 private:
  void node(const YAML::Mark& m) {
    if (!has_node) first_node = m;
    has_node = true;
  }
};

bool same_place(const YAML::Mark& a, const YAML::Mark& b) { return a.pos == b.pos && a.line == b.line && a.column == b.column; }

// The rest of the mark's line, shortened, for the message.
std::string text_at(const std::string& text, const YAML::Mark& m) {
  if (m.pos < 0 || static_cast<size_t>(m.pos) >= text.size()) return "";
  const size_t end = text.find('\n', static_cast<size_t>(m.pos));
  std::string s = text.substr(static_cast<size_t>(m.pos), end == std::string::npos ? std::string::npos : end - m.pos);
  if (s.size() > 24) s = s.substr(0, 21) + "...";
  return s;
}

}  // namespace

// YAML::LoadAll is not used: yaml-cpp 0.7's parser can return an empty document forever without
// consuming a token (text such as "," after a complete document; fixed upstream in yaml-cpp PR
// 1319), and LoadAll then collects them until memory runs out. Here the parser is asked for at
// most three documents, and one that starts where the previous one did is the syntax error it is.
YAML::Node load_one_yaml_document(const std::string& text) {
  YAML::Node root = YAML::Load(text);  // a syntax error in the first document throws here
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentMarks first, second;
  if (!parser.HandleNextDocument(first) || !parser.HandleNextDocument(second)) return root;
  DocumentMarks third;
  if (parser.HandleNextDocument(third) && same_place(third.start, second.start)) {
    const std::string at = text_at(text, second.start);
    throw YAML::ParserException(second.start, "unexpected text after the end of the document" +
                                                  (at.empty() ? std::string() : ": '" + at + "'"));
  }
  // Blame the "---" that starts the second document (an empty one has no content to point at);
  // without one (a "..." end marker), the second document's content.
  YAML::Mark m = second.has_node ? second.first_node : second.start;
  if (const int marker = marker_below(text, root.Mark().line); marker >= 0) {
    m = YAML::Mark();
    m.line = marker;
    m.column = 0;
  }
  throw YAML::ParserException(m, "a second YAML document starts here; the file must hold one document "
                                 "(the rest would be ignored)");
}

}  // namespace npu::hw
