// Static properties of the element types.
#include <cmath>

#include "isa/numeric/numeric.h"

namespace npu::num {

int size_of(Dtype t) {
  switch (t) {
    case Dtype::F32:
    case Dtype::S32: return 4;
    case Dtype::F16:
    case Dtype::BF16:
    case Dtype::S16: return 2;
    case Dtype::S8:
    case Dtype::U8:
    case Dtype::E4M3:
    case Dtype::E5M2:
    case Dtype::E8M0: return 1;
  }
  return 0;
}

bool is_float(Dtype t) {
  switch (t) {
    case Dtype::S32:
    case Dtype::S16:
    case Dtype::S8:
    case Dtype::U8: return false;
    default: return true;
  }
}

const char* name_of(Dtype t) {
  switch (t) {
    case Dtype::F32: return "f32";
    case Dtype::F16: return "f16";
    case Dtype::BF16: return "bf16";
    case Dtype::S32: return "s32";
    case Dtype::S16: return "s16";
    case Dtype::S8: return "s8";
    case Dtype::U8: return "u8";
    case Dtype::E4M3: return "e4m3";
    case Dtype::E5M2: return "e5m2";
    case Dtype::E8M0: return "e8m0";
  }
  return "?";
}

double max_finite(Dtype t) {
  switch (t) {
    case Dtype::F32: return 0x1.fffffep127;
    case Dtype::F16: return 65504.0;
    case Dtype::BF16: return 0x1.fep127;
    case Dtype::E4M3: return 448.0;
    case Dtype::E5M2: return 57344.0;
    case Dtype::E8M0: return 0x1p127;
    case Dtype::S32: return 2147483647.0;
    case Dtype::S16: return 32767.0;
    case Dtype::S8: return 127.0;
    case Dtype::U8: return 255.0;
  }
  return 0.0;
}

}  // namespace npu::num
