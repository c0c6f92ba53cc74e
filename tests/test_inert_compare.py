"""`cardbalance compare` says up front when the tweak changes only parameters that cannot act under
either arm's rules (sim/inert.py), and heads its summary "the tweak changed no match" when every
paired match ended alike, whatever the reason (issue 37 item 5: `core` against `core` with
club_multiplier = 4 played identical matches and said nothing)."""

import json

import pytest

from sim.cli import main
from sim.inert import compare_note
from sim.poker_duel.rules import load_rules

HEADLINE = "## Balance comparison: the tweak changed no match"


def _compare(capsys, tmp_path, *argv):
    summary, result = tmp_path / "summary.md", tmp_path / "result.json"
    code = main(["compare", *argv, "--summary-md", str(summary), "--json", str(result)])
    err = capsys.readouterr().err
    return code, summary.read_text(), json.loads(result.read_text()), err


def test_the_issue_case_club_multiplier_under_core_is_said_up_front_and_changes_no_match(capsys, tmp_path):
    code, text, data, err = _compare(capsys, tmp_path, "core", "core+club_multiplier=4", "--game", "poker_duel",
                                     "--batch", "20", "--max-matches", "20")
    assert code == 0
    lines = err.splitlines()
    note = next(i for i, line in enumerate(lines) if line.startswith("compare: note: the tweak changes only "
                                                                       "club_multiplier, which can act under neither"))
    assert note < next(i for i, line in enumerate(lines) if line.startswith("compare: round 1"))  # before any match
    assert "advanced_rules = true" in lines[note] and "D-ADV-3" in lines[note]
    assert "compare: the tweak changed no match" in lines
    assert data["changed_no_match"] is True and any("club_multiplier" in note for note in data["notes"])
    assert text.startswith(HEADLINE + "\n")
    assert "Every one of the 40 paired matches ended with the same winner" in text


def test_the_same_tweak_where_it_acts_has_no_note_and_changes_matches(capsys, tmp_path):
    code, text, data, err = _compare(capsys, tmp_path, "advanced", "advanced+club_multiplier=4", "--game",
                                     "poker_duel", "--batch", "20", "--max-matches", "20")
    assert code == 0 and data["changed_no_match"] is False and data["notes"] == []
    assert "note:" not in err and "changed no match" not in err
    assert text.startswith("## Balance comparison: report only (no gate)")


def test_identical_rules_change_no_match_and_the_gate_verdict_stays_in_the_headline(capsys, tmp_path):
    code, text, data, err = _compare(capsys, tmp_path, "default", "default", "--game", "toy", "--batch", "200",
                                     "--fail-if", "all.win_rate.abs_delta > 0.02")
    assert code == 0 and data["changed_no_match"] is True
    assert text.startswith(HEADLINE + " (PASS)\n")
    assert "note:" not in err  # nothing declared inert: the rules are simply the same


def test_a_tweak_that_moves_matches_keeps_its_verdict_headline(capsys, tmp_path):
    code, text, data, _ = _compare(capsys, tmp_path, "default", "short", "--game", "toy", "--batch", "200")
    assert data["changed_no_match"] is False and text.startswith("## Balance comparison: report only (no gate)")


def test_a_baseline_comparison_is_unpaired_and_claims_nothing(capsys, tmp_path):
    baseline = tmp_path / "base.json"
    assert main(["compare", "default", "--game", "toy", "--batch", "100", "--write-baseline", str(baseline),
                 "--quiet"]) == 0
    capsys.readouterr()
    code, text, data, _ = _compare(capsys, tmp_path, "--baseline", str(baseline), "default", "--quiet")
    assert data["changed_no_match"] is None and not text.startswith(HEADLINE)


