"""Issue 26 parts 2 and 7: the Novel TCG's dimensions (deck template per seat, the rank gap),
its game data (card pool and deck lists in the run folder) and its report sections.

One small sweep (module fixture) covers every section: mirrors and mixed pairings at two
equal ranks, a rank gap, and two summon-limit offsets through `[vary]`.
"""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from analysis import load_run
from analysis.game_sections import game_sections
from analysis.tables import all_tables
from sim.cli import main
from sim.novel_tcg import pool_data
from sim.novel_tcg.rules import Rules
from sim.registry import data_hash, get_game
from sim.sweep import runfolder
from strategies.novel_tcg.batch import play_batch

MATCHES = 10
DECKS = ["swarm", "advance", "curve", "swarm/advance", "advance/swarm", "swarm/curve", "curve/advance"]
SECTIONS = ("tcg_first_player", "tcg_deck_out", "tcg_rank_gap", "tcg_star_modifier", "tcg_advance_economy",
            "tcg_limit_offset", "tcg_length", "tcg_damage", "tcg_person", "tcg_limits", "tcg_matrix", "tcg_sensitivity",
            "tcg_card_pool")


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "sim", *args], capture_output=True, text=True, cwd=cwd)


@pytest.fixture(scope="module")
def tcg_run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tcg")
    sweep = folder / "tcg.toml"
    sweep.write_text('game = "novel_tcg"\ndeck = %s\nrank = [5, 10]\nrank_pairs = [[10, 12]]\n'
                     'strategies = ["greedy:greedy"]\nmatches = %d\nchunk_size = %d\nseed = 7\n'
                     '[vary]\nsummon_limit_offset = [2, 3]\n' % (json.dumps(DECKS), MATCHES, MATCHES))
    run = folder / "run"
    assert main(["sweep", str(sweep), "--out", str(run), "--jobs", "1", "--quiet"]) == 0
    return run


# ---- the per-seat choice and the derived axis --------------------------------------------

def test_deck_is_a_per_seat_choice_and_rank_gap_a_derived_axis(tcg_run):
    meta = json.loads((tcg_run / "meta.json").read_text())
    assert meta["cell_columns"] == ["cell", "deck", "deck0", "deck1", "rank0", "rank1", "first", "rank_gap",
                                    "strategy0", "strategy1", "rules"]
    assert meta["derived_axes"] == [{"name": "rank_gap", "of": "rank", "op": "difference",
                                     "description": "rank gap (seat 1's rank - seat 0's)"}]
    results = pd.read_parquet(tcg_run / "results.parquet")
    assert (results["rank_gap"] == results["rank1"] - results["rank0"]).all()
    mixed = results[results["deck"] == "swarm/advance"]
    assert set(mixed["deck0"]) == {"swarm"} and set(mixed["deck1"]) == {"advance"}
    mirror = results[results["deck"] == "curve"]
    assert (mirror["deck0"] == "curve").all() and (mirror["deck1"] == "curve").all()


def test_no_table_sums_across_the_deck_or_rank_dimensions(tcg_run):
    run = load_run(tcg_run)
    verdicts = all_tables(run)["verdicts"]
    # one row per (rules variant, deck per seat, ranks): only the first player is pooled
    assert len(verdicts) == 2 * len(DECKS) * 3
    assert (verdicts["matches"] == 2 * MATCHES).all()
    assert not verdicts.duplicated(["rules", "series", "axis"]).any()
    by_gap = run.results.groupby("rank_gap")["matches"].sum().to_dict()
    assert by_gap == {0: 2 * len(DECKS) * 2 * 2 * MATCHES, 2: 2 * len(DECKS) * 2 * MATCHES}
    gap = {s.id: s for s in game_sections(run, all_tables(run))}["tcg_rank_gap"].table
    # the rank-gap table keeps each rules variant and template apart: one row per (variant, template, Δr)
    assert len(gap) == 2 * 3 * 2 and not gap.duplicated(["variant", "template", "Δr"]).any()


# ---- game data: the card pool and the deck lists -------------------------------------------

