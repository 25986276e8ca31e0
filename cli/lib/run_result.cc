#include "cli/lib/run_result.h"

#include <algorithm>

namespace npu::cli {

const char* backend_name(Backend b) { return b == Backend::Iss ? "iss" : "systemc"; }

const char* verdict_name(Verdict v) {
  return v == Verdict::Pass ? "PASS" : v == Verdict::Fail ? "FAIL" : "NOT CHECKED";
}

int verdict_exit_code(Verdict v) {
  return v == Verdict::Pass ? kExitPass : v == Verdict::Fail ? kExitCompareFail : kExitNotChecked;
}

Verdict RunResult::verdict() const {
  if (compared() == 0) return Verdict::NotChecked;
  return passed() == compared() ? Verdict::Pass : Verdict::Fail;
}

bool RunResult::all_pass() const { return verdict() == Verdict::Pass; }

int RunResult::compared() const {
  return static_cast<int>(std::count_if(verdicts.begin(), verdicts.end(), [](const OutputVerdict& v) { return v.compared; }));
}

int RunResult::passed() const {
  return static_cast<int>(std::count_if(verdicts.begin(), verdicts.end(),
                                        [](const OutputVerdict& v) { return v.compared && v.result.pass; }));
}

}  // namespace npu::cli
