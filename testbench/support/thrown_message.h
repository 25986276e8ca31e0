#pragma once
// The message of the npu::Error a call throws, for tests that compare error texts.
#include <string>
#include <utility>

#include "isa/error.h"

namespace npu::test {

// f()'s npu::Error message, or `none` when it returns normally.
template <class F>
std::string thrown_message(F&& f, std::string none = "(no error)") {
  try {
    std::forward<F>(f)();
  } catch (const Error& e) {
    return e.what();
  }
  return none;
}

}  // namespace npu::test
