#!/usr/bin/env bash
# Builds the fuzz targets (tests/fuzz, clang + libFuzzer + ASan + UBSan) into
# build-fuzz/ and runs them (docs/fuzzing.md).
#   scripts/fuzz.sh [SECONDS_PER_TARGET]  run each target that long (default 300)
#   scripts/fuzz.sh --ci                  bounded run for CTest: about 60 s for all targets
#   scripts/fuzz.sh --build               only build (scripts/test.sh, before CTest)
#   scripts/fuzz.sh --replay              run each target once on tests/fuzz/crashes/<target>/
# Prints per target: executions, executions per second and findings (crash,
# timeout, out-of-memory); exits 1 on any finding, 77 (skip) without
# clang's libFuzzer. FUZZ_TARGETS="schedule planner" limits the targets.
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/build-fuzz
fuzz_dir=$root/tests/fuzz

mode=long
seconds=300
case "${1:-}" in
  --ci) mode=ci ;;
  --build) mode=build ;;
  --replay) mode=replay ;;
  "") ;;
  *[!0-9]* | 0)
    echo "usage: scripts/fuzz.sh [SECONDS_PER_TARGET | --ci | --build | --replay]" >&2
    exit 2
    ;;
  *) seconds=$1 ;;
esac

skip() {
  echo "fuzz: SKIPPED: $*"
  exit 77
}
command -v clang++ > /dev/null || skip "clang++ not found (Debian: clang; scripts/setup.sh installs it)"
probe=$(mktemp -d)
trap 'rm -rf "$probe"' EXIT
echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' > "$probe/p.cpp"
clang++ -fsanitize=fuzzer,address,undefined "$probe/p.cpp" -o "$probe/p" 2> "$probe/err" ||
  skip "clang++ cannot link -fsanitize=fuzzer,address,undefined (Debian: libclang-rt-dev): $(head -c 300 "$probe/err")"

# One build at a time (CTest and a developer may both ask).
mkdir -p "$build"
exec 9> "$build/.lock"
flock 9
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$fuzz_dir" -B "$build" -DCMAKE_CXX_COMPILER=clang++ > "$build/configure.log" 2>&1 ||
    { cat "$build/configure.log"; exit 1; }
fi
started=$(date +%s)
if ! cmake --build "$build" -j "$(nproc)" > "$build/build.log" 2>&1; then
  grep -E "error|Error" "$build/build.log" | head -40
  echo "fuzz: build failed (log: $build/build.log)"
  exit 1
fi
flock -u 9
[ "$mode" = build ] && { echo "fuzz: targets built in $(($(date +%s) - started)) s ($build)"; exit 0; }

targets=()
for t in ${FUZZ_TARGETS:-schedule planner board_image json_text protocol routes}; do
  [ -x "$build/fuzz_$t" ] && targets+=("$t")
