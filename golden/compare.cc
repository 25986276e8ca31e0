#include "golden/compare.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "base/error.h"
#include "golden/refnum.h"

namespace npu::golden {

Tolerance default_tolerance(Dtype d) {
  switch (d) {
    case Dtype::BF16: return {1e-4, 0.0078125, 0.005};
    case Dtype::F16: return {1e-3, 1e-3, 1e-3};
    case Dtype::F32: return {2.5e-5, 5e-3, 5e-3};
    case Dtype::S8: return {1, 0, 0};
    default: return {0, 0, 0};
  }
}

int64_t round_half_even(double v) { return int64_t(ref::rne(v)); }

CompareResult compare(const Tensor& t, const Tensor& r, const Tolerance& tol) {
  if (t.shape() != r.shape())
    throw Error("compare: output " + t.describe() + " and reference " + r.describe() +
                " have different shapes");
  CompareResult res;
  res.tol = tol;
  res.numel = r.numel();
  // Decoded a chunk at a time (ref::decode_n: the values of Tensor::get without a call and an
  // index check per element).
  constexpr int64_t kChunk = 4096;
  std::vector<double> tvs(size_t(std::min<int64_t>(kChunk, r.numel()))), rvs(tvs.size());
  const int64_t ts = ref::size_of(t.dtype()), rs = ref::size_of(r.dtype());
  for (int64_t i = 0; i < r.numel(); ++i) {
    if (i % kChunk == 0) {
      const int64_t m = std::min<int64_t>(kChunk, r.numel() - i);
      ref::decode_n(t.dtype(), t.bytes().data() + i * ts, m, tvs.data());
      ref::decode_n(r.dtype(), r.bytes().data() + i * rs, m, rvs.data());
    }
    const double tv = tvs[size_t(i % kChunk)], rv = rvs[size_t(i % kChunk)];
    bool bad = false;
    if (std::isfinite(rv)) {
      if (!std::isfinite(tv)) {
        ++res.nonfinite_count;
        bad = true;
      } else {
        double diff = std::fabs(tv - rv);
        double rel = rv != 0 ? diff / std::fabs(rv)
                             : (diff == 0 ? 0.0 : std::numeric_limits<double>::infinity());
        if (diff > res.max_abs_err) res.max_abs_err = diff;
        if (rel > res.max_rel_err) res.max_rel_err = rel;
        bad = diff > tol.atol + tol.rtol * std::fabs(rv);
      }
    } else if (std::isnan(rv)) {
      bad = !std::isnan(tv);
    } else {
      bad = tv != rv;  // same infinity required
    }
    if (bad) {
      if (res.first_bad < 0) res.first_bad = i;
      ++res.bad_count;
    }
  }
  res.allowed_bad = round_half_even(tol.max_error_ratio * double(res.numel));
  res.bad_ratio = res.numel ? double(res.bad_count) / double(res.numel) : 0.0;
  res.pass = res.nonfinite_count == 0 && res.bad_count <= res.allowed_bad;
  return res;
}

CompareResult compare(const Tensor& t, const Tensor& r) {
  return compare(t, r, default_tolerance(r.dtype()));
}

std::string format_result(const std::string& name, const CompareResult& res) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "%s: %s max_abs=%.3e max_rel=%.3e bad=%lld/%lld (%.3f%%) allowed=%lld "
                "tol=(%g, %g, %g)",
                name.c_str(), res.pass ? "PASS" : "FAIL", res.max_abs_err, res.max_rel_err,
                (long long)res.bad_count, (long long)res.numel, 100.0 * res.bad_ratio,
                (long long)res.allowed_bad, res.tol.atol, res.tol.rtol, res.tol.max_error_ratio);
  std::string s = buf;
  if (res.nonfinite_count)
    s += " nonfinite=" + std::to_string(res.nonfinite_count);
  if (res.first_bad >= 0) s += " first_bad=" + std::to_string(res.first_bad);
  return s;
}

}  // namespace npu::golden
