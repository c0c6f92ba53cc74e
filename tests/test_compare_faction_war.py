"""`cardbalance compare` on Faction War itself: the cases named in issue 8.

Small batches on the built-in grid (every pairing at life 50,
greedy:greedy, both first-player orders): each test plays a few thousand
matches per arm.
"""

import json

from sim.cli import main


def _rules(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def _compare(capsys, tmp_path, *argv):
    out = tmp_path / "result.json"
    summary = tmp_path / "summary.md"
    code = main(["compare", *argv, "--quiet", "--json", str(out), "--summary-md", str(summary)])
    captured = capsys.readouterr()
    return code, json.loads(out.read_text()), summary.read_text(), captured.err


def test_identical_rule_sets_pass_and_every_paired_delta_is_exactly_zero(capsys, tmp_path):
    code, data, summary, _ = _compare(capsys, tmp_path, "default", "default", "--batch", "100",
                                      "--fail-if", "human_vs_alien.win_rate.abs_delta > 0.02",
                                      "--fail-if", "all.draws.delta > 0.01")
    assert code == 0
    assert data["paired"] is True and data["matches_per_cell"] == 100
    assert all(row["delta"] == 0.0 for row in data["metrics"])
    assert all(row["base"] == row["tweak"] for row in data["metrics"])
    assert "identical rules: every paired delta is exactly 0" in summary


def test_identical_rules_pass_a_must_not_move_gate_with_exit_0(capsys, tmp_path):
    """Issue 17: `all.draws.delta > 0` was inconclusive (exit 3) for identical rules."""
    code, data, summary, _ = _compare(capsys, tmp_path, "default", "default", "--batch", "100",
                                      "--fail-if", "all.draws.delta > 0", "--fail-if", "all.turns.delta > 0")
    assert code == 0 and data["rounds"] == 1
    assert [gate["verdict"] for gate in data["gates"]] == ["pass", "pass"]
    assert "every paired match identical in this metric" in summary


def test_rules_files_setting_life_are_refused_with_where_life_is_set_now(capsys, tmp_path):
    """Issue 13: starting life has one source, the grid; a compare of two rules files that
    differed only in `life` (issue 8's life 30 vs 100) is refused in one line, exit 2."""
    base = _rules(tmp_path, "life30.toml", "life = 30\n")
    tweak = _rules(tmp_path, "life100.toml", "life = 100\n")
    code = main(["compare", base, tweak, "--batch", "100", "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert "life30.toml: 'life' is no longer a rules field" in err and "life_pairs" in err and "play --life" in err


def test_life_30_vs_100_is_a_sweep_over_both_lives(tmp_path):
    """What the refused compare measured, expressed as a grid: one rules set, both lives."""
    from analysis import load_run
    from analysis.tables import match_lengths

    sweep = _rules(tmp_path, "lives.toml", 'game = "faction_war"\npairings = ["human_vs_alien"]\nlife = [30, 100]\n'
                   'strategies = ["greedy:greedy"]\nmatches = 100\nchunk_size = 100\nseed = 1\n')
    assert main(["sweep", sweep, "--out", str(tmp_path / "run"), "--jobs", "1", "--quiet", "--no-report"]) == 0
    lengths = match_lengths(load_run(tmp_path / "run")).set_index("axis")["mean_turns"]
    assert lengths["100"] > lengths["30"] + 10


def test_fa3_lose_vs_draw_moves_draws_and_fails_the_gate(capsys, tmp_path):
    # Matches that cannot end by damage soon (life 1000, from the grid) and draw five cards a turn run out
    # of cards within a dozen turns whatever the factions do: FA-3 decides
    # whether that is a loss (deck_out) or a draw (deck_out_draw).
    numbers = "draws_per_turn = 5\n"
    base = _rules(tmp_path, "lose.toml", numbers + '[ambiguities]\n"FA-3" = "lose"\n')
    tweak = _rules(tmp_path, "draw.toml", numbers + '[ambiguities]\n"FA-3" = "draw"\n')
    grid = _rules(tmp_path, "grid.toml", 'game = "faction_war"\npairings = ["human_vs_human", "human_vs_alien", '
                  '"alien_vs_human", "alien_vs_alien"]\nlife = [1000]\nstrategies = ["greedy:greedy"]\n')
    code, data, summary, _ = _compare(capsys, tmp_path, base, tweak, "--sweep", grid, "--batch", "100",
                                      "--fail-if", "all.draws.delta > 0.02")
    assert code == 1
    rows = {(row["scope"], row["metric"]): row for row in data["metrics"]}
    assert rows[("all", "draws")]["delta_low"] > 0.02
    assert rows[("all", "deck_out_draw")]["tweak"] > 0.5 and rows[("all", "deck_out_draw")]["base"] == 0.0
    # Same seeds, same play until the deck runs out: match length is unchanged pair by pair.
    assert rows[("all", "turns")]["delta"] == 0.0
    assert "all.draws.delta = +" in summary and "> 0.02: shown" in summary
    assert '`FA-3: lose → draw`' in summary


def test_default_grid_gate_names_faction_war_scopes(capsys, tmp_path):
    code = main(["compare", "default", "deck-out-draw", "--fail-if", "human_vs_elf.win_rate.delta > 0.02"])
    err = capsys.readouterr().err
    assert code == 2
    assert "unknown scope 'human_vs_elf'" in err and "human_vs_alien@life50" in err


def test_the_example_workflows_gates_parse_against_the_faction_war_grid():
    """docs/examples/github-actions-balance-gate.yml must keep working (issue 17 renamed metrics)."""
    import re
    from pathlib import Path

    from sim.compare import prepare

    workflow = (Path(__file__).resolve().parent.parent / "docs/examples/github-actions-balance-gate.yml").read_text()
    expressions = re.findall(r"--fail-if '([^']+)'", workflow)
    assert len(expressions) >= 5
    setup = prepare("default", "deck-out-draw", fail_if=expressions)  # checks every field; plays nothing
    assert [gate.text for gate in setup.gates] == expressions
