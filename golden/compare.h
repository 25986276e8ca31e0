#pragma once
// The comparison rule of docs/numerics.md (as pypto-gym's `compare`):
//  - NaN/Inf in the output t where the reference r is finite fails the whole tensor;
//  - element bad when |t - r| > atol + rtol * |r|  (computed in double on exact values);
//  - pass when bad_count <= round(max_error_ratio * numel), round = half to even (Python's).
// Where r is NaN, t must be NaN; where r is +-Inf, t must be the same Inf (else bad).
#include <cstdint>
#include <string>

#include "golden/tensor.h"

namespace npu::golden {

struct Tolerance {
  double atol = 0, rtol = 0, max_error_ratio = 0;
};

// bf16 (1e-4, 2^-7, 0.005); f16 (1e-3, 1e-3, 1e-3); f32 (2.5e-5, 5e-3, 5e-3); s8 (1, 0, 0).
// Types docs/numerics.md does not list (s32, s16, u8, fp8, e8m0) compare exactly: (0, 0, 0).
Tolerance default_tolerance(Dtype d);

struct CompareResult {
  int64_t numel = 0;
  int64_t bad_count = 0;      // includes nonfinite_count
  int64_t allowed_bad = 0;    // round(max_error_ratio * numel)
  int64_t nonfinite_count = 0;  // NaN/Inf in t where r finite
  int64_t first_bad = -1;     // flat index of the first bad element, -1 if none
  double max_abs_err = 0;     // over elements where both are finite
  double max_rel_err = 0;     // |t-r|/|r|; r == 0 and t != 0 counts as Inf
  double bad_ratio = 0;       // bad_count / numel
  bool pass = true;
  Tolerance tol;
};

// Shapes must match (else npu::Error); dtypes may differ (values are compared).
CompareResult compare(const Tensor& t, const Tensor& r, const Tolerance& tol);
CompareResult compare(const Tensor& t, const Tensor& r);  // default_tolerance(r.dtype())

// "out: PASS max_abs=1.000e-03 max_rel=2.000e-03 bad=0/1024 (0.000%) allowed=5 tol=(...)"
std::string format_result(const std::string& name, const CompareResult& res);

// Python's round(): nearest, ties to even.
int64_t round_half_even(double v);

}  // namespace npu::golden
