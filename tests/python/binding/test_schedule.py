"""Schedules from Python without a board: file round trip, building in code,
validation naming the offending entry, format errors naming the field."""

import json

import pytest

import lightrail


def ring_schedule(ports=16, generation=7):
    s = lightrail.Schedule(generation=generation, guard_ps=500)
    for shift in (1, 2):
        s.add_config([shift] * ports, name=f"shift{shift}")
    s.add_step(0, 1_000_000)
    s.add_step(1, 2_000_000)
    return s


def test_file_round_trip(tmp_path, example_schedule_path):
    s = lightrail.Schedule.load(example_schedule_path)
    assert (s.generation, len(s.configs), len(s.steps), s.guard_ps) == (1, 4, 4, 500)
    assert [c.name for c in s.configs] == ["shift1", "shift2", "shift4", "shift8"]
    assert s.configs[2].wavelength == [4] * 16
    assert s.period_ps == 4_000_000
    out = tmp_path / "saved.json"
    s.save(str(out))
    back = lightrail.Schedule.load(str(out))
    assert back == s
    assert json.loads(back.to_json()) == json.loads(s.to_json())
    back.steps[3].duration_ps = 2_000_000
    assert back != s


def test_built_in_code_round_trips_through_json(tmp_path):
    s = ring_schedule()
    s.cyclic = False
    s.activation_ps = 123_000_000
    s.steps.append(lightrail.Step(config=1, duration_ps=50_000, event_triggered=True))
    s.configs.append(lightrail.Configuration([lightrail.DARK] * 16, name="dark"))
    assert len(s.steps) == 3 and len(s.configs) == 3  # the schedule's own lists, not copies
    back = lightrail.Schedule.from_json(s.to_json())
    assert back == s
    assert (back.cyclic, back.activation_ps, back.generation) == (False, 123_000_000, 7)
    assert back.steps[2].event_triggered and back.steps[2].duration_ps == 50_000
    assert back.configs[2].wavelength == [lightrail.DARK] * 16
    path = tmp_path / "ring.json"
    s.save(str(path))
    assert lightrail.Schedule.load(str(path)) == s
    assert lightrail.validate(s) == []


def test_lists_assign_from_python_lists():
    s = lightrail.Schedule(configs=[lightrail.Configuration([0] * 16)],
                           steps=[lightrail.Step(0, 1_000_000), lightrail.Step(0, 2_000_000)])
    assert [st.duration_ps for st in s.steps] == [1_000_000, 2_000_000]
    s.steps = [lightrail.Step(0, 3_000_000)]
    assert s.period_ps == 3_000_000


def test_validate_names_the_bad_entries():
    s = ring_schedule()
    s.steps[1].config = 9
    s.configs[0].wavelength = [1] * 5 + [64] + [1] * 10
    problems = lightrail.validate(s)
    where = {p.where: p.message for p in problems}
    assert "steps[1].config" in where and "9" in where["steps[1].config"]
    assert "configs[0].ports[5]" in where and "64" in where["configs[0].ports[5]"]
    assert all(isinstance(p, lightrail.Problem) for p in problems)


def test_validate_against_given_capabilities():
    caps = lightrail.DeviceCapabilities.reference()
    s = ring_schedule()
    s.add_step(0, caps.min_step_ps - caps.tick_ps)
    problems = lightrail.validate(s, caps)
    assert "steps[2].duration_ps" in [p.where for p in problems]


def test_format_error_names_the_field():
    doc = json.loads(ring_schedule().to_json())
    doc["steps"][1]["duraton_ps"] = 5
    with pytest.raises(lightrail.FormatError) as e:
        lightrail.Schedule.from_json(json.dumps(doc))
    assert "steps[1].duraton_ps" in [p.where for p in e.value.problems]
    assert "steps[1].duraton_ps" in str(e.value)
    assert isinstance(e.value, lightrail.Error) and isinstance(e.value, RuntimeError)


def test_unreadable_file_is_a_format_error(tmp_path):
    with pytest.raises(lightrail.FormatError, match="cannot open"):
        lightrail.Schedule.load(str(tmp_path / "missing.json"))


def test_exception_hierarchy_mirrors_the_driver():
    assert issubclass(lightrail.LeaseError, lightrail.BoardBusyError)
    for cls in (lightrail.TransportError, lightrail.FormatError, lightrail.ValidationError, lightrail.VerifyError,
                lightrail.BoardBusyError, lightrail.CommitError):
        assert issubclass(cls, lightrail.Error)
    assert not issubclass(lightrail.TransportError, lightrail.FormatError)
