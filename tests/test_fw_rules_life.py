"""Issue 13: Faction War's starting life has one source, the grid (F-SET-1).

The rules once carried `life` too (packed into the rules array, read by no
kernel). Now a rules file that sets it is refused in one line that says
where life is set; runs written before keep working: their stored rules
copies and hashes still had `life` in them.
"""

import json
import shutil

import numpy as np
import pandas as pd

from sim.cli import main
from sim.faction_war import rules as R
from sim.registry import get_game


def _one_line_error(capsys, *argv):
    code = main(list(argv))
    err = capsys.readouterr().err.strip()
    return code, err


def test_a_rules_file_setting_life_is_refused_by_every_command_naming_where_life_is_set(tmp_path, capsys):
    path = tmp_path / "old.toml"
    path.write_text("life = [30, 60]\nturn_cap = 300\n")
    sweep = tmp_path / "grid.toml"
    sweep.write_text('pairings = ["human_vs_alien"]\nlife = [20]\nrules = ["%s"]\nmatches = 10\n' % path)
    for argv in (("rules", "--check", str(path)), ("play", "--rules", str(path)),
                 ("compare", "default", str(path), "--quiet"), ("sweep", str(sweep), "--out", str(tmp_path / "run"))):
        code, err = _one_line_error(capsys, *argv)
        assert code == 2 and len(err.splitlines()) == 1, (argv, err)
        assert "old.toml: 'life' is no longer a rules field" in err and "play --life" in err, (argv, err)
    assert not (tmp_path / "run").exists()  # nothing half-written


def test_the_rules_array_and_hash_hold_no_life():
    rules = R.Rules()
    assert "life" not in rules.as_dict() and not hasattr(R, "R_LIFE0")
    assert rules.to_array().shape == (R.RULES_ARRAY_SIZE,) and R.R_OPENING_HAND == 0
    assert R.rules_from_array(rules.to_array()) == rules
    # the one range check of a starting life is the grid dimension's
    life = get_game("faction_war").dimension("life")
    assert (life.low, life.high, life.single) == (R.LIFE_MIN, R.LIFE_MAX, R.DEFAULT_LIFE)


def test_stored_values_with_life_are_the_same_rules_without_it():
    rules = R.Rules().with_changes(turn_cap=300)
    old_values = {"life": [50, 50], **rules.as_dict()}
    assert R.stored_values_match(old_values, rules)
    assert not R.stored_values_match({**old_values, "turn_cap": 400}, rules)
    assert not R.stored_values_match(None, rules)


def test_an_old_run_whose_rules_copy_sets_life_reports_resumes_and_replays(tmp_path, capsys):
    rules_file = tmp_path / "short.toml"
    rules_file.write_text("turn_cap = 300\n")
    sweep = tmp_path / "grid.toml"
    sweep.write_text('pairings = ["human_vs_alien"]\nlife = [20]\nstrategies = ["random:random"]\nrules = ["%s"]\n'
                     'matches = 20\nchunk_size = 10\nseed = 3\n' % rules_file)
    run = tmp_path / "run"
    assert main(["sweep", str(sweep), "--out", str(run), "--jobs", "1", "--quiet", "--no-report"]) == 0
    expected = pd.read_parquet(run / "results.parquet")
    # Make it a run of the version before: its rules copy and stored values set life,
    # its stored hash was taken with life in it; one chunk is missing (an interrupted run).
    meta = json.loads((run / "meta.json").read_text())
    entry = meta["rules"][str(rules_file)]
    copy = run / entry["copy"]
    copy.write_text("life = [50, 50]\n" + copy.read_text())
    entry["values"] = {"life": [50, 50], **entry["values"]}
    entry["hash"] = "0123456789ab"
    meta["complete"] = False
    (run / "meta.json").write_text(json.dumps(meta))
    chunks = sorted((run / "chunks").glob("*.npy"))
    chunks[-1].unlink()
    rules_file.unlink()  # the run reads its own copy
    assert main(["sweep", "--resume", str(run), "--jobs", "1", "--quiet", "--no-report"]) == 0
    resumed = pd.read_parquet(run / "results.parquet")
    assert np.array_equal(resumed.to_numpy(), expected.to_numpy())
    capsys.readouterr()
    assert main(["play", "--from", str(run), "--cell", "1", "--match", "3"]) == 0
    assert "# replay of" in capsys.readouterr().out
    assert main(["report", str(run), "--out", str(tmp_path / "rep")]) == 0
    # A changed rules copy is still refused.
    copy.write_text("life = [50, 50]\nturn_cap = 200\n")
    shutil.rmtree(run / "chunks")
    code, err = _one_line_error(capsys, "sweep", "--resume", str(run))
    assert code == 2 and "changed since run" in err