@pytest.mark.parametrize("tweak, expected", [
    ({"club_multiplier": 4}, "the tweak changes only club_multiplier, which can act under neither arm's rules"),
    ({"club_multiplier": 4, "ambiguities": {"D-AMB-51": "attacker_only"}},
     "the tweak changes only club_multiplier, D-AMB-51, which can act"),
    ({"club_multiplier": 4, "ambiguities": {"D-AMB-42": "nothing"}},
     "of the tweak's changes, club_multiplier can act under neither arm's rules; only the others can move a match"),
    ({"club_multiplier": 4, "advanced_rules": True}, None),  # the tweak turns on the switch it needs
    ({"ambiguities": {"D-AMB-42": "nothing"}}, None),
])
def test_the_note_names_what_cannot_act_under_either_arm(tweak, expected):
    core = load_rules("core")
    note = compare_note(core, core.with_changes(**tweak))
    assert note is None if expected is None else note.startswith(expected), note


def test_a_baseline_comparison_says_up_front_when_the_tweak_changes_only_what_cannot_act(capsys, tmp_path):
    # issue 37 item 5: against a snapshot of `core`, TWEAK core+club_multiplier=4 plays the snapshot's game
    baseline = tmp_path / "core.json"
    assert main(["compare", "core", "--game", "poker_duel", "--batch", "20", "--max-matches", "20",
                 "--write-baseline", str(baseline), "--quiet"]) == 0
    capsys.readouterr()
    code, _, data, err = _compare(capsys, tmp_path, "--baseline", str(baseline), "core+club_multiplier=4")
    assert code == 0
    lines = err.splitlines()
    note = next(i for i, line in enumerate(lines) if line.startswith(
        "compare: note: the tweak changes from the baseline's rules only club_multiplier, which can act under "
        "neither's rules in its grid, so it plays the snapshot's game"))
    assert note < next(i for i, line in enumerate(lines) if line.startswith("compare: round 1"))  # before any match
    assert "advanced_rules = true" in lines[note]
    assert any("club_multiplier" in text for text in data["notes"])
    # where it can act (a snapshot of `advanced`) there is no note
    assert main(["compare", "advanced", "--game", "poker_duel", "--batch", "20", "--max-matches", "20",
                 "--write-baseline", str(baseline), "--quiet"]) == 0
    capsys.readouterr()
    code, _, data, err = _compare(capsys, tmp_path, "--baseline", str(baseline), "advanced+club_multiplier=4")
    assert code == 0 and "note:" not in err and data["notes"] == []


def test_a_grid_condition_reads_the_cells_compare_plays():
    # Faction War's FA-11 is the Alien's: a grid of human_vs_human cells cannot play it, one Alien seat can
    from sim.faction_war.rules import load_rules as load_fw
    default = load_fw("default")
    tweak = default.with_changes(ambiguities={"FA-11": "special"})
    human_cells = [{"pairing": "human_vs_human", "life": (50, 50)}]
    note = compare_note(default, tweak, human_cells)
    assert note.startswith("the tweak changes only FA-11, which can act under neither arm's rules"), note
    assert "--pairing human_vs_alien, alien_vs_human or alien_vs_alien" in note
    assert compare_note(default, tweak, human_cells + [{"pairing": "human_vs_alien", "life": (50, 50)}]) is None
    assert compare_note(default, tweak) is None  # cells unknown: nothing is claimed on a guess


@pytest.mark.parametrize("game_name, preset", [("poker_duel", "advanced"), ("novel_tcg", "default"),
                                               ("faction_war", "two-packs")])
def test_a_baseline_s_stored_rules_rebuild_the_rules_it_played(game_name, preset):
    # the note compares TWEAK with the snapshot's BASE as stored (JSON of as_dict()); a key renamed since: no note
    from sim.inert import rules_from_values
    from sim.registry import get_game
    game = get_game(game_name)
    stored = json.loads(json.dumps(game.load_rules(preset).as_dict()))
    assert rules_from_values(game.load_rules("default"), stored) == game.load_rules(preset)
    assert rules_from_values(game.load_rules("default"), {**stored, "renamed_since": 1}) is None
