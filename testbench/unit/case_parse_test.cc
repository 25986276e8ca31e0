// The case-file parser (cli/lib/case_spec.h): good cases and golden error text for bad ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "cli/lib/case_data.h"
#include "cli/lib/case_expr.h"
#include "cli/lib/case_spec.h"
#include "golden/random.h"
#include "isa/error.h"
#include "testbench/support/thrown_message.h"

namespace npu::cli {
namespace {

std::string data_dir() {
  const char* src = std::getenv("NPUSIM_SOURCE_DIR");
  return std::string(src ? src : NPUSIM_SOURCE_DIR) + "/testbench/system/data";
}

// Header shared by the cases below (lines 1-3); tensors start on line 4.
const std::string kHead =
    "kernel: run_rmsnorm.s\n"
    "block_dim: 2\n"
    "vars: {R: 4, D: 256}\n";

CaseSpec parse(const std::string& text) { return parse_case_string(text, "t.yaml", data_dir()); }

std::string parse_error(const std::string& text, const std::vector<std::string>& vars = {}) {
  return npu::test::thrown_message([&] { parse_case_string(text, "t.yaml", data_dir(), vars); });
}

const std::string kGood = kHead +
    "params: {rows: R, D: D, eps: 1.0e-6}\n"
    "tensors:\n"
    "  x:     {dtype: bf16, shape: [R, D], init: {uniform: [-1, 1], seed: 1}}\n"
    "  gamma: {dtype: bf16, shape: [D], init: {fill: 0.5}, cache: none_cacheable}\n"
    "  y:     {dtype: bf16, shape: [R, D], role: output}\n"
    "golden: {name: rmsnorm, eps: 1.0e-6, inputs: {x: x, gamma: gamma}, outputs: {out: y}}\n"
    "tolerances: {y: {rtol: 0.01}}\n";

// The kernel's parameter list as `.param` lines would declare it.
isa::Program kernel_with(std::vector<isa::KernelParam> params) {
  isa::Program p;
  p.name = "k";
  p.params = std::move(params);
  return p;
}
isa::Program rmsnorm_kernel() {
  using K = isa::ParamKind;
  return kernel_with({{"x", K::Gm, isa::Dtype::BF16}, {"gamma", K::Gm, isa::Dtype::BF16},
                      {"y", K::Gm, isa::Dtype::BF16}, {"rows", K::Int, std::nullopt},
                      {"D", K::Int, std::nullopt}, {"eps", K::F32, std::nullopt}});
}
std::string check_error(const CaseSpec& s, const isa::Program& p) {
  return npu::test::thrown_message([&] { check_case_against_kernel(s, p); });
}

TEST(CaseExpr, Arithmetic) {
  CaseVars v{{"M", 16}, {"K", 4096}};
  std::string err;
  EXPECT_EQ(*eval_case_expr("M*K", v, &err), 65536);
  EXPECT_EQ(*eval_case_expr(" 2 + 3 * (M - 6) / 4 ", v, &err), 9);  // 3*10 = 30, /4 = 7, +2
  EXPECT_EQ(*eval_case_expr("cdiv(K, 48) * 48", v, &err), 4128);    // ceil(4096/48) = 86
  EXPECT_EQ(*eval_case_expr("max(M, 7) - min(M, 7) + -1 % 5", v, &err), 8);  // 16 - 7 + (-1)
  EXPECT_FALSE(eval_case_expr("M*Q", v, &err));
  EXPECT_EQ(err, "unknown name 'Q' (vars: K, M)");
  EXPECT_FALSE(eval_case_expr("K / (M - 16)", v, &err));
  EXPECT_EQ(err, "division by zero");
  EXPECT_FALSE(eval_case_expr("1.5", v, &err));
  EXPECT_EQ(err, "not an integer: '1.5'");
  EXPECT_FALSE(eval_case_expr("4611686018427387904 * 2", v, &err));
  EXPECT_EQ(err, "integer overflow");
}

// Nesting is bounded (isa::kMaxExprDepth = 200 recursion frames; each parenthesis takes two,
// sum() and unary(), and the outermost level two more), so deep input is an error, not a stack
// overflow: 99 parentheses evaluate, 100 do not, nor do 100 k parentheses or unary minuses.
TEST(CaseExpr, NestingDepthIsLimited) {
  auto nested = [](int n) { return std::string(n, '(') + "7" + std::string(n, ')'); };
  std::string err;
  EXPECT_EQ(eval_case_expr(nested(99), {}, &err), 7) << err;
  EXPECT_FALSE(eval_case_expr(nested(100), {}, &err));
  EXPECT_EQ(err, "expression nested too deeply (limit 200 levels)");
  err.clear();
  EXPECT_FALSE(eval_case_expr(nested(100000), {}, &err));
  EXPECT_EQ(err, "expression nested too deeply (limit 200 levels)");
  err.clear();
  EXPECT_FALSE(eval_case_expr(std::string(100000, '-') + "1", {}, &err));
  EXPECT_EQ(err, "expression nested too deeply (limit 200 levels)");
  EXPECT_EQ(abbreviate_expr(std::string(61, '(')), std::string(40, '(') + "...");
  EXPECT_EQ(abbreviate_expr(std::string(60, '(')), std::string(60, '('));
}

TEST(CaseParse, DeeplyNestedVarIsALocatedError) {
  const std::string deep(100000, '(');
  std::string text = kGood;
  text.replace(text.find("R: 4"), 4, "R: '" + deep + "1'");
  // The first line; the uses of R that follow then report R as unknown.
  auto first_line = [](const std::string& s) { return s.substr(0, s.find('\n')); };
  EXPECT_EQ(first_line(parse_error(text)), "t.yaml:3:11: error: vars.R: bad integer '" + std::string(40, '(') +
                                               "...': expression nested too deeply (limit 200 levels)");
  EXPECT_EQ(first_line(parse_error(kGood, {"R=" + deep})),
            "--var R=" + std::string(40, '(') + "...: error: expression nested too deeply (limit 200 levels)");
}

TEST(CaseParse, GoodCase) {
  CaseSpec s = parse(kGood);
  EXPECT_EQ(s.kernel_path, data_dir() + "/run_rmsnorm.s");
  EXPECT_EQ(s.block_dim, 2);
  ASSERT_EQ(s.tensors.size(), 3u);
  EXPECT_EQ(s.tensors[0].shape, (std::vector<int64_t>{4, 256}));
  EXPECT_EQ(s.tensors[0].init.kind, InitSpec::Kind::Uniform);
  EXPECT_EQ(s.tensors[0].init.seed, 1u);
  EXPECT_EQ(s.tensors[1].init.describe(), "fill 0.5");
  EXPECT_EQ(s.tensors[1].cache, isa::CacheHint::NoneCacheable);
  EXPECT_EQ(s.tensors[2].role, TensorRole::Output);
  EXPECT_EQ(s.tensors[2].init.kind, InitSpec::Kind::Zeros);
  ASSERT_EQ(s.params.size(), 3u);
  EXPECT_EQ(s.param("rows")->i, 4);
  EXPECT_FALSE(s.param("rows")->is_float);
  EXPECT_TRUE(s.param("eps")->is_float);
  EXPECT_DOUBLE_EQ(s.param("eps")->f, 1e-6);
  EXPECT_EQ(s.golden.name, "rmsnorm");
  EXPECT_EQ(s.golden.attrs.at("eps"), "1.0e-6");
  EXPECT_EQ(s.golden.outputs.at("out"), "y");
  // rtol given; atol and max_error_ratio from the bf16 defaults (docs/numerics.md).
  golden::Tolerance t = s.tolerance_for(s.tensors[2]);
  EXPECT_EQ(t.atol, 1e-4);
  EXPECT_EQ(t.rtol, 0.01);
  EXPECT_EQ(t.max_error_ratio, 0.005);
  EXPECT_EQ(check_error(s, rmsnorm_kernel()), "(no error)");
}

TEST(CaseParse, GmLayout) {
  // The kernel tests' layout: 64 KiB boundaries from 0x10000, no guard. x (2048 B) at 0x10000,
  // gamma (512 B) at the next boundary 0x20000, y at 0x30000.
  CaseSpec s = parse(kGood + "gm_layout: {first: 65536, align: 65536, guard: 0}\n");
  auto pl = place_tensors(s, 512);
  ASSERT_EQ(pl.size(), 3u);
  EXPECT_EQ(pl[0].base, 0x10000u);
  EXPECT_EQ(pl[1].base, 0x20000u);
  EXPECT_EQ(pl[2].base, 0x30000u);
  // align below the line is the line; the guard rounds up to whole lines: x at 0x200000, next
  // 0x200800 + 512 = 0x200a00; gamma 512 B -> 0x200c00 + 512 = 0x200e00.
  s = parse(kGood + "gm_layout: {first: 2097152, align: 64, guard: 100}\n");
  pl = place_tensors(s, 512);
  EXPECT_EQ(pl[0].base, 0x200000u);
  EXPECT_EQ(pl[1].base, 0x200a00u);
  EXPECT_EQ(pl[2].base, 0x200e00u);
  EXPECT_EQ(parse_error(kGood + "gm_layout: {align: 96, guard: -1, gap: 1}\n"),
            "t.yaml:11:35: error: gm_layout.gap: unknown key (expected one of: first, align, guard)\n"
            "t.yaml:11:20: error: gm_layout.align: must be a power of two, got 96\n"
            "t.yaml:11:31: error: gm_layout.guard: value -1 is below the minimum 0");
}

TEST(CaseParse, VarOverride) {
  CaseSpec s = parse_case_string(kGood, "t.yaml", data_dir(), {"R=8"});
  EXPECT_EQ(s.tensors[0].shape, (std::vector<int64_t>{8, 256}));
  EXPECT_EQ(s.param("rows")->i, 8);
  EXPECT_EQ(parse_error(kGood, {"Q=8"}), "--var Q=8: error: the case has no var 'Q' (vars: R, D)");
}

// `checks`: each `zero` expression is evaluated on the vars (after --var) and must be 0; a
// failed one is an error at its expression with the case's message and the value.
TEST(CaseParse, Checks) {
  const std::string checks = "checks:\n  - {zero: \"D % 128\", message: \"D must be a multiple of 128\"}\n";
  EXPECT_EQ(parse(kGood + checks).vars.at("D"), 256);
  EXPECT_EQ(parse_error(kGood + checks, {"D=200"}),
            "t.yaml:12:12: error: checks[0]: D must be a multiple of 128 (D % 128 = 72, not 0)");
  EXPECT_EQ(parse_error(kGood + "checks: {zero: 0}\n"),
            "t.yaml:11:9: error: checks: expected a non-empty sequence of {zero, message}, got a mapping");
  EXPECT_EQ(parse_error(kGood + "checks: [{zero: 0}, 3, {message: m, zero: R / 0, why: 1}]\n"),
            "t.yaml:11:10: error: checks[0]: missing key 'message'\n"
            "t.yaml:11:21: error: checks[1]: expected a mapping {zero, message}, got '3'\n"
            "t.yaml:11:50: error: checks[2].why: unknown key (expected one of: zero, message)\n"
            "t.yaml:11:43: error: checks[2].zero: bad integer 'R / 0': division by zero");
}

TEST(CaseParse, PlacementAndParams) {
  CaseSpec s = parse(kGood);
  auto pl = place_tensors(s, 512);
  // x: 4*256*2 = 2048 B at 0x100000; next = 0x100800 + 4096 guard = 0x101800.
  // gamma: 512 B at 0x101800; next = 0x101a00 + 0x1000 = 0x102a00.  y at 0x102a00.
  ASSERT_EQ(pl.size(), 3u);
  EXPECT_EQ(pl[0].base, 0x100000u);
  EXPECT_EQ(pl[0].bytes, 2048u);
  EXPECT_EQ(pl[1].base, 0x101800u);
  EXPECT_EQ(pl[2].base, 0x102a00u);
  auto v = kernel_param_values(s, rmsnorm_kernel(), pl);
  // fp32(1e-6) = 0x358637bd.
  EXPECT_EQ(v, (std::vector<int64_t>{0x100000, 0x101800, 0x102a00, 4, 256, 0x358637bd}));
  golden::Tensor g = make_initial_tensor(s.tensors[1]);
  EXPECT_EQ(g.numel(), 256);
  EXPECT_EQ(g.get(255), 0.5);
}

TEST(CaseParse, UnknownKey) {
  EXPECT_EQ(parse_error("kernel: run_rmsnorm.s\nblockdim: 2\ntensors: {}\n"),
            "t.yaml:2:1: error: blockdim: unknown key (expected one of: description, kernel, block_dim, "
            "vars, params, tensors, golden, tolerances, flops, launches, l2_between_launches, gm_layout, checks)\n"
            "t.yaml:1:1: error: missing key 'block_dim'\n"
            "t.yaml:3:10: error: tensors: no tensors");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: bf16, shape: [4], init: zeros, cahce: normal}\n"),
            "t.yaml:5:45: error: tensors.x.cahce: unknown key (expected one of: dtype, shape, role, init, cache, golden)");
}

