#!/usr/bin/env bash
# `PROGRAM --version` exits 0 and prints exactly one line:
# "NAME VERSION (source HASH, register map REGMAP)", with the values the
# build was configured with (tests/host/CMakeLists.txt passes them).
set -u
program=$1 name=$2 version=$3 hash=$4 regmap=$5
out=$("$program" --version 2>&1)
rc=$?
expected="$name $version (source $hash, register map $regmap)"
if [ $rc -ne 0 ]; then
  echo "FAIL: $program --version exited $rc: $out"
  exit 1
fi
if [ "$out" != "$expected" ]; then
  echo "FAIL: $program --version printed '$out', expected '$expected'"
  exit 1
fi
echo "ok: $out"
