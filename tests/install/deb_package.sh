#!/usr/bin/env bash
# Issue 31, item 2: `cpack -G DEB` makes the Debian packages split by policy
# (docs/packaging.md): liblightrail<SOVERSION>, liblightrail-dev,
# lightrail-tools, lightraild, python3-lightrail. Each holds its own files
# and /usr/share/doc/<package>/{copyright,changelog.Debian.gz}; the library
# package activates the ldconfig trigger and has no maintainer scripts;
# only the -dev package depends on a -dev package; every package depends on
# the owner of each library its ELF files link; lintian reports no error,
# and every warning it gives is listed with its reason in docs/packaging.md.
# Unpacked together into a scratch prefix (not installed: no root or
# container needed), the programs run from there, find_package and
# pkg-config work, and the Python modules import.
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
# The Debian revision is the first entry of packaging/debian/changelog.
revision=$(sed -n '1s/^lightrail (\([^)]*\)).*/\1/p' "$src/packaging/debian/changelog")
[ "${revision%-*}" = "$version" ] || fail "packaging/debian/changelog starts at $revision, the project is $version"
lib=liblightrail$soversion
packages=("$lib" liblightrail-dev lightrail-tools lightraild python3-lightrail)
declare -A deb
for p in "${packages[@]}"; do
  found=("$work/cpack/${p}_${revision}"_*.deb)
  [ -f "${found[0]}" ] || fail "no ${p}_${revision}_*.deb: $(ls "$work/cpack")"
  deb[$p]=${found[0]}
