#pragma once
// A case's concrete data: where each tensor lives in GM, its initial contents, and the kernel
// parameter values (GM base addresses, integers, fp32 bit patterns).
//
// GM layout (deterministic, documented in docs/case-format.md): the case's GmLayout. The gaps
// belong to no region, so a kernel access that runs off a tensor faults instead of silently
// touching its neighbour.
#include <cstdint>
#include <string>
#include <vector>

#include "cli/lib/case_spec.h"
#include "golden/tensor.h"

namespace npu::cli {

// NumPy's headers are a few hundred bytes; v2/v3 allow more, never this much for real shapes.
inline constexpr uint64_t kMaxNpyHeaderBytes = 1ull << 20;

struct TensorPlacement {
  std::string name;
  uint64_t base = 0, bytes = 0;
};

// One placement per spec.tensors entry, same order. line_bytes: hw.l2.line.
std::vector<TensorPlacement> place_tensors(const CaseSpec& spec, uint64_t line_bytes);

// The tensor's contents before the run: generated, read from its .npy file (float values
// rounded RNE into the dtype, or exact integers / raw bits; see golden/npy.h), or
// zeros. Errors name the case file position of the init spec.
golden::Tensor make_initial_tensor(const CaseTensor& t);
// The same for a tensor whose init may name another of spec's (scales_of).
golden::Tensor make_initial_tensor(const CaseSpec& spec, const CaseTensor& t);
// Every tensor of spec, in order; a per-channel draw is made and quantised once even when
// another tensor takes its scales (scales_of).
std::vector<golden::Tensor> make_initial_tensors(const CaseSpec& spec);

// True when the tensor has initial contents of its own (an input, or an output / workspace with
// an init): what --dump-inputs writes.
bool has_initial_contents(const CaseTensor& t);

// The reference values of t's `golden: {file: ...}` (golden::reference_from_npy), checked
// against t's shape; errors name the case position of the file.
golden::Tensor read_golden_file(const CaseTensor& t);

// Values of every kernel parameter in program.params order (check_case_against_kernel first).
std::vector<int64_t> kernel_param_values(const CaseSpec& spec, const isa::Program& program,
                                         const std::vector<TensorPlacement>& placement);

}  // namespace npu::cli