TEST(CaseParse, BadDtypeAndShape) {
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: bf17, shape: [R, D*Z], init: zeros}\n"),
            "t.yaml:5:14: error: tensors.x.dtype: bad dtype 'bf17' (dtypes: f32, f16, bf16, s32, "
            "s16, s8, u8, e4m3, e5m2, e8m0)\n"
            "t.yaml:5:31: error: tensors.x.shape[1]: bad integer 'D*Z': unknown name 'Z' (vars: D, R)");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [R, 0], init: zeros}\n"),
            "t.yaml:5:30: error: tensors.x.shape[1]: value 0 is below the minimum 1");
}

TEST(CaseParse, BadInitSpec) {
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [4], init: {uniform: [1, 0, 2]}}\n"),
            "t.yaml:5:47: error: tensors.x.init.uniform: expected two numbers [lo, hi], got a sequence\n"
            "t.yaml:5:37: error: tensors.x.init: missing key 'seed' (random data needs a seed)");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [4], init: {fill: 1, file: a.npy}}\n"),
            "t.yaml:5:47: error: tensors.x.init.file: more than one of uniform, normal, fill, file, scales_of (already: fill)");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [4], init: {normal: [0, -1], seed: 3}}\n"),
            "t.yaml:5:46: error: tensors.x.init.normal: std must be positive");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [4]}\n"),
            "t.yaml:5:3: error: tensors.x: missing key 'init' (an input needs {uniform|normal: [a, b], seed: N}, "
            "{fill: v} or {file: F.npy}; or give it role: output or workspace)");
}

