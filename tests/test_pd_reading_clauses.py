"""Poker Duel readings built in issue 16c (../shared/rules/poker-duel.md §15):
each alternative reading set up as a position, acted on and checked on both
engines (the §16 defaults keep their scenarios in test_pd_default_readings.py)."""

import numpy as np

from sim.cards import parse_code

from sim import rng as rng_module
from sim.poker_duel import actions as A
from sim.poker_duel import layout as L
from sim.poker_duel.reference import Match
from sim.poker_duel.rules import load_rules
from tests.pd_harness import Table, engine, play  # noqa: F401  (engine is a fixture)
from tests.test_pd_switch_clauses import pos


def test_D_AMB_04_attacks_player_boosts_only_in_a_direct_attack(engine):
    literal = {"D-AMB-04": "attacks_player"}
    start = ({"monsters": ["S7"], "back_row": ["D3"]}, {})
    t = play(engine, pos(*start, phase="declare", amb=literal), ["attack 0 5", "pass", "pass"])
    assert t.phase == "damage_step" and t.legal == ["pass", "boost 0 0"]  # no defender to boost
    t = play(engine, pos(*start, phase="declare", amb=literal), ["attack 0 5", "pass", "pass", "boost 0 0"])
    assert t.boost("S7", 0) == 3 and t.decider == 1 and t.legal == ["pass"]
    t = play(engine, pos(*start, phase="declare", amb=literal),
             ["attack 0 5", "pass", "pass", "boost 0 0", "pass", "pass"])
    assert t.hp(1) == 33 and t.zone("D3", 0) == "graveyard"  # D-AMB-41 "printed": the card's 7 points
    t = play(engine, pos(*start, phase="declare", amb={**literal, "D-AMB-41": "current_atk"}),
             ["attack 0 5", "pass", "pass", "boost 0 0", "pass", "pass"])
    assert t.hp(1) == 30  # 7 + 3
    # a battle between monsters has no boost window: straight to the damage calculation
    start = ({"monsters": ["S7"], "back_row": ["D3"]}, {"monsters": ["C2"]})
    t = play(engine, pos(*start, phase="declare", amb=literal), ["attack 0 0", "pass", "pass"])
    assert t.hp(1) == 35 and t.zone("C2", 1) == "graveyard" and t.zone("D3", 0) == "back_row"
    assert t.active == 1  # nothing left to declare: the battle phase ended


def test_D_AMB_11_optional_draw(engine):
    optional = {"D-AMB-11": "optional"}
    start = ({}, {"hand": [], "deck": ["D2", "D3", "D4"]})
    t = play(engine, pos(*start, amb=optional), ["pass"])
    assert t.active == 1 and t.pending == "draw" and t.legal == ["pass", "draw"] and t.hand(1) == []
    t = play(engine, pos(*start, amb=optional), ["pass", "pass"])
    assert t.hand(1) == [] and t.deck_size(1) == 3 and t.pending == "none" and t.phase == "main"
    assert t.decider == 1 and t.legal == ["pass"]
    t = play(engine, pos(*start, amb=optional), ["pass", "draw"])
    assert t.hand(1) == ["D3", "D4"] and t.deck_size(1) == 1 and t.pending == "none"
    # the deck-out check comes before the choice (D-DRAW-3): one card left cannot be drawn from
    t = play(engine, pos({}, {"hand": [], "deck": ["D2"]}, amb=optional), ["pass"])
    assert t.winner == 0 and t.end_type == "deck_out"


def test_D_AMB_15_any_time_main_bumps_on_their_own(engine):
    anytime = {"D-AMB-15": "any_time_main"}
    start = {"hand": ["H9"], "monsters": ["S2", "S3"]}
    t = play(engine, pos(start, amb=anytime))
    assert [a for a in t.legal if a.startswith(("bump", "summon"))] == ["summon H9", "bump 0", "bump 1"]
    t = play(engine, pos(start, amb=anytime), ["bump 0"])
    assert t.monsters(0)[:2] == [None, "S3"] and t.graveyard(0) == ["S2"] and t.counter("bumps") == 1
    assert t.phase == "main" and t.decider == 0
    t = play(engine, pos(start, amb={**anytime, "D-AMB-14": "hand"}), ["bump 1", "summon H9"])
    assert t.hand(0) == ["S3"] and t.monsters(0)[:2] == ["S2", "H9"]
    assert not [a for a in play(engine, pos(start, phase="declare", amb=anytime)).legal if a.startswith("bump")]


