#!/usr/bin/env bash
# Issue 31, item 5: the exit codes `lightrail --help` prints (from
# host/cli/exit_codes.hpp, as the man page's EXIT STATUS) and the README's
# list agree: every code with its name, and no code the program lacks.
#   exit_codes.sh LIGHTRAIL SOURCE_DIR
set -euo pipefail
cli=$1 src=$2
fail() { echo "FAIL: $*"; exit 1; }
help=$("$cli" --help | sed -n '/^Exit codes:/,$p' | sed -n 's/^  \([0-9]*\)  \([^:]*\).*/\1 \2/p')
[ -n "$help" ] || fail "lightrail --help lists no exit codes"
# The README's paragraph, on one line.
readme=$(sed -n '/^Exit codes of `lightrail`:/,/^$/p' "$src/README.md" | tr -s ' \n' '  ')
[ -n "$readme" ] || fail "README.md has no paragraph 'Exit codes of \`lightrail\`:'"
while read -r code name; do
  [[ "$readme" == *" $code $name"* ]] || fail "README.md lacks exit code '$code $name': $readme"
done <<< "$help"
# Codes the README names ("N name" after ": " or ", ") that --help lacks.
for code in $(grep -oE '(:|,) [0-9]+ [a-z]' <<< "$readme" | grep -oE '[0-9]+'); do
  grep -q "^$code " <<< "$help" || fail "README.md lists exit code $code, which lightrail --help lacks"
done
echo "exit codes agree: $(tr '\n' ',' <<< "$help")"
echo PASS