TEST(CaseParse, InitPlantsRowsAndElements) {
  // R = 4, D = 256 (kHead). plant [1]: the whole row 1 becomes 0; [2, 5]: one element 1000;
  // [1, 3]: applied after the row, so it wins. bf16(1000) = 1000 exactly.
  CaseSpec s = parse(kHead + "tensors:\n  x: {dtype: bf16, shape: [R, D], init: {uniform: [-1, 1], seed: 1, "
                     "plant: [{at: [1], value: 0}, {at: [2, 5], value: 1000}, {at: [R - 3, 3], value: -2}]}}\n");
  ASSERT_EQ(s.tensors[0].init.plants.size(), 3u);
  EXPECT_EQ(s.tensors[0].init.describe(), "uniform[-1, 1) seed 1, 3 planted");
  golden::Tensor x = make_initial_tensor(s.tensors[0]);
  int nonzero = 0;
  for (int64_t c = 0; c < 256; ++c) nonzero += x.at(1, c) != 0;
  EXPECT_EQ(nonzero, 1);
  EXPECT_EQ(x.at(1, 3), -2.0);
  EXPECT_EQ(x.at(2, 5), 1000.0);
  EXPECT_NE(x.at(2, 4), 1000.0);
  EXPECT_NE(x.at(0, 0), 0.0);  // untouched rows keep the generator's values
}