def _new(engine, rules, seed, first=0):
    if engine == "reference":
        return Match.new(rules, 40, 40, first, seed)
    from sim.poker_duel import kernel as K
    state = L.new_state()
    K.new_match(rules.to_array(), 40, 40, first, np.int64(rng_module.to_signed(seed)), state)
    return state


def _act(engine, rules, match, texts):
    from sim.poker_duel import kernel_chain as KC
    out = np.zeros(512, dtype=np.int64)
    for text in texts:
        if engine == "reference":
            match.apply(A.from_text(text))
        else:
            n = KC.legal_actions(match, rules.to_array(), out)
            assert A.from_text(text) in [int(a) for a in out[:n]]
            KC.apply_action(match, rules.to_array(), A.from_text(text))
    if engine == "reference":
        return Table(match.to_array(), match.legal_actions())
    n = KC.legal_actions(match, rules.to_array(), out)
    return Table(match, [int(a) for a in out[:n]])


def test_D_AMB_07_one_redraw_before_turn_one(engine):
    rules = load_rules("core").with_changes(ambiguities={"D-AMB-07": "one_redraw"})
    t = _act(engine, rules, _new(engine, rules, 11), [])
    assert t.pending == "mulligan" and t.decider == 0 and t.legal == ["pass", "redraw"]
    assert (len(t.hand(0)), len(t.hand(1))) == (5, 5)  # no turn-1 draw yet
    first_hand = t.hand(0)
    deck = [int(c) for c in t.state[L.S_DECK:L.S_DECK + t.deck_size(0)]]
    hand_ids = sorted(c for c in range(L.N_CODES) if t.state[L.C_ZONE + c] == L.Z_HAND)
    # the expected redraw: hand on top of the deck (ascending id), the whole deck shuffled, five drawn
    generator = rng_module.PyRng(int(t.state[L.S_RNG]))
    stack = deck + hand_ids
    for i in range(len(stack) - 1, 0, -1):
        j = generator.below(i + 1)
        stack[i], stack[j] = stack[j], stack[i]
    expected = sorted(_text(c) for c in stack[-5:])
    t = _act(engine, rules, _new(engine, rules, 11), ["redraw"])
    assert t.hand(0) == expected and t.hand(0) != first_hand and t.deck_size(0) == 49
    assert t.pending == "mulligan" and t.decider == 1 and t.legal == ["pass", "redraw"]
    t = _act(engine, rules, _new(engine, rules, 11), ["redraw", "pass"])
    assert t.pending == "none" and t.phase == "main" and t.turn == 1 and t.decider == 0
    assert len(t.hand(0)) == 6 and len(t.hand(1)) == 5  # then the first player's turn-1 draw
    t = _act(engine, rules, _new(engine, rules, 11), ["pass", "pass"])
    assert set(first_hand) <= set(t.hand(0)) and len(t.hand(0)) == 6  # kept: the same five plus the draw


def _text(card):
    from sim.cards import code_text
    return code_text(card % L.N_CODES)


def test_D_AMB_52_also_defending_earns_an_attack_for_the_owner_s_next_battle_phase(engine):
    start = ({"monsters": ["S9", "C5"]}, {"monsters": ["D5"]})
    first_turn = ["attack 0 0", "pass", "pass", "pass", "pass"]  # ♦5 (lower, other colour) destroys ♠9
    then = ["pass", "pass", "attack 0 1", "pass", "pass", "pass", "pass"]  # p0 ends; p1 attacks ♣5: a tie
    tie = {"D-AMB-42": "nothing"}
    defending = {**tie, "D-AMB-52": "also_defending"}
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=defending), first_turn)
    assert t.hp(0) == 36 and t.zone("S9", 0) == "graveyard"
    assert t.state[L.C_FLAGS + L.card_id(1, 4)] & L.F_EXTRA_EARNED  # ♦5 (code 4) earned its attack
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=tie), first_turn + then)
    assert t.active == 0  # the default: a defending diamond earns nothing, p1's battle phase is over
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=defending), first_turn + then)
    assert t.active == 1 and t.phase == "declare" and t.legal == ["pass", "attack 0 1"]
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=defending),
             first_turn + then + ["attack 0 1", "pass", "pass", "pass", "pass"])
    assert t.active == 0 and not t.state[L.C_FLAGS + L.card_id(1, 4)] & L.F_EXTRA_EARNED  # used once
    t = play(engine, pos(*start, phase="declare", preset="advanced", amb=defending), first_turn + then + ["pass"])
    assert t.active == 0 and not t.state[L.C_FLAGS + L.card_id(1, 4)] & L.F_EXTRA_EARNED  # or lost


