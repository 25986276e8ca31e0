#!/usr/bin/env bash
# Set up (install missing packages, build) and run the default test tier (ctest label `quick`).
# Extra arguments go to ctest, e.g. `scripts/test.sh -L long` adds the long tier.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
"$root/scripts/setup.sh"
export SC_COPYRIGHT_MESSAGE=DISABLE
ctest --test-dir "$root/build" -L quick -j "$(nproc 2>/dev/null || echo 2)" --output-on-failure --timeout 600 "$@"