def test_the_pool_and_every_deck_list_played_are_stored_with_their_hash(tcg_run):
    meta = json.loads((tcg_run / "meta.json").read_text())
    entry = meta["game_data"][pool_data.DATA_NAME]
    blob = (tcg_run / entry["copy"]).read_bytes()
    assert entry["sha256"] == data_hash(blob) and entry["bytes"] == len(blob)
    document = json.loads(blob)
    # the two offsets are two rules arrays, each with the decks its cells play
    assert sorted(tuple(e["names"]) for e in document["rules"]) == [("default+summon_limit_offset=2",),
                                                                     ("default+summon_limit_offset=3",)]
    for e in document["rules"]:
        assert {(d["template"], d["rank"]) for d in e["decks"]} == {(t, r) for t in ("swarm", "advance", "curve")
                                                                    for r in (5, 10, 12)}
        assert len(e["pool"]) == 63
        assert all(sum(c for _, c in d["cards"]) == 60 for d in e["decks"])
    ceilings = {(tuple(e["names"]), d["rank"]): d["ceiling"] for e in document["rules"] for d in e["decks"]}
    assert ceilings[("default+summon_limit_offset=3",), 10] == 13 and ceilings[("default+summon_limit_offset=2",), 10] == 12


def test_resume_plays_the_stored_decks_not_the_generated_ones(tcg_run, tmp_path):
    """A run's stored deck list is what --resume plays: change it (and its recorded hash) and the
    rebuilt plan's batches follow the stored list, not today's generator."""
    import shutil
    copy = tmp_path / "run"
    shutil.copytree(tcg_run, copy)
    meta = json.loads((copy / "meta.json").read_text())
    path = copy / meta["game_data"][pool_data.DATA_NAME]["copy"]
    document = json.loads(path.read_bytes())
    for entry in document["rules"]:
        for deck in entry["decks"]:
            if deck["template"] == "swarm":  # 60 copies of the 6★ balanced character
                deck["cards"] = [[5, 60]]
    blob = json.dumps(document).encode()
    path.write_bytes(blob)
    meta["game_data"][pool_data.DATA_NAME].update(sha256=data_hash(blob), bytes=len(blob))
    plan = runfolder.plan_from_meta(meta, copy)
    assert plan.game.data[pool_data.DATA_NAME] == blob
    cell = next(c for c in plan.cells if c.values["deck"] == "swarm" and c.values["rank"] == (10, 10))
    rules_array, cell_array = plan.rules_array(cell), plan.cell_array(cell)
    stored = plan.game.play_batch(rules_array, cell_array, 11, 0, 20)
    assert np.array_equal(stored, play_batch(rules_array, cell_array, 11, 0, 20, data={pool_data.DATA_NAME: blob}))
    assert not np.array_equal(stored, play_batch(rules_array, cell_array, 11, 0, 20))


def test_a_run_whose_stored_pool_was_changed_is_refused_on_resume(tcg_run, tmp_path):
    import shutil
    copy = tmp_path / "run"
    shutil.copytree(tcg_run, copy)
    path = copy / "data" / pool_data.DATA_NAME
    path.write_bytes(path.read_bytes().replace(b'"rank": 10', b'"rank": 11', 1))
    result = run_cli("sweep", "--resume", str(copy), "--jobs", "1", "--quiet")
    assert result.returncode == 2 and "card_pool.json has hash" in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_play_from_replays_with_the_stored_decks(tcg_run):
    result = run_cli("play", "--from", str(tcg_run), "--cell", "3", "--match", "1")
    assert result.returncode == 0, result.stderr
    meta = json.loads((tcg_run / "meta.json").read_text())
    cell = meta["cells"][3]
    assert "p0: rank %d, %s deck" % (cell["rank0"], cell["deck0"]) in result.stdout


def test_batches_without_a_plan_generate_the_pool_as_before():
    """The shipped document lists no rules: bench, compare and tests play the generated pool."""
    game = get_game("novel_tcg").with_data()
    cell = game.cell_array({"rank": (10, 10), "deck": "swarm/advance", "first": 0}, 0, 0)
    rules_array = Rules().to_array()
    assert np.array_equal(game.play_batch(rules_array, cell, 5, 0, 20), play_batch(rules_array, cell, 5, 0, 20))


