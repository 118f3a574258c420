#!/bin/sh
# lightrail_cli_docs.sh PROGRAM MAN_GZ COMPLETION: the program's man page,
# compressed as Debian wants it (gzip -9n: no name or time stamp, so one
# program gives one file), and its bash completion.
set -e
"$1" --generate-doc man > "$2.tmp"
gzip -9n < "$2.tmp" > "$2"
rm -f "$2.tmp"
"$1" --generate-doc bash-completion > "$3"
