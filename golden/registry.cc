#include "golden/registry.h"

#include <cerrno>
#include <cstdlib>
#include <functional>

#include "base/error.h"
#include "golden/golden.h"

namespace npu::golden {
namespace {

// Parsed attributes and inputs of one call, with the checks that give clear errors.
class Call {
 public:
  Call(const GoldenInfo& info, const Attrs& attrs, const TensorMap& inputs)
      : info_(info), attrs_(attrs), inputs_(inputs) {
    for (const auto& kv : attrs) {
      if (!find_attr(kv.first)) {
        std::string names;
        for (const AttrSpec& a : info.attrs) names += (names.empty() ? "" : ", ") + a.name;
        fail("unknown attribute '" + kv.first + "' (attributes: " + names + ")");
      }
    }
    // Parse every given value now, so a bad value is reported before anything else.
    for (const auto& kv : attrs) {
      const std::string& type = find_attr(kv.first)->type;
      if (type == "float") get_float(kv.first);
      else if (type == "bool") get_bool(kv.first);
      else get_enum(kv.first);
    }
    for (const auto& kv : inputs) {
      const TensorSpec* t = find_input(kv.first);
      if (!t) fail("unknown input tensor '" + kv.first + "' (inputs: " + input_list() + ")");
      if (!t->when.empty() && !get_bool(t->when))
        fail("input tensor '" + kv.first + "' given but " + t->when + " is false");
    }
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw Error("golden '" + info_.name + "': " + what);
  }

  double get_float(const std::string& name) const {
    std::string s = text(name);
    errno = 0;
    char* end = nullptr;
    double v = std::strtod(s.c_str(), &end);
    if (s.empty() || *end != '\0' || errno == ERANGE)
      fail("attribute " + name + " = '" + s + "' is not a number");
    return v;
  }

  bool get_bool(const std::string& name) const {
    std::string s = text(name);
    if (s == "true" || s == "True" || s == "1" || s == "yes") return true;
    if (s == "false" || s == "False" || s == "0" || s == "no") return false;
    fail("attribute " + name + " = '" + s + "' is not a bool (true/false)");
  }

  std::string get_enum(const std::string& name) const {
    std::string s = text(name);
    const AttrSpec* a = find_attr(name);
    std::string all;
    for (const std::string& c : a->choices) {
      if (c == s) return s;
      all += (all.empty() ? "" : ", ") + c;
    }
    fail("attribute " + name + " = '" + s + "' is not one of: " + all);
  }

  RmsVariant variant() const {
    return get_enum("variant") == "rsqrt" ? RmsVariant::Rsqrt : RmsVariant::SqrtDiv;
  }

  // Required input, or optional one gated by its bool attribute (nullptr when off).
  const Tensor* input(const std::string& name) const {
    const TensorSpec* t = find_input(name);
    if (!t->when.empty() && !get_bool(t->when)) return nullptr;
    auto it = inputs_.find(name);
    if (it == inputs_.end())
      fail("missing input tensor '" + name + "'" + (t->when.empty() ? "" : " (" + t->when + " is true)") +
           " (inputs: " + input_list() + ")");
    return &it->second;
  }
  const Tensor& req(const std::string& name) const { return *input(name); }

 private:
  const AttrSpec* find_attr(const std::string& n) const {
    for (const AttrSpec& a : info_.attrs)
      if (a.name == n) return &a;
    return nullptr;
  }
  const TensorSpec* find_input(const std::string& n) const {
    for (const TensorSpec& t : info_.inputs)
      if (t.name == n) return &t;
    return nullptr;
  }
  std::string text(const std::string& name) const {
    auto it = attrs_.find(name);
    if (it != attrs_.end()) return it->second;
    return find_attr(name)->default_value;
  }
  std::string input_list() const {
    std::string s;
    for (const TensorSpec& t : info_.inputs)
      s += (s.empty() ? "" : ", ") + t.name + (t.when.empty() ? "" : " [if " + t.when + "]");
    return s;
  }

