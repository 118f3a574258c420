#!/usr/bin/env bash
# Runs the commit-and-wait tests (commit_wait_sim_test.cpp) against one board
# of `lightrail-cosim serve` on a loopback port.
#   commit_wait_sim.sh LIGHTRAIL_COSIM TEST_PROGRAM SOURCE_DIR
set -euo pipefail
cosim=$1 program=$2 src=$3
source "$src/tests/sim/cli_lib.sh"  # work, fail, start_serve, dev
start_serve 1
LIGHTRAIL_TEST_BOARD=$(dev 0) "$program" || fail "the commit-and-wait tests failed"