def test_D_AMB_24_full_chain_lets_the_last_activator_add_a_link_after_a_pass(engine):
    start = ({"hand": ["HJ"], "back_row": ["DQ"], "deck": ["D2", "D3", "D4"]}, {"back_row": ["SQ"]})
    window = ["act_hand HJ", "target 5"]  # J aimed at the set ♠Q; p1 may respond
    t = play(engine, pos(*start), window + ["pass"])
    assert t.pending == "none" and t.zone("SQ", 1) == "graveyard" and t.zone("DQ", 0) == "back_row"  # simple_lifo
    full = {"D-AMB-24": "full_chain"}
    t = play(engine, pos(*start, amb=full), window + ["pass"])
    assert t.pending == "response" and t.decider == 0 and t.legal == ["pass", "act_set 0"]
    t = play(engine, pos(*start, amb=full), window + ["pass", "pass"])  # two passes in a row: resolve
    assert t.pending == "none" and t.zone("SQ", 1) == "graveyard" and t.zone("DQ", 0) == "back_row"
    t = play(engine, pos(*start, amb=full), window + ["pass", "act_set 0", "count 1"])
    assert t.pending == "response" and t.decider == 1  # a new link: the opponent's window again
    t = play(engine, pos(*start, amb=full), window + ["pass", "act_set 0", "count 1", "pass"])
    assert t.pending == "none" and t.phase == "main" and t.decider == 0  # p0 has nothing left to add
    assert t.hand(0) == ["D4"] and t.zone("SQ", 1) == "graveyard" and t.graveyard(0) == ["DQ", "HJ"]


def test_D_AMB_12_per_batch_and_match_field(engine):
    start = {"hand": ["S7", "S8", "H9", "C5"], "deck": ["D2", "D3"]}
    summons = lambda t: sorted(a for a in t.legal if a.startswith("summon"))  # noqa: E731
    assert summons(play(engine, pos(start), ["summon S7", "set C5"])) == ["summon S8"]  # per turn
    batch = {"D-AMB-12": "per_batch"}
    assert summons(play(engine, pos(start, amb=batch), ["summon S7"])) == ["summon S8"]  # the batch is spades
    t = play(engine, pos(start, amb=batch), ["summon S7", "set C5"])  # another action ends the batch
    assert summons(t) == ["summon H9", "summon S8"]
    t = play(engine, pos(start, amb=batch), ["summon S7", "set C5", "summon H9"])
    assert summons(t) == [] and t.monsters(0)[:2] == ["S7", "H9"]
    field = {"D-AMB-12": "match_field"}
    assert summons(play(engine, pos(start, amb=field))) == ["summon C5", "summon H9", "summon S7", "summon S8"]
    assert summons(play(engine, pos(start, amb=field), ["summon S7", "set C5"])) == ["summon S8"]
    mixed = {"hand": ["S8", "H9", "C5"], "monsters": ["S7", "H2"]}  # a field mixed by earlier K summons
    assert summons(play(engine, pos(mixed, amb=field))) == ["summon H9", "summon S8"]
    assert summons(play(engine, pos(mixed, amb={"D-AMB-12": "field_wide"}))) == []