# ---- the report's sections -----------------------------------------------------------------

def test_every_section_renders_with_a_table_a_figure_and_a_finding(tcg_run):
    run = load_run(tcg_run)
    sections = {s.id: s for s in game_sections(run, all_tables(run))}
    assert tuple(sections) == SECTIONS
    for name, section in sections.items():
        if name == "tcg_sensitivity":  # Q11: the command that answers it, no numbers of this run
            assert section.table is None and section.figure is None and "Finding: " not in section.caption
            assert "`cardbalance sensitivity --game novel_tcg --deck swarm/advance" in section.caption
            assert section.lines == ["Q11 is answered by `cardbalance sensitivity --game novel_tcg` "
                                     "(docs/examples/tcg-sensitivity/)."]
            continue
        assert section.table is not None and len(section.table), name
        if name == "tcg_star_modifier":  # one m played: one x value, said as a sentence (test below)
            assert section.figure is None and "Only m = 5 was played" in section.lines[0]
            continue
        if name != "tcg_card_pool":
            assert section.figure is not None and section.lines and section.lines[0].startswith("Q"), name
            assert "Finding: " in section.caption, name
            assert (tcg_run / "report" / ("%s.png" % name)).is_file(), name
    html = (tcg_run / "report" / "report.html").read_text()
    for section in sections.values():
        assert section.title in html
    assert "swarm/advance" in html and pool_data.DATA_NAME in html


# ---- issue 38 item 3: the figures read as a designer reads them ------------------------------

def _figures(tcg_run):
    run = load_run(tcg_run)
    return {s.id: s.figure() for s in game_sections(run, all_tables(run)) if s.figure is not None}


def test_no_legend_is_drawn_over_the_data(tcg_run):
    """Every TCG figure keeps its legend outside the panels (one figure legend below them), never
    an axes legend placed over the lines."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    for name, figure in _figures(tcg_run).items():
        inside = [axes.get_title() or name for axes in figure.axes if axes.get_legend() is not None]
        assert not inside, (name, inside)
        renderer = FigureCanvasAgg(figure).get_renderer()
        figure.draw(renderer)
        for legend in figure.legends:  # and the legend below is not cut off at the figure's sides
            box = legend.get_window_extent(renderer)
            assert box.x0 >= 0 and box.x1 <= figure.bbox.width, (name, box)
    assert _figures(tcg_run)["tcg_first_player"].legends  # the legend is still there, below


def test_the_template_matrix_is_coloured_by_the_winning_template_with_axis_titles_and_a_bar(tcg_run):
    """Both cells of one matchup (a vs b and b vs a) say the same thing, so they get the same
    colour: the winner's hue (COLOURS), not red for one row and blue for the other."""
    from matplotlib.colors import to_rgb
    from sim.novel_tcg.report_sections import COLOURS
    figure = _figures(tcg_run)["tcg_matrix"]
    panels = [axes for axes in figure.axes if axes.images]
    assert len(panels) == 4  # two offsets x two equal ranks
    decided = 0
    for axes in panels:
        image = axes.images[0]
        rgb = image.to_rgba(image.get_array())[..., :3]
        shares = {(int(round(t.get_position()[1])), int(round(t.get_position()[0]))): float(t.get_text())
                  for t in axes.texts}
        templates = [label.get_text() for label in axes.get_yticklabels()]
        for (i, j), share in shares.items():
            assert np.allclose(rgb[i, j], rgb[j, i]), (axes.get_title(), templates[i], templates[j])
            if share != 50:  # the winner's hue: its colour, lightened towards white by the shade
                winner = templates[i] if share > 50 else templates[j]
                hue = 1 - np.array(to_rgb(COLOURS[winner]))
                assert np.allclose((1 - rgb[i, j]) / (1 - rgb[i, j]).max(), hue / hue.max(), atol=0.02)
                decided += 1
        assert axes.get_xlabel() == "against (column template)"
    assert decided and panels[0].get_ylabel() == "row template's wins, % of decided"
    bars = [axes for axes in figure.axes if axes.get_ylabel() == "winner's share, % (shade)"]
    assert len(bars) == 1  # the colour bar


