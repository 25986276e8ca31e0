#pragma once
// Run-time choice of the host's SIMD paths (the build needs no -mavx2: the AVX2 functions carry
// __attribute__((target("avx2"))) and are called only when the CPU has AVX2).
namespace npu {

// The environment variable NPUSIM_NO_SIMD is set to anything but "" or "0": every component
// with a SIMD path takes its portable one (to compare the paths on one host).
bool no_simd_requested();

// The CPU running this process has AVX2 (false on other architectures).
bool cpu_has_avx2();
bool cpu_has_fma();  // fused multiply-add (FMA3)
bool cpu_has_avx512f();  // AVX-512 Foundation (and an OS that saves its registers)

}  // namespace npu
