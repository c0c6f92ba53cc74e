"""The engine contract (sim/contract.py, docs/engine-contract.md), one suite for every
registered game — in the spirit of Pgx's `api_test` and OpenSpiel's `random_sim_test`.

Each game declares `GameSpec.engine`; the suite plays seeded random matches on it
(a few hundred actions per game and test, the rules presets and the grid's choice
values and both first players) and holds it to: the invariants after every action,
the same seed replaying the same match, the reference engine equal to the kernel
step by step, a view never revealing a hidden card, sampled worlds agreeing with
the view, positions round-tripping through the game's format, and an agent giving
the same decision on two states with one view. A game registered later (its one
registry line) is picked up here with no line changed; a game that misses part of
the contract fails the named test. `test_a_planted_break_is_caught` shows for each
game that the checks can fail.
"""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

import toygame  # noqa: F401  (registers the toy games)
from sim.contract import GameEngine, missing_methods
from sim.registry import CHOICE, PER_SEAT, SEAT, game_names, get_game
from sim.rng import match_seed, to_signed

ACTIONS_PER_TEST = 600   # random-play actions per game and test (the whole suite: well under a minute warm)
MAX_MATCH_ACTIONS = 5000  # a random match longer than this breaks the contract (it must end)
DECISION_STATES = 12     # states per game the hidden-information and agent checks look at
SAMPLES = 3              # sampled worlds per state
GAMES = game_names()
# Parts of the contract a game is known to miss: the test is marked xfail(strict) for it, so it
# fails the day the game meets the clause (remove the entry then) and still names the gap.
KNOWN_GAPS: dict[tuple[str, str], str] = {}


