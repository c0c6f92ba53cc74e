"""The declarations of where a rules number or reading can act (`ACTS_ONLY_WHEN` in each game's
rules module, read by sim/inert.py), proven both ways on the plain-Python match loop that the
kernels are held equal to: on each condition's false side the parameter at two (or every) values
plays identical match records; on its true side some value changes a record. So a declaration
that is too wide or too narrow fails here, and a new entry without a row here fails too."""

import numpy as np
import pytest

from sim import rng
from sim.fair.params import declared_factors
from sim.inert import declaration
from sim.registry import get_game
from sim.sweep import vary

ROOT_SEED = 37


def side(preset, grid=None, **changes):
    """A rules side: preset + rules changes, and grid values over the game's single values."""
    return (preset, changes, grid or {})


PD_CORE, PD_ADVANCED = side("core"), side("advanced")
# straight flushes are rare at 5 cards: 12-card hands (and wild jokers) make the readings show
PD_BIG_HANDS = side("advanced", **{"start_hand": 12, "hand_limit": 20, "D-AMB-57": "yes"})
NT_LIMIT_OFF, NT_DEFAULT = side("default", **{"T-AMB-46": "off"}), side("default")
NT_NO_STAR_MOD = side("default", star_mod=0)
FW = {pairing: side("default", {"pairing": pairing}) for pairing in
      ("human_vs_human", "human_vs_alien", "alien_vs_human", "alien_vs_alien")}
# a row takes an extra-zone pair beside its normal card (FA-32) only with hands large enough to hold both
FW_BIG_HANDS = side("default", {"pairing": "alien_vs_alien"}, opening_hand=15, draws_per_turn=4,
                    hand_limit_trigger=30, hand_limit_target=25)

# (game, parameter) -> (false sides, true side (None: acts under no rules), values (None: every
# reading), matches per strategy pair: enough for the true side, by the first seeds that differ)
PROOFS = {
    ("poker_duel", "club_multiplier"): ([PD_CORE], PD_ADVANCED, (2, 4), 10),
    ("poker_duel", "straight_flush"): ([PD_CORE, PD_ADVANCED], side("core", **{"D-AMB-48": "own_switch"}),
                                       (False, True), 20),
    **{("poker_duel", amb): ([PD_CORE], PD_ADVANCED, None, 10)
       for amb in ("D-AMB-49", "D-AMB-50", "D-AMB-51", "D-AMB-52", "D-AMB-53")},
    ("poker_duel", "D-AMB-54"): ([PD_CORE], PD_ADVANCED, None, 40),
    ("poker_duel", "D-AMB-55"): ([PD_CORE], PD_ADVANCED, None, 20),
    ("poker_duel", "D-AMB-57"): ([PD_CORE], PD_ADVANCED, None, 40),
    ("poker_duel", "D-AMB-63"): ([PD_CORE], PD_ADVANCED, None, 60),
    ("poker_duel", "D-AMB-56"): ([PD_CORE], PD_BIG_HANDS, None, 10),
    ("poker_duel", "D-AMB-58"): ([PD_CORE], PD_BIG_HANDS, None, 20),
    ("poker_duel", "D-AMB-59"): ([PD_CORE], side("advanced", **{"start_hand": 12, "hand_limit": 20, "D-AMB-57": "yes",
                                                            "D-AMB-27": "yes"}), None, 80),
    ("poker_duel", "D-AMB-03"): ([PD_CORE, PD_ADVANCED], None, None, 20),
    ("poker_duel", "D-AMB-05"): ([PD_CORE, PD_ADVANCED], None, None, 20),
    # the ceiling min(20, rank + L): at rank 18 both L = 2 and L = 3 give 20 (a grid condition)
    ("novel_tcg", "summon_limit_offset"): ([NT_LIMIT_OFF, side("default", {"rank": (18, 18)})], NT_DEFAULT, (2, 3), 5),
    **{("novel_tcg", amb): ([NT_DEFAULT, NT_LIMIT_OFF, side("default", {"deck": "swarm", "rank": (3, 18)}),
                             side("default", {"deck": "advance", "rank": (18, 3)})], None, None, 5)
       for amb in ("T-AMB-47", "T-AMB-49", "T-AMB-80")},
    **{("novel_tcg", amb): ([NT_NO_STAR_MOD], NT_DEFAULT, None, 5) for amb in ("T-AMB-54", "T-AMB-57")},
    # ATK = star under the default curve, so no character has 0 ATK unless the curve starts below 0
    ("novel_tcg", "T-AMB-56"): ([side("default", star_mod=0, atk_base=-3.0)], side("default", atk_base=-3.0), None, 5),
    ("novel_tcg", "shape_k"): ([NT_DEFAULT], side("default", deck_shape="aggressive"), (0.4, 0.9), 5),
    # Faction War's conditions read the cell's pairing (a grid value), not the rules
    **{("faction_war", fa_id): ([FW["human_vs_human"]], FW[true_pairing], None, n) for fa_id, true_pairing, n in (
        ("FA-11", "alien_vs_alien", 5), ("FA-12", "alien_vs_alien", 5), ("FA-15", "alien_vs_alien", 5),
        ("FA-16", "alien_vs_alien", 5), ("FA-22", "human_vs_alien", 5), ("FA-25", "alien_vs_human", 5),
        ("FA-30", "alien_vs_alien", 5), ("FA-31", "alien_vs_alien", 5), ("FA-33", "alien_vs_alien", 5),
        ("FA-35", "alien_vs_alien", 5), ("FA-36", "alien_vs_alien", 5))},
    ("faction_war", "FA-32"): ([FW["human_vs_human"]], FW_BIG_HANDS, None, 10),
    # the Deep-Sea Era first ends an Alien vs Alien match at the 13th random seed
    ("faction_war", "FA-17"): ([FW["human_vs_human"], FW["human_vs_alien"]], FW["alien_vs_alien"], None, 13),
    ("faction_war", "FA-20"): ([FW["human_vs_human"], FW["alien_vs_alien"]], FW["human_vs_alien"], None, 5),
    **{("faction_war", fa_id): ([FW["alien_vs_alien"]], FW[true_pairing], None, n) for fa_id, true_pairing, n in (
        ("FA-9", "human_vs_human", 5), ("FA-26", "alien_vs_human", 5))},
}
GAMES = ("faction_war", "poker_duel", "novel_tcg")
# The false side needs no rare event to show: the engines never read the parameter there.
# (Faction War's plain-Python loop plays about 10 matches a second: fewer there.)
FALSE_SIDE_MATCHES = {"faction_war": 3, "poker_duel": 20, "novel_tcg": 20}


