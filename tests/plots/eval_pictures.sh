#!/usr/bin/env bash
# `lightrail eval EXPERIMENT --plot DIR` for every shipped experiment: the
# data beside the pictures, and every picture a picture of data.
#   eval_pictures.sh LIGHTRAIL SOURCE_DIR WORK_DIR
set -euo pipefail
cli=$1 src=$2 work=$3/eval_pictures
rm -rf "$work"
for e in opus pas fastconv power_cost; do
  "$cli" eval "$src/experiments/$e.json" --plot "$work" > /dev/null
  [ -s "$work/$e.json" ] || { echo "FAIL: no $work/$e.json"; exit 1; }
done
# With --json too, stdout is the result alone (what was drawn goes to stderr).
"$cli" eval "$src/experiments/opus.json" --plot "$work" --json 2> /dev/null |
  /usr/bin/python3 -c 'import json, sys; assert json.load(sys.stdin)["kind"] == "opus"' ||
  { echo "FAIL: eval --plot --json: stdout is not the result alone"; exit 1; }
# The time-to-accuracy picture draws each job's progress under each policy.
/usr/bin/python3 - "$work/fastconv.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
for policy in ("eps_only", "pas", "pas_fastconv"):
    jobs = r["curves"][policy]
    assert len(jobs) == 4, (policy, len(jobs))
    for j in jobs:
        assert 2 <= len(j["t_s"]) <= 1002 and len(j["t_s"]) == len(j["progress"]), (policy, j["job"])
        assert j["t_s"] == sorted(j["t_s"]) and j["progress"] == sorted(j["progress"]), (policy, j["job"])
        assert j["progress"][-1] >= 0.9, (policy, j["job"], j["progress"][-1])
PY
"$src/tests/plots/check_pictures.py" "$work" opus-overhead pas-acceleration fastconv-time-to-accuracy power-cost