// quantize: per_channel draws bf16 values and quantises each row (AT-05); scales_of gives the
// rows' dequant scales: every row reaches +-127 at its amax, and q * scale is within half a step
// of the bf16 draw.
TEST(CaseParse, InitQuantizedPerChannel) {
  CaseSpec s = parse(kHead + "tensors:\n"
                     "  w:  {dtype: s8, shape: [R, D], init: {uniform: [-0.1, 0.1], seed: 3, quantize: per_channel}}\n"
                     "  ws: {dtype: f32, shape: [R], init: {scales_of: w}}\n");
  EXPECT_EQ(s.tensors[0].init.describe(), "uniform[-0.1, 0.1) seed 3, int8 per channel");
  EXPECT_EQ(s.tensors[1].init.describe(), "per-channel scales of w");
  const golden::Tensor w = make_initial_tensor(s, s.tensors[0]), ws = make_initial_tensor(s, s.tensors[1]);
  golden::Rng rng(3);
  const golden::Tensor draw = golden::random_uniform(isa::Dtype::BF16, {4, 256}, -0.1, 0.1, rng);
  ASSERT_EQ(w.dtype(), isa::Dtype::S8);
  ASSERT_EQ(ws.shape(), (std::vector<int64_t>{4}));
  for (int64_t r = 0; r < 4; ++r) {
    double amax = 0, qmax = 0;
    for (int64_t c = 0; c < 256; ++c) {
      amax = std::max(amax, std::fabs(draw.at(r, c)));
      qmax = std::max(qmax, std::fabs(w.at(r, c)));
    }
    EXPECT_EQ(qmax, 127.0) << r;
    EXPECT_NEAR(ws.get(r), amax / 127, 1e-6 * amax) << r;
    for (int64_t c = 0; c < 256; ++c)
      EXPECT_LE(std::fabs(w.at(r, c) * ws.get(r) - draw.at(r, c)), 0.5001 * ws.get(r)) << r << ", " << c;
  }
}

