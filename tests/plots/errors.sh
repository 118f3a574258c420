#!/usr/bin/env bash
# --plot fails clearly, and before any work: lightrail-plot not found, or
# matplotlib missing (a stand-in program exiting 3 as lightrail-plot does
# without it); lightrail-plot refuses what is not lightrail's output.
#   errors.sh LIGHTRAIL LIGHTRAIL_COSIM SOURCE_DIR WORK_DIR
set -uo pipefail
cli=$1 cosim=$2 src=$3 work=$4/plot_errors
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*"; exit 1; }
# expect CODE PATTERN CMD...: CMD exits CODE and its stderr matches PATTERN.
expect() {
  local code=$1 pattern=$2
  shift 2
  "$@" > "$work/out" 2> "$work/err"
  local got=$?
  [ "$got" = "$code" ] || fail "$* exited $got, not $code: $(cat "$work/err")"
  grep -qE -- "$pattern" "$work/err" || fail "$*: stderr lacks /$pattern/: $(cat "$work/err")"
}
printf '#!/bin/sh\necho "lightrail-plot: matplotlib is missing" >&2\nexit 3\n' > "$work/no-matplotlib"
chmod +x "$work/no-matplotlib"
LIGHTRAIL_PLOT=$work/no-matplotlib expect 7 "matplotlib is missing \(apt-get install python3-matplotlib\)" \
  "$cli" eval "$src/experiments/opus.json" --plot "$work/p1"
LIGHTRAIL_PLOT=$work/absent expect 7 "LIGHTRAIL_PLOT=.*absent is not an executable file" \
  "$cli" eval "$src/experiments/opus.json" --plot "$work/p2"
[ ! -e "$work/p2/opus.json" ] || fail "eval wrote its data although no picture could be made"
# The co-simulation learns it before the run: at once, with no report.
start=$(date +%s)
LIGHTRAIL_PLOT=$work/no-matplotlib expect 4 "--plot .*matplotlib is missing" \
  "$cosim" run "$src/tests/plots/pictures.json" --plot "$work/p3"
[ $(($(date +%s) - start)) -lt 5 ] || fail "lightrail-cosim ran the scenario before finding matplotlib missing"
[ ! -e "$work/p3/report.json" ] || fail "a report was written"
plot=$(dirname "$cosim")/lightrail-plot
echo '{"kind": "opus"}' > "$work/not-a-report.json"
expect 2 "not a lightrail-cosim report" "$plot" cosim "$work/not-a-report.json" --out "$work/p4"
expect 1 "opus result: columns \[\] lack" "$plot" eval "$work/not-a-report.json" --out "$work/p4"
echo '{"kind": "nope"}' > "$work/nope.json"
expect 2 "\"kind\" is 'nope'" "$plot" eval "$work/nope.json" --out "$work/p4"
echo '{"boards": [{"board": 0, "edge_traces": []}], "sync": null}' > "$work/empty-report.json"
expect 1 "no picture: timeline" "$plot" cosim "$work/empty-report.json" --out "$work/p5"
echo PASS
