#!/usr/bin/env bash
# Builds lightrail (installing what is missing) and runs every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
# The fuzz targets build with clang into build-fuzz/ before CTest runs them
# briefly (test fuzz.bounded); 77: no libFuzzer here, that test then skips.
rc=0
bash scripts/fuzz.sh --build || rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || exit $rc
ctest --test-dir build --output-on-failure -j 2
