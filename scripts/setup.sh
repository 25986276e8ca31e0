#!/usr/bin/env bash
# One-step set-up: install the Debian packages npusim needs (only those missing),
# then configure and build a Release build into build/, or with
#   --sanitize  build-asan/: the whole suite with AddressSanitizer + UndefinedBehaviorSanitizer (gcc);
#   --fuzz      build-fuzz/: the libFuzzer targets of testbench/fuzz (clang, ASan + UBSan, no gtest suite).
# The Release build includes the Python module (build/python/npusim); setup.sh makes Debian's
# python3 find it with a .pth file in that python3's user site-packages (README "Python").
#   --install[=PREFIX]  then also `cmake --install` it under PREFIX (default /usr/local, with sudo
#               when not writable): PREFIX/bin/npusim, PREFIX/share/npusim, and the module in
#               PREFIX/lib/python3/dist-packages (on Debian's python3 path for /usr/local).
# Idempotent: a second run installs nothing and rebuilds only what changed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$root/build"
cmake_args=(-DCMAKE_BUILD_TYPE=Release)
extra_packages=()
install_prefix=""
python_path=1
for arg in "$@"; do
  case "$arg" in
    --install) install_prefix=/usr/local ;;
    --install=*) install_prefix="${arg#--install=}" ;;
    --sanitize) build_dir="$root/build-asan"; cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DNPUSIM_SANITIZE=ON); python_path=0 ;;
    --fuzz) build_dir="$root/build-fuzz"
            cmake_args=(-DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ -DNPUSIM_FUZZ=ON -DNPUSIM_TESTS=OFF)
            extra_packages=(clang libclang-rt-14-dev); python_path=0 ;;  # clang++ and its libFuzzer runtime
    -h|--help) echo "usage: scripts/setup.sh [--sanitize | --fuzz] [--install[=PREFIX]]"; exit 0 ;;
    *) echo "setup.sh: unknown option '$arg'" >&2; exit 2 ;;
  esac
done

packages=(build-essential cmake ninja-build pkg-config libsystemc-dev libyaml-cpp-dev
          libfmt-dev nlohmann-json3-dev libcli11-dev googletest libgtest-dev libbenchmark-dev python3
          parallel pybind11-dev python3-dev python3-numpy python3-pytest
          chromium  # headless, for the HTML report test (system.HtmlReport*)
          gtkwave libgtk-3-bin  # GTKWave on broadway (broadwayd), for the save file test (system.GtkwSave*)
          "${extra_packages[@]+"${extra_packages[@]}"}")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq "${missing[@]}"
fi

jobs=$(nproc 2>/dev/null || echo 2)
cmake -S "$root" -B "$build_dir" -G Ninja "${cmake_args[@]}" > "$build_dir.configure.log" 2>&1 ||
  { cat "$build_dir.configure.log" >&2; exit 1; }
cmake --build "$build_dir" -j "$jobs"
echo "setup: built $build_dir/bin/npusim"
if [ "$python_path" = 1 ] && [ -d "$build_dir/python/npusim" ]; then
  # Debian's python3 (the module is built for it, cmake/python.cmake) imports npusim from the build.
  site=$(/usr/bin/python3 -m site --user-site)
  mkdir -p "$site"
  echo "$build_dir/python" > "$site/npusim.pth"
  echo "setup: python3 imports npusim from $build_dir/python ($site/npusim.pth)"
fi
if [ -n "$install_prefix" ]; then
  sudo_cmd=()
  mkdir -p "$install_prefix" 2>/dev/null || true
  [ -w "$install_prefix" ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" cmake --install "$build_dir" --prefix "$install_prefix"
  echo "setup: installed into $install_prefix (bin/npusim, share/npusim, lib/python3/dist-packages/npusim)"
fi
