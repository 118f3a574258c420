#!/usr/bin/env bash
# Issue 8 B: `lightrail-cosim serve` under many and idle connections. No
# thread per connection; beyond --max-connections one ERR line and close,
# while the others are served on; idle connections (silent, or stuck
# mid-line) are closed after --idle-timeout-ms; under a descriptor limit
# the cap follows it, so the server never runs out.
#   server_limits.sh COSIM
set -uo pipefail
cosim=$1
source "$(dirname "$0")/cli_lib.sh"
source "$(dirname "$0")/line_lib.sh"
threads() { ls "/proc/$serve_pid/task" | wc -l; }

start_serve 1 --max-connections 3 --idle-timeout-ms 2000
connect a || fail "cannot connect"
expect "$a" "HELLO 0" '^OK'
before=$(threads)
connect b && connect c || fail "cannot connect"
expect "$b" "HELLO 0" '^OK'
expect "$c" "HELLO 0" '^OK'
after=$(threads)
[ "$after" = "$before" ] || fail "threads went from $before to $after for two more connections"

# One beyond the cap: told why, then closed; the others go on.
connect d || fail "cannot connect"
r=$(reply "$d")
[[ $r =~ ^ERR\ too\ many\ connections:\ this\ server\ takes\ 3\ at\ once ]] || fail "4th connection got '$r'"
[ "$(reply "$d")" = "<eof>" ] || fail "the 4th connection stayed open"
expect "$a" "TIME" '^OK [0-9]+ [0-9]+$'
expect "$c" "RD 0 1" '^OK 4c52414c$'
# A closed connection frees its place.
exec {b}>&-
for _ in $(seq 100); do
  connect e || fail "cannot connect"
  r=$(ask "$e" "HELLO 0")
  [[ $r =~ ^OK ]] && break
  exec {e}>&-
  sleep 0.1
done
[[ $r =~ ^OK ]] || fail "no place after closing one connection: '$r'"

# Idle: a silent connection and one stuck in the middle of a line are
# closed; one that keeps asking is not (it asks 20 times as often as the
# timeout).
printf 'RD 0' >&"$c"
for _ in $(seq 30); do expect "$a" "TIME" '^OK'; sleep 0.1; done
[ "$(reply "$e")" = "<eof>" ] || fail "an idle connection was not closed"
[ "$(reply "$c")" = "<eof>" ] || fail "a connection stuck mid-line was not closed"
expect "$a" "TIME" '^OK'

"$cosim" stop --port "$(cat "$work/port")" || fail "stop failed"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=

# Fewer descriptors than the cap needs (issue 30, defect 9): the server
# lowers its cap to what ulimit -n leaves (keeping some in reserve) and says
# so; connections beyond it are told so and closed, accept() never runs
# out, and a place is free again once connections close.
rm -f "$work/port"
(
  ulimit -n 40
  exec "$cosim" serve --boards 1 --port 0 --port-file "$work/port" --max-connections 1000 > "$work/serve.log" 2>&1
) &
serve_pid=$!
for _ in $(seq 200); do [ -s "$work/port" ] && break; sleep 0.05; done
[ -s "$work/port" ] || fail "serve did not start"
grep -q "at most [0-9]* connections, not 1000: the descriptor limit" "$work/serve.log" || fail "no word of the lower cap"
fds=()
for _ in $(seq 60); do
  connect f || break
  fds+=("$f")
done
# (Silent when they came, the oldest made room for the newer ones.)
cap=$(sed -n 's/.*at most \([0-9]*\) connections.*/\1/p' "$work/serve.log")
served=0
for f in "${fds[@]}"; do
  r=$(ask "$f" "HELLO 0")
  [[ $r =~ ^OK ]] && served=$((served + 1))
done
[ "$served" -gt 0 ] && [ "$served" -le "$cap" ] || fail "$served of 60 connections served with a cap of $cap"
grep -q "cannot accept a connection" "$work/serve.log" && fail "accept() ran out of descriptors"
for f in "${fds[@]}"; do exec {f}>&-; done
ok=
for _ in $(seq 100); do
  if connect g; then
    r=$(ask "$g" "HELLO 0")
    exec {g}>&-
    [[ $r =~ ^OK ]] && ok=1 && break
  fi
  sleep 0.1
done
[ -n "$ok" ] || fail "the server did not recover after running out of descriptors: '$r'"
kill -0 "$serve_pid" || fail "the server died"
"$cosim" stop --port "$(cat "$work/port")" || fail "stop failed"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
echo "PASS"