TEST(CaseParse, BadQuantizedInit) {
  EXPECT_EQ(parse_error(kHead + "tensors:\n  w: {dtype: f32, shape: [R, D], init: {uniform: [-1, 1], seed: 1, quantize: per_channel}}\n"),
            "t.yaml:5:40: error: tensors.w.init.quantize: per_channel needs an s8 [rows, cols] tensor, not f32[4, 256]");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  w: {dtype: s8, shape: [R, D], init: {fill: 1, quantize: rows}}\n"),
            "t.yaml:5:49: error: tensors.w.init.quantize: quantize applies only to uniform and normal");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  w: {dtype: s8, shape: [R, D], init: {uniform: [-1, 1], seed: 1, quantize: rows}}\n"),
            "t.yaml:5:77: error: tensors.w.init.quantize: expected per_channel, got 'rows'");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  w: {dtype: s8, shape: [R, D], init: {uniform: [-1, 1], seed: 1}}\n"
                        "  s: {dtype: f32, shape: [R], init: {scales_of: w}}\n"),
            "t.yaml:6:49: error: tensors.s.init.scales_of: 'w' is not a tensor with init quantize: per_channel");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  w: {dtype: s8, shape: [R, D], init: {uniform: [-1, 1], seed: 1, quantize: per_channel}}\n"
                        "  s: {dtype: f32, shape: [D], init: {scales_of: w}}\n"),
            "t.yaml:6:49: error: tensors.s.init.scales_of: the scales of w[4, 256] are f32 with 4 elements, not f32[256]");
}

TEST(CaseParse, BadInitPlant) {
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [R, D], init: {fill: 1, plant: [{at: [4], value: 0}]}}\n"),
            "t.yaml:5:58: error: tensors.x.init.plant[0].at[0]: index 4 is out of range for dimension 0 of [4, 256]");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [R], init: {fill: 1, plant: [{at: [0, 1], value: 0}]}}\n"),
            "t.yaml:5:55: error: tensors.x.init.plant[0].at: 2 indices for a tensor of rank 1 [4]");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [R], init: {fill: 1, plant: [{at: [-1]}, 3]}}\n"),
            "t.yaml:5:61: error: tensors.x.init.plant[0].at[0]: value -1 is below the minimum 0\n"
            "t.yaml:5:55: error: tensors.x.init.plant[0]: missing key 'value'\n"
            "t.yaml:5:67: error: tensors.x.init.plant[1]: expected {at: [i, ...], value: v}, got '3'");
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [R], init: {fill: 1, plant: {at: [0]}}}\n"),
            "t.yaml:5:54: error: tensors.x.init.plant: expected a list of {at: [i, ...], value: v}, got a mapping");
  // A value the dtype cannot hold is found when the data is built, at the plant.
  CaseSpec s = parse(kHead + "tensors:\n  x: {dtype: bf16, shape: [R], init: {fill: 1, plant: [{at: [0], value: 1e39}]}}\n");
  try {
    make_initial_tensor(s.tensors[0]);
    ADD_FAILURE() << "no error";
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "t.yaml:5:56: error: tensors.x.init.plant[0].value: value 1e+39 overflows bf16");
  }
}

