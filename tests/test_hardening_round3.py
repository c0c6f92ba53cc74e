"""Issue 39 (hardening round 3), classes 1, 2 and 5: each reproduction ends in one line.

- class 1: Novel TCG positions (`scenario --game novel_tcg`) whose zones are of the wrong
  type, whose cards are written in other digits, nested too deeply or holding a number
  past Python's 4,300-digit limit;
- class 2: a run folder whose game data (`data/card_pool.json`, its meta.json entry) is
  damaged, or whose meta.json names a file outside the folder (`report`, `--resume`,
  `play --from`);
- class 5: Novel TCG rules files that load but whose decks cannot be built: `rules --check`
  refuses them as `sweep` and `play` do.

Every case exits 2 with one stderr line, no traceback, and leaves the folder as it was;
all are refused before any match is played (class 2 needs one small run, four matches).
"""

from __future__ import annotations

import json
import os
import shutil

import pytest

from sim.cli import main

HUGE = "9" * 5000  # past Python's integer-string limit (4,300 digits)


def _one_line(capsys, argv, code=2):
    assert main(argv) == code
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("cardbalance %s: error: " % argv[0]), lines[0]
    assert "Traceback" not in captured.err
    return lines[0]


# ---- class 1: Novel TCG positions ------------------------------------------------------------------------

TCG_BAD_POSITIONS = {
    "hand an integer": ({"seats": [{"hand": 5}, {}]}, "'seats[0].hand' must be a list"),
    "hand null": ({"seats": [{}, {"hand": None}]}, "'seats[1].hand' must be a list"),
    "deck an integer": ({"seats": [{"deck": 7}, {}]}, "'seats[0].deck' must be a list"),
    "front a string": ({"seats": [{"front": "10"}, {}]}, "'seats[0].front' must be a list"),
    "front entry a string": ({"seats": [{"front": ["10"]}, {}]}, "'seats[0].front[0]' must be an object"),
    "back entry a string": ({"seats": [{"back": ["blade"]}, {}]}, "'seats[0].back[0]' must be an object"),
    "front entry unknown key": ({"seats": [{"front": [{"slot": 0, "card": "4", "atk": 9}]}, {}]},
                                "unknown key 'seats[0].front[0].atk'"),
    "superscript star": ({"seats": [{"hand": ["²"]}, {}]}, "card '²' must be a star 1-20"),
    "superscript in a star": ({"seats": [{"hand": ["1²"]}, {}]}, "card '1²' must be a star 1-20"),
    "arabic-indic star": ({"seats": [{"front": [{"slot": 0, "card": "١٠"}]}, {}]}, "must be a star 1-20"),
    "star a list": ({"seats": [{"hand": [["10"]]}, {}]}, "must be a star 1-20"),
    "actions null": ({"actions": None}, "'actions' must be a list of action texts"),
    "seats nested": ({"seats": [[[[]]], {}]}, "'seats' must be a list of two objects"),
}


@pytest.mark.parametrize("case", TCG_BAD_POSITIONS)
def test_class1_novel_tcg_positions_are_refused_not_crashed_on(tmp_path, capsys, case):
    data, words = TCG_BAD_POSITIONS[case]
    path = tmp_path / "p.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    line = _one_line(capsys, ["scenario", "--game", "novel_tcg", str(path)])
    assert words in line, line
    assert os.listdir(tmp_path) == ["p.json"]


@pytest.mark.parametrize("text, words", [("[" * 100_000 + "]" * 100_000, "nested too deeply"),
                                         ('{"seats": %s}' % ("[" * 5000 + "]" * 5000), "nested too deeply"),
                                         ('{"turn": %s}' % HUGE, "a number is too long"),
                                         ('{"seats": [{"hand": [%s]}, {}]}' % HUGE, "a number is too long"),
                                         (b"\xff\xfe{}", "not UTF-8")])
def test_class1_novel_tcg_position_files_nested_huge_or_not_text(tmp_path, capsys, text, words):
    path = tmp_path / "p.json"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    assert words in _one_line(capsys, ["scenario", "--game", "novel_tcg", str(path)])


def test_class1_a_card_given_as_a_json_number_still_loads():
    """The position format has always read a star written as a number (10, not "10")."""
    from sim.novel_tcg.position import match_from_position
    match = match_from_position({"seats": [{"hand": [10, "10"]}, {}]})
    assert match.duelists[0].hand[9] == 2