def test_D_AMB_25_both_freely_gives_the_opponent_priority_before_the_main_phase_ends(engine):
    start = ({"monsters": ["C5"], "hand": ["S7"]}, {"back_row": ["SJ"], "monsters": ["H3"]})
    t = play(engine, pos(*start), ["pass"])
    assert t.phase == "declare" and t.decider == 0  # default: the opponent acts only as a response
    free = {"D-AMB-25": "both_freely"}
    t = play(engine, pos(*start, amb=free), ["pass"])
    assert t.phase == "main" and t.decider == 1 and t.legal == ["pass", "act_set 0"]
    t = play(engine, pos(*start, amb=free), ["pass", "act_set 0", "target 0"])
    assert t.zone("C5", 0) == "graveyard" and t.phase == "main" and t.decider == 0 and t.uses(1) == [1, 0, 0]
    assert "summon S7" in t.legal  # the turn player's main phase goes on
    t = play(engine, pos(*start, amb=free), ["pass", "act_set 0", "target 0", "pass"])
    assert t.turn == 4 and t.active == 1  # nothing left for p1: the phase ends; no attacker: the turn too
    t = play(engine, pos(*start, amb=free), ["pass", "pass"])
    assert t.phase == "declare" and t.zone("SJ", 1) == "back_row"


def test_D_AMB_36_simultaneous_boosts_are_committed_unseen_then_revealed(engine):
    start = ({"monsters": ["S7"], "back_row": ["D3"]}, {"monsters": ["C9"], "back_row": ["H4"]})
    secret = {"D-AMB-36": "simultaneous"}
    battle = ["attack 0 0", "pass", "pass"]
    t = play(engine, pos(*start, phase="declare", amb=secret), battle + ["boost 0 0"])
    assert t.decider == 0 and t.legal == ["pass"] and t.boost("S7", 0) == 0  # committed, not applied
    d3 = L.card_id(0, 2)
    assert t.state[L.C_FLAGS + d3] & L.F_COMMITTED and t.state[L.C_BOOST + d3] == 1
    view = L.build_view(t.state, 1)
    assert view[L.C_BOOST + d3] == 0 and not view[L.C_FLAGS + d3] & L.F_COMMITTED  # p1 cannot see it
    t = play(engine, pos(*start, phase="declare", amb=secret), battle + ["boost 0 0", "pass"])
    assert t.decider == 1 and t.legal == ["pass", "boost 0 0", "boost 0 1"]
    t = play(engine, pos(*start, phase="declare", amb=secret), battle + ["boost 0 0", "pass", "boost 0 1", "pass"])
    # revealed together: ♠7 + 3 = 10 against ♣9 + 4 = 13 (same colour: the higher wins)
    assert t.zone("S7", 0) == "graveyard" and t.hp(0) == 37 and t.counter("boosts") == 2
    assert t.zone("D3", 0) == "graveyard" and t.zone("H4", 1) == "graveyard"
    t = play(engine, pos(*start, phase="declare"), battle + ["boost 0 0"])
    assert t.boost("S7", 0) == 3 and t.decider == 1  # the default alternates, each boost shown at once


def test_D_AMB_32_simultaneous_battle_step_commits_then_both_cards_join_one_chain(engine):
    start = ({"monsters": ["S7"], "back_row": ["SJ"]}, {"monsters": ["C9"], "back_row": ["HQ"]})
    t = play(engine, pos(*start, phase="declare"), ["attack 0 0", "act_set 0"])
    assert t.pending == "j_targets" and t.decider == 0  # the default: activated at once
    secret = {"D-AMB-32": "simultaneous"}
    t = play(engine, pos(*start, phase="declare", amb=secret), ["attack 0 0", "act_set 0"])
    sj = L.card_id(0, parse_code("SJ")[0])
    assert t.phase == "battle_step" and t.pending == "none" and t.decider == 1 and t.legal == ["pass", "act_set 0"]
    assert t.state[L.C_FLAGS + sj] & L.F_COMMITTED and not L.build_view(t.state, 1)[L.C_FLAGS + sj] & L.F_COMMITTED
    t = play(engine, pos(*start, phase="declare", amb=secret), ["attack 0 0", "act_set 0", "act_set 0"])
    assert t.pending == "j_targets" and t.decider == 0 and t.legal == ["target 0", "target 5"]  # the turn player's first
    t = play(engine, pos(*start, phase="declare", amb=secret), ["attack 0 0", "act_set 0", "act_set 0", "target 0"])
    assert t.pending == "q_count" and t.decider == 1  # then the other revealed card joins the chain
    both = ["attack 0 0", "act_set 0", "act_set 0", "target 0", "count 1", "pass"]
    t = play(engine, pos(*start, phase="declare", amb=secret), both)
    assert t.zone("C9", 1) == "graveyard" and len(t.hand(1)) == 1 and t.graveyard(1) == ["C9", "HQ"]
    assert t.phase == "battle_step" and t.decider == 0 and t.pending == "none"  # a new round
    t = play(engine, pos(*start, phase="declare", amb=secret), both + ["pass", "pass"])
    assert t.active == 1 and t.turn == 4  # nothing committed: the step ends; the target is gone (D-AMB-33)
    t = play(engine, pos(*start, phase="declare", amb=secret), ["attack 0 0", "pass", "pass"])
    assert t.phase == "damage_step" and t.decider == 0 and t.zone("HQ", 1) == "back_row"