TEST(CaseParse, BadRoleAndCache) {
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [4], role: [output], cache: fast}\n"),
            "t.yaml:5:37: error: tensors.x.role: expected a role, got a sequence (roles: input, output, workspace)\n"
            "t.yaml:5:54: error: tensors.x.cache: bad cache policy 'fast' (policies: normal, none_cacheable, prefetch)");
}

TEST(CaseParse, NpyFileMissing) {
  EXPECT_EQ(parse_error(kHead + "tensors:\n  x: {dtype: f32, shape: [4], init: {file: nope.npy}}\n"),
            "t.yaml:5:44: error: tensors.x.init.file: cannot read '" + data_dir() + "/nope.npy': cannot open: No such file or directory");
}

TEST(CaseParse, NpyShapeMismatch) {
  // A 3-element '<f4' file for a 4-element tensor: found when the data is built.
  std::string path = ::testing::TempDir() + "case_parse_three.npy";
  {
    std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }";
    while ((10 + header.size() + 1) % 64) header += ' ';
    header += '\n';
    std::ofstream f(path, std::ios::binary);
    f.write("\x93NUMPY\x01\x00", 8);
    uint16_t n = static_cast<uint16_t>(header.size());
    f.put(static_cast<char>(n & 0xff)).put(static_cast<char>(n >> 8));
    f << header;
    float v[3] = {1, 2, 3};
    f.write(reinterpret_cast<const char*>(v), sizeof v);
  }
  CaseSpec s = parse(kHead + "tensors:\n  x: {dtype: bf16, shape: [4], init: {file: " + path + "}}\n");
  try {
    make_initial_tensor(s.tensors[0]);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_EQ(std::string(e.what()), "t.yaml:5:45: error: tensors.x.init: '" + path +
                                         "' holds shape [3] but the tensor is bf16[4]");
  }
  std::remove(path.c_str());
}

TEST(CaseParse, GoldenErrors) {
  const std::string t = kHead + "tensors:\n  x: {dtype: bf16, shape: [R, D], init: zeros}\n"
                                "  y: {dtype: bf16, shape: [R, D], role: output}\n";
  EXPECT_EQ(parse_error(t + "golden: {name: rmsnorn, inputs: {x: x}, outputs: {out: y}}\n"),
            "t.yaml:7:16: error: golden.name: unknown golden 'rmsnorn' (goldens: rmsnorm, linear, "
            "rmsnorm_linear, quant_per_token, dequant, linear_w8a8, rmsnorm_linear_quant, mx_quantize, mx_scaled_mm, linear_mxfp8, "
            "rope, mla_prolog, mla_prolog_quant, qwen3_pre_attn)");
  EXPECT_EQ(parse_error(t + "golden: {name: rmsnorm, epsilon: 1, has_gamma: maybe, inputs: {x: x}, outputs: {out: x}}\n"),
            "t.yaml:7:25: error: golden.epsilon: unknown key (golden 'rmsnorm' takes name, inputs, outputs "
            "and the attributes eps, has_gamma, has_bias, variant, output_rstd)\n"
            "t.yaml:7:48: error: golden.has_gamma: expected true or false, got 'maybe'\n"
            "t.yaml:7:55: error: golden.inputs: missing golden input 'gamma' (has_gamma is true)\n"
            "t.yaml:7:86: error: golden.outputs.out: tensor 'x' is an input, not an output (give it role: output)");
  // has_gamma defaults to true: gamma is required.
  EXPECT_EQ(parse_error(t + "golden: {name: rmsnorm, inputs: {x: x}, outputs: {out: y}}\n"),
            "t.yaml:7:25: error: golden.inputs: missing golden input 'gamma' (has_gamma is true)");
}

TEST(CaseParse, Tolerances) {
  const std::string t = kHead + "tensors:\n  y: {dtype: bf16, shape: [R, D], role: output}\n";
  EXPECT_EQ(parse_error(t + "tolerances: {z: {atol: 1}, y: {rtol: -1, max_error_ratio: 2, eps: 1}}\n"),
            "t.yaml:6:14: error: tolerances.z: no output tensor named 'z' (outputs: y)\n"
            "t.yaml:6:62: error: tolerances.y.eps: unknown key (expected one of: atol, rtol, max_error_ratio)\n"
            "t.yaml:6:38: error: tolerances.y.rtol: value out of range [0, inf)\n"
            "t.yaml:6:59: error: tolerances.y.max_error_ratio: value out of range [0, 1]");
}

