"""Issue 39 (hardening round 3), classes 1, 2 and 5: each reproduction ends in one line.

- class 1: Novel TCG positions (`scenario --game novel_tcg`) whose zones are of the wrong
  type, whose cards are written in other digits, nested too deeply or holding a number
  past Python's 4,300-digit limit;
- class 2: a run folder whose game data (`data/card_pool.json`, its meta.json entry) is
  damaged, whose meta.json names a file outside the folder, or holds a field of another
  type (`report`, `--resume`, `play --from`); `play --from` refusing an edited pool before
  printing anything;
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
from tests.cli_errors import one_error_line as _one_line

HUGE = "9" * 5000  # past Python's integer-string limit (4,300 digits)




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


# ---- class 2: damaged game data in a run folder -----------------------------------------------------------

READERS = {"report": ["report", "{run}", "--quiet"],
           "resume": ["sweep", "--resume", "{run}", "--jobs", "1", "--quiet", "--no-report"],
           "play --from": ["play", "--from", "{run}", "--cell", "0", "--match", "1"]}


@pytest.fixture(scope="module")
def tcg_run(tmp_path_factory):
    """One Novel TCG run of four matches: its data/card_pool.json is what the cases damage."""
    folder = tmp_path_factory.mktemp("tcg39")
    sweep = folder / "tiny.toml"
    sweep.write_text('game = "novel_tcg"\ndeck = ["swarm"]\nrank = [10]\nstrategies = ["random:random"]\n'
                     'matches = 4\nchunk_size = 4\nseed = 3\n')
    assert main(["sweep", str(sweep), "--out", str(folder / "run"), "--jobs", "1", "--quiet", "--no-report"]) == 0
    return folder / "run"


def _copy(tcg_run, tmp_path):
    run = tmp_path / "run"
    shutil.copytree(tcg_run, run)
    return run


def _meta(run, change=None) -> dict:
    meta = json.loads((run / "meta.json").read_text(encoding="utf-8"))
    if change is not None:
        change(meta)
        (run / "meta.json").write_text(json.dumps(meta), encoding="utf-8")
    return meta


def _write_pool(run, blob: bytes, update_hash: bool = True) -> None:
    """Replace the stored card pool; with `update_hash` also its hash in meta.json (as a hand edit would)."""
    from sim.registry import data_hash
    (run / "data" / "card_pool.json").write_bytes(blob)
    if update_hash:
        _meta(run, lambda meta: meta["game_data"]["card_pool.json"].update(sha256=data_hash(blob), bytes=len(blob)))


def _pool_document(run) -> dict:
    return json.loads((run / "data" / "card_pool.json").read_bytes())


def _edited(change):
    def edit(run):
        document = _pool_document(run)
        change(document)
        return json.dumps(document).encode()
    return edit


DAMAGED_POOLS = {  # case -> (new bytes from the run, hash updated to match, words of the error)
    "truncated": (lambda run: (run / "data" / "card_pool.json").read_bytes()[:300], True, "is not valid JSON"),
    "list-shaped": (lambda run: b"[1, 2]", True, "is not a novel_tcg-card-pool version 1 document"),
    "nested deeply": (lambda run: b"[" * 100_000 + b"]" * 100_000, True, "nested too deeply"),
    "a pool row edited": (_edited(lambda d: d["rules"][0]["pool"].__setitem__(0, ["x"])), True,
                          "'rules[0].pool[0]' must be [kind, category, star"),
    "a kind's star edited": (_edited(lambda d: d["rules"][0]["pool"][3].__setitem__(2, 9)), True,
                             "'rules[0].pool[3][2] (star of kind 3)' must be an integer from 4 to 4"),
    "decks missing": (_edited(lambda d: d["rules"][0].pop("decks")), True, "'rules[0].decks' must be a list"),
    "a deck past 80 cards": (_edited(lambda d: d["rules"][0]["decks"][0].__setitem__("cards", [[5, 80], [6, 1]])),
                             True, "'rules[0].decks[0].cards' must be from 1 to 80 cards in all"),
    "an unknown template": (_edited(lambda d: d["rules"][0]["decks"][0].__setitem__("template", "control")), True,
                            "'rules[0].decks[0].template' must be one of swarm, advance, curve"),
    "edited, hash not updated": (_edited(lambda d: d["rules"][0]["decks"][0].__setitem__("rank", 11)), False,
                                 "game data data/card_pool.json has hash"),
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", DAMAGED_POOLS)
def test_class2_a_damaged_card_pool_is_refused_by_every_reader(tcg_run, tmp_path, capsys, case, reader):
    run = _copy(tcg_run, tmp_path)
    make, update_hash, words = DAMAGED_POOLS[case]
    _write_pool(run, make(run), update_hash)
    before = sorted(p.name for p in run.iterdir())
    line = _one_line(capsys, [word.format(run=run) for word in READERS[reader]])
    assert words in line, line
    assert sorted(p.name for p in run.iterdir()) == before  # no report folder, nothing resumed


MALFORMED_ENTRIES = {
    "game_data a list": (lambda meta: meta.__setitem__("game_data", [1]), "'game_data' must be an object"),
    "an entry a string": (lambda meta: meta["game_data"].__setitem__("card_pool.json", "x"),
                          "'game_data.card_pool.json' must be an object with 'sha256'"),
    "an entry without copy": (lambda meta: meta["game_data"]["card_pool.json"].pop("copy"),
                              "'game_data.card_pool.json' must be an object with 'sha256'"),
    "a copy that is a number": (lambda meta: meta["game_data"]["card_pool.json"].__setitem__("copy", 5),
                                "'game_data.card_pool.json.copy' must be a file path inside the run folder"),
    "an unknown data file": (lambda meta: meta["game_data"].__setitem__("deck_lists.json", {}),
                             "names 'deck_lists.json'; game novel_tcg plays with card_pool.json, tuned_weights.json"),
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("case", MALFORMED_ENTRIES)
def test_class2_a_malformed_game_data_entry_in_meta_json_is_one_line(tcg_run, tmp_path, capsys, case, reader):
    run = _copy(tcg_run, tmp_path)
    change, words = MALFORMED_ENTRIES[case]
    _meta(run, change)
    line = _one_line(capsys, [word.format(run=run) for word in READERS[reader]])
    assert words in line, line
    assert not (run / "report").exists()


def _outside_pool(run, tmp_path):
    """A valid pool outside the run (a copy of its own): the old code read it without a word."""
    outside = tmp_path / "outside.json"
    shutil.copyfile(run / "data" / "card_pool.json", outside)
    return outside


ESCAPES = {
    "a relative path out": lambda run, outside: _meta(run, lambda m: m["game_data"]["card_pool.json"].__setitem__(
        "copy", "../outside.json")),
    "an absolute path": lambda run, outside: _meta(run, lambda m: m["game_data"]["card_pool.json"].__setitem__(
        "copy", str(outside))),
    "a link out": lambda run, outside: ((run / "data" / "card_pool.json").unlink(),
                                        (run / "data" / "card_pool.json").symlink_to(outside)),
    "a rules copy out": lambda run, outside: (
        (outside.parent / "rules.toml").write_text("", encoding="utf-8"),  # loads to the default rules: same hash
        _meta(run, lambda m: m["rules"]["default"].__setitem__("copy", "../rules.toml"))),
}


@pytest.mark.parametrize("case, reader", [(case, reader) for case in ESCAPES for reader in READERS
                                          if (case, reader) != ("a rules copy out", "report")])  # it reads no rules
def test_class2_nothing_outside_the_run_folder_is_read_because_meta_json_says_so(tcg_run, tmp_path, capsys, case,
                                                                                 reader):
    run = _copy(tcg_run, tmp_path)
    ESCAPES[case](run, _outside_pool(run, tmp_path))
    line = _one_line(capsys, [word.format(run=run) for word in READERS[reader]])
    assert "must be a file path inside the run folder" in line, line
    assert not (run / "report").exists()


@pytest.mark.parametrize("reader", ["resume", "play --from"])
def test_class2_a_rules_name_without_its_copy_must_be_a_preset(tcg_run, tmp_path, capsys, reader):
    """meta.json's sweep lists a path and no copy: the run would read that file, so it is refused."""
    run = _copy(tcg_run, tmp_path)
    outside = tmp_path / "mine.toml"
    outside.write_text("", encoding="utf-8")

    def rename(meta):
        meta["sweep"]["rules"] = [str(outside)]
        meta["rules"] = {str(outside): meta["rules"]["default"]}
        for cell in meta["cells"]:
            cell["rules"] = str(outside)
    _meta(run, rename)
    line = _one_line(capsys, [word.format(run=run) for word in READERS[reader]])
    assert "has no copy in the run folder and is no preset of novel_tcg" in line, line


