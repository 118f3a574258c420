#!/usr/bin/env bash
# Issue 31, item 5: the man pages and bash completion, installed by
# `cmake --install` (components tools and daemon), are what the programs
# accept. Each page renders with `man -l` without a groff warning; it has
# every subcommand and option each level's `--help` lists, under that
# subcommand, and the exit codes `--help` prints; the completion script
# sources in bash and completes subcommands, their options and file names.
#   cli_docs.sh BUILD_DIR
set -euo pipefail
build=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
command -v man > /dev/null || fail "man is missing (scripts/setup.sh installs man-db)"

prefix=$work/prefix
for component in tools daemon; do
  cmake --install "$build" --prefix "$prefix" --component "$component" > "$work/install.log" ||
    fail "install $component: $(cat "$work/install.log")"
done
programs=(lightrail lightraild)
[ -x "$prefix/bin/lightrail-cosim" ] && programs+=(lightrail-cosim)
man_dir=$(dirname "$(find "$prefix" -name lightrail.1.gz)")
completions=$(dirname "$(find "$prefix" -path '*bash-completion/completions/lightrail')")
[ -d "$man_dir" ] && [ -d "$completions" ] || fail "no man page or completion installed: $(find "$prefix" -type f)"

export MANWIDTH=100 LC_ALL=C.UTF-8
for program in "${programs[@]}"; do
  page=$man_dir/$program.1.gz
  [ -s "$page" ] || fail "$page is not installed"
  man --warnings -E UTF-8 -l "$page" > "$work/$program.txt" 2> "$work/$program.err" ||
    fail "man -l $page: $(cat "$work/$program.err")"
  [ ! -s "$work/$program.err" ] || fail "man -l $page warns: $(cat "$work/$program.err")"
  for section in NAME SYNOPSIS DESCRIPTION OPTIONS "EXIT STATUS"; do
    grep -qx "$section" "$work/$program.txt" || fail "$program.1 has no $section section"
  done
  # Each level's --help against the page: subcommands (walked depth first)
  # and options, the option under its subcommand's heading.
  python3 - "$prefix/bin/$program" "$work/$program.txt" <<'EOF' || fail "$program.1 differs from --help"
import re, subprocess, sys
program, page = sys.argv[1], open(sys.argv[2]).read()
name = program.rsplit("/", 1)[1]
lines = page.splitlines()

def section(path):
    """The page's text for `name path...`: its subsection, or the top of the page."""
    if not path:
        return page.split("\nCOMMANDS\n")[0]
    title = " ".join([name] + path)
    starts = [i for i, l in enumerate(lines) if l.strip() == title and l.startswith("   ") and not l.startswith("    ")]
    if not starts:
        sys.exit(f"no subsection '{title}'")
    out = []
    for l in lines[starts[0] + 1:]:
        if re.match(r"^ {3}\S", l) or re.match(r"^\S", l):
            break
        out.append(l)
    return "\n".join(out)

def walk(path):
    helptext = subprocess.run([program] + path + ["--help"], capture_output=True, text=True).stdout
    text = section(path)
    block = None
    count = 0
    for l in helptext.splitlines():
        if re.match(r"^\S.*:$", l):
            block = l
            continue
        m = re.match(r"^  (-\S.*?)(\s{2,}|$)", l)
        if block and block.startswith("Options") and m:
            for opt in re.findall(r"--?[\w-]+", m.group(1).split(" ")[0]):
                if opt in ("-h", "--help"):
                    continue
                if opt not in text:
                    sys.exit(f"'{name} {' '.join(path)}': option {opt} from --help is not in its part of the page")
                count += 1
        m = re.match(r"^  (\w[\w-]*)\s", l)
        if block and block.startswith("Subcommands") and m:
            count += walk(path + [m.group(1)])
    return count + 1

