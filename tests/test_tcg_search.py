"""Novel TCG search agents (strategies/novel_tcg/search.py) and their compiled sampler
(sim/novel_tcg/kernel_sampler.py):

- the compiled sampler deals the plain-Python sampler's world draw for draw, on views
  from seeded random matches (every template pairing, the default and 'alternatives'
  presets: face-down sets, opposing equipment), and advances the agent's word by its draws;
- no peeking: a search agent's decision and statistics do not change when what its seat
  cannot see (the opponent's hand, both deck orders, the face-down characters, the
  generator word) is dealt differently in the true state;
- determinism: the same seed gives the same decisions, whatever the chunking (workers);
  the budget is rollouts / iterations; the reference loop and the kernel loop play the
  same matches with a search agent in a seat;
- the scripted loop is untouched: greedy plays the same matches in either loop.
"""

import random

import numpy as np
import pytest

from sim import rng as rng_module
from sim.novel_tcg import card_pool, kernel
from sim.novel_tcg import layout as L
from sim.novel_tcg.kernel_sampler import sample_world
from sim.novel_tcg import rules as R
from sim.novel_tcg.rules import load_rules
from sim.novel_tcg.sampler import could_be_set, sample_world as sample_world_reference, seat_at
from sim.rng import PyRng, splitmix_next, to_signed, to_unsigned
from strategies import PARAM_SHIFT
from strategies import search_tree as T
from strategies.novel_tcg import (ISMCTS_DEFAULT_BUDGET, STRATEGY_GREEDY, STRATEGY_ISMCTS, STRATEGY_PIMC,
                                  STRATEGY_PIMC_RANDOM, strategy_id, strategy_name)
from strategies.novel_tcg import batch as B
from strategies.novel_tcg.dispatch import choose, loop_workspace, node_capacity
from strategies.novel_tcg.policies import nb_view

TEMPLATE_PAIRS = [(a, b) for a in card_pool.TEMPLATES for b in card_pool.TEMPLATES]
SEARCH_AGENTS = ("pimc:6", "pimc-random:6", "ismcts:12")


def decision_states(preset, matches, every=7, seed0=0):
    """(rules array, state, turn player) at every `every`-th decision of seeded random kernel
    matches, over the template pairings and both first players."""
    rules = load_rules(preset)
    r = B.checked_rules(rules.to_array())
    out = []
    legal = np.zeros(kernel.MAX_LEGAL, dtype=np.int64)
    for seed in range(seed0, seed0 + matches):
        chooser = random.Random(seed)
        templates = TEMPLATE_PAIRS[seed % len(TEMPLATE_PAIRS)]
        decks = [card_pool.build_deck(rules, templates[p], 10) for p in (0, 1)]
        state = np.zeros(L.STATE_SIZE, dtype=np.int64)
        kernel.new_match(state, r, 10, 10, decks[0], decks[1], seed % 2, to_signed(rng_module.match_seed(seed, 0)))
        step = 0
        while state[L.S_PHASE] != L.PH_OVER:
            n = kernel.legal_actions(state, r, legal)
            if n > 1:
                if step % every == 0:
                    out.append((r, state.copy(), int(state[L.S_ACTIVE])))
                step += 1
            kernel.apply_action(state, r, legal[chooser.randrange(n)])
    return out


def view_of(state, seat):
    view = np.zeros(L.STATE_SIZE, dtype=np.int64)
    nb_view(state, seat, view)
    return view


def legal_of(state, r):
    buffer = np.zeros(kernel.MAX_LEGAL, dtype=np.int64)
    return buffer[:kernel.legal_actions(state, r, buffer)].copy()


@pytest.fixture(scope="module")
def states():
    return decision_states("default", 18) + decision_states("alternatives", 18, seed0=100)


