#!/usr/bin/env bash
# Issue 8 B: `serve --token-file`: WR and SHUTDOWN need AUTH <token>, reads
# stay open; a token file others could read is refused at start;
# `stop --token-file` sends the token.
#   server_token.sh COSIM
set -uo pipefail
cosim=$1
source "$(dirname "$0")/cli_lib.sh"
source "$(dirname "$0")/line_lib.sh"

tok=$work/token
printf 'lightrail-test-token-0123456789\n' > "$tok"

# A file group or others may read: refused, saying why and what to do.
chmod 644 "$tok"
"$cosim" serve --boards 1 --port 0 --token-file "$tok" > "$work/out" 2>&1
rc=$?
[ "$rc" = 2 ] || fail "serve with a 0644 token file exited $rc, not 2"
grep -q "token file $tok: group or others may use it (mode 0644).*chmod 600" "$work/out" ||
  fail "no clear refusal: $(cat "$work/out")"
chmod 600 "$tok"
printf 'short\n' > "$work/short"
chmod 600 "$work/short"
"$cosim" serve --boards 1 --port 0 --token-file "$work/short" > "$work/out" 2>&1
[ $? = 2 ] && grep -q "the token must be 16..256 characters" "$work/out" || fail "short token: $(cat "$work/out")"
if [ "$(id -u)" = 0 ]; then
  cp "$tok" "$work/theirs"
  chown 65534 "$work/theirs"
  "$cosim" serve --boards 1 --port 0 --token-file "$work/theirs" > "$work/out" 2>&1
  [ $? = 2 ] && grep -q "owned by uid 65534, not by this user" "$work/out" || fail "foreign token file: $(cat "$work/out")"
fi

start_serve 1 --token-file "$tok"
connect a || fail "cannot connect"
connect b || fail "cannot connect"
expect "$a" "HELLO 0" '^OK lightrail-cosim 1$'
expect "$a" "RD 0 1" '^OK 4c52414c$'
expect "$a" "TIME" '^OK [0-9]+ [0-9]+$'
expect "$a" "REPORT" '^OK \{'
expect "$a" "WR 30000 5" '^ERR WR needs AUTH <token> first'
expect "$a" "SHUTDOWN" '^ERR SHUTDOWN needs AUTH <token> first'
expect "$a" "AUTH lightrail-test-token-012345678X" '^ERR AUTH refused: wrong token$'
expect "$a" "WR 30000 5" '^ERR WR needs AUTH'
expect "$a" "RD 30000 1" '^OK 0$'
expect "$a" "AUTH lightrail-test-token-0123456789" '^OK$'
expect "$a" "WR 30000 5" '^OK$'
expect "$a" "RD 30000 1" '^OK 5$'
# Per connection: another one is still locked.
expect "$b" "SHUTDOWN" '^ERR SHUTDOWN needs AUTH'
expect "$b" "HELLO 0" '^OK'
expect "$b" "WR 30000 6" '^ERR WR needs AUTH'
# A wrong AUTH undoes an earlier one.
expect "$a" "AUTH lightrail-test-token-000000000000" '^ERR AUTH refused'
expect "$a" "WR 30000 7" '^ERR WR needs AUTH'
expect "$a" "RD 30000 1" '^OK 5$'

port=$(cat "$work/port")
"$cosim" stop --port "$port" --timeout-ms 20000 2> "$work/err"
rc=$?
[ "$rc" = 3 ] || fail "stop without the token exited $rc, not 3"
grep -q "SHUTDOWN refused: ERR SHUTDOWN needs AUTH" "$work/err" || fail "stop without the token said: $(cat "$work/err")"
kill -0 "$serve_pid" || fail "the server ended on an unauthenticated SHUTDOWN"
"$cosim" stop --port "$port" --timeout-ms 20000 --token-file "$tok" || fail "stop with the token failed"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
echo "PASS"
