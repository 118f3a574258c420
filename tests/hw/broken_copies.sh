#!/usr/bin/env bash
# Builds the module benches against each deliberately broken copy of hw/
# (tests/hw/broken/<bench>-<what>.patch) and checks that the bench fails on
# it: a bench that passes a broken design proves nothing (docs/hw.md,
# "Benches"). Prints one line per copy and the tests that caught it; exits 1
# if any copy passed its bench. Not a CTest (about a minute per copy).
#
#   bash tests/hw/broken_copies.sh [--icarus] [tests/hw/broken/X.patch ...]
#
# --icarus also runs the Icarus bench of the top (hw.icarus_tb) on each copy
# and says whether it catches it (for comparison; it does not change the exit).
#
# Each copy gets a scratch build under $BROKEN_WORK (default: a temporary
# directory) that configures this tree with LIGHTRAIL_HW_BENCH_RTL_DIR set to
# the patched copy and builds only that bench; ccache is used when set up.
set -euo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
work=${BROKEN_WORK:-$(mktemp -d)}
icarus=0
if [ "${1:-}" = --icarus ]; then
  icarus=1
  shift
fi
if [ $# -gt 0 ]; then
  patches=("$@")
else
  patches=("$src"/tests/hw/broken/*.patch)
fi
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi

missed=0
for patch in "${patches[@]}"; do
  patch=$(cd "$(dirname "$patch")" && pwd)/$(basename "$patch")
  name=$(basename "$patch" .patch)
  bench=hw_${name%%-*}_bench  # regfile-settle-4 -> hw_regfile_bench
  dir=$work/$name
  rm -rf "$dir"
  mkdir -p "$dir/hw"
  cp "$src"/hw/*.sv "$dir/hw/"
  (cd "$dir" && patch -s -p1 < "$patch")
  log=$dir/build.log
  if ! cmake -S "$src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" -DLIGHTRAIL_BUILD_SIM=OFF \
      -DLIGHTRAIL_PYTHON=OFF -DLIGHTRAIL_HW_BENCH_RTL_DIR="$dir/hw" > "$log" 2>&1 ||
    ! cmake --build "$dir/build" -j2 --target "$bench" >> "$log" 2>&1; then
    echo "$name: the broken copy does not build (see $log)"
    missed=1
    continue
  fi
  if "$dir/build/tests/hw/$bench" --gtest_brief=1 > "$dir/run.log" 2>&1; then
    echo "$name: PASSED $bench: the bench misses this bug"
    missed=1
  else
    caught=$(sed -n 's/^\[  FAILED  \] \([^ ,]*\).*/\1/p' "$dir/run.log" | sort -u)
    echo "$name: caught by $(echo "$caught" | wc -l) tests: $(echo "$caught" | tr '\n' ' ')"
  fi
  if [ $icarus = 1 ]; then
    if ctest --test-dir "$dir/build" -R '^hw\.icarus_tb$' > "$dir/icarus.log" 2>&1; then
      echo "$name: hw.icarus_tb passes (misses it)"
    else
      echo "$name: hw.icarus_tb fails (catches it)"
    fi
  fi
done
exit $missed
