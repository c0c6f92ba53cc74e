"""`cardbalance play --game poker_duel` narration (issue 16 item 6): every draw
with its cards, each battle with both ATK values, HP after each change."""

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
    assert battles and all(re.match(r"    battle: \S+ ATK \d+ vs \S+ ATK \d+$", line) for line in battles)
    hp = [tuple(map(int, re.findall(r"-?\d+", line))) for line in lines if line.startswith("    HP now")]
    end = re.search(r"HP (-?\d+) / (-?\d+)$", lines[-1])
    assert hp and hp[-1] == (int(end.group(1)), int(end.group(2)))


def test_the_opening_hands_are_shown_and_the_draws_match_the_hand_sizes():
    lines = replay_log(load_rules("advanced"), _cell(1), 9)
    assert lines[1].startswith("    p0 holds ") and lines[2].startswith("    p1 holds ")
    assert len(lines[2].split()) - 2 == 6  # the first player (p1) holds five plus the turn-1 draw
    sizes = [int(m.group(1)) for m in (re.search(r"\(hand (\d+), deck", line) for line in lines) if m]
    assert sizes and all(size >= 2 for size in sizes)
