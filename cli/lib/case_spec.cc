// Small helpers of the case model (case_spec.h); the parser is in case_parse.cc.
#include "cli/lib/case_spec.h"

#include <cstdio>

#include "isa/sem/nz_layout.h"
#include "isa/types.h"

namespace npu::cli {

std::string SourceLoc::str() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(col);
}

const char* role_name(TensorRole r) {
  switch (r) {
    case TensorRole::Input: return "input";
    case TensorRole::Output: return "output";
    case TensorRole::Workspace: return "workspace";
  }
  return "?";
}

static std::string num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

static std::string describe_kind(const InitSpec& s) {
  using Kind = InitSpec::Kind;
  switch (s.kind) {
    case Kind::Zeros: return "zeros";
    case Kind::Uniform: return "uniform[" + num(s.a) + ", " + num(s.b) + ") seed " + std::to_string(s.seed);
    case Kind::Normal: return "normal(" + num(s.a) + ", " + num(s.b) + ") seed " + std::to_string(s.seed);
    case Kind::Fill: return "fill " + num(s.value);
    case Kind::File: return "file " + s.path;
    case Kind::Array: return "array " + s.path;
    case Kind::ScalesOf: return "per-channel scales of " + s.source;
  }
  return "?";
}

std::string InitSpec::describe() const {
  std::string d = describe_kind(*this);
  if (quantize_per_channel) d += ", int8 per channel";
  if (!plants.empty()) d += ", " + std::to_string(plants.size()) + " planted";
  return d;
}

int64_t CaseTensor::numel() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

uint64_t CaseTensor::row_bytes() const {
  return static_cast<uint64_t>(shape.empty() ? 1 : shape.back()) * static_cast<uint64_t>(isa::dtype_size(dtype));
}

uint64_t CaseTensor::rows() const {
  uint64_t n = 1;
  for (size_t i = 0; i + 1 < shape.size(); ++i) n *= static_cast<uint64_t>(shape[i]);
  return n;
}

uint64_t CaseTensor::bytes() const {
  if (format == isa::GmFormat::Nz) return numel() == 0 ? 0 : sem::nz_gm_bytes(rows(), row_bytes());
  return static_cast<uint64_t>(numel()) * static_cast<uint64_t>(isa::dtype_size(dtype));
}

const CaseTensor* CaseSpec::tensor(const std::string& name) const {
  for (const CaseTensor& t : tensors)
    if (t.name == name) return &t;
  return nullptr;
}

const CaseParam* CaseSpec::param(const std::string& name) const {
  for (const CaseParam& p : params)
    if (p.name == name) return &p;
  return nullptr;
}

golden::Tolerance CaseSpec::tolerance_for(const CaseTensor& t) const {
  auto it = tolerances.find(t.name);
  return it != tolerances.end() ? it->second : golden::default_tolerance(t.dtype);
}

}  // namespace npu::cli