  const GoldenInfo& info_;
  const Attrs& attrs_;
  const TensorMap& inputs_;
};

using RunFn = std::function<TensorMap(const Call&)>;

struct Entry {
  GoldenInfo info;
  RunFn run;
};

const AttrSpec kEps{"eps", "float", "1e-6", {}, "added to mean(x^2) before the root"};
const AttrSpec kHasGamma{"has_gamma", "bool", "true", {}, "multiply by gamma [D]"};
const AttrSpec kHasBias{"has_bias", "bool", "false", {}, "add bias [N] in fp32 before the cast"};
const AttrSpec kVariant{"variant", "enum", "rsqrt", {"rsqrt", "sqrt_div"},
                        "A: rsqrt(var); B: 1 / sqrt(var)"};

const AttrSpec kBTrans{"b_trans", "bool", "false", {}, "weights stored [N, K] instead of pypto's [K, N]"};

// The MLAProlog inputs (both variants) and their descriptions; wq_b's element type differs.
std::vector<TensorSpec> mla_prolog_inputs(const std::string& wq_b_dtype) {
  return {{"x", "", "bf16 [t, h]"}, {"wq_a", "", "bf16 [h, q_lora_rank]"},
          {"gamma_cq", "", "[q_lora_rank]"}, {"wq_b", "", wq_b_dtype + " [q_lora_rank, heads * head_dim]"},
          {"w_kv", "", "bf16 [h, head_dim]"}, {"gamma_ckv", "", "[head_dim]"},
          {"cos", "", "[t, rope]"}, {"sin", "", "[t, rope]"}};
}
MlaPrologInputs mla_prolog_inputs(const Call& c) {
  return {c.req("x"),   c.req("wq_a"),      c.req("gamma_cq"), c.req("wq_b"),
          c.req("w_kv"), c.req("gamma_ckv"), c.req("cos"),      c.req("sin")};
}

Dtype out_dtype_attr(const Call& c) {
  return c.get_enum("out_dtype") == "bf16" ? Dtype::BF16 : Dtype::F32;
}

const std::vector<Entry>& entries() {
  static const std::vector<Entry> list = {
      {{"rmsnorm",
        "AT-03 RMSNorm of x [rows, D]",
        {kEps, kHasGamma,
         {"has_bias", "bool", "false", {}, "add beta [D] after gamma"},
         kVariant,
         {"output_rstd", "bool", "false", {}, "also output rstd f32 [rows, 1]"}},
        {{"x", "", "bf16|f16 [rows, D]"}, {"gamma", "has_gamma", "[D]"}, {"beta", "has_bias", "[D]"}},
        {{"out", "", "dtype of x [rows, D]"}, {"rstd", "output_rstd", "f32 [rows, 1]"}}},
       [](const Call& c) {
         RmsNormResult r = rmsnorm(c.req("x"), c.input("gamma"), c.input("beta"),
                                   c.get_float("eps"), c.variant());
         TensorMap out{{"out", r.out}};
         if (c.get_bool("output_rstd")) out["rstd"] = r.rstd;
         return out;
       }},
      {{"linear",
        "AT-09 linear: x [M, K] times w [N, K] (b_trans), fp32 accumulation, RNE into out_dtype",
        {kHasBias, {"b_trans", "bool", "true", {}, "w stored [N, K] (true) or [K, N] (false)"},
         {"out_dtype", "enum", "bf16", {"bf16", "f16", "f32"}, "output type"}},
        {{"x", "", "bf16|f16|f32 [M, K]"}, {"w", "", "bf16|f16|f32 [N, K] (b_trans false: [K, N])"},
         {"bias", "has_bias", "f32|bf16 [N]"}},
        {{"out", "", "bf16|f16|f32 [M, N]"}}},
       [](const Call& c) {
         const Tensor& w = c.req("w");
         const std::string out = c.get_enum("out_dtype");
         const Dtype d = out == "f32" ? Dtype::F32 : out == "f16" ? Dtype::F16 : Dtype::BF16;
         return TensorMap{{"out", linear(c.req("x"), c.get_bool("b_trans") ? w : transposed_bits(w), c.input("bias"), d)}};
       }},
      {{"rmsnorm_linear",
        "AT-10: linear(bf16_rne(rmsnorm(x, gamma)), w)",
        {kEps, kHasGamma, kVariant, kHasBias},
        {{"x", "", "bf16 [M, D]"}, {"gamma", "has_gamma", "[D]"}, {"w", "", "bf16 [N, D]"},
         {"bias", "has_bias", "[N]"}},
        {{"out", "", "bf16 [M, N]"}, {"normed", "", "bf16 [M, D]"}}},
       [](const Call& c) {
         RmsNormLinearResult r = rmsnorm_linear(c.req("x"), c.input("gamma"), c.req("w"),
                                                c.input("bias"), c.get_float("eps"), c.variant());
         return TensorMap{{"out", r.out}, {"normed", r.normed}};
       }},
      {{"quant_per_token",
        "AT-05 per-token symmetric int8 quantisation",
        {},
        {{"x", "", "f32|bf16 [rows, D]"}},
        {{"q", "", "s8 [rows, D]"}, {"scale", "", "f32 [rows] (scale_deq)"}}},
       [](const Call& c) {
         QuantResult r = quant_per_token(c.req("x"));
         return TensorMap{{"q", r.q}, {"scale", r.scale}};
       }},
      {{"dequant",
        "AT-06: bf16(fp32(acc) * x_scale[m] * w_scale[n] (+ bias[n]))",
        {kHasBias},
        {{"acc", "", "s32 [M, N]"}, {"x_scale", "", "f32 [M]"}, {"w_scale", "", "f32 [N]"},
         {"bias", "has_bias", "[N]"}},
        {{"out", "", "bf16 [M, N]"}}},
       [](const Call& c) {
         return TensorMap{
             {"out", dequant(c.req("acc"), c.req("x_scale"), c.req("w_scale"), c.input("bias"))}};
       }},
      {{"linear_w8a8",
        "AT-09 int8 + AT-06: dequant(matmul_s8(x, w), x_scale, w_scale)",
        {kHasBias},
        {{"x", "", "s8 [M, K]"}, {"x_scale", "", "f32 [M]"}, {"w", "", "s8 [N, K]"},
         {"w_scale", "", "f32 [N]"}, {"bias", "has_bias", "[N]"}},
        {{"out", "", "bf16 [M, N]"}, {"acc", "", "s32 [M, N]"}}},
       [](const Call& c) {
         Tensor acc = matmul_s8(c.req("x"), c.req("w"));
         return TensorMap{{"out", dequant(acc, c.req("x_scale"), c.req("w_scale"), c.input("bias"))},
                          {"acc", acc}};
       }},
      {{"rmsnorm_linear_quant",
        "AT-11: rmsnorm -> per-token int8 quant -> int8 matmul -> dequant",
        {kEps, kHasGamma, kVariant, kHasBias,
         {"normed_dtype", "enum", "bf16", {"bf16", "f32"},
          "how the kernel stores the normalised activations before quantising"}},
        {{"x", "", "bf16 [M, D]"}, {"gamma", "has_gamma", "[D]"}, {"w", "", "s8 [N, D]"},
         {"w_scale", "", "f32 [N]"}, {"bias", "has_bias", "[N]"}},
        {{"out", "", "bf16 [M, N]"}, {"normed", "", "bf16|f32 [M, D]"}, {"q", "", "s8 [M, D]"},
         {"x_scale", "", "f32 [M]"}, {"acc", "", "s32 [M, N]"}}},
       [](const Call& c) {
         RmsNormLinearQuantResult r = rmsnorm_linear_quant(
             c.req("x"), c.input("gamma"), c.req("w"), c.req("w_scale"), c.input("bias"),
             c.get_float("eps"), c.variant(), c.get_enum("normed_dtype") == "bf16");
         return TensorMap{{"out", r.out}, {"normed", r.normed}, {"q", r.q},
                          {"x_scale", r.x_scale}, {"acc", r.acc}};
       }},
      {{"mx_quantize",
        "OCP MX v1.0 quantisation: blocks of 32 along K, E8M0 scale per block",
        {{"elem", "enum", "e4m3", {"e4m3", "e5m2"}, "element type"}},
        {{"x", "", "f32|bf16 [rows, K]"}},
        {{"q", "", "e4m3|e5m2 [rows, K]"}, {"scale", "", "e8m0 [rows, ceil(K/32)]"}}},
       [](const Call& c) {
         MxQuantResult r =
             mx_quantize(c.req("x"), c.get_enum("elem") == "e4m3" ? Dtype::E4M3 : Dtype::E5M2);
         return TensorMap{{"q", r.q}, {"scale", r.scale}};
       }},
      {{"mx_scaled_mm",
        "MXFP8 scaled_mm: sum_k (a * 2^sa) * (b * 2^sb), fp32 accumulation",
        {{"out_dtype", "enum", "f32", {"f32", "bf16"}, "output type"}},
        {{"a", "", "e4m3|e5m2 [M, K]"}, {"a_scale", "", "e8m0 [M, ceil(K/32)]"},
         {"b", "", "e4m3|e5m2 [N, K]"}, {"b_scale", "", "e8m0 [N, ceil(K/32)]"}},
        {{"out", "", "f32|bf16 [M, N]"}}},
       [](const Call& c) {
         return TensorMap{{"out", mx_scaled_mm(c.req("a"), c.req("a_scale"), c.req("b"),
                                               c.req("b_scale"), out_dtype_attr(c))}};
       }},
      {{"linear_mxfp8",
        "AT-09 MXFP8: mx_scaled_mm(mx_quantize(x, e4m3), w, w_scale) -> bf16",
        {},
        {{"x", "", "bf16 [M, K]"}, {"w", "", "e4m3 [N, K]"}, {"w_scale", "", "e8m0 [N, ceil(K/32)]"}},
        {{"out", "", "bf16 [M, N]"}, {"q", "", "e4m3 [M, K]"}, {"x_scale", "", "e8m0 [M, ceil(K/32)]"}}},
       [](const Call& c) {
         MxQuantResult xq = mx_quantize(c.req("x"), Dtype::E4M3);
         return TensorMap{{"out", mx_scaled_mm(xq.q, xq.scale, c.req("w"), c.req("w_scale"), Dtype::BF16)},
                          {"q", xq.q}, {"x_scale", xq.scale}};
       }},
      {{"rope",
        "interleaved-pair RoPE on the last rope dims of every head, fp32, one rounding",
        {},
        {{"x", "", "bf16 [t, D] or [t, heads, D]"}, {"cos", "", "[t, rope]"}, {"sin", "", "[t, rope]"}},
        {{"out", "", "dtype and shape of x"}}},
       [](const Call& c) {
         return TensorMap{{"out", rope_interleaved(c.req("x"), c.req("cos"), c.req("sin"))}};
       }},
      {{"mla_prolog",
        "SK-04 bf16 MLAProlog: q path (wq_a, RMSNorm * gamma_cq, wq_b, per-head RMSNorm, RoPE) "
        "and kv path (w_kv, RMSNorm * gamma_ckv, RoPE)",
        {kEps, kVariant, kBTrans},
        mla_prolog_inputs("bf16"),
        {{"q", "", "bf16 [t, heads, head_dim]"}, {"kv", "", "bf16 [t, head_dim]"},
         {"qr", "", "bf16 [t, q_lora_rank]"}}},
       [](const Call& c) {
         MlaPrologResult r = mla_prolog(mla_prolog_inputs(c), c.get_float("eps"), c.variant(),
                                        c.get_bool("b_trans"));
         return TensorMap{{"q", r.q}, {"kv", r.kv}, {"qr", r.qr}};
       }},
      {{"mla_prolog_quant",
        "MLAPrologQuant: mla_prolog with qr quantised per token to int8, wq_b int8 with "
        "per-channel scales, int8 matmul and dequant before the per-head RMSNorm and RoPE",
        {kEps, kVariant, kBTrans},
        [] {
          std::vector<TensorSpec> in = mla_prolog_inputs("s8");
          in.push_back({"wq_b_scale", "", "f32 [heads * head_dim], per channel"});
          return in;
        }(),
        {{"q", "", "bf16 [t, heads, head_dim]"}, {"kv", "", "bf16 [t, head_dim]"},
         {"qr_q", "", "s8 [t, q_lora_rank]"}, {"qr_scale", "", "f32 [t], the dequant scale"}}},
       [](const Call& c) {
         MlaPrologQuantResult r = mla_prolog_quant({mla_prolog_inputs(c), c.req("wq_b_scale")},
                                                   c.get_float("eps"), c.variant(), c.get_bool("b_trans"));
         return TensorMap{{"q", r.q}, {"kv", r.kv}, {"qr_q", r.qr_q}, {"qr_scale", r.qr_scale}};
       }},
      {{"qwen3_pre_attn",
        "SK-05 Qwen3PreAttn phase 1: residual add, RMSNorm * gamma, QKV projection, per-head "
        "RMSNorm of q and k, half-split RoPE, KV-cache write by slot",
        {kEps, kVariant,
         {"w8a8", "bool", "false", {},
          "w_qkv s8 per channel (w_scale): per-token int8 h, int8 matmul, AT-06 dequant"}},
        {{"x", "", "bf16 [t, hidden]"}, {"residual", "", "bf16 [t, hidden]"},
         {"gamma", "", "[hidden]"},
         {"w_qkv", "", "bf16 (s8 if w8a8) [(q_heads + 2 * kv_heads) * head_dim, hidden]"},
         {"w_scale", "w8a8", "f32 [(q_heads + 2 * kv_heads) * head_dim]"},
         {"gamma_q", "", "[head_dim]"}, {"gamma_k", "", "[head_dim]"},
         {"cos", "", "[t, head_dim]"}, {"sin", "", "[t, head_dim]"},
         {"slots", "", "s32 [n >= t], distinct; < 0: no write"},
         {"k_cache", "", "[slots, kv_heads, head_dim]"}, {"v_cache", "", "like k_cache"}},
        {{"x_add", "", "bf16 [t, hidden]"}, {"q", "", "bf16 [t, q_heads, head_dim]"},
         {"k", "", "bf16 [t, kv_heads, head_dim]"}, {"v", "", "bf16 [t, kv_heads, head_dim]"},
         {"k_cache", "", "k_cache after the write"}, {"v_cache", "", "v_cache after the write"},
         {"xq", "w8a8", "s8 [t, hidden]: the quantised h"}, {"x_scale", "w8a8", "f32 [t]"}}},
       [](const Call& c) {
         const Qwen3PreAttnInputs in{c.req("x"),      c.req("residual"), c.req("gamma"),
                                     c.req("w_qkv"),  c.req("gamma_q"),  c.req("gamma_k"),
                                     c.req("cos"),    c.req("sin"),      c.req("slots"),
                                     c.req("k_cache"), c.req("v_cache")};
         Qwen3PreAttnW8A8Result r;
         if (c.get_bool("w8a8")) r = qwen3_pre_attn_w8a8(in, c.req("w_scale"), c.get_float("eps"), c.variant());
         else static_cast<Qwen3PreAttnResult&>(r) = qwen3_pre_attn(in, c.get_float("eps"), c.variant());
         TensorMap out{{"x_add", r.x_add}, {"q", r.q}, {"k", r.k}, {"v", r.v},
                       {"k_cache", r.k_cache}, {"v_cache", r.v_cache}};
         if (c.get_bool("w8a8")) {
           out["xq"] = r.xq;
           out["x_scale"] = r.x_scale;
         }
         return out;
       }},
  };
  return list;
}

const Entry& find_entry(const std::string& name) {
  for (const Entry& e : entries())
    if (e.info.name == name) return e;
  std::string names;
  for (const Entry& e : entries()) names += (names.empty() ? "" : ", ") + e.info.name;
  throw Error("unknown golden '" + name + "' (goldens: " + names + ")");
}

}  // namespace

const std::vector<GoldenInfo>& golden_list() {
  static const std::vector<GoldenInfo> list = [] {
    std::vector<GoldenInfo> v;
    for (const Entry& e : entries()) v.push_back(e.info);
    return v;
  }();
  return list;
}

const GoldenInfo& golden_info(const std::string& name) { return find_entry(name).info; }

TensorMap run_golden(const std::string& name, const Attrs& attrs, const TensorMap& inputs) {
  const Entry& e = find_entry(name);
  Call call(e.info, attrs, inputs);
  return e.run(call);
}

}  // namespace npu::golden
