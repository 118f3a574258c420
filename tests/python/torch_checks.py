"""Checks shared by the lightrail.torch tests against lightraild on
co-simulated boards (test_torch_ddp.py, test_torch_subgroups.py)."""
import json
import os

from daemon_lib import fail


def read(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def check_schema(src, traces):
    """Every trace line against docs/schemas/trace.schema.json."""
    try:
        import jsonschema
    except ImportError:
        print("NOTE: python3-jsonschema missing: the traces are not checked against the schema")
        return
    with open(os.path.join(src, "docs", "schemas", "trace.schema.json")) as f:
        validator = jsonschema.Draft202012Validator(json.load(f))
    for rank, t in enumerate(traces):
        for i, rec in enumerate(t):
            errors = sorted(validator.iter_errors(rec), key=str)
            if errors:
                fail("rank %d line %d does not match the schema: %s\n%s" % (rank, i + 1, errors[0].message, rec))


def every_boundary_on_every_board(fabric, boards, boundaries):
    """A finish_checked check: each board of the job took every boundary
    (the simulation's report of the board's own trigger edges)."""
    # The report numbers boards as the simulation does: the index in their URI.
    index = {b["name"]: int(b["uri"].rsplit("/", 1)[1]) for b in fabric["boards"]}

    def check(report):
        problems = []
        taken = {b["board"]: {e["board_ps"] for e in b["watched_boundaries"] if e["kind"] == "trigger"}
                 for b in report["boards"]}
        for name in boards:
            seen = taken.get(index[name])
            if seen is None:
                problems.append("board %s is not in the simulation's report" % name)
                continue
            missing = [x for x in boundaries if x not in seen]
            if missing:
                problems.append("board %s did not take %d of %d boundaries (first %s)" %
                                (name, len(missing), len(boundaries), missing[:3]))
        return problems

    return check
