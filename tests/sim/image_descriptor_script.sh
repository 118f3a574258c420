#!/usr/bin/env bash
# cmake/write_image_descriptor.cmake, run as the hardware build runs it after
# `v++ -l` (with a stand-in xclbinutil: no XRT here), writes a descriptor
# that `lightrail flash` reads whole: on a sim:// URI flash gets past every
# field and refuses only the hardware target. An xclbinutil that prints no
# UUID fails the step instead of writing a descriptor.
#   image_descriptor_script.sh CMAKE LIGHTRAIL SCRIPT REGMAP_VERSION
set -euo pipefail
cmake=$1 cli=$2 script=$3 map=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

printf '#!/bin/sh\necho "   UUID (xclbin):           4F08C2A1-1111-2222-3333-444455556666"\n' > "$work/xclbinutil"
chmod +x "$work/xclbinutil"
touch "$work/lightrail.xclbin"
"$cmake" -DXCLBIN="$work/lightrail.xclbin" -DOUT="$work/lightrail.image.json" -DTARGET=zcu102 \
  -DHASH=0123456789abcdef -DTIME=1796523668 -DMAP="$map" -DXCLBINUTIL="$work/xclbinutil" -P "$script"
grep -q '"uuid": "4f08c2a1-1111-2222-3333-444455556666"' "$work/lightrail.image.json" ||
  fail "UUID not written lower-case: $(cat "$work/lightrail.image.json")"
grep -q '"xclbin": "lightrail.xclbin"' "$work/lightrail.image.json" || fail "xclbin not named beside it"

set +e
"$cli" flash --device sim://127.0.0.1:1/0 "$work/lightrail.image.json" 2> "$work/err"
rc=$?
set -e
[ "$rc" = 1 ] || fail "flash exited $rc, not 1: $(cat "$work/err")"
grep -q ': target: ' "$work/err" || fail "flash did not get past the descriptor's fields: $(cat "$work/err")"
[ "$(grep -c ': ' "$work/err")" = 1 ] || fail "more than the target refused: $(cat "$work/err")"

printf '#!/bin/sh\necho "no uuid here"\n' > "$work/xclbinutil"
rm -f "$work/lightrail.image.json"
if "$cmake" -DXCLBIN="$work/lightrail.xclbin" -DOUT="$work/lightrail.image.json" -DTARGET=zcu102 \
  -DHASH=0123456789abcdef -DTIME=1 -DMAP="$map" -DXCLBINUTIL="$work/xclbinutil" -P "$script" 2> /dev/null; then
  fail "a missing UUID was accepted"
fi
[ -e "$work/lightrail.image.json" ] && fail "a descriptor was written without a UUID"
echo "PASS"