def test_a_single_weapon_arm_draws_no_column_of_dots(tcg_run):
    """Q8 with one weapon_atk: the wins-against-it panel would plot every deck at one x value; the
    figure keeps the damage panel only and names the arm in its title."""
    figure = _figures(tcg_run)["tcg_person"]
    assert len(figure.axes) == 1 and "weapon_atk = 3" in figure.texts[0].get_text()


def test_the_hp_margin_is_labelled_as_life_left_not_as_the_rank_axis(tcg_run):
    """The length table's margin is seat 0's duelist HP left minus seat 1's (sim/aggregate.py), not a
    rank: the label says what it is whatever the run's axis."""
    html = (tcg_run / "report" / "report.html").read_text()
    assert "mean life (HP) left at the end, seat 0 − seat 1" in html and "mean rank margin" not in html


def test_first_player_verdicts_are_the_products_words(tcg_run):
    run = load_run(tcg_run)
    table = {s.id: s for s in game_sections(run, all_tables(run))}["tcg_first_player"].table
    assert set(table["verdict"]) <= {"balanced", "undecided", "imbalanced"}
    assert len(table) == 2 * 3 * 2  # rules variants x mirror templates x equal ranks


def test_limit_offset_section_compares_the_two_offsets(tcg_run):
    run = load_run(tcg_run)
    section = {s.id: s for s in game_sections(run, all_tables(run))}["tcg_limit_offset"]
    assert set(section.table["L"]) == {2, 3}
    assert "smallest template spread comes with L" in section.lines[0]


def test_person_section_without_weapon_arms_says_what_it_cannot_answer(tcg_run):
    run = load_run(tcg_run)
    section = {s.id: s for s in game_sections(run, all_tables(run))}["tcg_person"]
    assert set(section.table["weapon_atk"]) == {3}
    assert "Only weapon_atk = 3 was played" in section.lines[0]
    assert "Not counted by the kernel" in section.caption and "clustered by chunk" in section.caption
    # one row per (other rules, deck, equal rank): the two offsets stay apart
    assert len(section.table) == 2 * len(DECKS) * 2
    assert not section.table.duplicated(["other rules", "deck", "rank"]).any()


def test_person_section_of_a_run_without_the_q8_counters_keeps_the_old_table(tcg_run, monkeypatch):
    """A run folder made before the Q8 counters has no ct_weapon_equips (...) column: the section
    still renders, without the new columns and sentence, and says what it could not count."""
    from sim.novel_tcg import report_sections
    monkeypatch.setattr(report_sections, "FIGHTER", report_sections.FIGHTER + ("ct_not_in_this_run",))
    run = load_run(tcg_run)
    section = {s.id: s for s in game_sections(run, all_tables(run))}["tcg_person"]
    assert "Weapons equipped / match [95% CI]" not in section.table.columns
    assert "Each Weapon equipped" not in section.lines[0]
    assert report_sections.PERSON_NOT_COUNTED_BEFORE in section.caption
    assert "Only weapon_atk = 3 was played" in section.lines[0]


