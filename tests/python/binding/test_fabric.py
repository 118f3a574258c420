"""lightrail.Fabric over two served boards: schedules checked together
(a receiver reached twice is named), board names checked, one commit."""

import json

import pytest

import lightrail


def two_board_fabric(boards):
    return lightrail.FabricSpec.from_json(json.dumps({
        "name": "py-fabric",
        "rails": [{"rail": 0, "switch": "awgr", "radix": 32}],
        "boards": [{"name": "b0", "uri": boards.uri(0), "rail": 0, "first_switch_port": 0},
                   {"name": "b1", "uri": boards.uri(1), "rail": 0, "first_switch_port": 16}],
        "commit_margin_us": 200,
    }))


def shift(n, generation):
    s = lightrail.Schedule(generation=generation, guard_ps=500)
    s.add_config([n] * 16)
    s.add_step(0, 1_000_000)
    return s


def test_fabric_validate_commit_and_status(boards):
    fabric = lightrail.Fabric.open(two_board_fabric(boards))
    assert fabric.board_names == ["b0", "b1"] and len(fabric) == 2
    # Every port shifts by 16 on one board and by 0 on the other: b0's port p
    # and b1's port p both reach switch port 16 + p.
    clash = fabric.validate({"b0": shift(16, 1), "b1": shift(0, 1)})
    assert clash and all(p.where.startswith(("b0.", "b1.")) for p in clash)
    good = {"b0": shift(1, 3), "b1": shift(1, 4)}
    assert fabric.validate(good) == []
    report = fabric.commit(good, allow_unlocked=True)
    assert report["committed"], report
    assert [b["outcome"] for b in report["boards"]] == ["switched", "switched"]
    states = fabric.status()
    assert [(s.name, s.reachable, s.status.running, s.status.generation) for s in states] == [
        ("b0", True, True, 3), ("b1", True, True, 4)]


def test_unknown_board_and_bad_fabric_file_name_the_field(boards):
    fabric = lightrail.Fabric.open(two_board_fabric(boards))
    with pytest.raises(lightrail.FormatError, match=r'schedules\["b9"\]'):
        fabric.validate({"b9": shift(1, 1)})
    with pytest.raises(lightrail.FormatError) as e:
        lightrail.FabricSpec.from_json(json.dumps({"rails": [], "boards": [{"name": "x", "uri": ""}]}))
    assert any(p.where.startswith("boards[0]") for p in e.value.problems)


def test_a_clos_rails_boards_say_their_stage():
    stages = [(stage, k) for stage, count in (("ingress", 2), ("middle", 16), ("egress", 2)) for k in range(count)]
    boards = [{"name": "%s%d" % (stage[0], k), "uri": "sim://127.0.0.1:1/%d" % i, "rail": 0, "stage": stage,
               "stage_index": k} for i, (stage, k) in enumerate(stages)]
    spec = lightrail.FabricSpec.from_json(json.dumps({
        "rails": [{"rail": 0, "switch": "clos", "radix": 32}], "boards": boards}))
    assert [(b.stage, b.stage_index) for b in spec.boards[:3]] == [("ingress", 0), ("ingress", 1), ("middle", 0)]
    assert spec.boards[-1].stage == "egress" and spec.boards[-1].stage_index == 1
    assert two_board_stage() is None


def two_board_stage():
    spec = lightrail.FabricSpec.from_json(json.dumps({
        "rails": [{"rail": 0, "switch": "awgr", "radix": 32}],
        "boards": [{"name": "b0", "uri": "sim://127.0.0.1:1/0", "rail": 0, "first_switch_port": 0}]}))
    return spec.boards[0].stage