print(f"{name}.1: {walk([])} commands and options of --help found")
EOF
  # The exit codes: `--help`'s footer, the page's EXIT STATUS.
  "$prefix/bin/$program" --help | sed -n '/^Exit codes:/,$p' | sed -n 's/^  \([0-9]\)  \([^:]*\).*/\1 \2/p' > "$work/codes"
  [ -s "$work/codes" ] || fail "$program --help lists no exit codes"
  exit_status=$(sed -n '/^EXIT STATUS$/,/^[A-Z]/p' "$work/$program.txt" | tr -s ' \n' '  ')
  while read -r code name; do
    [[ "$exit_status" == *" $code $name"* ]] || fail "$program.1 lacks exit code $code $name: $exit_status"
  done < "$work/codes"
done

# lightrail-plot (Python, argparse): its page is written by hand
# (man/lightrail-plot.1); each command and option of its --help must be in it.
page=$man_dir/lightrail-plot.1.gz
[ -s "$page" ] || fail "$page is not installed"
man --warnings -E UTF-8 -l "$page" > "$work/plot.txt" 2> "$work/plot.err" || fail "man -l $page: $(cat "$work/plot.err")"
[ ! -s "$work/plot.err" ] || fail "man -l $page warns: $(cat "$work/plot.err")"
plot=$prefix/bin/lightrail-plot
if "$plot" check > /dev/null 2>&1; then
  commands=$("$plot" --help | sed -n 's/^usage: .*{\(.*\)}.*/\1/p' | tr ',' ' ')
  [ -n "$commands" ] || fail "lightrail-plot --help lists no commands"
  for command in $commands; do
    grep -qE "^ +$command( |$)" "$work/plot.txt" || fail "lightrail-plot.1 lacks the command $command"
    for opt in $("$plot" "$command" --help | grep -oE '^  (-[a-z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+'); do
      grep -qF -- "$opt" "$work/plot.txt" || fail "lightrail-plot.1 lacks $command's $opt"
    done
  done
  echo "lightrail-plot.1: the commands $commands and their options"
else
  echo "SKIP lightrail-plot.1 against --help: lightrail-plot cannot run (python3-matplotlib?)"
fi

# Completion: sourced in bash, then asked as bash asks (COMP_WORDS, COMP_CWORD).
complete_words() {  # complete_words SCRIPT WORD...: what the last word completes to
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); f=$(complete -p "$1" | sed "s/.* -F \([^ ]*\) .*/\1/"); "$f"; printf "%s\n" "${COMPREPLY[@]}"' \
    sh "$@"
}
expect() {  # expect WANT SCRIPT WORD...
  local want=$1 got
  shift
  # Taken whole first: `grep -q` leaves at its first match, and under
  # pipefail the writer's SIGPIPE would fail a completion that has more.
  got=$(complete_words "$@")
  grep -qx -- "$want" <<< "$got" || fail "'${*:2}' does not complete to $want: $(tr '\n' ' ' <<< "$got")"
}
c=$completions/lightrail
expect fabric "$c" lightrail fab
expect commit "$c" lightrail fabric co
expect --version "$c" lightrail --ver
! grep -qx upload <<< "$(complete_words "$c" lightrail fabric co)" || fail "a top-level command completes under fabric"
# An option of a nested subcommand, taken from its own --help.
opt=$("$prefix/bin/lightrail" fabric commit --help | sed -n 's/^  \(--[a-z-]*\).*/\1/p' | grep -v -- --help | head -1)
expect "$opt" "$c" lightrail fabric commit "${opt:0:4}"
# A value of an option that takes a file: file names.
touch "$work/schedule-one.json"
expect --token-file "$completions/lightraild" lightraild --token
(cd "$work" && expect schedule-one.json "$completions/lightraild" lightraild --token-file sched) ||
  fail "no file name after an option that takes a value"
if [[ " ${programs[*]} " == *" lightrail-cosim "* ]]; then
  expect serve "$completions/lightrail-cosim" lightrail-cosim se
fi
echo PASS