def test_person_section_compares_weapon_arms_and_a_zero_weapon_never_attacks(tmp_path):
    """Q8 over [vary] weapon_atk = [0, 3]: with person_base_atk 0 a Weapon of ATK 0 leaves the
    person at ATK 0, and a person with ATK 0 never attacks (T-AMB-64): exactly 0 attacks."""
    sweep = tmp_path / "weapon.toml"
    sweep.write_text('game = "novel_tcg"\ndeck = ["curve", "swarm/advance"]\nrank = [10]\n'
                     'strategies = ["greedy:greedy"]\nmatches = %d\nchunk_size = %d\nseed = 3\n'
                     '[vary]\nweapon_atk = [0, 3]\n' % (MATCHES, MATCHES))
    folder = tmp_path / "run"
    assert main(["sweep", str(sweep), "--out", str(folder), "--jobs", "1", "--quiet", "--no-report"]) == 0
    run = load_run(folder)
    section = {s.id: s for s in game_sections(run, all_tables(run))}["tcg_person"]
    table = section.table
    assert sorted(set(table["weapon_atk"])) == [0, 3] and len(table) == 2 * 2
    zero = table[table["weapon_atk"] == 0]
    assert zero["person attacks / match [95% CI]"].str.startswith("0.00").all()
    assert (zero["vs weapon_atk = 3 [95% CI]"] != "-").all()
    assert (table.loc[table["weapon_atk"] == 3, "vs weapon_atk = 3 [95% CI]"] == "-").all()
    assert "From weapon_atk = 0 to 3 the person's share of duelist damage goes 0.0 %" in section.lines[0]
    # Q8's own counters: an ATK-0 person equips Weapons but neither defeats nor blocks anything
    assert (zero["defeated attacking / match [95% CI]"].str.startswith("0.00")).all()
    assert (zero["defeated blocking / match [95% CI]"].str.startswith("0.00")).all()
    assert (zero["damage to characters / match, attacking / blocking"] == "0.00 / 0.00").all()
    armed = table[table["weapon_atk"] == 3]
    assert not armed["defeated attacking / match [95% CI]"].str.startswith("0.00").all()
    assert not table["Weapons equipped / match [95% CI]"].str.startswith("0.00").any()
    assert "Each Weapon equipped defeats" in section.lines[0] and "The characters a person defeats go 0.00 ->" \
        in section.lines[0]
    assert "Weapons equipped apart from" not in section.caption  # counted now
    assert len(section.figure().axes) == 2  # two arms: the panel of wins against weapon_atk too


def test_findings_read_the_strongest_skill_the_sweep_lists():
    """A skill sweep lists its levels weakest first (analysis/skill.py); a finding reads the last,
    as the shared report's headline verdicts do, not the first one in the results."""
    from types import SimpleNamespace
    from analysis.game_sections import Kit
    from sim.novel_tcg.report_sections import _baseline
    frame = pd.DataFrame({"variant": ["random", "defensive", "greedy"], "rules": ["default"] * 3,
                          "skill": ["random", "defensive", "greedy"]})
    run = SimpleNamespace(meta={"rules": {}, "strategies": ["random:random", "defensive:defensive", "greedy:greedy"]})
    assert _baseline(run, frame, Kit()) == "greedy"
    run.meta["strategies"] = ["greedy:greedy", "random:random", "defensive:defensive"]
    assert _baseline(run, frame, Kit()) == "defensive"


# ---- the report's δ reaches the game's sections --------------------------------------------

def test_delta_reaches_the_tcg_verdicts(tcg_run):
    from analysis.game_sections import family_verdicts
    run = load_run(tcg_run)
    default = {s.id: s for s in game_sections(run, all_tables(run))}["tcg_first_player"]
    wide = {s.id: s for s in game_sections(run, all_tables(run, 0.45))}["tcg_first_player"]
    assert "δ = 0.02," in default.caption and "δ = 0.45," in wide.caption
    # the verdicts are the family's at δ = 0.45, from the table's own counts
    table = wide.table
    wins = table["first player wins [95% CI]"].str.split("%").str[0].astype(float) / 100 * table["decided"]
    assert list(table["verdict"]) == family_verdicts(wins.round().to_numpy(), table["decided"].to_numpy(), 0.45)
    # 20 matches a cell: nothing is within ½ ± 0.02, while a share near ½ is within ½ ± 0.45
    assert "balanced" not in set(default.table["verdict"]) and "balanced" in set(table["verdict"])
    # an explicit δ wins over the tables'
    assert "δ = 0.3," in {s.id: s for s in game_sections(run, all_tables(run), delta=0.3)}["tcg_first_player"].caption


def test_report_delta_option_reaches_the_tcg_sections(tcg_run, tmp_path):
    out = tmp_path / "report"
    assert main(["report", str(tcg_run), "--out", str(out), "--delta", "0.25", "--quiet", "--no-csv"]) == 0
    html = (out / "report.html").read_text()
    assert "δ = 0.25, Holm over this table" in html


