"""Rule values as a sweep dimension (`[vary]`, sim/sweep/vary.py): rules variants
expanded on top of the sweep's rules, stored in the run, labelled in its tables,
resumable and replayable, and refused with one line when a value is bad."""

import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

from sim.errors import CardbalanceError
from sim.registry import get_game
from sim.sweep import locate_match, runfolder
from sim.sweep.grid import build_plan, parse_sweep
from sim.sweep.runner import run_sweep

TESTS = Path(__file__).resolve().parent
TOY = {"game": "toy", "pairings": ["red_vs_blue"], "life": [8], "strategies": ["greedy:greedy"],
       "rules": ["default", "short"], "matches": 300, "chunk_size": 100, "seed": 5, "vary": {"heal": [0, 2]}}


def test_variants_are_every_base_times_every_value_in_cell_order(toy_game):
    plan = build_plan(parse_sweep(TOY))
    assert list(plan.rules) == ["default+heal=0", "default+heal=2", "short+heal=0", "short+heal=2"]
    assert [cell.rules for cell in plan.cells] == [name for name in plan.rules for _ in range(2)]
    # a variant is its base with the value changed: the same rules as the preset that says so
    assert plan.rules["default+heal=0"] == toy_game.load_rules("no-heal")
    assert plan.rules["short+heal=0"].turn_cap == 12 and plan.rules["short+heal=0"].heal == 0
    assert plan.rules_bases["short+heal=2"] == ("short", {"heal": 2})


def test_two_varied_keys_give_their_product_first_key_slowest(toy_game):
    plan = build_plan(parse_sweep({**TOY, "rules": ["default"], "vary": {"heal": [0, 1], "die_sides": [6, 10]}}))
    assert list(plan.rules) == ["default+heal=0+die_sides=6", "default+heal=0+die_sides=10",
                                "default+heal=1+die_sides=6", "default+heal=1+die_sides=10"]


def test_faction_war_switches_vary_by_their_ids():
    plan = build_plan(parse_sweep({"pairings": ["human_vs_alien"], "life": [50], "rules": ["default"],
                                   "vary": {"FA-3": ["lose", "draw"]}}))
    assert list(plan.rules) == ["default+FA-3=lose", "default+FA-3=draw"]
    assert plan.rules["default+FA-3=draw"] == get_game("faction_war").load_rules("deck-out-draw")


def test_poker_duel_numbers_and_switches_vary_on_both_presets():
    plan = build_plan(parse_sweep({"game": "poker_duel", "hp": [40], "rules": ["core", "advanced"],
                                   "vary": {"club_multiplier": [2, 3], "D-AMB-38": ["battle_phase", "single_battle"]}}))
    assert len(plan.rules) == 8 and len(plan.cells) == 16
    variant = plan.rules["advanced+club_multiplier=3+D-AMB-38=single_battle"]
    assert variant.advanced_rules and variant.club_multiplier == 3 and variant.reading("D-AMB-38") == "single_battle"
    assert plan.rules["core+club_multiplier=2+D-AMB-38=battle_phase"] == get_game("poker_duel").load_rules("core")


@pytest.mark.parametrize("vary, words", [
    ({"heal": [101]}, "[vary] heal=101: toy rules: 'heal' must be an integer from 0 to 100 (got 101)."),
    ({"heal": ["2"]}, "'heal' must be an integer"),
    ({"colour": [1]}, "[vary] unknown rules key 'colour'; allowed: die_sides, turn_cap, heal."),
    ({"heal": []}, "[vary] 'heal' must be a non-empty list"),
    ({"heal": [1, 1]}, "[vary] 'heal' lists a value twice (1, 1)."),
    ([1, 2], "'vary' must be a table of rules keys to lists of values"),
])
def test_bad_vary_tables_give_one_line_naming_the_key(toy_game, vary, words):
    with pytest.raises(CardbalanceError) as info:
        build_plan(parse_sweep({**TOY, "vary": vary}))
    assert words in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize("vary, words", [
    ({"D-AMB-35": ["either_player"]}, "D-AMB-35 = 'either_player' is not playable: S49"),
    ({"D-AMB-38": ["forever"]}, "ambiguities.D-AMB-38 must be one of battle_phase, single_battle (got 'forever')"),
    ({"D-AMB-99": ["x"]}, "unknown rules key 'D-AMB-99'"),
    ({"club_multiplier": [0]}, "'club_multiplier' must be an integer from 1 to 10 (got 0)"),
])
def test_poker_duel_refuses_readings_its_rules_refuse(vary, words):
    with pytest.raises(CardbalanceError, match=None) as info:
        build_plan(parse_sweep({"game": "poker_duel", "rules": ["core"], "vary": vary}))
    assert words in str(info.value)