def test_class2_the_weights_file_is_checked_like_the_pool(tcg_run, tmp_path, capsys):
    """The other game data file (the tuned agent's weights), edited with its hash updated: one line."""
    from sim.registry import data_hash
    run = _copy(tcg_run, tmp_path)
    blob = b'{"weights": []}'
    (run / "data" / "tuned_weights.json").write_bytes(blob)
    _meta(run, lambda meta: meta["game_data"]["tuned_weights.json"].update(sha256=data_hash(blob)))
    line = _one_line(capsys, ["report", str(run), "--quiet"])
    assert "game data tuned_weights.json" in line and "weights" in line, line


# ---- class 5: `rules --check` checks what the commands that play check --------------------------------------

UNBUILDABLE_DECKS = {  # rules file -> the field its error names; every field is in range, a deck is not
    "copy_limit = 3\n": "above copy_limit 3",
    "blade_weight = 0\narmour_weight = 0\nweapon_weight = 0\n": "blade_weight, armour_weight and weapon_weight are all 0",
    "deck_size = 20\n": "which must be from 1 to deck_size 20",
    "advance_bases = 0\nadvance_high = 0\n": "needs advance_bases + advance_high = 0 characters",
}


@pytest.mark.parametrize("text", UNBUILDABLE_DECKS)
def test_class5_rules_check_refuses_what_sweep_and_play_refuse(tmp_path, capsys, text):
    path = tmp_path / "r.toml"
    path.write_text(text, encoding="utf-8")
    words = UNBUILDABLE_DECKS[text]
    line = _one_line(capsys, ["rules", "--game", "novel_tcg", "--check", str(path)])
    assert line.startswith("cardbalance rules: error: %s: deck: template " % path) and words in line, line
    # the commands that play meet the same check (card_pool.deck_counts) on the decks of their cells
    played = _one_line(capsys, ["play", "--game", "novel_tcg", "--rules", str(path), "--p0", "swarm:greedy",
                                "--p1", "advance:greedy"])
    assert "deck: template " in played and words in played, played
    sweep = tmp_path / "s.toml"
    sweep.write_text('game = "novel_tcg"\ndeck = ["swarm/advance"]\nrank = [10]\nstrategies = ["greedy:greedy"]\n'
                     'rules = [%s]\nmatches = 4\n' % json.dumps(str(path)), encoding="utf-8")
    swept = _one_line(capsys, ["sweep", str(sweep), "--out", str(tmp_path / "run"), "--jobs", "1"])
    assert "deck: template " in swept and words in swept, swept
    assert sorted(os.listdir(tmp_path)) == ["r.toml", "s.toml"]