class Case:
    """One game's engine, rules (each preset) and cells (grid values) to play."""

    def __init__(self, name: str):
        self.spec = get_game(name)
        self.engine = self.spec.engine() if self.spec.engine else None
        self.rules = [self.spec.load_rules(preset) for preset in self.spec.rules_presets]
        self.cells = _cells(self.spec)

    def setups(self):
        """(rules, rules array, cell) in turn, for ever."""
        arrays = [self.engine.rules_array(rules) for rules in self.rules]
        for k in itertools.count():
            i = k % len(self.rules)
            yield self.rules[i], arrays[i], self.cells[(k // len(self.rules)) % len(self.cells)]


def _cells(spec) -> list[np.ndarray]:
    """Cells over the choice values, the single per-seat values and both first players."""
    axes = []
    for dimension in spec.dimensions:
        if dimension.kind == CHOICE:
            axes.append([(dimension.name, v) for v in dimension.values])
        elif dimension.kind == SEAT:
            axes.append([(dimension.name, 0), (dimension.name, 1)])
        elif dimension.kind == PER_SEAT:
            axes.append([(dimension.name, dimension.single)])
        else:
            axes.append([(dimension.name, dimension.single)])
    return [spec.cell_array(dict(values), 0, 0) for values in itertools.product(*axes)]


_CASES: dict[str, Case] = {}


def case_of(name: str) -> Case:
    if name not in _CASES:
        _CASES[name] = Case(name)
    return _CASES[name]


@pytest.fixture(params=GAMES)
def case(request):
    found = case_of(request.param)
    if found.engine is None:
        pytest.fail("%s declares no engine (GameSpec.engine): it misses the whole contract" % request.param)
    return found


def random_play(engine, rules_array, cell, seed: int, on_state=None) -> list[int]:
    """Play one match with uniformly random actions (chosen from `seed`); `on_state(state, legal)`
    sees every state before its action, and the final one. Returns the actions taken."""
    chooser = random.Random(seed)
    state = engine.new_match(rules_array, cell, match_seed(seed, 0))
    taken = []
    while True:
        legal = engine.legal_actions(state, rules_array)
        if on_state is not None:
            on_state(state, legal)
        if len(legal) == 0:
            return taken
        assert len(taken) < MAX_MATCH_ACTIONS, "a random match did not end after %d actions" % MAX_MATCH_ACTIONS
        action = int(legal[chooser.randrange(len(legal))])
        engine.apply_action(state, rules_array, action)
        taken.append(action)


def decision_states(case: Case) -> list[tuple]:
    """(rules array, state, legal) at seeded decision points (2+ legal actions) of random play."""
    found = []
    setups = case.setups()
    for seed in itertools.count(1):
        _, rules_array, cell = next(setups)
        seen = []
        random_play(case.engine, rules_array, cell, seed,
                    lambda state, legal: seen.append((state.copy(), legal.copy())) if len(legal) > 1 else None)
        for state, legal in seen[1::max(1, len(seen) // 3)][:3]:
            found.append((rules_array, state, legal))
        if len(found) >= DECISION_STATES:
            return found[:DECISION_STATES]


# ---- the checks (plain functions, so that the planted breaks below run the same code) --------

def check_invariants(case: Case) -> int:
    actions = 0
    setups = case.setups()
    for seed in itertools.count(1):
        _, rules_array, cell = next(setups)

        def on_state(state, legal):
            where = "seed %d, after %d actions" % (seed, actions)
            assert legal.dtype.kind == "i" and (np.diff(legal) > 0).all(), "%s: legal actions not strictly ascending" % where
            assert case.engine.is_over(state) == (len(legal) == 0), "%s: terminal <=> no legal action" % where
            assert not case.engine.invariant_errors(state, rules_array), (where, case.engine.invariant_errors(state, rules_array))
            if len(legal):
                assert case.engine.decider(state) in (0, 1), where
            else:
                winner, end_type = case.engine.result(state)
                assert winner in (0, 1, 2) and 0 <= end_type < len(case.spec.end_types), (where, winner, end_type)

        actions += len(random_play(case.engine, rules_array, cell, seed, on_state))
        if actions >= ACTIONS_PER_TEST:
            return actions


def check_replay(case: Case) -> None:
    setups = case.setups()
    played = 0
    for seed in itertools.count(1):
        _, rules_array, cell = next(setups)
        finals = []
        for _ in range(2):
            states = []
            taken = random_play(case.engine, rules_array, cell, seed, lambda s, legal: states.append(s.copy()))
            finals.append((taken, states[-1]))
        assert finals[0][0] == finals[1][0], "seed %d: the same seed played other actions" % seed
        assert np.array_equal(finals[0][1], finals[1][1]), "seed %d: the same seed ended in another state" % seed
        played += len(finals[0][0])
        if played >= ACTIONS_PER_TEST:
            return


def check_reference(case: Case) -> None:
    played = 0
    setups = case.setups()
    for seed in itertools.count(1):
        rules, rules_array, cell = next(setups)
        reference = case.engine.reference_new(rules, cell, match_seed(seed, 0))
        chooser = random.Random(seed)
        state = case.engine.new_match(rules_array, cell, match_seed(seed, 0))
        for step in itertools.count():
            expected = reference.to_array()
            assert np.array_equal(expected, state), "seed %d step %d: states differ at slots %s" % (
                seed, step, np.nonzero(expected != state)[0][:10].tolist())
            legal = case.engine.legal_actions(state, rules_array)
            assert reference.legal_actions() == legal.tolist(), "seed %d step %d: legal actions differ" % (seed, step)
            if not len(legal):
                assert reference.is_over()
                break
            action = int(legal[chooser.randrange(len(legal))])
            reference.apply(action)
            case.engine.apply_action(state, rules_array, action)
            played += 1
        if played >= ACTIONS_PER_TEST:
            return


def check_view_hides(case: Case) -> None:
    for rules_array, state, _ in decision_states(case):
        for seat in (0, 1):
            view = case.engine.view(state, rules_array, seat)
            shown = case.engine.hidden_in_view(view, rules_array)
            hidden = case.engine.hidden_cards(state, rules_array, seat)
            assert shown == hidden, "seat %d's view reveals %s and hides %s it may see" % (
                seat, sorted(hidden - shown)[:5], sorted(shown - hidden)[:5])


def check_sampled_worlds(case: Case) -> None:
    moved = 0
    for k, (rules_array, state, legal) in enumerate(decision_states(case)):
        seat = case.engine.decider(state)
        view = case.engine.view(state, rules_array, seat)
        for sample in range(SAMPLES):
            world = case.engine.sample_world(view, rules_array, seat, to_signed(match_seed(k, sample + 7)))
            assert not case.engine.invariant_errors(world, rules_array), case.engine.invariant_errors(world, rules_array)
            again = case.engine.view(world, rules_array, seat)
            assert np.array_equal(again, view), "state %d: a sampled world's view differs at slots %s" % (
                k, np.nonzero(again != view)[0][:10].tolist())
            assert np.array_equal(case.engine.legal_actions(world, rules_array), legal), \
                "state %d: the decider's legal actions differ in a sampled world" % k
            moved += not np.array_equal(world, state)
    assert moved, "no sampled world differed from the true state (the sampler draws nothing)"


def check_positions(case: Case) -> None:
    played = 0
    setups = case.setups()
    for seed in itertools.count(1):
        rules, _, cell = next(setups)
        reference = case.engine.reference_new(rules, cell, match_seed(seed, 0))
        chooser = random.Random(seed)
        for step in itertools.count():
            position = json.loads(json.dumps(case.engine.dump_position(reference)))  # JSON-ready
            loaded = case.engine.load_position(position, rules)
            assert case.engine.dump_position(loaded) == position, "seed %d step %d: the position changed" % (seed, step)
            legal = reference.legal_actions()
            assert loaded.legal_actions() == legal, "seed %d step %d: a loaded position has other actions" % (seed, step)
            if not legal:
                break
            reference.apply(legal[chooser.randrange(len(legal))])
            played += 1
            if played >= ACTIONS_PER_TEST // 3:
                return


def check_agents(case: Case) -> None:
    for k, (rules_array, state, legal) in enumerate(decision_states(case)[:DECISION_STATES // 2]):
        seat = case.engine.decider(state)
        view = case.engine.view(state, rules_array, seat)
        world = case.engine.sample_world(view, rules_array, seat, to_signed(match_seed(k, 99)))
        for agent in case.engine.agent_names():
            picks = []
            for one in (state, world):
                words = np.array([to_signed(match_seed(k, 1)), to_signed(match_seed(k, 2))], dtype=np.int64)
                picks.append((case.engine.decide(agent, one.copy(), rules_array, legal, seat, words), words.tolist()))
            assert picks[0] == picks[1], "state %d: %s decides differently on two states with one view" % (k, agent)
            assert 0 <= picks[0][0] < len(legal), (agent, picks[0][0], len(legal))
        for one in (state, world):  # action notation: every legal action has a distinct text
            texts = [case.engine.action_text(one, a) for a in legal]
            assert len(set(texts)) == len(texts) and all(isinstance(t, str) and t for t in texts), texts


# ---- the tests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", GAMES)
def test_engine_declares_the_contract(name):
    spec = get_game(name)
    assert spec.engine is not None, "%s declares no GameSpec.engine" % name
    engine = spec.engine()
    assert not missing_methods(engine), "%s's engine lacks %s" % (name, missing_methods(engine))
    assert isinstance(engine, GameEngine)


def test_invariants_hold_after_every_action_of_random_play(case):
    assert check_invariants(case) >= ACTIONS_PER_TEST


def test_the_same_seed_replays_the_same_match(case):
    check_replay(case)


def test_the_reference_engine_equals_the_kernel_step_by_step(case):
    check_reference(case)


def test_a_view_never_reveals_a_hidden_card(case):
    check_view_hides(case)


def test_sampled_worlds_agree_with_the_view(case):
    check_sampled_worlds(case)


def test_a_position_round_trips_through_load_and_dump(case, request):
    gap = KNOWN_GAPS.get((case.spec.name, "position"))
    if gap:
        request.applymarker(pytest.mark.xfail(strict=True, reason=gap))
    check_positions(case)


def test_an_agent_decides_the_same_on_two_states_with_one_view(case):
    check_agents(case)


# ---- planted breaks: each check fails on an engine that breaks its clause ----------------------

def _leak_one_hidden_card(engine):
    view = engine.view

    def leaky(state, rules_array, seat):
        shown = view(state, rules_array, seat)
        hidden = engine.hidden_in_view(shown, rules_array)
        for slot in np.nonzero(shown != state)[0]:  # put back the one slot that hides a card
            trial = shown.copy()
            trial[slot] = state[slot]
            if len(engine.hidden_in_view(trial, rules_array)) < len(hidden):
                return trial
        return shown
    return leaky, check_view_hides, "view reveals"


def _leak_the_rule_generator(engine):
    view = engine.view

    def leaky(state, rules_array, seat):
        shown = view(state, rules_array, seat)
        differs = np.nonzero(shown != state)[0]
        shown[differs[0]] = state[differs[0]]  # the first slot a view hides: the generator word
        return shown
    return leaky, check_sampled_worlds, "sampled world's view differs"


def _legal_actions_descending(engine):
    legal_actions = engine.legal_actions
    return (lambda state, rules_array: legal_actions(state, rules_array)[::-1].copy()), check_invariants, "not strictly ascending"


PLANTS = {"view": (_leak_one_hidden_card, _leak_the_rule_generator), "legal_actions": (_legal_actions_descending,)}


@pytest.mark.parametrize("plant", [(method, make.__name__) for method, makers in PLANTS.items() for make in makers],
                         ids=lambda plant: plant[1].strip("_"))
def test_a_planted_break_is_caught(case, plant, monkeypatch):
    method, maker = plant
    make = next(m for m in PLANTS[method] if m.__name__ == maker)
    if make is _leak_one_hidden_card and not any(case.engine.hidden_cards(s, r, case.engine.decider(s))
                                                 for r, s, _ in decision_states(case)):
        pytest.skip("%s hides no card (the generator leak stands for it)" % case.spec.name)
    broken, check, message = make(case.engine)
    monkeypatch.setattr(case.engine, method, broken)
    with pytest.raises(AssertionError, match=message):
        check(case)


def test_the_toy_games_steps_play_its_batch_kernels_matches():
    """The toy's contract face (step kernels and twin) is the game its batches play: stepping
    it with the seats' strategies gives `reference_play_match`'s records (= the kernel's)."""
    engine, rules = toygame.ToyEngine(), toygame.ToyRules()
    rules_array = rules.to_array()
    for seed in range(60):
        strategies = (seed % 3, (seed // 3) % 3)
        cell = toygame.cell_array(seed % 2, (seed // 2) % 2, 8 + seed % 9, 12, seed % 2, *strategies)
        state = engine.new_match(rules_array, cell, seed)
        words = np.array([to_signed(match_seed(seed, 1)), to_signed(match_seed(seed, 2))], dtype=np.int64)
        while not engine.is_over(state):
            legal = engine.legal_actions(state, rules_array)
            seat = engine.decider(state)
            engine.apply_action(state, rules_array, legal[engine.decide(toygame.STRATEGIES[strategies[seat]], state,
                                                                        rules_array, legal, seat, words)])
        record = toygame.reference_play_match(rules, cell, seed)
        winner, end_type = engine.result(state)
        assert [winner, end_type, state[toygame.T_TURN], *state[toygame.T_LIFE:toygame.T_LIFE + 2]] == record[:5].tolist()
        assert state[toygame.T_COUNTERS:].tolist() == record[6:].tolist()