done
[ ${#targets[@]} -gt 0 ] || { echo "fuzz: no target built"; exit 1; }

# The kernel's seed images come from the driver, so they follow the format.
mkdir -p "$build/seeds/board_image"
"$build/make_board_seeds" "$build/seeds/board_image" examples/schedules/*.json tests/sim/data/*.json ||
  { echo "fuzz: make_board_seeds failed"; exit 1; }

# Per target: its seed corpus and its options. -max_len bounds the work of
# one input (docs/fuzzing.md): the planner's lists stay short, a bank image
# may fill the bank, a server line may be as long as the server reads.
seeds_of() { [ "$1" = board_image ] && echo "$build/seeds/board_image" || echo "$fuzz_dir/corpus/$1"; }
options_of() {
  case $1 in
    schedule) echo "-max_len=16384 -dict=$fuzz_dir/json.dict" ;;
    planner) echo "-max_len=2048 -dict=$fuzz_dir/json.dict" ;;
    board_image) echo "-max_len=65536" ;;
    json_text) echo "-max_len=8192 -dict=$fuzz_dir/json.dict" ;;
    protocol) echo "-max_len=40000 -dict=$fuzz_dir/protocol.dict" ;;
    routes) echo "-max_len=1024" ;;
  esac
}

if [ "$mode" = replay ]; then
  status=0
  for t in "${targets[@]}"; do
    shopt -s nullglob
    inputs=("$fuzz_dir/crashes/$t"/*)
    shopt -u nullglob
    for input in "${inputs[@]}"; do
      [ "$(basename "$input")" = README.md ] && continue
      if "$build/fuzz_$t" "$input" > "$build/replay.log" 2>&1; then
        echo "fixed:    $t ${input#"$root"/}"
      else
        echo "crashes:  $t ${input#"$root"/}: $(grep -m1 -E "FUZZ FAILURE|runtime error|ERROR: (Address|libFuzzer)" "$build/replay.log")"
        status=1
      fi
    done
  done
  exit $status
fi

if [ "$mode" = ci ]; then
  # About 60 s in all on CI's 2 cores; a hang costs the per-input timeout.
  seconds=$((60 / ${#targets[@]}))
  timeout=20
  seed=1
else
  timeout=25
  seed=0  # libFuzzer picks one (printed in the log)
fi

# UBSan reports come with their stack.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
printf '\nfuzz: %s s per target, per-input timeout %s s, ASan + UBSan\n' "$seconds" "$timeout"
rows=()
findings=0
for t in "${targets[@]}"; do
  work=$build/corpus/$t
  mkdir -p "$work" "$build/artifacts"
  log=$build/$t.log
  # New inputs go into the first corpus directory (the build tree); the
  # seeds are only read.
  # shellcheck disable=SC2046
  "$build/fuzz_$t" -max_total_time="$seconds" -timeout="$timeout" -rss_limit_mb=2048 -seed="$seed" \
    -print_final_stats=1 -artifact_prefix="$build/artifacts/$t-" $(options_of "$t") \
    "$work" "$(seeds_of "$t")" > "$log" 2>&1
  rc=$?
  execs=$(grep -a -m1 -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$')
  rate=$(grep -a -m1 -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$')
  if [ -z "$execs" ]; then  # no final stats (e.g. an out-of-memory exit): the last status line
    execs=$(grep -a -o '^#[0-9]*' "$log" | tail -1 | tr -d '#')
  fi
  corpus=$(find "$work" -type f | wc -l)
  finding=none
  if [ $rc -ne 0 ]; then
    findings=$((findings + 1))
    if grep -q "ERROR: libFuzzer: timeout" "$log"; then
      finding=timeout
    elif grep -q -E "out-of-memory|ERROR: libFuzzer: malloc" "$log"; then
      finding=out-of-memory
    else
      finding=crash
    fi
  fi
  rows+=("$(printf '%-12s %8s %12s %8s %8s  %-14s %6s' "$t" "$seconds" "${execs:-?}" "${rate:-?}" \
    "$([ $rc -eq 0 ] && echo 0 || echo 1)" "$finding" "$corpus")")
  if [ $rc -ne 0 ]; then
    echo "--- fuzz_$t: $finding (log: ${log#"$root"/})"
    grep -a -m1 -E "FUZZ FAILURE|runtime error|ERROR: (AddressSanitizer|libFuzzer)|==ERROR" "$log"
    grep -a -m1 "Test unit written to" "$log" | sed "s|$root/||g"
    # The top of the stack below the sanitizer, libFuzzer and fuzz_check.hpp frames.
    grep -a -E "^    #[0-9]+ " "$log" | sed -E 's/^ *#[0-9]+ 0x[0-9a-f]+ in //; :a; s/<[^<>]*>//g; ta' | cut -c1-160 |
      grep -v -E "fuzzer::|sanitizer|libc\.so|libc_start|abort|raise|pthread_kill|fuzz_check\.hpp|^_start|^main " |
      sed "s|$root/||g" | head -8
  fi
done

printf '\n%-12s %8s %12s %8s %8s  %-14s %6s\n' target seconds executions exec/s crashes finding corpus
printf '%s\n' "${rows[@]}"
echo "(executions: inputs run; with a finding, those before it; crashes: 1 = stopped by a finding)"
if [ $findings -ne 0 ]; then
  echo "fuzz: $findings target(s) with a finding: inputs in ${build#"$root"/}/artifacts/; reproduce with build-fuzz/fuzz_<target> FILE"
  exit 1
fi
echo "fuzz: no findings"