TEST(CaseParse, YamlSyntaxAndTypes) {
  EXPECT_EQ(parse_error("kernel: [a\n"), "t.yaml:2:1: error: YAML syntax: end of sequence flow not found");
  EXPECT_EQ(parse_error("- 1\n"), "t.yaml:1:1: error: expected a mapping (kernel, block_dim, tensors, ...), got a sequence");
  EXPECT_EQ(parse_error(kHead + "params: [1]\ntensors: {y: {dtype: f32, shape: [1], role: output}}\n"),
            "t.yaml:4:9: error: params: expected a mapping of kernel parameter names to values, got a sequence");
  EXPECT_EQ(parse_error("kernel: missing.s\nblock_dim: 0\ntensors: {y: {dtype: f32, shape: [1], role: output}}\n"),
            "t.yaml:1:9: error: kernel: cannot read '" + data_dir() + "/missing.s': cannot open: No such file or directory\n"
            "t.yaml:2:12: error: block_dim: value 0 is below the minimum 1");
}

TEST(CaseKernel, DtypeMismatchMissingAndUnknownParams) {
  CaseSpec s = parse(kHead +
                     "params: {rows: R, eps: 2, extra: 1}\n"
                     "tensors:\n"
                     "  x:     {dtype: f32, shape: [R, D], init: zeros}\n"
                     "  y:     {dtype: bf16, shape: [R, D], role: output}\n"
                     "  D:     {dtype: s32, shape: [1], role: workspace}\n");
  EXPECT_EQ(check_error(s, rmsnorm_kernel()),
            "t.yaml:6:18: error: tensors.x.dtype: f32 does not match the kernel's '.param x, gm, bf16'\n"
            "t.yaml:5:1: error: tensors: missing tensor 'gamma' for the kernel's '.param gamma, gm, bf16'\n"
            "t.yaml:8:3: error: tensors.D: 'D' is an int parameter of kernel 'k', not a gm tensor; give it under params\n"
            "t.yaml:4:27: error: params.extra: kernel 'k' has no parameter 'extra' (int/f32 parameters: rows, D, eps)");
  CaseSpec s2 = parse(kHead +
                      "params: {rows: 1.5, x: 3}\n"
                      "tensors:\n"
                      "  x: {dtype: bf16, shape: [R, D], init: zeros}\n"
                      "  gamma: {dtype: bf16, shape: [D], init: zeros}\n"
                      "  y: {dtype: bf16, shape: [R, D], role: output}\n");
  EXPECT_EQ(check_error(s2, rmsnorm_kernel()),
            "t.yaml:4:21: error: params.x: 'x' is a gm parameter of kernel 'k'; describe it under tensors "
            "(or give 0 for a pointer the kernel does not use)\n"
            "t.yaml:4:10: error: params.rows: the kernel's '.param rows, int' needs an integer, got a number\n"
            "t.yaml:4:1: error: params: missing value for the kernel's '.param D, int'\n"
            "t.yaml:4:1: error: params: missing value for the kernel's '.param eps, f32'");
}

TEST(CaseKernel, UnusedGmPointerIsZero) {
  CaseSpec s = parse(kHead +
                     "params: {rows: R, D: D, eps: 0.5, gamma: 0}\n"
                     "tensors:\n"
                     "  x: {dtype: bf16, shape: [R, D], init: zeros}\n"
                     "  y: {dtype: bf16, shape: [R, D], role: output}\n");
  EXPECT_EQ(check_error(s, rmsnorm_kernel()), "(no error)");
  auto pl = place_tensors(s, 512);
  // x at 0x100000 (2048 B), y at 0x100800 + 0x1000; gamma = 0; fp32(0.5) = 0x3f000000.
  EXPECT_EQ(kernel_param_values(s, rmsnorm_kernel(), pl),
            (std::vector<int64_t>{0x100000, 0, 0x101800, 4, 256, 0x3f000000}));
}

}  // namespace
}  // namespace npu::cli