def test_a_varied_run_stores_labels_resumes_and_replays(tmp_path, toy_game):
    (tmp_path / "slow.toml").write_text("turn_cap = 40\n")
    spec = {**TOY, "rules": [str(tmp_path / "slow.toml")]}
    plan = build_plan(parse_sweep(spec))
    run_dir = tmp_path / "run"
    runfolder.create_run_folder(run_dir, runfolder.build_meta(plan, "loky", 1))
    run_sweep(plan, run_dir, progress="quiet", jobs=1)
    meta = runfolder.load_meta(run_dir)
    name = str(tmp_path / "slow.toml") + "+heal=0"
    entry = meta["rules"][name]
    assert entry["vary"] == {"heal": 0} and entry["base"] == str(tmp_path / "slow.toml")
    assert entry["values"]["heal"] == 0 and entry["values"]["turn_cap"] == 40
    assert (run_dir / entry["copy"]).is_file()  # the base file's copy: the run works wherever it is
    results = pd.read_parquet(run_dir / "results.parquet")
    assert sorted(set(results["rules"])) == sorted(plan.rules)
    assert not (run_dir / "end_lengths.parquet").exists()  # the toy game's vectors carry no end-turn block
    (tmp_path / "slow.toml").unlink()  # the run reads its own copy from now on
    again = runfolder.plan_from_meta(meta, run_dir)
    assert list(again.rules) == list(plan.rules) and again.rules[name].heal == 0
    _, rules, _, _ = locate_match(run_dir, 0, 3)
    assert rules.heal == 0 and rules.turn_cap == 40


def test_the_sweep_command_refuses_a_bad_value_with_exit_2_and_no_folder(tmp_path):
    grid = tmp_path / "bad.toml"
    grid.write_text('game = "poker_duel"\nhp = [40]\nrules = ["core"]\nmatches = 10\n[vary]\nclub_multiplier = [2, 11]\n')
    out = tmp_path / "run"
    done = subprocess.run([sys.executable, "-m", "sim", "sweep", str(grid), "--out", str(out), "--quiet"],
                          capture_output=True, text=True, cwd=TESTS.parent)
    assert done.returncode == 2 and not out.exists()
    assert done.stderr.strip().count("\n") == 0 and "club_multiplier=11" in done.stderr and "1 to 10" in done.stderr


def test_the_poker_duel_example_files_parse_into_their_grids():
    from sim.sweep.grid import default_sweep, load_sweep
    examples = TESTS.parent / "docs" / "examples"
    default = load_sweep(examples / "pd-default.toml")
    built_in = default_sweep("poker_duel")
    assert {k: v for k, v in default.as_dict().items() if k != "name"} == \
        {k: v for k, v in built_in.as_dict().items() if k != "name"}
    plan = build_plan(load_sweep(examples / "pd-sweep.toml"))
    assert len(plan.rules) == 16 and {cell.first for cell in plan.cells} == {0, 1}
    assert plan.spec.common_deals and "advanced+club_multiplier=3+D-AMB-38=single_battle+D-AMB-42=nothing" in plan.rules


def test_a_variant_name_loads_anywhere_a_rules_name_does():
    from sim.sweep.vary import load_named
    game = get_game("poker_duel")
    rules = load_named(game.load_rules, "advanced+club_multiplier=3+D-AMB-42=nothing")
    assert rules == game.load_rules("advanced").with_changes(club_multiplier=3, ambiguities={"D-AMB-42": "nothing"})
    assert load_named(game.load_rules, "core") == game.load_rules("core")
    assert load_named(game.load_rules, "core+p1_first_battle=true").p1_first_battle is True
    with pytest.raises(CardbalanceError, match=r"^rules 'core\+club_multiplier=0': \[vary\] club_multiplier=0: .*1 to 10"):
        load_named(game.load_rules, "core+club_multiplier=0")