# ---- bad input -------------------------------------------------------------------------------

def test_an_unknown_template_in_a_per_seat_list_is_one_line_and_exit_2(tmp_path):
    sweep = tmp_path / "bad.toml"
    sweep.write_text('game = "novel_tcg"\ndeck = ["curve", "swarm/control"]\nrank = [10]\nmatches = 10\n')
    out = tmp_path / "never"
    result = run_cli("sweep", str(sweep), "--out", str(out), "--quiet")
    assert result.returncode == 2, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "deck 'swarm/control' is unknown" in result.stderr and "curve/swarm" in result.stderr
    assert not out.exists()


def test_the_former_deck_pairs_key_is_refused_with_its_replacement(tmp_path):
    sweep = tmp_path / "old.toml"
    sweep.write_text('game = "novel_tcg"\ndeck_pairs = ["swarm-advance"]\nrank = [10]\nmatches = 10\n')
    result = run_cli("sweep", str(sweep), "--out", str(tmp_path / "never"), "--quiet")
    assert result.returncode == 2 and len(result.stderr.strip().splitlines()) == 1
    assert "'deck_pairs' is no longer a key of novel_tcg" in result.stderr and "swarm/advance" in result.stderr
    assert not (tmp_path / "never").exists()


def test_each_rules_arm_says_which_part_of_the_rank_gap_it_moves():
    """Q2's split (docs/examples/tcg-rank-split-sweep.toml): the 2 x 2 of HP per rank and offset."""
    from sim.novel_tcg.report_sections import _arm
    assert _arm({}, 10, 15) == (75, 5, "HP and ceiling")
    assert _arm({"summon_limit_offset": 10}, 10, 15) == (75, 0, "HP only")  # both ceilings at 20
    assert _arm({"hp_per_rank": 1, "hp_offset": 100}, 10, 15) == (5, 5, "ceiling only")
    assert _arm({"hp_per_rank": 1, "summon_limit_offset": 10}, 10, 15) == (5, 0, "neither")
    assert _arm({"T-AMB-46": "off"}, 10, 15) == (75, 0, "HP only")  # no summon limit: no ceiling at all
    assert _arm({}, 17, 20) == (45, 1, "HP and ceiling")  # 19 -> 20: the ceiling stops at 20 stars


def test_the_rank_split_sweep_file_expands_to_its_four_arms():
    from sim.sweep.grid import build_plan, load_sweep
    plan = build_plan(load_sweep("docs/examples/tcg-rank-split-sweep.toml"))
    values = {name: (rules.numbers["hp_per_rank"], rules.numbers["summon_limit_offset"])
              for name, rules in plan.rules.items()}
    assert sorted(values.values()) == [(1, 2), (1, 10), (15, 2), (15, 10)]
    assert {cell.columns["rank_gap"] for cell in plan.cells} == {0, 1, 2, 3, 5}
    assert {cell.values["deck"] for cell in plan.cells} == {"swarm", "advance", "curve"}


def test_the_weapon_sweep_file_expands_to_its_three_arms():
    """Q8's example (docs/examples/tcg-weapon/): weapon_atk 0 / 3 / 6, nothing else changed."""
    from sim.sweep.grid import build_plan, load_sweep
    plan = build_plan(load_sweep("docs/examples/tcg-weapon-sweep.toml"))
    assert sorted(rules.numbers["weapon_atk"] for rules in plan.rules.values()) == [0, 3, 6]
    assert all(rules.numbers["person_base_atk"] == 0 for rules in plan.rules.values())  # ATK 0 arm: no attacks
    assert {cell.values["rank"] for cell in plan.cells} == {(10, 10)}


def test_the_terminal_prints_the_pages_headline_and_counts(tcg_run, tmp_path):
    # issue 38: the terminal's "2 balanced" were Swarm mirrors' set-up checks, their first player winning 99 %
    from tests.report_counts import assert_terminal_opens_like_the_page
    counts = assert_terminal_opens_like_the_page(tcg_run, tmp_path / "report")
    assert counts[0].startswith("Balance (") and "non-mirror rows" in counts[0]
