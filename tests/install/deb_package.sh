#!/usr/bin/env bash
# Issue 12, section 1: `cpack -G DEB` makes lightrail_<version>_<arch>.deb
# holding the programs, both libraries (SONAME links too), the headers, the
# CMake package and lightrail.pc, depending on every Debian package whose
# libraries its programs link; no installed text names the build machine's
# trees. Unpacked into a scratch directory (not installed: no root or
# container needed), find_package and pkg-config work from that prefix.
#   deb_package.sh BUILD_DIR SOURCE_DIR CXX SOVERSION VERSION
set -euo pipefail
build=$1 src=$2 cxx=$3 soversion=$4 version=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
for tool in dpkg-deb dpkg-shlibdeps file readelf pkg-config; do
  command -v "$tool" > /dev/null || fail "$tool is missing (scripts/setup.sh installs dpkg-dev, file, pkg-config)"
done

cpack -G DEB -B "$work/cpack" --config "$build/CPackConfig.cmake" > "$work/cpack.log" 2>&1 ||
  fail "cpack: $(cat "$work/cpack.log")"
debs=("$work"/cpack/lightrail_"$version"_*.deb)
[ ${#debs[@]} = 1 ] && [ -f "${debs[0]}" ] || fail "no single lightrail_${version}_*.deb: $(ls "$work/cpack")"
deb=${debs[0]}
echo "built $(basename "$deb")"

# The file list. Paths as dpkg-deb prints them ("./usr/..."), symlinks with
# " -> target"; libdir is wherever lightrail.pc went (lib or lib/<triplet>).
dpkg-deb -c "$deb" | sed 's/^\([^ ]* *\)\{5\}//' > "$work/list"
has() { grep -qxF -- "$1" "$work/list" || fail "the package lacks $1"; }
pc_entry=$(grep -x '\./usr/.*/pkgconfig/lightrail\.pc' "$work/list" || true)
[ -n "$pc_entry" ] || fail "the package has no lightrail.pc: $(cat "$work/list")"
libdir=${pc_entry%/pkgconfig/lightrail.pc}
libdir=${libdir#.}
has ./usr/bin/lightrail
has ./usr/bin/lightrail-cosim
has ./usr/bin/lightraild
has ./usr/bin/lightrail-plot
for lib in driver planner; do
  name=liblightrail_$lib
  has ".$libdir/$name.a"
  has ".$libdir/$name.so.$version"
  has ".$libdir/$name.so.$soversion -> $name.so.$version"
  has ".$libdir/$name.so -> $name.so.$soversion"
done
has ./usr/include/lightrail/device.hpp
# The Python package, when this build has it (python/binding/).
site=$(grep '^LIGHTRAIL_PYTHON_INSTALL_DIR:' "$build/CMakeCache.txt" | sed 's/^[^=]*=//' || true)
if [ -d "$build/python/lightrail" ] && [ -n "$site" ]; then
  has "./usr/$site/lightrail/__init__.py"
  has "./usr/$site/lightrail/py.typed"
fi
has ./usr/include/lightrail/schedule_json.hpp
has ./usr/include/lightrail/planner/opus.hpp
for f in lightrailConfig lightrailConfigVersion lightrailTargets; do has ".$libdir/cmake/lightrail/$f.cmake"; done
# Private headers stay out: hwdef.hpp belongs to the sources only.
! grep -q 'hwdef' "$work/list" || fail "a private header is packaged: $(grep hwdef "$work/list")"

x=$work/x
dpkg-deb -x "$deb" "$x"
for lib in driver planner; do
  soname=$(readelf -d "$x$libdir/liblightrail_$lib.so.$version")
  [[ "$soname" == *"Library soname: [liblightrail_$lib.so.$soversion]"* ]] || fail "liblightrail_$lib SONAME: $soname"
done

# Nothing installed as text may name the trees it was built from.
hits=$(grep -rlF -e "$build" -e "$src" -e /work/ "$x$libdir/cmake" "$x$libdir/pkgconfig" "$x/usr/include" || true)
[ -z "$hits" ] || fail "build-tree paths in: $hits"

# Depends: every package owning a library the ELF files link, and the ones
# building against the package needs (the nlohmann-json and fmt the build
# found; the CMake package asks for both).
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
needs=()
# owner PATH: the package that installed PATH (empty when none did).
owner() {
  local out
  out=$(dpkg -S "$1" 2> /dev/null) || return 0
  out=${out%%$'\n'*}
  echo "${out%%[:,]*}"
}
for elf in "$x"/usr/bin/* "$x$libdir"/*.so."$version"; do
  [[ "$(file -b "$elf")" == ELF* ]] || continue  # lightrail-plot is a Python script
  linked=$(LD_LIBRARY_PATH=$x$libdir ldd "$elf")
  # The libraries it links itself (NEEDED), as dpkg-shlibdeps reads them;
  # theirs come with the packages that carry them.
  needed=$(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
  for path in $(awk -v needed="$needed" 'BEGIN { n = split(needed, l, "\n"); for (i = 1; i <= n; i++) want[l[i]] = 1 }
                 $2 == "=>" && $3 ~ /^\// && ($1 in want) { print $3 }' <<< "$linked"); do
    [[ "$path" == "$x"/* ]] && continue
    pkg=$(owner "$path")
    [ -n "$pkg" ] || pkg=$(owner "$(realpath "$path")")
    [ -n "$pkg" ] || fail "no Debian package owns $path, which $(basename "$elf") links"
    needs+=("$pkg")
  done
done
for dir in fmt_DIR nlohmann_json_DIR; do
  found=$(grep "^$dir:" "$build/CMakeCache.txt" | sed 's/^[^=]*=//')
  pkg=$(owner "$found")
  [ -n "$pkg" ] || fail "no Debian package owns $found ($dir)"
  needs+=("$pkg")
done
for pkg in $(printf '%s\n' "${needs[@]}" | sort -u); do
  [[ ", $depends," == *", $pkg "* || ", $depends," == *", $pkg,"* ]] || fail "Depends lacks $pkg: $depends"
done

# The unpacked prefix used from a new directory: find_package with this
# version (and refused for another), then pkg-config.
consumer=$src/tests/install/consumer
cmake -S "$consumer" -B "$work/find" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_PREFIX_PATH="$x/usr" \
  -DLIGHTRAIL_VERSION="$soversion" > "$work/find.log" 2>&1 || fail "find_package: $(cat "$work/find.log")"
found=$(grep '^lightrail_DIR:' "$work/find/CMakeCache.txt")
[[ "$found" == *"=$x/usr/"* ]] || fail "found another lightrail: $found"
cmake --build "$work/find" >> "$work/find.log" 2>&1 || fail "build: $(cat "$work/find.log")"
"$work/find/consumer" || fail "the consumer built with find_package failed"
# 0.x: the next minor release may break the ABI, so it is not accepted.
next=${soversion%.*}.$((${soversion#*.} + 1))
if cmake -S "$consumer" -B "$work/find_next" -DCMAKE_PREFIX_PATH="$x/usr" -DLIGHTRAIL_VERSION="$next" \
  > "$work/find_next.log" 2>&1; then
  fail "find_package(lightrail $next) was satisfied by $version"
fi
grep -qF "requested version \"$next\"" "$work/find_next.log" || fail "not refused for its version: $(cat "$work/find_next.log")"
echo "find_package(lightrail $soversion) found $x/usr; $next refused"

export PKG_CONFIG_PATH=$x$libdir/pkgconfig
flags=$(pkg-config --cflags --libs lightrail)
[[ "$flags" == *"-I$x/"* ]] || fail "pkg-config's flags do not point into the unpacked prefix: $flags"
# shellcheck disable=SC2086  # the flags are words
"$cxx" -std=c++17 "$consumer/consumer.cpp" $flags -o "$work/pc_consumer" || fail "pkg-config build failed"
LD_LIBRARY_PATH=$x$libdir "$work/pc_consumer" || fail "the consumer built with pkg-config failed"
"$x/usr/bin/lightrail-cosim" --help > /dev/null || fail "the packaged lightrail-cosim does not run"
"$x/usr/bin/lightraild" --help > /dev/null || fail "the packaged lightraild does not run"
# The pictures program is found beside the packaged lightrail (its bin/).
[ -x "$x/usr/bin/lightrail-plot" ] || fail "the packaged lightrail-plot is not executable"
"$x/usr/bin/lightrail-plot" check || fail "the packaged lightrail-plot does not run (python3-matplotlib?)"
echo "PASS"
