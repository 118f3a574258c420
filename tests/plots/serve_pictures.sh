#!/usr/bin/env bash
# `lightrail-cosim serve --sync star --plot DIR`: drawn when `stop` ends it,
# from the report it wrote (DIR/report.json without --report).
#   serve_pictures.sh LIGHTRAIL_COSIM SOURCE_DIR WORK_DIR
set -euo pipefail
cosim=$1 src=$2 work=$3/serve_pictures
rm -rf "$work" && mkdir -p "$work"
"$cosim" serve --boards 2 --sync star --port 0 --port-file "$work/port" --plot "$work/plots" > "$work/serve.log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || { echo "FAIL: no port file: $(cat "$work/serve.log")"; exit 1; }
sleep 2  # some hundred microseconds of board time: PPS edges to draw
"$cosim" stop --port "$(cat "$work/port")"
rc=0
wait $pid || rc=$?
trap - EXIT
cat "$work/serve.log"
[ "$rc" = 0 ] || { echo "FAIL: serve exited $rc"; exit 1; }
[ -s "$work/plots/report.json" ] || { echo "FAIL: no DIR/report.json"; exit 1; }
"$src/tests/plots/check_pictures.py" "$work/plots" clock-offset
