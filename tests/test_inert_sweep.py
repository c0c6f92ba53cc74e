"""A sweep's `[vary]` key against where it can act (sim/inert.py:check_sweep_vary): one that can act
in no cell of the sweep is refused, one line, exit 2, no run folder, as `sensitivity` refuses it;
one that cannot act under some of its rules entries is a one-line note, since [vary] is a cross
product and the shipped example (docs/examples/pd-sweep.toml) needs club_multiplier under
`advanced` and the two presets for its other switches (issue 37 item 5)."""

from pathlib import Path

import pytest

from sim.cli import main
from sim.errors import CardbalanceError
from sim.inert import check_sweep_vary
from sim.sweep.grid import build_plan, load_sweep, parse_sweep

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"
PD = {"game": "poker_duel", "hp": [40], "strategies": ["greedy:greedy"], "matches": 10, "chunk_size": 10}
FW = {"game": "faction_war", "life": [50], "strategies": ["greedy:greedy"], "matches": 10, "chunk_size": 10}


def _toml(mapping: dict) -> str:
    def value(item):
        return "[%s]" % ", ".join(value(v) for v in item) if isinstance(item, list) else \
            ('"%s"' % item if isinstance(item, str) else str(item))
    vary = mapping.pop("vary")
    return "".join("%s = %s\n" % (k, value(v)) for k, v in mapping.items()) + "[vary]\n" + "".join(
        '"%s" = %s\n' % (k, value(v)) for k, v in vary.items())


def test_the_shipped_example_gets_one_note_naming_core_and_is_not_refused():
    notes = check_sweep_vary(build_plan(load_sweep(EXAMPLES / "pd-sweep.toml")))
    assert len(notes) == 1 and notes[0].startswith("[vary] club_multiplier cannot act under rules 'core' (it acts "
                                                   "only when advanced_rules = true"), notes


@pytest.mark.parametrize("spec, key, words", [
    ({**PD, "rules": ["core"], "vary": {"club_multiplier": [2, 3]}}, "club_multiplier", "advanced_rules = true"),
    ({**FW, "pairings": ["human_vs_human"], "rules": ["default"], "vary": {"FA-11": ["normal", "special"]}},
     "FA-11", "--pairing human_vs_alien, alien_vs_human or alien_vs_alien"),
    ({**FW, "pairings": ["human_vs_alien", "alien_vs_human"], "rules": ["default"],
      "vary": {"FA-17": ["turn_player", "draw"]}}, "FA-17", "--pairing alien_vs_alien"),
])
def test_a_key_that_can_act_in_no_cell_is_one_line_exit_2_and_no_folder(spec, key, words, tmp_path, capsys):
    path, out = tmp_path / "sweep.toml", tmp_path / "run"
    path.write_text(_toml(dict(spec)), encoding="utf-8")
    assert main(["sweep", str(path), "--out", str(out), "--quiet", "--jobs", "1"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "[vary] %s has no effect under these rules" % key in error, error
    assert words in error and "sweep refuses it" in error
    assert not out.exists()


@pytest.mark.parametrize("spec", [
    {**PD, "rules": ["advanced"], "vary": {"club_multiplier": [2, 3]}},
    {**PD, "rules": ["core"], "vary": {"advanced_rules": [False, True], "club_multiplier": [2, 3]}},  # its own switch
    {**FW, "pairings": ["human_vs_human", "human_vs_alien"], "rules": ["default"],
     "vary": {"FA-11": ["normal", "special"]}},  # one cell with an Alien seat is enough
], ids=["advanced", "switch-varied-too", "an-alien-cell"])
def test_a_key_that_can_act_in_every_rules_entry_is_neither_refused_nor_noted(spec):
    assert check_sweep_vary(build_plan(parse_sweep(spec))) == []


def test_the_sweep_command_prints_the_note_before_any_match(tmp_path, capsys, monkeypatch):
    import sim.cli.sweep_cmd as sweep_cmd

    class PlayedAMatch(Exception):
        pass

    def refuse(*args, **kwargs):
        raise PlayedAMatch()
    monkeypatch.setattr(sweep_cmd, "_run_and_report", refuse)
    path = tmp_path / "sweep.toml"
    path.write_text(_toml({**PD, "rules": ["core", "advanced"], "vary": {"club_multiplier": [2, 3]}}), encoding="utf-8")
    with pytest.raises(PlayedAMatch):
        main(["sweep", str(path), "--out", str(tmp_path / "run"), "--quiet", "--jobs", "1"])
    assert "sweep: note: [vary] club_multiplier cannot act under rules 'core'" in capsys.readouterr().err


def test_a_refusal_is_a_cardbalance_error_naming_the_sweep():
    plan = build_plan(parse_sweep({**PD, "name": "mine", "rules": ["core"], "vary": {"club_multiplier": [2, 3]}}))
    with pytest.raises(CardbalanceError, match=r"^sweep 'mine': \[vary\] club_multiplier has no effect"):
        check_sweep_vary(plan)
