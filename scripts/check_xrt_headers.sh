#!/usr/bin/env bash
# Compile-checks driver/src/xrt_transport.cpp against the public XRT headers
# of an XRT git checkout kept OUTSIDE this tree (git clone
# https://github.com/Xilinx/XRT), at each revision given (default: HEAD).
# Syntax only; deprecated XRT calls are errors. XRT's generated version
# headers are replaced by two-line stand-ins written to a temporary directory.
#   scripts/check_xrt_headers.sh XRT_CHECKOUT [REVISION...]
set -euo pipefail
xrt=${1:?usage: check_xrt_headers.sh XRT_CHECKOUT [REVISION...]}
shift
revisions=("$@")
[ ${#revisions[@]} -gt 0 ] || revisions=(HEAD)
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/stub/xrt/detail"
cat > "$tmp/stub/xrt/detail/version-slim.h" <<'H'
#pragma once
#define XRT_VERSION(major, minor) (((major) << 16) + (minor))
#define XRT_VERSION_CODE XRT_VERSION(2, 99)
#define XRT_MAJOR(code) ((code) >> 16)
#define XRT_MINOR(code) ((code) & 0xffff)
H
cp "$tmp/stub/xrt/detail/version-slim.h" "$tmp/stub/version.h"
status=0
for rev in "${revisions[@]}"; do
  rm -rf "$tmp/xrt"
  mkdir -p "$tmp/xrt"
  git -C "$xrt" archive "$rev" src/runtime_src/core/include | tar -x -C "$tmp/xrt"
  if ${CXX:-g++} -std=c++17 -Wall -Wextra -Werror=deprecated-declarations -fsyntax-only \
      -I"$tmp/xrt/src/runtime_src/core/include" -I"$tmp/stub" \
      -I"$here/driver/include" -I"$here/defs/include" "$here/driver/src/xrt_transport.cpp"; then
    echo "ok: $rev ($(git -C "$xrt" rev-parse "$rev"))"
  else
    echo "FAILED: $rev"
    status=1
  fi
done
exit $status