def test_the_compiled_sampler_deals_the_plain_samplers_world_draw_for_draw(states):
    face_down = 0
    for k, (r, state, seat) in enumerate(states):
        view = view_of(state, seat)
        face_down += int((view == L.VIEW_HIDDEN).any())
        for j in range(3):
            word = to_signed(rng_module.match_seed(k, j + 1))
            expected = sample_world_reference(view, r, seat, word)
            generators = np.array([11, 22], dtype=np.int64)
            generators[seat] = word
            world = sample_world(view.copy(), r, seat, generators, seat, np.full(L.STATE_SIZE, 77, dtype=np.int64))
            assert np.array_equal(world, expected), (k, j, [L.slot_name(i) for i in np.nonzero(world != expected)[0]][:6])
            # the agent's word moved by every draw, the S_RNG word included; the other seat's did not
            plain = PyRng(word)
            sample_world_reference_draws(view, r, seat, plain)
            assert to_unsigned(int(generators[seat])) == splitmix_next(plain.state)[0]
            assert generators[1 - seat] == (11, 22)[1 - seat]
            assert np.array_equal(view_of(world, seat), view)
    assert len(states) > 1000 and face_down > 500  # many views, most with face-down characters to deal


def sample_world_reference_draws(view, r, seat, generator):
    """Advance `generator` (a PyRng) by the plain sampler's draws before its S_RNG word: the own
    deck's shuffle, one draw per face-down slot, the opponent's shuffle."""
    own = int(view[seat_at(seat, L.P_DECK_COUNT)])
    for i in range(own - 1, 0, -1):
        generator.below(i + 1)
    q = 1 - seat
    pool = int(view[seat_at(q, L.P_DECK_COUNT)]) + int(view[seat_at(q, L.P_HAND_COUNT)])
    for slot in range(L.MAX_FRONT):
        if view[L.front_slot(q, slot) + L.F_KIND] == L.VIEW_HIDDEN:
            generator.below(2)
    for i in range(pool - 1, 0, -1):
        generator.below(i + 1)


def hide_differently(state, r, seat, chooser):
    """A copy of `state` that gives `seat` the same view: another generator word, both deck
    orders shuffled, the opponent's hand, deck and face-down characters dealt anew from the
    same cards (a face-down slot only from cards that could be set; full HP with its public
    equipment's bonus). `chooser`: a random.Random."""
    other = state.copy()
    q = 1 - seat
    other[L.S_RNG] = 1234567
    for p in (0, 1):
        deck = seat_at(p, L.P_DECK)
        count = int(other[seat_at(p, L.P_DECK_COUNT)])
        order = other[deck:deck + count].tolist()
        chooser.shuffle(order)
        other[deck:deck + count] = order
    hand = seat_at(q, L.P_HAND)
    deck = seat_at(q, L.P_DECK)
    deck_count = int(other[seat_at(q, L.P_DECK_COUNT)])
    slots = [s for s in range(L.MAX_FRONT) if other[L.front_slot(q, s) + L.F_KIND] != L.NONE
             and other[L.front_slot(q, s) + L.F_POS] == L.POS_FACEDOWN]
    pool = other[deck:deck + deck_count].tolist() + [k for k, c in enumerate(other[hand:hand + 63]) for _ in range(c)]
    pool += [int(other[L.front_slot(q, s) + L.F_KIND]) for s in slots]
    chooser.shuffle(pool)
    for s in slots:
        kind = next(k for k in pool if could_be_set(r, k))
        pool.remove(kind)
        i = L.front_slot(q, s)
        other[i + L.F_KIND] = kind
        other[i + L.F_HP_NOW] = r[R.R_POOL + kind * R.POOL_FIELDS + card_pool.F_HP] + other[i + L.F_HP_BONUS]
    other[deck:deck + deck_count] = pool[:deck_count]
    other[hand:hand + 63] = np.bincount(np.array(pool[deck_count:], dtype=np.int64), minlength=63)
    return other


