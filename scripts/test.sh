#!/usr/bin/env bash
# Set up (install missing packages, build) and run the default test tier (ctest label `quick`).
# --sanitize: the sanitizer tier instead: build build-asan/ (AddressSanitizer +
# UndefinedBehaviorSanitizer, via `setup.sh --sanitize`) and run the quick tier there (the
# sanitizer options the tests need are in their ctest ENVIRONMENT, testbench/CMakeLists.txt),
# then build build-fuzz/ (`setup.sh --fuzz`, clang) and run every fuzz target for 10 s
# (ctest label `sanitize`, testbench/fuzz/CMakeLists.txt).
# --fuzz: only the second half (the fuzz targets).
# Other arguments go to ctest, e.g. `scripts/test.sh -L long` adds the long tier.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=(quick)
ctest_args=()
for arg in "$@"; do
  case "$arg" in
    --sanitize) runs=(sanitize fuzz) ;;
    --fuzz) runs=(fuzz) ;;
    *) ctest_args+=("$arg") ;;
  esac
done
export SC_COPYRIGHT_MESSAGE=DISABLE
for run in "${runs[@]}"; do
  case "$run" in
    quick) build_dir="$root/build"; setup_args=(); label=quick ;;
    sanitize) build_dir="$root/build-asan"; setup_args=(--sanitize); label=quick ;;
    fuzz) build_dir="$root/build-fuzz"; setup_args=(--fuzz); label=sanitize ;;
  esac
  "$root/scripts/setup.sh" "${setup_args[@]+"${setup_args[@]}"}"
  ctest --test-dir "$build_dir" -L "$label" -j "$(nproc 2>/dev/null || echo 2)" --output-on-failure --timeout 600 \
    "${ctest_args[@]+"${ctest_args[@]}"}"
done
