#!/usr/bin/env bash
# Issue 8 B: a real `lightrail-cosim serve` answers hostile request lines
# strictly. Out-of-map addresses are DECERR and reach no bus (they used to
# alias into the map), trailing junk and bad numbers are refused, a failed
# HELLO leaves no board, a legal 4096-word write runs, an over-long line is
# answered and the connection resyncs, TIME reports simulated time.
#   server_requests.sh COSIM
set -uo pipefail
cosim=$1
source "$(dirname "$0")/cli_lib.sh"
source "$(dirname "$0")/line_lib.sh"

start_serve 2
connect c || fail "cannot connect"
expect "$c" "HELLO 0" '^OK lightrail-cosim 2$'
expect "$c" "RD 0 1" '^OK 4c52414c$'  # the capability magic, for contrast

# Out of the 18-bit map: refused whole, before the bus.
expect "$c" "RD 40000 1" '^ERR DECERR at word 0 \(0x40000\): outside the 18-bit address map'
expect "$c" "RD fffffffc 1" '^ERR DECERR at word 0 '
expect "$c" "RD -4 1" '^ERR RD: address .-4. is not 1..8 hex digits'
expect "$c" "WR 40040 4" '^ERR DECERR at word 0 \(0x40040\).*nothing was written'
# The last words of bank 1 then one past the map's end: nothing written.
expect "$c" "RD 3fff8 2" '^OK 0 0$'
expect "$c" "WR 3fff8 11 22 33" '^ERR DECERR at word 2 \(0x40000\)'
expect "$c" "RD 3fff8 2" '^OK 0 0$'
expect "$c" "RD 3f000 1025" '^ERR DECERR at word 1024 \(0x40000\)'

# Strict numbers and fields.
expect "$c" "RD 60 1e3" "^ERR RD: count '1e3' is not a decimal number"
expect "$c" "RD 60 1 junk" '^ERR RD takes two arguments'
expect "$c" "RD 0x60 1" '^ERR RD: address'
expect "$c" "TIME now" '^ERR TIME takes no arguments'
expect "$c" "WR 3fff8 1 2g" "^ERR WR: word 1 '2g' is not 1..8 hex digits"
expect "$c" "RD 3fff8 1" '^OK 0$'
expect "$c" "$(printf 'TIME\x01')" '^ERR request has a byte 0x01'
# A refused write stops at its word and says how far it went (the
# capability block is read-only).
expect "$c" "WR 0 1 2" '^ERR (SLVERR|DECERR) at word 0 \(0x00000\): the board refused it; nothing was written$'

# A failed HELLO keeps no board; "HELLO x" names what is wrong.
expect "$c" "HELLO 1" '^OK lightrail-cosim 2$'
expect "$c" "HELLO 9" '^ERR no board 9 \(this server has boards 0..1\)$'
expect "$c" "RD 0 1" '^ERR say HELLO <board> first$'
expect "$c" "HELLO x" "^ERR HELLO: board 'x' is not a board number$"
expect "$c" "HELLO 1" '^OK'

# The longest legal request: 4096 eight-digit words at an eight-digit
# address, read back whole.
words=$(awk 'BEGIN { for (i = 0; i < 4096; i++) printf " %08x", (i * 2654435761 + 12345) % 4294967296 }')
expect "$c" "WR 00030000$words" '^OK$'
back=$(ask "$c" "RD 30000 4096")
want=$(echo "$words" | sed -e 's/ 0*\([0-9a-f]\)/ \1/g')
[ "$back" = "OK$want" ] || fail "4096 words read back differ: ${back:0:80}... vs OK${want:0:80}..."

# Over-long lines: one ERR each, then the connection is in step again.
long=$(head -c 40000 /dev/zero | tr '\0' 'A')
expect "$c" "$long" '^ERR request longer than [0-9]+ bytes'
expect "$c" "TIME" '^OK [0-9]+ [0-9]+$'
printf 'WR 00030000%s 00000001\nTIME\n' "$words" >&"$c"  # 4097 wide words: longer than any request
r1=$(reply "$c")
r2=$(reply "$c")
[[ $r1 =~ ^ERR\ request\ longer ]] || fail "4097-word line answered '${r1:0:100}'"
[[ $r2 =~ ^OK\ [0-9]+\ [0-9]+$ ]] || fail "TIME after the long line answered '$r2'"

# TIME carries the simulated time, and it advances.
t1=$(ask "$c" "TIME")
t2=$(ask "$c" "TIME")
fs1=${t1##* } fs2=${t2##* }
[[ $t1 =~ ^OK\ [0-9]+\ [0-9]+$ ]] || fail "TIME answered '$t1'"
[ "$fs1" -gt 0 ] || fail "TIME gives simulated time $fs1 fs"
[ "$fs2" -gt "$fs1" ] || fail "simulated time did not advance: $t1 then $t2"
expect "$c" "REPORT" '^OK \{"board":1,'

"$cosim" stop --port "$(cat "$work/port")" || fail "stop failed"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
echo "PASS"
