// Fuzz target: the trace-summary readers (cli/lib/trace_summary_read.h: Chrome trace JSON and
// instruction CSV, told apart by content) on arbitrary text, and the summary rendered from
// whatever they accept (as `npusim trace-summary` does).
#include "cli/lib/trace_summary_read.h"
#include "cli/lib/trace_summary_render.h"
#include "testbench/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npu;
  fuzz::tolerate_input_errors([&] {
    const cli::TraceData d = cli::parse_trace_text(fuzz::text_of(data, size), "fuzz.trace");
    (void)cli::render_trace_summary(d, "fuzz.trace");
  });
  return 0;
}
