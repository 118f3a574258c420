# The board server's line protocol from bash over /dev/tcp, for the
# hostile-client tests. Source after cli_lib.sh (it needs $work/port).
trap '' PIPE  # a write to a connection the server closed fails, not kills
# connect VAR: opens a connection to the serving simulation, its fd in VAR.
connect() {
  local fd
  exec {fd}<>"/dev/tcp/127.0.0.1/$(cat "$work/port")" || return 1
  printf -v "$1" %s "$fd"
}
# reply FD: the next reply line, "<timeout>" after 30 s, or "<eof>".
reply() {
  local line
  if IFS= read -r -t 30 line <&"$1"; then
    printf '%s\n' "${line%$'\r'}"
  elif [ $? -gt 128 ]; then
    echo "<timeout>"
  else
    echo "<eof>"
  fi
}
# ask FD LINE: sends LINE, prints its reply.
ask() {
  printf '%s\n' "$2" >&"$1" 2>/dev/null
  reply "$1"
}
# expect FD LINE REGEX: the reply to LINE must match REGEX.
expect() {
  local got
  got=$(ask "$1" "$2")
  [[ $got =~ $3 ]] || fail "'${2:0:60}' answered '${got:0:200}', expected /$3/"
}
