#include "isa/types.h"

#include <array>

namespace npu::isa {
namespace {

constexpr std::array<std::string_view, 7> kPipe = {"scalar", "mte1", "mte2", "mte3",
                                                   "cube",   "vector", "fixp"};
constexpr std::array<std::string_view, 8> kPipeSel = {"scalar", "mte1",   "mte2", "mte3",
                                                      "cube",   "vector", "fixp", "all"};
constexpr std::array<std::string_view, 10> kDtype = {"f32", "f16", "bf16", "s32",  "s16",
                                                     "s8",  "u8",  "e4m3", "e5m2", "e8m0"};
constexpr std::array<std::string_view, 5> kRound = {"rne", "trunc", "away", "floor", "ceil"};
constexpr std::array<std::string_view, 3> kHint = {"normal", "none_cacheable", "prefetch"};
constexpr std::array<std::string_view, 6> kVecOp = {"add", "sub", "mul", "div", "max", "min"};
constexpr std::array<std::string_view, 5> kSreg = {"block_idx", "block_dim", "subblock_idx",
                                                   "core_type", "subblock_dim"};
constexpr std::array<std::string_view, 3> kQuant = {"noquant", "qscalar", "qvector"};
constexpr std::array<std::string_view, 2> kMx = {"e4m3", "e5m2"};

template <size_t N>
std::string_view at(const std::array<std::string_view, N>& a, int v) {
  return v >= 0 && static_cast<size_t>(v) < N ? a[v] : std::string_view{};
}

template <size_t N>
std::optional<int> find(const std::array<std::string_view, N>& a, std::string_view w) {
  for (size_t i = 0; i < N; ++i)
    if (a[i] == w) return static_cast<int>(i);
  return std::nullopt;
}

}  // namespace

std::string_view keyword(EnumType t, int v) {
  switch (t) {
    case EnumType::Pipe: return at(kPipe, v);
    case EnumType::PipeSel: return at(kPipeSel, v);
    case EnumType::Dtype: return at(kDtype, v);
    case EnumType::RoundMode: return at(kRound, v);
    case EnumType::CacheHint: return at(kHint, v);
    case EnumType::VecOp: return at(kVecOp, v);
    case EnumType::SpecialReg: return at(kSreg, v);
    case EnumType::QuantMode: return at(kQuant, v);
    case EnumType::MxType: return at(kMx, v);
    case EnumType::None: break;
  }
  return {};
}

std::optional<int> parse_keyword(EnumType t, std::string_view w) {
  switch (t) {
    case EnumType::Pipe: return find(kPipe, w);
    case EnumType::PipeSel: return find(kPipeSel, w);
    case EnumType::Dtype: return find(kDtype, w);
    case EnumType::RoundMode: return find(kRound, w);
    case EnumType::CacheHint: return find(kHint, w);
    case EnumType::VecOp: return find(kVecOp, w);
    case EnumType::SpecialReg: return find(kSreg, w);
    case EnumType::QuantMode: return find(kQuant, w);
    case EnumType::MxType: return find(kMx, w);
    case EnumType::None: break;
  }
  return std::nullopt;
}

int enum_count(EnumType t) {
  switch (t) {
    case EnumType::Pipe: return kPipe.size();
    case EnumType::PipeSel: return kPipeSel.size();
    case EnumType::Dtype: return kDtype.size();
    case EnumType::RoundMode: return kRound.size();
    case EnumType::CacheHint: return kHint.size();
    case EnumType::VecOp: return kVecOp.size();
    case EnumType::SpecialReg: return kSreg.size();
    case EnumType::QuantMode: return kQuant.size();
    case EnumType::MxType: return kMx.size();
    case EnumType::None: break;
  }
  return 0;
}

std::string_view enum_type_name(EnumType t) {
  switch (t) {
    case EnumType::Pipe: return "pipe";
    case EnumType::PipeSel: return "pipe or all";
    case EnumType::Dtype: return "dtype";
    case EnumType::RoundMode: return "rounding mode";
    case EnumType::CacheHint: return "cache hint";
    case EnumType::VecOp: return "vector op";
    case EnumType::SpecialReg: return "special register";
    case EnumType::QuantMode: return "quant mode";
    case EnumType::MxType: return "MX element type";
    case EnumType::None: break;
  }
  return "none";
}

std::string_view pipe_name(Pipe p) {
  constexpr std::array<std::string_view, 7> names = {"SCALAR", "MTE1",   "MTE2", "MTE3",
                                                     "CUBE",   "VECTOR", "FIXP"};
  return names[static_cast<int>(p)];
}

std::string_view dtype_name(Dtype d) { return kDtype[static_cast<int>(d)]; }
std::string_view arch_name(Arch a) { return a == Arch::A2 ? "a2" : "a5"; }
std::string_view core_type_name(CoreType c) { return c == CoreType::Aic ? "aic" : "aiv"; }

int dtype_size(Dtype d) {
  switch (d) {
    case Dtype::F32:
    case Dtype::S32: return 4;
    case Dtype::F16:
    case Dtype::BF16:
    case Dtype::S16: return 2;
    default: return 1;
  }
}

bool core_has_pipe(CoreType core, Pipe p) {
  switch (p) {
    case Pipe::Scalar:
    case Pipe::Mte2: return true;
    case Pipe::Mte1:
    case Pipe::Cube:
    case Pipe::Fixp: return core == CoreType::Aic;
    case Pipe::Vector:
    case Pipe::Mte3: return core == CoreType::Aiv;
  }
  return false;
}

}  // namespace npu::isa
