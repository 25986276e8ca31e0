#!/usr/bin/env bash
# Set up (install missing packages, build) and run the default test tier (ctest label `quick`).
# --sanitize: build build-asan/ (AddressSanitizer + UndefinedBehaviorSanitizer, via
# `setup.sh --sanitize`) and run the quick tier there instead; the sanitizer options the tests
# need are in their ctest ENVIRONMENT (testbench/CMakeLists.txt).
# Other arguments go to ctest, e.g. `scripts/test.sh -L long` adds the long tier.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$root/build"
setup_args=()
ctest_args=()
for arg in "$@"; do
  case "$arg" in
    --sanitize) build_dir="$root/build-asan"; setup_args=(--sanitize) ;;
    *) ctest_args+=("$arg") ;;
  esac
done
"$root/scripts/setup.sh" "${setup_args[@]+"${setup_args[@]}"}"
export SC_COPYRIGHT_MESSAGE=DISABLE
ctest --test-dir "$build_dir" -L quick -j "$(nproc 2>/dev/null || echo 2)" --output-on-failure --timeout 600 \
  "${ctest_args[@]+"${ctest_args[@]}"}"
