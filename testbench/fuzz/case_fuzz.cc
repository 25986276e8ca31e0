// Fuzz target: the case parser (cli/lib/case_spec.h) on arbitrary YAML text, with the
// `npusim run` options the input carries on "#var NAME=EXPR" and "#cache TENSOR=POLICY" lines
// (YAML comments). Relative paths resolve against kernels/cases/, as for the repository's cases.
#include "cli/lib/case_spec.h"
#include "cli/lib/run_case.h"
#include "testbench/fuzz/fuzz_target.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace npu;
  const std::string text = fuzz::text_of(data, size);
  fuzz::tolerate_input_errors([&] {
    cli::CaseSpec spec = cli::parse_case_string(text, "fuzz.yaml", std::string(NPUSIM_SOURCE_DIR) + "/kernels/cases",
                                                fuzz::directive_lines(text, "#var "));
    cli::apply_cache_overrides(spec, fuzz::directive_lines(text, "#cache "));
    for (const cli::CaseTensor& t : spec.tensors) (void)t.bytes(), (void)t.init.describe();
  });
  return 0;
}
