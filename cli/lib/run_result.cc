#include "cli/lib/run_result.h"

namespace npu::cli {

const char* backend_name(Backend b) { return b == Backend::Iss ? "iss" : "systemc"; }

bool RunResult::all_pass() const {
  for (const OutputVerdict& v : verdicts)
    if (v.compared && !v.result.pass) return false;
  return true;
}

int RunResult::compared() const {
  int n = 0;
  for (const OutputVerdict& v : verdicts) n += v.compared;
  return n;
}

int RunResult::passed() const {
  int n = 0;
  for (const OutputVerdict& v : verdicts) n += v.compared && v.result.pass;
  return n;
}

}  // namespace npu::cli
