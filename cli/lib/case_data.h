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

// Values of every kernel parameter in program.params order (check_case_against_kernel first).
std::vector<int64_t> kernel_param_values(const CaseSpec& spec, const isa::Program& program,
                                         const std::vector<TensorPlacement>& placement);

}  // namespace npu::cli