def rules_of(game_name, rules_side, name=None, value=None):
    preset, changes, _ = rules_side
    changes = dict(changes, **({name: value} if name is not None else {}))
    return vary.apply(get_game(game_name).load_rules(preset), changes, "test")


def cell_of(game_name, grid):
    """The grid values of one cell: the game's single values, then `grid`."""
    game = get_game(game_name)
    return {name: (0 if value is None else value) for name, value in {**game.single_values(), **grid}.items()}


def records(game_name, rules, grid, n):
    """Match records of n random:random then n greedy:greedy matches of one cell."""
    game = get_game(game_name).with_data()
    values = cell_of(game_name, grid)
    out = []
    for strategy in ("random", "greedy"):
        strategy_id = game.strategy_id(strategy)
        cell = game.cell_array(values, strategy_id, strategy_id)
        out += [game.reference_play_match(rules, cell, rng.match_seed(ROOT_SEED, i)) for i in range(n)]
    return np.array(out)


def changed_matches(game_name, rules_side, name, values, n) -> list[int]:
    """Per value after the first: how many of the matches differ from those at the first value."""
    if values is None:
        values = declared_factors(rules_of(game_name, rules_side))[name]
    grid = rules_side[2]
    first = records(game_name, rules_of(game_name, rules_side, name, values[0]), grid, n)
    return [int((records(game_name, rules_of(game_name, rules_side, name, value), grid, n) != first).any(axis=1).sum())
            for value in values[1:]]


def test_every_declared_entry_has_a_proof():
    declared = {(game, name) for game in GAMES for name in declaration(get_game(game).load_rules("default"))}
    assert declared == set(PROOFS)
    assert ("poker_duel", "club_multiplier") in declared  # the case: the table is not empty
    assert ("faction_war", "FA-11") in declared


@pytest.mark.parametrize("game_name, name", sorted(PROOFS), ids=["%s-%s" % key for key in sorted(PROOFS)])
def test_the_sides_are_the_declared_conditions(game_name, name):
    false_sides, true_side, values, _ = PROOFS[game_name, name]
    entry = declaration(get_game(game_name).load_rules("default"))[name]
    for s in false_sides:  # false at every value played there (a condition may read the parameter itself)
        for value in values or declared_factors(rules_of(game_name, s))[name]:
            assert not entry.acts(rules_of(game_name, s, name, value), [cell_of(game_name, s[2])]), (s, value)
    if true_side is None:
        assert entry.condition is None  # declared to act under no rules
    else:
        assert entry.acts(rules_of(game_name, true_side), [cell_of(game_name, true_side[2])])


@pytest.mark.parametrize("game_name, name", sorted(PROOFS), ids=["%s-%s" % key for key in sorted(PROOFS)])
def test_a_parameter_changes_no_match_where_it_cannot_act(game_name, name):
    false_sides, _, values, n = PROOFS[game_name, name]
    for rules_side in false_sides:
        n = min(n, FALSE_SIDE_MATCHES[game_name])
        assert not any(changed_matches(game_name, rules_side, name, values, n)), rules_side


ACTING = sorted(key for key, proof in PROOFS.items() if proof[1] is not None)


@pytest.mark.parametrize("game_name, name", ACTING, ids=["%s-%s" % key for key in ACTING])
def test_a_parameter_changes_matches_where_it_can_act(game_name, name):
    _, true_side, values, n = PROOFS[game_name, name]
    assert any(changed_matches(game_name, true_side, name, values, n))


def test_a_planted_wrong_declaration_would_be_caught():
    # D-AMB-42 (ties) is a core rule: declared advanced-only, its false side (core) would change matches
    assert any(changed_matches("poker_duel", PD_CORE, "D-AMB-42", None, 10))
    # and hand_limit acts in core too: a declaration "acts only with advanced_rules" fails the same way
    assert any(changed_matches("poker_duel", PD_CORE, "hand_limit", (6, 3), 10))
    # FA-18 (the ♥ Dispeller's scope) was a "Human only" candidate: ♥ face cards are both factions'
    # (F-HRT-1), so declared Human-only its false side (alien_vs_alien) would change matches
    assert any(changed_matches("faction_war", FW["alien_vs_alien"], "FA-18", None, 5))