@pytest.mark.parametrize("game_name", ["faction_war", "poker_duel", "novel_tcg"])
def test_class5_every_preset_passes_rules_check(capsys, game_name):
    from sim.registry import get_game
    for preset in get_game(game_name).rules_presets:
        assert main(["rules", "--game", game_name, "--check", preset]) == 0
        assert capsys.readouterr().out.startswith("%s: valid (hash " % preset)


def test_class2_play_from_refuses_an_edited_pool_before_printing_anything(tcg_run, tmp_path, capsys):
    """Found by the property tests' exploration: a valid pool whose stats were edited (hash updated)
    is refused by `play --from` (the single-match engine builds its pool from the rules), but the
    replay header was printed first."""
    run = _copy(tcg_run, tmp_path)
    _write_pool(run, _edited(lambda d: d["rules"][0]["pool"][3].__setitem__(3, 99))(run))
    assert main(["play", "--from", str(run), "--cell", "0", "--match", "1"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "a card pool other than the one this code generates" in captured.err


META_FIELDS = {  # a top-level meta.json field of another type (each crashed a reader before issue 39)
    "strategies": (5, "'strategies' must be a list of strategy texts"),
    "rules": ({"default": 1}, "'rules' must be an object of rules name -> object"),
    "dimensions": ("x", "'dimensions' must be a list of objects"),
    "derived_axes": ([1], "'derived_axes' must be a list of objects"),
    "cell_columns": ([1], "'cell_columns' must be a list of column names"),
    "sweep": ([], "'sweep' must be an object"),
    "game": ([1], "'game' must be text"),
}


@pytest.mark.parametrize("reader", READERS)
@pytest.mark.parametrize("field", META_FIELDS)
def test_class2_a_meta_json_field_of_another_type_is_one_line(tcg_run, tmp_path, capsys, field, reader):
    run = _copy(tcg_run, tmp_path)
    value, words = META_FIELDS[field]
    _meta(run, lambda meta: meta.__setitem__(field, value))
    line = _one_line(capsys, [word.format(run=run) for word in READERS[reader]])
    assert words in line, line
    assert not (run / "report").exists()


# ---- class 3 and 8, the commands beside the design ones ---------------------------------------------------
@pytest.mark.parametrize("argv", [["sweep", "--game", "toy", "--out", "OUT"],
                                  ["ladder", "--game", "toy", "--agents", "random,greedy", "--out", "OUT"],
                                  ["compare", "default", "short", "--game", "toy"]])
@pytest.mark.parametrize("jobs", ["0", "-5", "5000"])
def test_every_command_takes_the_same_jobs_as_the_design_commands(capsys, tmp_path, argv, jobs):
    """sweep, ladder and compare once took --jobs 5000 (and their own wording): now check_jobs, 1..1024 or -1."""
    line = _one_line(capsys, [str(tmp_path / "out") if word == "OUT" else word for word in argv] + ["--jobs", jobs])
    assert "--jobs must be a number of worker processes from 1 to" in line
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("argv", [["report", "RUN"], ["play", "--from", "RUN", "--cell", "0", "--match", "0"]])
def test_a_run_folder_name_too_long_is_one_line_not_an_os_error(capsys, tmp_path, argv):
    """`report RUN` with a 300-character name exited 74 (the OS's 'File name too long')."""
    line = _one_line(capsys, [str(tmp_path / ("r" * 300)) if word == "RUN" else word for word in argv])
    assert "the run folder" in line and "at most" in line