def test_D_AMB_18_set_is_activation_function_cards_are_never_set(engine):
    start = ({"hand": ["HJ", "S5"]}, {"monsters": ["C5"]})
    assert {"set HJ", "set S5", "act_hand HJ"} <= set(play(engine, pos(*start)).legal)
    rule = {"D-AMB-18": "set_is_activation"}
    t = play(engine, pos(*start, amb=rule))
    assert "set HJ" not in t.legal and {"set S5", "act_hand HJ"} <= set(t.legal)
    t = play(engine, pos(*start, amb=rule), ["act_hand HJ", "target 0"])  # the activation is the set
    assert t.zone("C5", 1) == "graveyard" and t.graveyard(0) == ["HJ"]
    battle = ({"monsters": ["S7"]}, {"monsters": ["C9"], "back_row": ["HQ"], "deck": ["D2", "DJ"]})
    q = ["attack 0 0", "pass", "act_set 0", "count 1"]  # the defender's Q draws ♦J in the battle step
    assert play(engine, pos(*battle, phase="declare"), q).legal == ["pass", "set DJ"]  # S47/S48: set, then use
    t = play(engine, pos(*battle, phase="declare", amb=rule), q)
    assert t.pending == "q_set" and t.legal == ["pass"] and t.hand(1) == ["DJ"]


def test_D_AMB_18_must_at_once_a_set_function_card_is_activated_at_once_or_never(engine):
    rule = {"D-AMB-18": "must_at_once"}
    start = ({"hand": ["HJ"]}, {"monsters": ["C5"]})
    assert "pass" in play(engine, pos(*start), ["set HJ"]).legal  # the default: it may wait (S36)
    t = play(engine, pos(*start, amb=rule), ["set HJ"])
    assert t.legal == ["act_set 0"]  # the owner's next decision is its activation
    t = play(engine, pos(*start, amb=rule), ["set HJ", "act_set 0", "target 0"])
    assert t.zone("C5", 1) == "graveyard" and t.graveyard(0) == ["HJ"]
    t = play(engine, pos({"hand": ["HJ", "S5"]}, {}, amb=rule), ["set HJ"])  # nothing to destroy now
    assert "act_set 0" not in t.legal and "summon S5" in t.legal
    t = play(engine, pos({"hand": ["HJ", "S5"], "deck": ["D2", "D3"]}, {"hand": ["C5"], "deck": ["D4", "D5"]},
                         amb=rule), ["set HJ", "pass", "summon C5", "pass", "pass"])
    assert t.active == 0 and t.zone("C5", 1) == "monster" and "act_set 0" not in t.legal  # its moment passed
    old = ({"back_row": ["HJ"]}, {"monsters": ["C5"]})  # set on an earlier turn
    assert "act_set 0" in play(engine, pos(*old)).legal and "act_set 0" not in play(engine, pos(*old, amb=rule)).legal
    battle = ({"monsters": ["S7"]}, {"monsters": ["C9"], "hand": ["HQ"], "deck": ["D2", "DJ"]})
    q = ["attack 0 0", "pass", "act_hand HQ", "count 1", "set DJ"]  # the defender's Q draws and sets ♦J
    hand_q = {"D-AMB-27": "yes"}  # (a Q set on an earlier turn is dead under must_at_once: from hand)
    assert play(engine, pos(*battle, phase="declare", amb=hand_q), q).legal == ["pass", "act_set 1"]  # S48: may
    t = play(engine, pos(*battle, phase="declare", amb={**rule, **hand_q}), q)
    assert t.decider == 1 and t.legal == ["act_set 1"]  # must


# ---- D-AMB-60 "k_searches_both" (issue 16 item 2): a K may take the opponent's graveyard cards -------------------
BOTH = {"D-AMB-60": "k_searches_both"}
S9_OF_P1 = L.card_id(1, parse_code("S9")[0])


