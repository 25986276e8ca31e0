// A case's launch sequence (run_launches.h).
#include "cli/lib/run_launches.h"

#include <cstdio>
#include <memory>

#include "base/output_file.h"
#include "hw/top/trace_merge.h"
#include "isa/error.h"

namespace npu::cli {

namespace {

// Each launch's own trace files, beside the requested ones; removed when the sequence ends.
class LaunchTraceFiles {
 public:
  explicit LaunchTraceFiles(const hw::TraceOptions& want) : want_(want) {}
  ~LaunchTraceFiles() {
    for (const auto& t : temps_) std::remove(t->path().c_str());
  }
  hw::TraceOptions next() {
    hw::TraceOptions files;
    for (auto [want, got] : {std::pair{&want_.vcd_path, &files.vcd_path}, std::pair{&want_.json_path, &files.json_path},
                             std::pair{&want_.csv_path, &files.csv_path}})
      if (!want->empty()) {
        temps_.push_back(std::make_unique<TempPath>(temp_name_beside(*want)));
        *got = temps_.back()->path();
      }
    return files;
  }

 private:
  const hw::TraceOptions& want_;
  std::vector<std::unique_ptr<TempPath>> temps_;
};

}  // namespace

SimOutcome run_launches(const CaseSpec& spec, const SimRequest& base, const std::vector<TensorPlacement>& placement,
                        bool iss) {
  const hw::HwConfig& hw = *base.hw;
  // Trace files: every launch traces into files of its own, joined at the end (also after a
  // fault, so the files show what led to it), one launch after another (hw/top/trace_merge.h).
  const bool traced = base.trace.writes_files();
  LaunchTraceFiles trace_files(base.trace);
  std::vector<hw::LaunchTracePart> parts;
  uint64_t start_cycle = 0;
  hw::L2Contents carry;
  SimOutcome total;
  size_t index = 0, count = 0;
  for (const CaseLaunch& l : spec.launches) count += static_cast<size_t>(l.repeat);
  for (size_t e = 0; e < spec.launches.size(); ++e) {
    const CaseLaunch& l = spec.launches[e];
    const std::string who = "launch " + std::to_string(e) + " (" + l.kernel_path + ")";
    if (l.block_dim > hw.chip.clusters)
      throw Error(l.block_dim_loc.str() + ": error: launches[" + std::to_string(e) + "].block_dim: " +
                  std::to_string(l.block_dim) + " exceeds chip.clusters = " + std::to_string(hw.chip.clusters));
    CaseSpec one = spec;  // the launch as a single-launch case: its kernel, block_dim and params
    one.kernel_path = l.kernel_path;
    one.kernel_loc = l.kernel_loc;
    one.block_dim = l.block_dim;
    one.params = l.params;
    const isa::Program prog = load_case_kernel(one, hw);
    // The GM layout was fixed with the placement (the case's kernel): every launch must agree.
    for (size_t i = 0; i < one.tensors.size(); ++i)
      if (one.tensors[i].format != spec.tensors[i].format)
        throw Error(l.kernel_loc.str() + ": error: launches[" + std::to_string(e) + "]: tensor '" + one.tensors[i].name +
                    "' is " + isa::gm_format_name(one.tensors[i].format) + " in this kernel's parameters but " +
                    isa::gm_format_name(spec.tensors[i].format) + " in the case's kernel (" + spec.kernel_path +
                    "): one layout in GM per tensor");
    SimRequest req = base;
    req.keep_model_at_exit = false;  // every launch's model goes before the next one's
    req.program = &prog;
    req.params = kernel_param_values(one, prog, placement);
    req.block_dim = l.block_dim;
    const bool label_stats = !prog.aic.labels.empty() || !prog.aiv.labels.empty();
    req.l2_carry = spec.l2_cold_between_launches ? nullptr : &carry;
    for (int r = 0; r < l.repeat; ++r, ++index) {
      if (traced) {
        const hw::TraceOptions files = trace_files.next();
        req.trace = hw::launch_trace_options(base.trace, files, start_cycle);
        parts.push_back(hw::LaunchTracePart{files, start_cycle, 0, prog.name});
      }
      req.trace.label_stats = label_stats;
      if (base.launch_started) base.launch_started(index + 1, count);
      SimOutcome o;
      try {
        o = iss ? run_on_iss(req) : run_on_systemc(req);
      } catch (const hw::TraceSelectError&) {
        throw;  // about the options, not the launch
      } catch (const Error& err) {
        if (traced) {
          try {
            hw::merge_launch_traces(base.trace, parts, hw.chip.clock_ghz);
          } catch (const Error&) {  // the launch's own error matters more
          }
        }
        throw Error(who + ", repeat " + std::to_string(r) + ": " + err.what());
      }
      const uint64_t cycles = o.stats.total_cycles.value_or(0);
      if (traced) parts.back().cycles = cycles;
      start_cycle += cycles;
      hw::append_launch(total.stats, o.stats);
      total.race_findings.insert(total.race_findings.end(), o.race_findings.begin(), o.race_findings.end());
      total.launches.push_back(LaunchRecord{index, e, r, l.kernel_path, prog.name, l.block_dim, std::move(o.stats)});
    }
  }
  if (traced) hw::merge_launch_traces(base.trace, parts, hw.chip.clock_ghz);
  return total;
}

std::string format_launches(const std::vector<LaunchRecord>& launches) {
  if (launches.empty()) return "";
  std::string out = "\nLaunches (" + std::to_string(launches.size()) + "):\n";
  out += "  launch  kernel                  cycles   L2 hit rate   L2 read hits   L2 read misses   HBM read B\n";
  for (const LaunchRecord& l : launches) {
    const hw::SimStats& s = l.sim;
    const hw::L2Counters c = s.l2 ? s.l2->total : hw::L2Counters{};
    char buf[256];
    std::snprintf(buf, sizeof buf, "  %6zu  %-22s %8s %13.4f %14llu %16llu %12llu\n", l.launch, l.kernel_name.c_str(),
                  s.total_cycles ? std::to_string(*s.total_cycles).c_str() : "-", hw::hit_rate(c),
                  static_cast<unsigned long long>(c.read_hits), static_cast<unsigned long long>(c.read_misses),
                  static_cast<unsigned long long>(s.hbm ? s.hbm->bytes_read() : 0));
    out += buf;
  }
  return out;
}

}  // namespace npu::cli