def _decide(strategy, view, r, legal, seat, agent_seed):
    """(chosen index, per-action visits, per-action points, workspace) of one decision."""
    policy = np.zeros(2, dtype=np.int64)
    policy[seat] = to_signed(agent_seed)
    workspace = loop_workspace(np.int64(strategy), np.int64(strategy))
    index = choose(np.int64(strategy), view.copy(), r, legal.copy(), np.int64(len(legal)), policy, np.int64(seat),
                   workspace)
    n = int(workspace[T.W_N_STATS])
    assert n == len(legal)
    return int(index), T.visits_of(workspace)[:n].copy(), T.points_of(workspace)[:n].copy(), workspace


@pytest.fixture(scope="module")
def positions(states):
    """Some of the states, each with a twin that differs only in what its turn player cannot see."""
    chooser = random.Random(8)
    return [(r, state, hide_differently(state, r, seat, chooser), seat) for r, state, seat in states[::9]]


@pytest.mark.parametrize("agent", SEARCH_AGENTS)
def test_no_peeking_same_view_same_decision_and_statistics(agent, positions):
    strategy = strategy_id(agent)
    differed = 0
    for k, (r, state, other, seat) in enumerate(positions):
        view = view_of(state, seat)
        assert np.array_equal(view, view_of(other, seat))
        differed += not np.array_equal(state, other)
        legal = legal_of(state, r)
        assert np.array_equal(legal, legal_of(other, r))
        one = _decide(strategy, view, r, legal, seat, 50 + k)
        two = _decide(strategy, view_of(other, seat), r, legal, seat, 50 + k)
        assert one[0] == two[0] and np.array_equal(one[1], two[1]) and np.array_equal(one[2], two[2]), (agent, k)
    assert len(positions) > 30 and differed > len(positions) // 2


def test_the_sampler_refuses_a_true_state_where_a_view_belongs(positions):
    """A true state's deck slots hold kinds, not the view's unseen-card lists: a search agent
    handed one by mistake stops instead of searching worlds dealt from it."""
    r, state, _, seat = next(p for p in positions if p[1][seat_at(p[3], L.P_DECK_COUNT)] > 1)
    with pytest.raises(Exception):
        _decide(strategy_id("pimc:4"), state, r, legal_of(state, r), seat, 1)


def test_the_budget_is_rollouts_or_iterations(positions):
    for k, (r, state, _, seat) in enumerate(positions[:10]):
        view, legal = view_of(state, seat), legal_of(state, r)
        for budget in (3, 17):
            for base in (STRATEGY_PIMC_RANDOM, STRATEGY_PIMC):
                _, visits, points, _ = _decide(base | budget << PARAM_SHIFT, view, r, legal, seat, k)
                assert visits.sum() == max(budget, len(legal)) and visits.min() >= 1
                assert (points <= T.WIN_POINTS * visits).all()
            index, visits, _, workspace = _decide(STRATEGY_ISMCTS | budget << PARAM_SHIFT, view, r, legal, seat, k)
            assert workspace[T.W_NODES] == budget + T.SPARE_NODES == node_capacity(STRATEGY_ISMCTS | budget << PARAM_SHIFT)
            assert visits.sum() == budget and visits[index] == visits.max()
    assert node_capacity(strategy_id("ismcts")) == ISMCTS_DEFAULT_BUDGET + T.SPARE_NODES
    assert node_capacity(strategy_id("pimc-greedy:9")) == 0


def test_names_budgets_and_the_alias():
    assert strategy_name(strategy_id("pimc-greedy:20")) == "pimc:20"
    assert strategy_id("ismcts") == STRATEGY_ISMCTS and strategy_name(strategy_id("ismcts:200")) == "ismcts:200"


def _cell(agents, deck="swarm/advance", first=0):
    return B.cell_of({"rank": (10, 10), "deck": deck, "first": first}, *map(strategy_id, agents))