def test_D_AMB_60_own_graveyard_only_by_default(engine):
    start = ({"hand": ["SK"], "graveyard": ["H5"]}, {"graveyard": ["S9", "DK"]})
    t = play(engine, pos(*start), ["act_hand SK"])
    assert t.pending == "k_picks" and t.legal == ["pick H5"]


def test_D_AMB_60_k_searches_both_the_taken_monster_fights_for_its_taker_and_dies_to_its_owner(engine):
    start = ({"hand": ["SK"], "graveyard": ["H5"]}, {"graveyard": ["S9", "DK"], "monsters": ["C10"]})
    t = play(engine, pos(*start, amb=BOTH), ["act_hand SK"])
    assert t.legal == ["pick S9'", "pick H5"]  # never a K (D-K-4), from either graveyard
    t = play(engine, pos(*start, amb=BOTH), ["act_hand SK", "pick S9'"])
    assert t.pending == "k_place" and t.legal == ["pass", "summon S9'"] and t.graveyard(1) == ["DK"]
    assert t.state[L.C_ZONE + S9_OF_P1] == L.Z_HAND and t.state[L.C_FLAGS + S9_OF_P1] == L.F_TAKEN
    t = play(engine, pos(*start, amb=BOTH), ["act_hand SK", "pick S9'", "summon S9'"])
    assert int(t.state[L.S_MONSTER]) == S9_OF_P1 and t.state[L.C_FLAGS + S9_OF_P1] == L.F_NEW | L.F_TAKEN
    assert t.graveyard(0) == ["H5", "SK"] and t.counter("k_summons") == 1
    # D-ADV-1: the spade's burn hits its controller's opponent, its owner
    t = play(engine, pos(*start, preset="advanced", amb=BOTH), ["act_hand SK", "pick S9'", "summon S9'"])
    assert t.hp(1) == 35 and t.hp(0) == 40
    # it attacks for p0; ♣10 beats it (same colour, higher wins): its controller p0 takes the 1 (D-DC-4)
    # and the card goes to its owner's graveyard (D-AMB-60: every card to its owner's)
    fight = ["act_hand SK", "pick S9'", "summon S9'", "pass", "attack 0 0", "pass", "pass", "pass", "pass"]
    t = play(engine, pos(*start, amb=BOTH), fight)
    assert t.hp(0) == 39 and t.hp(1) == 40 and t.graveyard(1) == ["DK", "S9"]
    assert t.state[L.C_FLAGS + S9_OF_P1] == 0 and t.monsters(0) == [None] * 5 and t.active == 1


def test_D_AMB_60_k_searches_both_a_taken_function_card_escalates_its_user_s_counter(engine):
    start = ({"hand": ["SK"]}, {"graveyard": ["HJ"], "monsters": ["C3"]})
    t = play(engine, pos(*start, amb=BOTH), ["act_hand SK", "pick HJ'", "pass"])  # kept in hand
    assert t.phase == "main" and {"act_hand HJ'", "set HJ'"} <= set(t.legal)
    t = play(engine, pos(*start, amb=BOTH), ["act_hand SK", "pick HJ'", "pass", "act_hand HJ'", "target 0"])
    assert t.graveyard(1) == ["C3", "HJ"] and t.uses(0) == [1, 0, 1] and t.uses(1) == [0, 0, 0]
    assert t.back_row(0) == [None] * 5  # its temporary slot (D-FN-2) is free again
    # set, then destroyed by the owner's J: back to the owner's graveyard
    t = play(engine, pos(*start, amb=BOTH), ["act_hand SK", "pick HJ'", "pass", "set HJ'"])
    assert t.back_row(0)[0] == "HJ" and int(t.state[L.S_BACK]) == L.card_id(1, parse_code("HJ")[0])


