#!/usr/bin/env bash
# Installs what is missing (Debian packages only) and builds lightrail into
# ./build. Used by demo.sh, test.sh and CI.
set -euo pipefail
cd "$(dirname "$0")/.."

# clang and libclang-rt-dev (libFuzzer, ASan, UBSan runtimes) build the fuzz
# targets (docs/fuzzing.md); libclang-rt-dev is only recommended by clang.
# python3 plays a silent listener in a server test and runs the daemon's Python
# client test; libboost-dev has Boost.Beast (the daemon's HTTP, header-only).
# dpkg-dev (dpkg-shlibdeps) and file let `cpack -G DEB` work out the
# package's run-time dependencies (test install.deb_package); lintian checks
# the packages there, and man-db (man) renders the man pages in
# install.cli_docs (docs/packaging.md).
# python3-dev, pybind11-dev and python3-pytest build and test the Python
# binding (docs/python.md). python3-matplotlib draws the pictures
# (lightrail-plot, `--plot`: docs/plots.md) under Debian's /usr/bin/python3.
# tcl (tclsh) runs the vendor Tcl scripts and XDC under stand-ins for the
# vendor commands (tests/board, docs/board.md). libopenmpi-dev and openmpi-bin
# split a co-simulation's boards over processes (mpirun; docs/cosim.md).
# z3 is the solver under yosys-smtbmc (tests/formal); lcov reports the kernels'
# C++ coverage (docs/coverage.md).
packages=(cmake make g++ pkg-config verilator libsystemc-dev libboost-dev iverilog yosys
          nlohmann-json3-dev libcli11-dev libfmt-dev libspdlog-dev libgtest-dev libbenchmark-dev
          clang libclang-rt-dev python3 python3-dev pybind11-dev python3-pytest python3-matplotlib
          dpkg-dev file lintian man-db tcl libopenmpi-dev openmpi-bin z3 lcov python3-torch python3-jsonschema
          libsystemd-dev libssl-dev ccache)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo=""
  [ "$(id -u)" = 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" > /dev/null
fi

# Through ccache, with paths taken relative to the tree: the scratch copies
# that scripts/mutate.py and scripts/faults.py build (tests mutation.sample,
# faults.system) then compile only what their one-line edit changed.
launcher=()
if command -v ccache > /dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="$PWD"
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release "${launcher[@]}" > build-configure.log || { cat build-configure.log; exit 1; }
grep -E "not found|skipping|skipped" build-configure.log || true
cmake --build build -j "$(nproc)"
