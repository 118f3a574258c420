#!/usr/bin/env bash
# The driver's shared library exports its lightrail:: API and nothing else:
# no nlohmann::json, Boost.Asio, standard-library or internal-helper symbol
# (issue 31, item 8).
#   exports.sh LIBLIGHTRAIL_DRIVER_SO
set -euo pipefail
lib=$1
fail() { echo "FAIL: $*"; exit 1; }
symbols=$(nm -D --defined-only -C "$lib" | cut -d' ' -f3-)
api=$(grep -cE '^lightrail::' <<< "$symbols" || true)
# The API is there: a broken export macro would leave nothing to check.
[ "$api" -ge 50 ] || fail "only $api lightrail:: functions exported from $lib"
for must in 'lightrail::Device::commit(' 'lightrail::Device::wait_for_swap(' 'lightrail::parse_schedule(' \
  'typeinfo for lightrail::Error' 'typeinfo for lightrail::TimeoutError'; do
  grep -qF "$must" <<< "$symbols" || fail "$must is not exported"
done
third=$(grep -iE 'nlohmann|asio' <<< "$symbols" || true)
[ -z "$third" ] || fail "third-party symbols exported: $(head -5 <<< "$third") ($(wc -l <<< "$third") in all)"
other=$(grep -vE '^(lightrail::|typeinfo for lightrail::|typeinfo name for lightrail::|vtable for lightrail::)' \
  <<< "$symbols" || true)
[ -z "$other" ] || fail "symbols beyond lightrail:: exported: $(head -5 <<< "$other") ($(wc -l <<< "$other") in all)"
# The internal helpers (strict JSON reader, token files, JSON values) stay inside.
internal=$(grep -E 'lightrail::(parse_json_text|read_json_file|read_token_file|fabric_from_json|schedule_from_json|to_json\()' \
  <<< "$symbols" || true)
[ -z "$internal" ] || fail "internal helpers exported: $internal"
echo "$api lightrail:: functions exported; no nlohmann, asio or other symbol"