def test_D_AMB_60_k_searches_both_bumps_and_discards_of_a_taken_card(engine):
    start = ({"hand": ["SK", "D2", "D3", "D4", "D5", "D6", "D7"]}, {"graveyard": ["S9"]})
    taken = ["act_hand SK", "pick S9'", "summon S9'"]
    # D-AMB-14 "hand": back to the hand of the player who summoned it, still theirs
    t = play(engine, pos(*start, amb={**BOTH, "D-AMB-15": "any_time_main", "D-AMB-14": "hand"}), taken + ["bump 0"])
    assert t.state[L.C_ZONE + S9_OF_P1] == L.Z_HAND and t.state[L.C_FLAGS + S9_OF_P1] == L.F_TAKEN
    assert "summon S9'" in t.legal
    # D-AMB-14 "deck_bottom": the bottom of its owner's deck (a deck holds its owner's cards only)
    before = play(engine, pos(*start, amb=BOTH)).deck_size(1)
    t = play(engine, pos(*start, amb={**BOTH, "D-AMB-15": "any_time_main", "D-AMB-14": "deck_bottom"}), taken + ["bump 0"])
    assert t.deck_size(1) == before + 1 and int(t.state[L.S_DECK + L.N_CODES]) == S9_OF_P1
    assert t.state[L.C_FLAGS + S9_OF_P1] == 0
    # kept in hand: seven cards at the end of the turn (D-END-1); discarded, it goes to its owner's graveyard
    t = play(engine, pos(*start, amb=BOTH), ["act_hand SK", "pick S9'", "pass", "pass"])
    assert t.phase == "discard" and "discard S9'" in t.legal
    t = play(engine, pos(*start, amb=BOTH), ["act_hand SK", "pick S9'", "pass", "pass", "discard S9'"])
    assert t.graveyard(1) == ["S9"] and t.active == 1 and t.state[L.C_FLAGS + S9_OF_P1] == 0


def test_D_AMB_60_k_searches_both_views_hide_a_taken_card_in_its_taker_s_hand():
    from strategies.poker_duel.kernel_policies import nb_view
    m = _loaded(pos({"hand": ["SK"]}, {"graveyard": ["S9"]}, amb=BOTH), ["act_hand SK", "pick S9'", "pass"])
    state = m.to_array()
    for seat in (0, 1):
        twin = L.new_state()
        nb_view(state, seat, False, twin)
        assert np.array_equal(twin, m.view(seat))
    assert m.view(0)[L.C_ZONE + S9_OF_P1] == L.Z_HAND  # its holder sees it
    mine = m.view(1)  # its owner knows a K took it (public), not where it is now
    assert mine[L.C_ZONE + S9_OF_P1] == L.Z_HIDDEN and mine[L.C_FLAGS + S9_OF_P1] == L.F_TAKEN


def _loaded(position, texts):
    from sim.poker_duel.position import apply_texts, load_position
    m = load_position(position)
    apply_texts(m, texts)
    return m


def test_D_AMB_60_k_searches_both_positions_name_a_taken_card_with_an_apostrophe(engine):
    """The scenario sandbox can start with a K's catch on the table: p0's ♠9' (p1's ♠9) attacks."""
    start = pos({"monsters": ["S9'"]}, {"monsters": ["C10"]}, phase="declare", amb=BOTH)
    t = play(engine, start)
    assert t.state[L.C_FLAGS + S9_OF_P1] == L.F_TAKEN and t.legal == ["pass", "attack 0 0"]
    t = play(engine, start, ["attack 0 0", "pass", "pass", "pass", "pass"])
    assert t.hp(0) == 39 and t.graveyard(1) == ["S9"] and t.state[L.C_FLAGS + S9_OF_P1] == 0
    t = play(engine, pos({"hand": ["S9'"], "monsters": ["D2"]}, {}, amb=BOTH, turn_suit="D"))
    assert "summon S9'" not in t.legal and "set S9'" in t.legal  # the suit rule (D-SUM-1) binds it too
    assert play(engine, pos({"hand": ["S9'"]}, {}, amb=BOTH)).deck_size(1) == 53


def test_D_AMB_60_own_a_position_with_a_taken_card_is_one_error_line():
    import pytest
    from sim.errors import CardbalanceError
    from sim.poker_duel.position import load_position
    with pytest.raises(CardbalanceError, match=r"players\[0\]\.hand': S9' is the other player's card; only a K "
                                               r"under D-AMB-60 = k_searches_both takes one\.$"):
        load_position(pos({"hand": ["S9'"]}, {}))
    with pytest.raises(CardbalanceError, match="is not a card"):
        load_position(pos({"graveyard": ["S9'"]}, {}, amb=BOTH))  # graveyards and decks: the owner's only
