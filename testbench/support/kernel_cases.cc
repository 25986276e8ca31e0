#include "testbench/support/kernel_cases.h"

#include <cstring>

#include "isa/error.h"
#include "golden/golden.h"
#include "golden/random.h"

namespace npu::test {

using golden::Tensor;
using num::Dtype;

bool KernelOutcome::pass() const {
  for (const auto& o : outputs)
    if (o.compared && o.gating && !o.cmp.pass) return false;
  return true;
}

std::string KernelOutcome::report() const {
  std::string s;
  for (const auto& o : outputs)
    s += o.compared ? golden::format_result(o.name, o.cmp) + (o.gating ? "\n" : " (not gating)\n")
                    : o.name + ": not compared\n";
  return s;
}

bool same_outputs(const KernelOutcome& a, const KernelOutcome& b, std::string* why) {
  if (a.outputs.size() != b.outputs.size()) {
    *why = "different number of outputs";
    return false;
  }
  for (size_t i = 0; i < a.outputs.size(); ++i) {
    const auto& x = a.outputs[i].got;
    const auto& y = b.outputs[i].got;
    if (a.outputs[i].name != b.outputs[i].name || x.bytes().size() != y.bytes().size()) {
      *why = "output " + a.outputs[i].name + ": different name or size";
      return false;
    }
    for (int64_t e = 0; e < x.numel(); ++e) {
      if (x.bits(e) != y.bits(e)) {
        *why = "output " + a.outputs[i].name + ": element " + std::to_string(e) + " differs (" +
               std::to_string(x.get(e)) + " vs " + std::to_string(y.get(e)) + ")";
        return false;
      }
    }
  }
  return true;
}

void add_output(KernelOutcome& out, const std::string& name, const Tensor& got, const Tensor* ref) {
  OutputCheck o;
  o.name = name;
  o.got = got;
  if (ref) {
    o.cmp = golden::compare(got, *ref);
    o.compared = true;
  }
  out.outputs.push_back(std::move(o));
}

namespace {

golden::RmsVariant variant_of(int v) {
  return v == 0 ? golden::RmsVariant::Rsqrt : golden::RmsVariant::SqrtDiv;
}

}  // namespace

std::string RmsNormCase::name() const {
  std::string s = "rows" + std::to_string(rows) + "_D" + std::to_string(D) +
                  (variant == 0 ? "_rsqrt" : "_sqrtdiv");
  if (has_gamma) s += "_gamma";
  if (has_beta) s += "_beta";
  if (out_rstd) s += "_rstd";
  if (f16) s += "_f16";
  return s + "_bd" + std::to_string(block_dim);
}

std::string LinearCase::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + "_N" + std::to_string(N) + "_bd" +
         std::to_string(block_dim);
}

std::string RmsNormLinearCase::name() const {
  return "M" + std::to_string(M) + "_K" + std::to_string(K) + "_N" + std::to_string(N) +
         (variant == 0 ? "_rsqrt" : "_sqrtdiv") + "_bd" + std::to_string(block_dim);
}

KernelOutcome run_rmsnorm(Engine e, const hw::HwConfig& cfg, const RmsNormCase& c) {
  const Dtype dt = c.f16 ? Dtype::F16 : Dtype::BF16;
  golden::Rng rng(c.seed);
  Tensor x = golden::random_uniform(dt, {c.rows, c.D}, -1, 1, rng);
  Tensor gamma = golden::random_uniform(dt, {c.D}, -1, 1, rng);
  Tensor beta = golden::random_uniform(dt, {c.D}, -1, 1, rng);

  const isa::Program& prog = load_kernel("rmsnorm", cfg);
  GmImage gm(cfg);
  gm.place("x", x);
  if (c.has_gamma) gm.place("gamma", gamma);
  if (c.has_beta) gm.place("beta", beta);
  gm.alloc("y", dt, {c.rows, c.D});
  if (c.out_rstd) gm.alloc("rstd", Dtype::F32, {c.rows, 1});
  auto params = bind_params(prog, {{"x", gm.addr("x")},
                                   {"gamma", c.has_gamma ? gm.addr("gamma") : 0},
                                   {"beta", c.has_beta ? gm.addr("beta") : 0},
                                   {"y", gm.addr("y")},
                                   {"rstd", c.out_rstd ? gm.addr("rstd") : 0},
                                   {"rows", c.rows},
                                   {"D", c.D},
                                   {"eps", f32_bits(c.eps)},
                                   {"variant", c.variant},
                                   {"has_gamma", c.has_gamma},
                                   {"has_beta", c.has_beta},
                                   {"out_rstd", c.out_rstd},
                                   {"is_f16", c.f16}});
  KernelOutcome out;
  out.info = run_kernel(e, cfg, prog, gm.gm(), params, c.block_dim);
  golden::RmsNormResult ref = golden::rmsnorm(x, c.has_gamma ? &gamma : nullptr,
                                              c.has_beta ? &beta : nullptr, c.eps, variant_of(c.variant));
  add_output(out, "y", gm.read("y"), &ref.out);
  if (c.out_rstd) add_output(out, "rstd", gm.read("rstd"), &ref.rstd);
  return out;
}

