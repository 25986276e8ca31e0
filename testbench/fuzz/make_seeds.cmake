# cmake -DSRC=<source dir> -DNPUSIM=<npusim binary> -DOUT=<seed root> -P make_seeds.cmake
# Writes OUT/<target>/ for every fuzz target (seeds.cmake): the repository's files, plus
#   object: every kernel assembled (npusim asm);
#   npy, trace, config: `npusim run` of testbench/system/data/run_rmsnorm.yaml on configs/tiny.yaml
#     (its .npy outputs, Chrome trace JSON, instruction CSV and resolved config.yaml);
#   config, case: one variant each carrying option lines ("#set", "#var", "#cache") that the
#     config and case targets pass on as --set, --var and --cache arguments.
include(${CMAKE_CURRENT_LIST_DIR}/seeds.cmake)

function(run_npusim)
  execute_process(COMMAND ${NPUSIM} ${ARGN} RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " args "${ARGN}")
    message(FATAL_ERROR "make_seeds: npusim ${args} failed (${rc}): ${err}")
  endif()
endfunction()

foreach(t asm object config case npy trace)
  file(REMOVE_RECURSE ${OUT}/${t})
  file(MAKE_DIRECTORY ${OUT}/${t})
  foreach(g ${fuzz_seed_globs_${t}})
    file(GLOB files ${SRC}/${g})
    file(COPY ${files} DESTINATION ${OUT}/${t})
  endforeach()
endforeach()

file(GLOB kernels ${SRC}/kernels/*.s ${SRC}/testbench/system/data/*.s)
foreach(k ${kernels})
  get_filename_component(stem ${k} NAME_WE)
  # a5-only kernels (their header names configs/ascend950.yaml) assemble for that config
  file(STRINGS ${k} a5_line LIMIT_COUNT 1 REGEX "^#.*a5 \\(configs/ascend950\\.yaml\\)")
  if(a5_line)
    run_npusim(asm ${k} --config ${SRC}/configs/ascend950.yaml -o ${OUT}/object/${stem}.npuo)
  else()
    run_npusim(asm ${k} -o ${OUT}/object/${stem}.npuo)
  endif()
endforeach()

set(run ${OUT}/run)
file(REMOVE_RECURSE ${run})
file(MAKE_DIRECTORY ${run})
run_npusim(run ${SRC}/testbench/system/data/run_rmsnorm.yaml --config ${SRC}/configs/tiny.yaml -q --out ${run}/out
           --trace ${OUT}/trace/run_rmsnorm.json --instr-csv ${OUT}/trace/run_rmsnorm.csv)
file(GLOB outputs ${run}/out/*.npy)
file(COPY ${outputs} DESTINATION ${OUT}/npy)
file(COPY_FILE ${run}/out/config.yaml ${OUT}/config/resolved_tiny.yaml)
file(REMOVE_RECURSE ${run})

file(READ ${SRC}/configs/tiny.yaml text)
file(WRITE ${OUT}/config/tiny_sets.yaml "${text}#set chip.clusters=4\n#set l2.size=2MiB\n"
           "#set vector.cycles_per_repeat.VecBinary.f32=3\n#set vector.cycles_per_repeat.VecBinary=2\n")
file(READ ${SRC}/testbench/system/data/run_rmsnorm.yaml text)
file(WRITE ${OUT}/case/run_rmsnorm_options.yaml "${text}#var R=8\n#var D=R*32\n#cache gamma=kernel\n#cache x=prefetch\n")
file(TOUCH ${OUT}/stamp)
