#pragma once
// The host SIMD paths of the golden library's loops (random_uniform's draws, linear's and
// matmul_s8's sums): every path gives the same bits, they differ only in speed. Chosen at run
// time as the cube's are (base/simd.h): the build needs no -m flag.
namespace npu::golden {

enum class SimdPath { Auto, Portable, Avx2, Avx512 };

// The CPU has the path (Auto and Portable: always).
bool simd_path_available(SimdPath path);
// The path a call given `path` takes here: Auto is the widest the CPU has (Avx512, else Avx2),
// or Portable when NPUSIM_NO_SIMD is set; a path the CPU lacks runs as Portable.
SimdPath resolve_simd_path(SimdPath path);

}  // namespace npu::golden
