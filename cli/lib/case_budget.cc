// Size checks and the cost note of a case (case_budget.h).
#include "cli/lib/case_budget.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>

#include "hw/config/schema.h"
#include "isa/error.h"
#include "isa/types.h"

namespace npu::cli {
namespace {

// Above either figure a run takes seconds to minutes (the golden runs scalar reference code and
// the model simulates every byte's movement).
constexpr uint64_t kNoteBytes = 256ull << 20;
constexpr double kNoteFlops = 1e10;

std::string bytes_text(uint64_t b) {
  char buf[48];
  if (b >= (1ull << 30)) std::snprintf(buf, sizeof buf, "%llu bytes (%.1f GiB)", static_cast<unsigned long long>(b), b / 1073741824.0);
  else if (b >= (1ull << 20)) std::snprintf(buf, sizeof buf, "%llu bytes (%.1f MiB)", static_cast<unsigned long long>(b), b / 1048576.0);
  else std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(b));
  return buf;
}

std::string describe(const CaseTensor& t) {
  std::string s = std::string(isa::dtype_name(t.dtype)) + "[";
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
  return s + "] = " + bytes_text(t.bytes());
}

// Host copies the run keeps of a tensor: its initial contents and its GM image; an output also
// its read-back and its golden reference.
uint64_t host_copies(const CaseTensor& t) { return t.role == TensorRole::Output ? 4 : 2; }

uint64_t host_memory_bytes() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : UINT64_MAX;
}

}  // namespace

void check_case_fits(const CaseSpec& spec, const std::vector<TensorPlacement>& placement,
                     const hw::HwConfig& hw, const std::string& config_path) {
  auto where = [](const CaseTensor& t) { return t.loc.str() + ": error: tensors." + t.name + ": " + describe(t); };
  std::vector<std::string> errors;
  // The GM first: it depends only on the case and the config, not on this host.
  const std::string hbm = "hbm.size = " + hw::format_size(static_cast<int64_t>(hw.hbm.size)) + " of " + config_path;
  for (size_t i = 0; i < spec.tensors.size(); ++i) {
    const CaseTensor& t = spec.tensors[i];
    if (t.bytes() > hw.hbm.size)
      errors.push_back(where(t) + " is larger than the GM (" + hbm + ")");
    else if (placement[i].base + placement[i].bytes > hw.hbm.size && errors.empty())  // the first only: the rest follow
      errors.push_back(where(t) + " at GM offset " + std::to_string(placement[i].base) + " ends beyond the GM (" + hbm +
                       "; the tensors before it and the guard gaps take the rest)");
  }
  if (errors.empty()) {
    const uint64_t host = host_memory_bytes();
    // Every core of the launch holds its buffers on the host (sem::CoreState): per cluster one
    // AIC's l1, l0a, l0b, l0c, bias table and fixpipe buffer and aiv_per_cluster UBs (an upper
    // bound: a kernel without an AIC or AIV section has fewer cores).
    const hw::BufferConfig& b = hw.buffers;
    const long double buffers = static_cast<long double>(spec.block_dim) *
        (b.l1 + b.l0a + b.l0b + b.l0c + b.bias_table + b.fixpipe + static_cast<long double>(hw.chip.aiv_per_cluster) * b.ub);
    if (buffers > host)
      errors.push_back(spec.block_dim_loc.str() + ": error: block_dim: the on-chip buffers of " +
                       std::to_string(spec.block_dim) + " clusters take " + bytes_text(static_cast<uint64_t>(buffers)) +
                       " of host memory (buffers.* of " + config_path + "), more than this host's " + bytes_text(host));
    long double host_need = buffers;
    for (const CaseTensor& t : spec.tensors) {
      if (static_cast<long double>(t.bytes()) * host_copies(t) > host)
        errors.push_back(where(t) + " needs " + std::to_string(host_copies(t)) +
                         " copies in host memory, more than this host's " + bytes_text(host));
      host_need += static_cast<long double>(t.bytes()) * host_copies(t);
    }
    if (errors.empty() && host_need > host)
      errors.push_back(spec.tensors_loc.str() + ": error: tensors: the run needs " +
                       bytes_text(static_cast<uint64_t>(host_need)) +
                       " of host memory (initial contents and GM image of each tensor, read-back and reference "
                       "of each output, and the cores' on-chip buffers), more than this host's " + bytes_text(host));
  }
  if (errors.empty()) return;
  std::string all;
  for (size_t i = 0; i < errors.size(); ++i) all += (i ? "\n" : "") + errors[i];
  throw Error(all);
}

std::string expensive_case_note(const CaseSpec& spec) {
  uint64_t total = 0;
  for (const CaseTensor& t : spec.tensors) total += t.bytes();
  const bool big_golden = spec.golden.present && spec.flops && *spec.flops >= kNoteFlops;
  if (total < kNoteBytes && !big_golden) return "";
  std::string note = spec.path + ": note: a large case: the tensors hold " + bytes_text(total);
  if (spec.golden.present && spec.flops) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3g", *spec.flops);
    note += ", the golden '" + spec.golden.name + "' computes " + buf + " FLOP (the case's flops)";
  }
  return note + "; the golden and the simulation may take minutes";
}

}  // namespace npu::cli
