#!/usr/bin/env bash
# Issue 12, section 2: the Python package installed into a scratch prefix
# imports from there alone (PYTHONPATH = the prefix's site directory, run
# from outside the tree), carries its stubs and py.typed, and
# examples/python/job_manager.py runs with it against a board of the
# installed `lightrail-cosim serve`.
#   python_package.sh BUILD_DIR SOURCE_DIR PYTHON SITE_DIR
set -euo pipefail
build=$1 src=$2 python=$3 site_dir=$4
source "$src/tests/sim/cli_lib.sh"  # work, fail, start_serve, dev

prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" > "$work/install.log" || fail "install: $(cat "$work/install.log")"
cosim=$prefix/bin/lightrail-cosim
pkg=$prefix/$site_dir/lightrail
for f in __init__.py __init__.pyi _lightrail.pyi py.typed; do
  [ -f "$pkg/$f" ] || fail "$pkg/$f is not installed: $(ls -R "$prefix/$site_dir" 2>&1)"
done
ls "$pkg"/_lightrail*.so > /dev/null 2>&1 || fail "no extension module in $pkg: $(ls "$pkg")"
# The installed module needs no lightrail shared library (it holds the driver).
! ldd "$pkg"/_lightrail*.so | grep -q liblightrail || fail "the module links a lightrail library: $(ldd "$pkg"/_lightrail*.so)"

cd "$work"
export PYTHONPATH=$prefix/$site_dir
where=$("$python" -c "import lightrail; print(lightrail.__file__)") || fail "import lightrail failed from $PYTHONPATH"
[[ "$where" == "$pkg/__init__.py" ]] || fail "imported another lightrail: $where"
"$python" -c "import lightrail; assert issubclass(lightrail.LeaseError, lightrail.BoardBusyError)" ||
  fail "the installed package lacks its exception classes"
echo "import lightrail: $where"

start_serve 1
"$python" "$src/examples/python/job_manager.py" --device "$(dev 0)" --generation 3 > "$work/run.out" 2>&1 ||
  fail "job_manager.py with the installed package: $(cat "$work/run.out")"
cat "$work/run.out"
grep -q '"generation": 3' "$work/run.out" || fail "the board does not run the job's generation"
"$cosim" stop --port "$(cat "$work/port")"
wait "$serve_pid" || fail "the simulation's checks failed"
serve_pid=
echo PASS
