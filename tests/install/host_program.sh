#!/usr/bin/env bash
# Issue 12, section 1: the build installed into a scratch prefix is usable
# from outside the tree. examples/host_program is configured against it with
# find_package (shared, then static libraries), run against a board of the
# installed `lightrail-cosim serve`, and must leave the schedule running
# (checked with the installed CLI). A one-file program builds with
# `pkg-config --cflags --libs lightrail` alone.
#   host_program.sh BUILD_DIR SOURCE_DIR CXX SOVERSION VERSION
set -euo pipefail
build=$1 src=$2 cxx=$3 soversion=$4 version=$5
source "$src/tests/sim/cli_lib.sh"  # work, fail, start_serve, dev, field

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || fail "install: $(cat "$work/install.log")"
cosim=$prefix/bin/lightrail-cosim cli=$prefix/bin/lightrail
[ -x "$cosim" ] && [ -x "$cli" ] || fail "the programs are not installed: $(ls -R "$prefix")"

# Each installed header stands alone with the prefix's include dir only,
# and reaches no private dependency (defs' hwdef.hpp, fmt, Boost, spdlog,
# CLI11): only the standard library and, for the planner's headers,
# nlohmann-json, which the package asks for. The driver's headers reach the
# standard library alone, and its internal headers (json_text.hpp,
# token_file.hpp, *_json*.hpp) are not installed.
for h in $(cd "$prefix/include" && find . -name '*.hpp' | sort); do
  deps=$("$cxx" -std=c++17 -M -x c++ -I"$prefix/include" "$prefix/include/$h" 2>&1) ||
    fail "$h does not preprocess alone: $deps"
  privates="hwdef.hpp /fmt/ /boost/ /spdlog/ /CLI/"
  [[ "$h" == ./lightrail/planner/* ]] || privates+=" /nlohmann/"
  for private in $privates; do
    [[ "$deps" != *"$private"* ]] || fail "$h includes a private dependency ($private): $deps"
  done
done
for internal in json_text.hpp token_file.hpp fabric_json.hpp schedule_json_value.hpp; do
  [ ! -e "$prefix/include/lightrail/$internal" ] || fail "the internal header $internal is installed"
done

# configure_and_build DIR [CMAKE_OPTIONS...]: the example, outside the tree.
configure_and_build() {
  local dir=$1
  shift
  cmake -S "$src/examples/host_program" -B "$dir" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_PREFIX_PATH="$prefix" "$@" > "$dir.log" 2>&1 || fail "configure: $(cat "$dir.log")"
  cmake --build "$dir" >> "$dir.log" 2>&1 || fail "build: $(cat "$dir.log")"
  # The package found must be the one just installed, not another on the system.
  local found
  found=$(grep '^lightrail_DIR:' "$dir/CMakeCache.txt")
  [[ "$found" == *"=$prefix/"* ]] || fail "found another lightrail: $found"
}
configure_and_build "$work/shared"
configure_and_build "$work/static" -DHOST_PROGRAM_STATIC=ON

# Shared: the SONAMEs carry major.minor and resolve into the prefix (the
# build tree's RPATH); static: no lightrail library is needed at run time.
libs=$(ldd "$work/shared/host_program")
for lib in planner driver; do
  [[ "$libs" == *"liblightrail_$lib.so.$soversion => $prefix/"* ]] || fail "liblightrail_$lib.so.$soversion not from $prefix: $libs"
done
libs=$(ldd "$work/static/host_program")
[[ "$libs" != *liblightrail* ]] || fail "the static build needs a lightrail library: $libs"

start_serve 1
board=$(dev 0)
"$work/shared/host_program" "$board" > "$work/run.out" 2>&1 || fail "host_program (shared): $(cat "$work/run.out")"
cat "$work/run.out"
status=$("$cli" status --device "$board" --json)
[ "$(field running <<< "$status")" = true ] || fail "not running: $status"
[ "$(field generation <<< "$status")" = 12 ] || fail "generation is not host_program's 12: $status"
[ "$(field swaps <<< "$status")" = 1 ] || fail "not swapped once: $status"

# The static build commits the same schedule again into the other bank.
"$work/static/host_program" "$board" > "$work/run.out" 2>&1 || fail "host_program (static): $(cat "$work/run.out")"
cat "$work/run.out"
status=$("$cli" status --device "$board" --json)
[ "$(field running <<< "$status")" = true ] && [ "$(field swaps <<< "$status")" = 2 ] ||
  fail "the second commit did not swap: $status"

# Failures exit non-zero: a schedule the board refuses, no file, no board.
"$work/shared/host_program" "$board" "$src/examples/schedules/invalid.json" > "$work/out" 2>&1 &&
  fail "an invalid schedule was accepted: $(cat "$work/out")"
[[ "$(cat "$work/out")" == *'steps[3].config'* ]] || fail "the refusal does not name the entry: $(cat "$work/out")"
"$work/shared/host_program" "$board" "$work/no-such.json" > "$work/out" 2>&1 && fail "a missing file was accepted"
[[ "$(cat "$work/out")" == *no-such.json* ]] || fail "the error does not name the file: $(cat "$work/out")"
"$work/shared/host_program" "sim://127.0.0.1:1/0" > "$work/out" 2>&1 && fail "a closed port was accepted"
echo "refused as expected: $(tail -1 "$work/out")"
after=$("$cli" status --device "$board" --json)
[ "$(field generation <<< "$after")" = 12 ] && [ "$(field swaps <<< "$after")" = 2 ] ||
  fail "a refused run changed the board: $after"

"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
tail -1 "$work/serve.log"

# pkg-config alone: flags, a one-file program, linked against the .so files.
pc=$(find "$prefix" -name lightrail.pc)
[ -n "$pc" ] || fail "lightrail.pc is not installed"
PKG_CONFIG_PATH=$(dirname "$pc")
export PKG_CONFIG_PATH
[ "$(pkg-config --modversion lightrail)" = "$version" ] || fail "lightrail.pc says $(pkg-config --modversion lightrail)"
flags=$(pkg-config --cflags --libs lightrail)
echo "pkg-config --cflags --libs lightrail: $flags"
[[ "$flags" != *"$build"* && "$flags" != *"$src"* ]] || fail "the flags name the build or source tree: $flags"
# shellcheck disable=SC2086  # the flags are words
"$cxx" -std=c++17 "$src/tests/install/consumer/consumer.cpp" $flags -o "$work/consumer" ||
  fail "the one-file program did not build with pkg-config's flags"
# Issue 31, item 2: it runs without LD_LIBRARY_PATH (lightrail.pc's RPATH
# names the prefix's libdir).
env -u LD_LIBRARY_PATH "$work/consumer" || fail "the one-file program failed without LD_LIBRARY_PATH"
[[ "$(ldd "$work/consumer")" == *"liblightrail_driver.so.$soversion => $prefix/"* ]] ||
  fail "the one-file program does not load the prefix's library: $(ldd "$work/consumer")"
# The README's own two lines, with /opt/lightrail the scratch prefix and
# my_program.cpp the one-file program; its a.out runs as it is.
line="$(grep -m1 '^export PKG_CONFIG_PATH=/opt/lightrail/' "$src/README.md"); $(grep -m1 'pkg-config --cflags --libs lightrail)$' "$src/README.md")"
[[ "$line" == export*c++* ]] || fail "README.md has no pkg-config lines: $line"
line=${line//\/opt\/lightrail/$prefix}
line=${line//my_program.cpp/$src/tests/install/consumer/consumer.cpp}
mkdir "$work/readme"
(cd "$work/readme" && env -u PKG_CONFIG_PATH -u LD_LIBRARY_PATH bash -c "$line") > "$work/readme.log" 2>&1 ||
  fail "the README's pkg-config line: $line: $(cat "$work/readme.log")"
env -u LD_LIBRARY_PATH "$work/readme/a.out" || fail "the README's program does not run without LD_LIBRARY_PATH"
echo "the README's pkg-config line builds a program that runs without LD_LIBRARY_PATH"

# The installed CLI draws with the installed lightrail-plot, beside it in bin/.
[ -x "$prefix/bin/lightrail-plot" ] || fail "lightrail-plot is not installed"
env -u LIGHTRAIL_PLOT "$cli" eval "$src/experiments/opus.json" --plot "$work/plots" > "$work/plots.log" 2>&1 ||
  fail "the installed lightrail eval --plot: $(cat "$work/plots.log")"
[ -s "$work/plots/opus-overhead.png" ] && [ -s "$work/plots/opus-overhead.svg" ] ||
  fail "the installed lightrail eval --plot drew nothing: $(ls "$work/plots")"
echo "PASS"