done
n=$(find "$work/cpack" -maxdepth 1 -name '*.deb' | wc -l)
[ "$n" = ${#packages[@]} ] || fail "$n packages, expected ${packages[*]}: $(ls "$work/cpack")"
echo "built: $(cd "$work/cpack" && echo *.deb)"

# The file lists. Paths as dpkg-deb prints them ("./usr/..."), symlinks with
# " -> target"; libdir is wherever lightrail.pc went (lib/<triplet>).
for p in "${packages[@]}"; do
  dpkg-deb -c "${deb[$p]}" | sed 's/^\([^ ]* *\)\{5\}//' > "$work/$p.list"
done
has() { grep -qxF -- "$2" "$work/$1.list" || fail "$1 lacks $2"; }
pc_entry=$(grep -x '\./usr/.*/pkgconfig/lightrail\.pc' "$work/liblightrail-dev.list" || true)
[ -n "$pc_entry" ] || fail "liblightrail-dev has no lightrail.pc: $(cat "$work/liblightrail-dev.list")"
libdir=${pc_entry%/pkgconfig/lightrail.pc}
libdir=${libdir#.}
triplet=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
[ "$libdir" = "/usr/lib/$triplet" ] || fail "the libraries are in $libdir, not the multiarch /usr/lib/$triplet"
for name in driver planner; do
  has "$lib" ".$libdir/liblightrail_$name.so.$version"
  has "$lib" ".$libdir/liblightrail_$name.so.$soversion -> liblightrail_$name.so.$version"
  has liblightrail-dev ".$libdir/liblightrail_$name.so -> liblightrail_$name.so.$soversion"
  has liblightrail-dev ".$libdir/liblightrail_$name.a"
done
has liblightrail-dev ./usr/include/lightrail/device.hpp
has liblightrail-dev ./usr/include/lightrail/planner/opus.hpp
for f in lightrailConfig lightrailConfigVersion lightrailTargets; do
  has liblightrail-dev ".$libdir/cmake/lightrail/$f.cmake"
done
for program in lightrail lightrail-cosim; do
  has lightrail-tools "./usr/bin/$program"
  has lightrail-tools "./usr/share/man/man1/$program.1.gz"
  has lightrail-tools "./usr/share/bash-completion/completions/$program"
done
has lightrail-tools ./usr/bin/lightrail-plot
has lightrail-tools ./usr/share/lightrail/lightrail-cosim.image.json
has lightrail-tools ./usr/share/doc/lightrail-tools/README.md
has lightraild ./usr/bin/lightraild
has lightraild ./usr/share/man/man1/lightraild.1.gz
if [ -f "$src/packaging/systemd/lightraild.service" ]; then
  has lightraild ./usr/lib/systemd/system/lightraild.service
fi
site=$(grep '^LIGHTRAIL_PYTHON_INSTALL_DIR:' "$build/CMakeCache.txt" | sed 's/^[^=]*=//' || true)
[ -n "$site" ] || site=lib/python3/dist-packages
has python3-lightrail "./usr/$site/lightrail_client.py"
if [ -d "$build/python/lightrail" ]; then
  has python3-lightrail "./usr/$site/lightrail/__init__.py"
  has python3-lightrail "./usr/$site/lightrail/py.typed"
fi
for p in "${packages[@]}"; do
  has "$p" "./usr/share/doc/$p/copyright"
  has "$p" "./usr/share/doc/$p/changelog.Debian.gz"
done
# Each file in one package only, and private headers in none.
dups=$(for p in "${packages[@]}"; do grep -v '/$' "$work/$p.list"; done | sort | uniq -d)
[ -z "$dups" ] || fail "files in more than one package: $dups"
! grep -q hwdef "$work/liblightrail-dev.list" || fail "a private header is packaged"

# The library package: ldconfig by trigger, no maintainer scripts, a shlibs
# file naming the package.
dpkg-deb -e "${deb[$lib]}" "$work/control"
grep -qx 'activate-noawait ldconfig' "$work/control/triggers" 2> /dev/null ||
  fail "$lib does not activate the ldconfig trigger: $(ls "$work/control")"
for s in preinst postinst prerm postrm; do
  [ ! -e "$work/control/$s" ] || fail "$lib has a $s: $(cat "$work/control/$s")"
done
grep -q "^liblightrail_driver $soversion $lib " "$work/control/shlibs" ||
  fail "$lib's shlibs: $(cat "$work/control/shlibs" 2>&1)"

# Unpacked together into one prefix.
x=$work/x
for p in "${packages[@]}"; do dpkg-deb -x "${deb[$p]}" "$x"; done
for name in driver planner; do
  soname=$(readelf -d "$x$libdir/liblightrail_$name.so.$version")
  [[ "$soname" == *"Library soname: [liblightrail_$name.so.$soversion]"* ]] || fail "liblightrail_$name SONAME: $soname"
done
zcat "$x/usr/share/doc/lightrail-tools/changelog.Debian.gz" | head -1 | grep -qF "($revision)" ||
  fail "the packaged changelog does not start at $revision"
# Nothing installed as text may name the trees it was built from.
hits=$(grep -rlF -e "$build" -e "$src" -e /work/ "$x$libdir/cmake" "$x$libdir/pkgconfig" "$x/usr/include" || true)
[ -z "$hits" ] || fail "build-tree paths in: $hits"

# Depends: only the -dev package names a -dev package; every package names
# the owner of each library its ELF files link (dpkg-shlibdeps).
# owner PATH: the package that installed PATH (empty when none did).
owner() {
  local out
  out=$(dpkg -S "$1" 2> /dev/null) || return 0
  out=${out%%$'\n'*}
  echo "${out%%[:,]*}"
}
for p in "${packages[@]}"; do
  depends=$(dpkg-deb -f "${deb[$p]}" Depends)
  echo "$p: Depends: $depends"
  if [ "$p" != liblightrail-dev ]; then
    ! grep -qE '(^|[ ,|])[a-z0-9.+-]+-dev([ ,(|]|$)' <<< "$depends" || fail "$p depends on a -dev package: $depends"
  fi
  mkdir -p "$work/one/$p"
  dpkg-deb -x "${deb[$p]}" "$work/one/$p"
  needs=()
  while IFS= read -r elf; do
    [[ "$(file -b "$elf")" == ELF* ]] || continue
    linked=$(LD_LIBRARY_PATH=$x$libdir ldd "$elf")
    needed=$(readelf -d "$elf" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
    for path in $(awk -v needed="$needed" 'BEGIN { n = split(needed, l, "\n"); for (i = 1; i <= n; i++) want[l[i]] = 1 }
                   $2 == "=>" && $3 ~ /^\// && ($1 in want) { print $3 }' <<< "$linked"); do
      if [[ "$path" == "$x"/* ]]; then
        needs+=("$lib")  # one of ours: the library package
        continue
      fi
      pkg=$(owner "$path")
      [ -n "$pkg" ] || pkg=$(owner "$(realpath "$path")")
      [ -n "$pkg" ] || fail "no Debian package owns $path, which $(basename "$elf") links"
      needs+=("$pkg")
    done
  done < <(find "$work/one/$p" -type f)
  for pkg in $(printf '%s\n' "${needs[@]}" | sort -u); do
    [ "$pkg" = "$p" ] && continue
    # The owner itself, or a name it provides (libspdlog1.10 is depended on
    # as libspdlog1.10-fmt9, the name its shlibs file gives).
    ok=0
    for name in "$pkg" $(dpkg-query -W -f='${Provides}' "$pkg" 2>/dev/null | sed 's/([^)]*)//g; s/,/ /g'); do
      [[ ", $depends," == *", $name "* || ", $depends," == *", $name,"* ]] && ok=1
    done
    [ $ok = 1 ] || fail "$p: Depends lacks $pkg: $depends"
  done
done
dev_depends=$(dpkg-deb -f "${deb[liblightrail-dev]}" Depends)
[[ "$dev_depends" == *"$lib (= $revision)"* ]] || fail "liblightrail-dev does not depend on $lib (= $revision)"

# lintian: no error; each warning is listed in docs/packaging.md with its
# reason. Skipped with a message where lintian is absent.
if command -v lintian > /dev/null; then
  rc=0
  lintian --no-cfg "${deb[@]}" > "$work/lintian.out" 2>&1 || rc=$?
  cat "$work/lintian.out"
  # 1: it found errors (or policy failures); above 1: it could not check.
  [ $rc -le 1 ] || fail "lintian could not check the packages (exit $rc)"
  ! grep -q '^E: ' "$work/lintian.out" || fail "lintian reports errors"
  while read -r tag; do
    grep -qF "\`$tag\`" "$src/docs/packaging.md" || fail "lintian warning $tag is not listed in docs/packaging.md"
  done < <(sed -n 's/^W: [^:]*: \([a-z0-9-]*\).*/\1/p' "$work/lintian.out" | sort -u)
  echo "lintian: no errors, $(grep -c '^W: ' "$work/lintian.out" || true) warnings, each listed in docs/packaging.md"
else
  echo "SKIP lintian: not installed (apt-get install lintian)"
fi

# The programs run from the unpacked prefix, needing no library of it
# (they link the archives) and no LD_LIBRARY_PATH.
for program in lightrail lightraild lightrail-cosim; do
  missing=$(env -u LD_LIBRARY_PATH ldd "$x/usr/bin/$program" | grep 'not found' || true)
  [ -z "$missing" ] || fail "$program from the prefix misses: $missing"
  out=$(env -u LD_LIBRARY_PATH "$x/usr/bin/$program" --version) || fail "$program --version from the prefix"
  [[ "$out" == "$program $version "* ]] || fail "$program --version: $out"
done
"$x/usr/bin/lightrail-cosim" --help > /dev/null || fail "the packaged lightrail-cosim does not run"
"$x/usr/bin/lightrail" validate "$src/examples/schedules/awgr_doubling.json" > "$work/validate.out" 2>&1 ||
  fail "the packaged lightrail validate: $(cat "$work/validate.out")"
[ -x "$x/usr/bin/lightrail-plot" ] || fail "the packaged lightrail-plot is not executable"
"$x/usr/bin/lightrail-plot" check || fail "the packaged lightrail-plot does not run (python3-matplotlib?)"

# The Python modules import from the prefix alone.
python=$(grep '^LIGHTRAIL_PYTHON_EXECUTABLE:' "$build/CMakeCache.txt" | sed 's/^[^=]*=//' || true)
[ -n "$python" ] || python=python3
(cd "$work" && PYTHONPATH=$x/usr/$site "$python" -c "import lightrail_client; print('lightrail_client', lightrail_client.__file__)") ||
  fail "lightrail_client does not import from the prefix"
if [ -d "$build/python/lightrail" ]; then
  (cd "$work" && PYTHONPATH=$x/usr/$site "$python" -c "import lightrail; assert lightrail.__version__ == '$version'") ||
    fail "lightrail does not import from the prefix"
fi

# find_package with this version (and refused for another), then pkg-config.
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
# The package's lightrail.pc has no RPATH: under /usr, ldconfig finds the
# libraries; unpacked elsewhere, LD_LIBRARY_PATH does.
[[ "$flags" != *rpath* ]] || fail "the -dev package's lightrail.pc sets an RPATH: $flags"
# shellcheck disable=SC2086  # the flags are words
"$cxx" -std=c++17 "$consumer/consumer.cpp" $flags -o "$work/pc_consumer" || fail "pkg-config build failed"
LD_LIBRARY_PATH=$x$libdir "$work/pc_consumer" || fail "the consumer built with pkg-config failed"
echo "PASS"