def test_batches_repeat_and_do_not_depend_on_the_chunking():
    """The same numbers however a cell's matches are split into chunks (workers)."""
    r = load_rules().to_array()
    for agents in (("pimc:4", "greedy"), ("greedy", "ismcts:8"), ("pimc-random:4", "tuned")):
        cell = _cell(agents)
        whole = B.play_batch(r, cell, 9, 0, 6)
        assert np.array_equal(whole, B.play_batch(r, cell, 9, 0, 6))
        assert np.array_equal(whole, B.play_batch(r, cell, 9, 0, 2) + B.play_batch(r, cell, 9, 2, 4))
        assert not np.array_equal(whole, B.play_batch(r, _cell(("greedy", "greedy")), 9, 0, 6)), agents


def test_the_reference_loop_and_the_kernel_loop_play_the_same_matches():
    for preset, agents in (("default", ("ismcts:6", "greedy")), ("alternatives", ("random", "pimc-greedy:3")),
                           ("default", ("pimc-random:3", "ismcts:4"))):
        rules = load_rules(preset)
        for first in (0, 1):
            cell = _cell(agents, "curve/advance", first)
            seed = rng_module.match_seed(5, first)
            assert np.array_equal(B.kernel_record(rules.to_array(), cell, seed), B.reference_record(rules, cell, seed)), (
                preset, agents, first)


def test_greedy_plays_the_same_matches_in_the_search_loop():
    """A scripted agent gets the field view in either loop: greedy against greedy through the
    search loop's switch equals the scripted loop, match for match."""
    from strategies.novel_tcg import search_batch as S
    r = B.checked_rules(load_rules().to_array())
    for deck in ("swarm", "curve/advance"):
        cell = _cell(("greedy", "tuned"), deck)
        deck0, deck1 = B.decks_of(r, cell)
        for i in range(3):
            seed = np.uint64(rng_module.match_seed(3, i))
            scripted, searched = (np.zeros(B.N_RECORD, dtype=np.int64) for _ in range(2))
            buffers = lambda: (np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(kernel.MAX_LEGAL, dtype=np.int64),  # noqa: E731
                               np.zeros(L.STATE_SIZE, dtype=np.int64), np.zeros(2, dtype=np.int64))
            B.play_match_in(r, cell, deck0, deck1, seed, scripted, *buffers())
            S.play_match_search(r, cell, deck0, deck1, seed, searched, *buffers(), S.cell_workspace(cell))
            assert np.array_equal(scripted, searched), (deck, i)
    assert STRATEGY_GREEDY == 0


PROBE = """
import json, sys
from sim.novel_tcg.rules import load_rules
from strategies.novel_tcg import batch as B
from strategies.novel_tcg.batch import cell_of
cell = cell_of({"rank": (10, 10), "deck": "swarm/curve", "first": 0}, 0, 3)  # greedy against tuned
B.play_batch(load_rules().to_array(), cell, 5, 0, 3)
B.play_paired_batch(load_rules().to_array(), load_rules("loose_limit").to_array(), cell, 5, 0, 2)
print(json.dumps({"scripted": len(B._play_batch.signatures),
                  "search_imported": any(m in sys.modules for m in ("strategies.novel_tcg.search_batch",
                                                                    "strategies.novel_tcg.search",
                                                                    "sim.novel_tcg.kernel_sampler"))}))
"""


def test_a_scripted_batch_compiles_or_loads_no_search_agent():
    """A fresh interpreter playing greedy against tuned (a batch and a paired batch) never even
    imports the search loop, the search agents or their sampler, so a scripted sweep's cold
    compile is the scripted loop's alone."""
    import json
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    counts = json.loads(out.stdout.strip().splitlines()[-1])
    assert counts == {"scripted": 1, "search_imported": False}, counts


def test_a_batch_picks_its_loop_from_the_strategy_ids():
    assert not B._searches(_cell(("greedy", "tuned"))) and not B._searches(_cell(("random", "defensive")))
    for name in ("pimc", "pimc-random:8", "ismcts:20", "pimc-greedy:5"):
        assert B._searches(_cell(("greedy", name))) and B._searches(_cell((name, "random")))
