#pragma once
// What a case costs before anything is allocated: every tensor must fit the configured GM
// (hbm.size) and the host's memory, else a located error; a case that fits but will take long
// gets a one-line note on stderr, so a minutes-long run is not silent.
#include <string>
#include <vector>

#include "cli/lib/case_data.h"
#include "hw/config/hw_config.h"

namespace npu::cli {

// Throws npu::Error (one "FILE:LINE:COL: error: tensors.NAME: ..." line per problem) when a
// tensor ends beyond hbm.size, or the run's copies of the tensors or the cores' on-chip buffers
// (block_dim clusters of buffers.*) exceed the host's memory.
void check_case_fits(const CaseSpec& spec, const std::vector<TensorPlacement>& placement,
                     const hw::HwConfig& hw, const std::string& config_path);

// "" for a small case; else the note: the tensors' bytes and the golden's FLOPs (the case's
// `flops`, when given).
std::string expensive_case_note(const CaseSpec& spec);

}  // namespace npu::cli