KernelOutcome run_linear(Engine e, const hw::HwConfig& cfg, const LinearCase& c, bool compare,
                         bool timing_only) {
  const isa::Program& prog = load_kernel("linear", cfg);
  GmImage gm(cfg);
  Tensor x, w;
  if (timing_only) {
    gm.alloc("x", Dtype::BF16, {c.M, c.K});
    gm.alloc("w", Dtype::BF16, {c.N, c.K});
  } else {
    golden::Rng rng(c.seed);
    x = golden::random_uniform(Dtype::BF16, {c.M, c.K}, -1, 1, rng);
    w = golden::random_uniform(Dtype::BF16, {c.N, c.K}, -0.1, 0.1, rng);
    gm.place("x", x);
    gm.place("w", w);
  }
  gm.alloc("y", Dtype::BF16, {c.M, c.N});
  auto params = bind_params(prog, {{"x", gm.addr("x")}, {"w", gm.addr("w")}, {"y", gm.addr("y")},
                                   {"M", c.M}, {"K", c.K}, {"N", c.N}});
  KernelOutcome out;
  out.info = run_kernel(e, cfg, prog, gm.gm(), params, c.block_dim, timing_only);
  if (compare && !timing_only) {
    Tensor ref = golden::linear(x, w, nullptr);
    add_output(out, "y", gm.read("y"), &ref);
  } else if (!timing_only) {
    add_output(out, "y", gm.read("y"), nullptr);
  }
  return out;
}

KernelOutcome run_rmsnorm_linear(Engine e, const hw::HwConfig& cfg, const RmsNormLinearCase& c,
                                 bool compare, bool timing_only) {
  const isa::Program& prog = load_kernel("rmsnorm_linear", cfg);
  GmImage gm(cfg);
  Tensor x, gamma, w;
  if (timing_only) {
    gm.alloc("x", Dtype::BF16, {c.M, c.K});
    gm.alloc("gamma", Dtype::BF16, {c.K});
    gm.alloc("w", Dtype::BF16, {c.N, c.K});
  } else {
    golden::Rng rng(c.seed);
    x = golden::random_uniform(Dtype::BF16, {c.M, c.K}, -1, 1, rng);
    gamma = golden::random_uniform(Dtype::BF16, {c.K}, -1, 1, rng);
    w = golden::random_uniform(Dtype::BF16, {c.N, c.K}, -0.1, 0.1, rng);
    gm.place("x", x);
    gm.place("gamma", gamma);
    gm.place("w", w);
  }
  gm.alloc("y", Dtype::BF16, {c.M, c.N});
  gm.alloc("xn", Dtype::BF16, {c.M, c.K});
  auto params = bind_params(prog, {{"x", gm.addr("x")},
                                   {"gamma", gm.addr("gamma")},
                                   {"w", gm.addr("w")},
                                   {"y", gm.addr("y")},
                                   {"xn", gm.addr("xn")},
                                   {"M", c.M},
                                   {"K", c.K},
                                   {"N", c.N},
                                   {"eps", f32_bits(c.eps)},
                                   {"variant", c.variant}});
  KernelOutcome out;
  out.info = run_kernel(e, cfg, prog, gm.gm(), params, c.block_dim, timing_only);
  if (timing_only) return out;
  if (compare) {
    golden::RmsNormLinearResult ref =
        golden::rmsnorm_linear(x, &gamma, w, nullptr, c.eps, variant_of(c.variant));
    Tensor xn = gm.read("xn");
    Tensor y_of_xn = golden::linear(xn, w, nullptr);
    add_output(out, "y", gm.read("y"), &y_of_xn);
    add_output(out, "xn", xn, &ref.normed);
    add_output(out, "y_e2e", gm.read("y"), &ref.out);
  } else {
    add_output(out, "y", gm.read("y"), nullptr);
    add_output(out, "xn", gm.read("xn"), nullptr);
  }
  return out;
}

}  // namespace npu::test
