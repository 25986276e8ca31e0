// The `checks` of a case (docs/case-format.md): conditions on the case's vars that the kernel
// needs (e.g. K a multiple of 32), each an integer expression that must be 0, so a shape the
// kernel does not support is refused at the check's line with the case's own words instead of
// a fault deep in the kernel.
#include <limits>

#include "cli/lib/case_parser.h"

namespace npu::cli::detail {

void CaseParser::parse_checks(const Entry& e) {
  if (!e.v.IsSequence() || e.v.size() == 0) {
    error(at(e.v, e.k), "checks", "expected a non-empty sequence of {zero, message}, got " + kind_of(e.v));
    return;
  }
  for (size_t i = 0; i < e.v.size(); ++i) {
    const YAML::Node node = e.v[i];
    const std::string path = "checks[" + std::to_string(i) + "]";
    if (!node.IsMap()) {
      error(at(node.Mark()), path, "expected a mapping {zero, message}, got " + kind_of(node));
      continue;
    }
    const std::vector<Entry> fields = entries(node, path, {"zero", "message"});
    const Entry* zero = nullptr;
    const Entry* text = nullptr;
    for (const Entry& f : fields) (f.key == "zero" ? zero : text) = &f;
    if (!zero || !text) {
      error(at(node.Mark()), path, std::string("missing key '") + (zero ? "message" : "zero") + "'");
      continue;
    }
    const std::optional<std::string> message = string_value(*text, path + ".message");
    if (!message) continue;
    const std::optional<int64_t> v = int_value(*zero, path + ".zero", std::numeric_limits<int64_t>::min());
    if (v && *v != 0)
      error(at(zero->v, zero->k), path,
            *message + " (" + abbreviate_expr(zero->v.Scalar()) + " = " + std::to_string(*v) + ", not 0)");
  }
}

}  // namespace npu::cli::detail
