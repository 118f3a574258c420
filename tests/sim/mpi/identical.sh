#!/usr/bin/env bash
# Issue 13 acceptance 2: one scenario on 1, 2 and 4 MPI ranks gives the same
# report, field by field, but for wall-time figures and the rank count.
#   identical.sh MPIRUN COSIM SCENARIO
set -euo pipefail
mpirun=$1 cosim=$2 scenario=$3
here=$(dirname "$0")
source "$here/mpi_lib.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for n in 1 2 4; do
  "$mpirun" -np "$n" "$cosim" run "$scenario" --report "$work/np$n.json" > "$work/np$n.log" 2>&1 ||
    { echo "FAIL: $n ranks exited $?"; cat "$work/np$n.log"; exit 1; }
  head -2 "$work/np$n.log"
done
python3 "$here/compare_reports.py" "$work/np1.json" "$work/np2.json" "$work/np4.json"
for n in 1 2 4; do
  python3 -c "import json,sys; p=json.load(open(sys.argv[1]))['partition']; assert p['ranks']==$n, p" "$work/np$n.json"
done
echo PASS
