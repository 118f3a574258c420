#!/usr/bin/env bash
# Coverage figures of the RTL and the HLS kernels (docs/coverage.md), from
# one command:
#   scripts/coverage.sh            configure and build build-cov/, run, report
#   scripts/coverage.sh --no-run   report again from the counters of the last run
#                                  (out/coverage/rtl-dat/, merged again)
# 1. Builds build-cov/ with LIGHTRAIL_COVERAGE=ON: every verilated model with
#    Verilator --coverage, the kernels' C++ with gcov counters.
# 2. Runs the kernels' C-simulation tests, then captures their line and
#    branch counts (lcov, out/coverage/kernels.info, HTML in kernels/).
# 3. Runs the CI's co-simulation scenarios (sim.*) and the Verilator RTL
#    benches (hw_sync.*, hw.regfile/fine_edge/pps.*) with LIGHTRAIL_COVERAGE_DIR set: each process, and each MPI rank, writes
#    its counters to out/coverage/rtl-dat/; verilator_coverage merges them
#    (out/coverage/rtl.dat) and annotates the sources (rtl-annotated/).
# 4. Prints the figures (RTL line, branch, toggle per file; kernels line and
#    branch) to out/coverage/summary.txt and checks every uncovered line
#    against tests/coverage/uncovered.md.
# Exits 1 when a test failed or an uncovered line is not in the kept list.
# COVERAGE_TESTS=REGEX narrows step 3's tests (a quick look, not the figure).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=$root/build-cov
out=$root/out/coverage
run=1
case "${1:-}" in
  --no-run) run=0 ;;
  "") ;;
  *)
    echo "usage: scripts/coverage.sh [--no-run]" >&2
    exit 2
    ;;
esac
for tool in verilator_coverage lcov genhtml; do
  command -v $tool > /dev/null || {
    echo "coverage: $tool not found (scripts/setup.sh installs verilator and lcov)" >&2
    exit 2
  }
done
py=/usr/bin/python3
[ -x $py ] || py=python3

# Programs the runs need: the kernels' C-simulation tests, the co-simulation
# and the CLI its scenarios drive, the RTL benches.
kernel_tests=(hls_sequencer_tests hls_sync_tests hls_sync_top_tests hls_kernel_ports_tests hls_sequencer_top_tb
              hls_clock_sync_top_tb)
rtl_targets=(lightrail-cosim lightrail hw_sync_ddmtd_tests hw_sync_deglitch_tests hw_sync_rx_tests hw_sync_pps_tests
             hw_sync_osc_ctrl_tests hw_sync_link_tests hw_sync_link_pair_tests hw_regfile_bench hw_fine_edge_bench
             hw_pps_bench)
# sim.* that run no model: the server's parser, the probes' queue, field
# packing and the JSON reader, unit-tested on their own.
rtl_tests=${COVERAGE_TESTS:-'^(sim\.|hw_sync\.|hw\.(regfile|fine_edge|pps)\.)'}
rtl_skip='^sim\.(protocol|fifo|port_fields|json_inputs)\.|^hw_sync\.(lint|icarus_compile)$'

failed=0
if [ $run = 1 ]; then
  launcher=()
  if command -v ccache > /dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DLIGHTRAIL_COVERAGE=ON "${launcher[@]}" > /dev/null
  cmake --build "$build" -j 2 --target "${kernel_tests[@]}" "${rtl_targets[@]}"

  rm -rf "$out"
  mkdir -p "$out/rtl-dat"
  # Kernels: their C-simulation tests only (only they link the counted
  # kernels: cmake/lightrail_coverage.cmake).
  lcov --quiet --zerocounters --directory "$build"
  for t in "${kernel_tests[@]}"; do
    exe=$(find "$build/tests" -name "$t" -type f -perm -u+x | head -1)
    echo "coverage: $t"
    if ! (cd "$(dirname "$exe")" && "$exe" > "$out/$t.log" 2>&1); then
      echo "coverage: FAILED: $t (log: $out/$t.log)"
      failed=1
    fi
  done
  lcov --quiet --capture --directory "$build" --output-file "$out/all.info" --rc lcov_branch_coverage=1 \
    --rc geninfo_no_exception_branch=1
  lcov --quiet --extract "$out/all.info" "$root/hls/sequencer/*" "$root/hls/clock_sync/*" \
    --output-file "$out/kernels.info" --rc lcov_branch_coverage=1
  rm "$out/all.info"
  genhtml --quiet --branch-coverage --prefix "$root" --output-directory "$out/kernels" "$out/kernels.info"

  # RTL: every test that runs a model, each process writing its counters.
  echo "coverage: RTL tests from $(date -u +%H:%M:%S) UTC"
  if ! LIGHTRAIL_COVERAGE_DIR="$out/rtl-dat" ctest --test-dir "$build" -R "$rtl_tests" -E "$rtl_skip" -j 2 \
    --output-on-failure > "$out/ctest.log" 2>&1; then
    echo "coverage: FAILED: some tests failed under coverage:"
    grep -E '\(Failed\)|\(Timeout\)|\*\*\*' "$out/ctest.log" || true
    failed=1
  fi
  grep -E '^[0-9]+% tests passed|^Total Test time' "$out/ctest.log" || true
  echo "coverage: RTL tests done at $(date -u +%H:%M:%S) UTC"
fi

# The RTL counters merged from every process's file (again with --no-run:
# files a test wrote since, with LIGHTRAIL_COVERAGE_DIR=out/coverage/rtl-dat,
# count too).
if compgen -G "$out/rtl-dat/*.dat" > /dev/null; then
  dats=("$out"/rtl-dat/*.dat)
  echo "coverage: merging ${#dats[@]} counter files"
  verilator_coverage --write "$out/rtl.dat" "${dats[@]}" > /dev/null
fi

[ -f "$out/rtl.dat" ] && [ -f "$out/kernels.info" ] || {
  echo "coverage: no counters in $out: run scripts/coverage.sh first" >&2
  exit 2
}
rm -rf "$out/rtl-annotated"
verilator_coverage --annotate "$out/rtl-annotated" --annotate-min 1 "$out/rtl.dat" > /dev/null
report=0
$py "$root/tests/coverage/report.py" --root "$root" --rtl "$out/rtl.dat" --kernels "$out/kernels.info" \
  --kept "$root/tests/coverage/uncovered.md" --json "$out/summary.json" | tee "$out/summary.txt" || report=$?
echo "coverage: report in $out (summary.txt; rtl-annotated/; kernels/index.html)"
[ $failed = 0 ] && [ $report = 0 ]
