# The fuzz targets' seed corpora: the repository's own files, per target (source-relative
# globs), plus what make_seeds.cmake generates from them with npusim (object files, a run's
# .npy outputs, its traces and resolved config). Included by CMakeLists.txt (to depend on the
# files) and by make_seeds.cmake (to copy them).
set(fuzz_seed_globs_asm kernels/*.s kernels/lib/*.inc testbench/system/data/*.s)
set(fuzz_seed_globs_object)  # generated: kernels/*.s assembled
set(fuzz_seed_globs_config configs/*.yaml)
set(fuzz_seed_globs_case kernels/cases/*.yaml testbench/system/data/*.yaml)
set(fuzz_seed_globs_npy)     # generated: the outputs of the seed run
set(fuzz_seed_globs_trace)   # generated: the traces of the seed run
