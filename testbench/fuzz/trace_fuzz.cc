// Fuzz target: the trace-summary readers (cli/lib/trace_summary_read.h: Chrome trace JSON and
// instruction CSV, told apart by content) on arbitrary text, and the summary rendered from
// whatever they accept (as `npusim trace-summary` does). The fast line reader of npusim's own
// JSON traces must agree with the nlohmann::json one: the same events or the same error.
#include "cli/lib/trace_summary_read.h"
#include "cli/lib/trace_summary_render.h"
#include "testbench/fuzz/fuzz_target.h"

namespace {

struct Read {
  npu::cli::TraceData data;
  std::string error;
};

Read read(const std::string& text, npu::cli::TraceLineParser lines) {
  Read r;
  try {
    r.data = npu::cli::parse_trace_text(text, "fuzz.trace", lines);
  } catch (const npu::Error& e) {
    r.error = e.what();
  }
  return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npu;
  const std::string text = fuzz::text_of(data, size);
  const Read fast = read(text, cli::TraceLineParser::Fast), generic = read(text, cli::TraceLineParser::Generic);
  if (fast.error != generic.error) fuzz::finding("line readers disagree: '" + fast.error + "' vs '" + generic.error + "'");
  if (!(fast.data == generic.data)) fuzz::finding("line readers read different events");
  if (fast.error.empty()) fuzz::tolerate_input_errors([&] { (void)cli::render_trace_summary(fast.data, "fuzz.trace"); });
  return 0;
}
