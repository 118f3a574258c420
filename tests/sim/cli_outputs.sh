#!/usr/bin/env bash
# Issue 8 B: lightrail-cosim's files, exit codes and command line. The
# report is removed at start (a killed run leaves none, not a stale one) and
# written whole; an output it cannot write is exit 4, not the FAIL verdict's
# 1; `stop` gives up on a listener that never answers; numbers on the
# command line are plain decimal; JSON inputs are read strictly.
#   cli_outputs.sh COSIM
set -uo pipefail
cosim=$1
source "$(dirname "$0")/cli_lib.sh"
# guard SECONDS CMD...: runs CMD, killed if it hangs (exit 124).
guard() { timeout --kill-after=5 "$@"; }

# A stale report goes at start; kill -9 leaves no report at all.
echo '{"ok": true}' > "$work/report.json"
start_serve 1
[ -e "$work/report.json" ] && fail "the old report is still there while serving"
kill -9 "$serve_pid"
wait "$serve_pid" 2>/dev/null
serve_pid=
[ -e "$work/report.json" ] && fail "a killed run left a report"

# A normal end: a complete report, no temporary file beside it.
rm -f "$work/port"
start_serve 1
guard 60 "$cosim" stop --port "$(cat "$work/port")" || fail "stop failed"
wait "$serve_pid" || fail "serve failed"
serve_pid=
grep -q '"ok": true' "$work/report.json" || fail "no report after stop"
tail -c 2 "$work/report.json" | grep -q '}' || fail "report incomplete"
ls "$work" | grep -q 'report.json.tmp' && fail "a temporary report file was left: $(ls "$work")"

# The report cannot be written at the end (its path became a directory):
# exit 4, after the summary.
rm -f "$work/port"
start_serve 1
mkdir "$work/report.json"
guard 60 "$cosim" stop --port "$(cat "$work/port")" || fail "stop failed"
wait "$serve_pid"
rc=$?
serve_pid=
[ "$rc" = 4 ] || fail "an unwritable report exited $rc, not 4"
grep -q "^PASS: " "$work/serve.log" || fail "no summary before the report error"
grep -q "cannot write the report $work/report.json: Is a directory" "$work/serve.log" || fail "no word of the report"
rmdir "$work/report.json"

# Outputs that cannot be written are known at start (exit 4, nothing runs).
for args in "--report $work/no/such/dir/r.json" "--port-file $work/no/such/dir/port" \
  "--waveform $work/no/such/dir/wave-"; do
  guard 60 "$cosim" serve --boards 1 --port 0 $args > "$work/out" 2>&1
  rc=$?
  [ "$rc" = 4 ] || fail "serve $args exited $rc, not 4: $(cat "$work/out")"
  grep -q "cannot write the" "$work/out" || fail "serve $args: $(cat "$work/out")"
done
guard 60 "$cosim" generate '{"steps": 10, "step_ps": 20000}' -o "$work/no/such/dir/s.json" 2> "$work/err"
[ $? = 4 ] || fail "generate into a missing directory: $(cat "$work/err")"

# Bad input is 2: duplicate JSON keys, numbers that are not decimal.
guard 60 "$cosim" generate '{"steps": 10, "steps": 20, "step_ps": 20000}' -o "$work/s.json" 2> "$work/err"
[ $? = 2 ] && grep -q 'steps' "$work/err" || fail "a duplicate recipe key: $(cat "$work/err")"
[ -e "$work/s.json" ] && fail "a refused recipe wrote a schedule"
printf '{"lightrail_scenario": 1, "boards": 1, "boards": 2, "duration_ps": 1000}\n' > "$work/dup.json"
guard 60 "$cosim" run "$work/dup.json" 2> "$work/err"
[ $? = 2 ] && grep -q 'boards' "$work/err" || fail "a duplicate scenario key: $(cat "$work/err")"
for v in 0x50 010x +5 " 80" 1e3; do
  guard 60 "$cosim" stop --port "$v" 2> "$work/err"
  [ $? = 2 ] && grep -q "is not a decimal number" "$work/err" || fail "stop --port '$v': $(cat "$work/err")"
done
guard 60 "$cosim" stop --port 70000 2> /dev/null
[ $? = 2 ] || fail "stop --port 70000 was not refused"
guard 60 "$cosim" serve --boards 0x2 --port 0 2> /dev/null
[ $? = 2 ] || fail "serve --boards 0x2 was not refused"

# `stop` against a listener that accepts and never answers: exit 3, said.
python3 -c '
import socket, sys, time
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen()
print(s.getsockname()[1], flush=True)
c, _ = s.accept()
time.sleep(120)
' > "$work/silent.port" &
silent=$!
for _ in $(seq 100); do [ -s "$work/silent.port" ] && break; sleep 0.05; done
guard 60 "$cosim" stop --port "$(cat "$work/silent.port")" --timeout-ms 1000 2> "$work/err"
rc=$?
kill "$silent" 2>/dev/null
[ "$rc" = 3 ] || fail "stop against a silent listener exited $rc, not 3"
grep -q "no answer within 1000 ms (waiting for the reply)" "$work/err" || fail "stop said: $(cat "$work/err")"
echo "PASS"
