"""`cardbalance play --game poker_duel` narration (issue 16 item 6, issue 29 item 5): every draw
with its cards, each battle with both ATK values and the rule that decided it, each boost with
its multiplier, HP after each change, in the order things happened."""

import re

from sim.poker_duel.rules import load_rules
from strategies.poker_duel.playlog import replay_log
from sim.poker_duel.game import GAME_SPEC  # noqa: F401  (the registry line the CLI uses)


def _cell(first=0):
    from strategies.poker_duel.batch import cell_of
    return cell_of({"hp": (40, 40), "first": first}, 0, 0)  # greedy vs greedy (POLICIES ids)


def test_the_log_names_each_turn_s_drawn_cards_and_every_battle_s_values():
    lines = replay_log(load_rules("core"), _cell(), 4)
    headers = [i for i, line in enumerate(lines) if re.match(r"turn (\d+):", line)]
    assert len(headers) >= 4
    for i in headers[1:]:  # after turn 1 each turn starts with the turn player's 2-card draw
        player = int(re.match(r"turn \d+: player (\d)", lines[i]).group(1))
        drawn = re.match(r"    p(\d) draws ((?:\S+ ?)+) \(hand", lines[i + 1])
        assert drawn and int(drawn.group(1)) == player and len(drawn.group(2).split()) == 2, lines[i:i + 2]
    battles = [line for line in lines if line.startswith("    battle: ")]
    assert battles and all(re.match(r"    battle: \S+ ATK \d+( \(value \d+ \+\d+ boost\))? vs \S+ ATK \d+"
                                    r"( \(value \d+ \+\d+ boost\))? — ", line) for line in battles)
    hp = [tuple(map(int, re.match(r"    HP now (-?\d+) / (-?\d+)", line).groups())) for line in lines
          if line.startswith("    HP now")]
    end = re.search(r"HP (-?\d+) / (-?\d+)$", lines[-1])
    assert hp and hp[-1] == (int(end.group(1)), int(end.group(2)))


def test_the_opening_hands_are_shown_and_the_draws_match_the_hand_sizes():
    lines = replay_log(load_rules("advanced"), _cell(1), 9)
    assert lines[1].startswith("    p0 holds ") and lines[2].startswith("    p1 holds ")
    assert len(lines[2].split()) - 2 == 6  # the first player (p1) holds five plus the turn-1 draw
    sizes = [int(m.group(1)) for m in (re.search(r"\(hand (\d+), deck", line) for line in lines) if m]
    assert sizes and all(size >= 2 for size in sizes)


COLOUR = {"H": "red", "D": "red", "S": "black", "C": "black"}


def _battles(lines):
    """(index, attacker, its ATK, defender, its ATK, reason) of every battle line."""
    pattern = re.compile(r"    battle: (\S+) ATK (\d+)(?: \([^)]*\))? vs (\S+) ATK (\d+)(?: \([^)]*\))? — (.*)$")
    for index, line in enumerate(lines):
        found = pattern.match(line)
        if found:
            a, atk_a, d, atk_d, reason = found.groups()
            yield index, a, int(atk_a), d, int(atk_d), reason


def test_each_battle_is_told_in_its_own_turn_with_the_colour_rule_that_decided_it():
    seen = 0
    for seed in (4, 5, 6):
        lines = replay_log(load_rules("core"), _cell(), seed)
        for index, a, atk_a, d, atk_d, reason in _battles(lines):
            seen += 1
            declared = max(i for i in range(index) if " declare: attacks " in lines[i])
            assert not any(re.match(r"turn \d+:", line) for line in lines[declared:index]), \
                "a battle told after the next turn's header: %s" % lines[declared:index + 1]
            if atk_a == atk_d:
                assert reason.startswith("equal ATK: D-AMB-42 reading")
                continue
            same = COLOUR[a[0]] == COLOUR[d[0]]
            assert reason == ("same colour, so the higher ATK wins (D-DC-2)" if same
                              else "different colours, so the lower ATK wins (D-DC-3)")
            loser = (d if atk_a > atk_d else a) if same else (a if atk_a > atk_d else d)
            assert lines[index + 1] == "    to the graveyard from the field: %s" % loser
            damage = re.match(r"    HP now -?\d+ / -?\d+ \(p\d ([+-]\d+)\)", lines[index + 2])
            assert damage and int(damage.group(1)) == -abs(atk_a - atk_d)  # core: no club factor
    assert seen >= 3


def test_each_boost_states_what_it_adds_and_the_multiplier_rule():
    boosts = []
    for seed in (7, 8, 9, 10):
        boosts += [line for line in replay_log(load_rules("core"), _cell(), seed) if " boosts with " in line]
    assert boosts
    factors = {"×1, D-DS-7": 1, "×2, D-DS-5": 2, "×3, D-DS-4": 3, "×6, D-DS-6": 6}
    for line in boosts:
        found = re.search(r"\(\+(\d+) ATK: value (\d+), .* (×\d, D-DS-\d)\)", line)
        assert found, line
        assert int(found.group(1)) == int(found.group(2)) * factors[found.group(3)], line


def test_the_sandbox_log_names_cards_not_slots():
    # the reference's worked example §14.3 (2): S7 attacks H9, D3 boosts S7, H3 boosts H9 (same suit x2)
    from pathlib import Path
    from sim.poker_duel.position import run_scenario
    example = Path(__file__).resolve().parents[1] / "docs" / "examples" / "pd_boost_contest.json"
    _, events = run_scenario(example)
    assert "player 0: attacks H9 (ATK 9) with S7 (ATK 7)" in events
    assert "player 1: boosts with D3 on the attacker (+3 ATK: value 3, no suit or number in common ×1, D-DS-7)" in events
    assert "player 0: boosts with H3 on the defender (+6 ATK: value 3, same suit ×2, D-DS-5)" in events
    assert not any(line.endswith(("attack 0 0", "boost 0 0", "boost 0 1")) for line in events)
