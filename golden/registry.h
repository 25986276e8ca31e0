#pragma once
// Goldens by name, for case files: `golden: {name: rmsnorm_linear, eps: 1e-6}` plus tensors
// mapped by name. Attribute values arrive as text (as YAML scalars do) and are parsed per
// the golden's declared attributes; unknown goldens, attributes, bad values, missing or
// unexpected input tensors are npu::Error naming the culprit and listing what exists.
#include <map>
#include <string>
#include <vector>

#include "golden/tensor.h"

namespace npu::golden {

using Attrs = std::map<std::string, std::string>;
using TensorMap = std::map<std::string, Tensor>;

struct AttrSpec {
  std::string name;
  std::string type;          // "float", "bool" or "enum"
  std::string default_value;
  std::vector<std::string> choices;  // for "enum"
  std::string help;
};

struct TensorSpec {
  std::string name;
  std::string when;  // "" = always; otherwise the bool attribute that enables it
  std::string help;  // dtype and shape
};

struct GoldenInfo {
  std::string name, summary;
  std::vector<AttrSpec> attrs;
  std::vector<TensorSpec> inputs, outputs;
};

const std::vector<GoldenInfo>& golden_list();
const GoldenInfo& golden_info(const std::string& name);  // throws for unknown names

// Runs a golden. Returns only the outputs enabled by the attributes.
TensorMap run_golden(const std::string& name, const Attrs& attrs, const TensorMap& inputs);

}  // namespace npu::golden
