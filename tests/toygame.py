"""Dice Duel: a tiny numba game that implements `sim.registry.GameSpec`.

Generic code (sweep runner, analysis, reports, compare) is tested against this
game so that those tests need neither Faction War's engine nor its run time.
It is small but exercises every part of the contract: two factions, first
player advantage, life-dependent win rates, a special end type, a draw end
type, effect counters, a turns histogram with overflow, strategies read
through `strategy_id`, rules passed as an array, a plain-Python twin engine
(`reference_play_match`) that gives the same records as the kernel, a replay
log and paired (common-random-number) batches.

Rules of Dice Duel. Players alternate turns, `first` moving first. On its
turn the active player either ATTACKS (rolls a die with `die_sides` sides,
plus one side for faction "blue"; the opponent loses the roll) or HEALS
(gains `heal` life, at most its starting life). When the opponent's life
reaches 0 the active player wins: end type "exact" (a special victory) when
the roll equalled the opponent's remaining life exactly, else "knockout".
After `turn_cap` turns the match is a draw ("turn_cap").

Strategies: "greedy" always attacks; "random" attacks or heals with equal
chance (from the seat's policy generator); "cautious" heals while its life is
at most 5 and below its starting life, else attacks; "tuned" is cautious with
the threshold of the rules array's policy block (slot R_HEAL_BELOW; 5 without
one), the weight `cardbalance tune-agent --game toy_duel` tunes.

Randomness follows docs/engine-contract.md: the rule generator starts from the
match seed, seat p's policy generator from `match_seed(seed, p + 1)`.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

import numba as nb
import numpy as np

from sim import aggregate as agg
from sim import rng
from sim.errors import CardbalanceError
from sim.registry import CHOICE, PER_SEAT, SEAT, DerivedAxis, Dimension, GameData, GameSpec, register

GAME_NAME = "toy"
FACTIONS = ("red", "blue")
PAIRINGS = {"red_vs_red": (0, 0), "red_vs_blue": (0, 1), "blue_vs_blue": (1, 1)}
END_KNOCKOUT, END_EXACT, END_TURN_CAP = 0, 1, 2
END_TYPES = ("knockout", "exact", "turn_cap")
SPECIAL_END_TYPES = ("exact",)
COUNTER_ATTACKS, COUNTER_HEALS, COUNTER_MAX_ROLLS = 0, 1, 2
COUNTER_NAMES = ("attacks", "heals", "max_rolls")
LENGTH_BINS = 48  # turn_cap 60 > 47, so the overflow bin gets used
BEHAVIOUR_VERSION = 1
STRATEGY_GREEDY, STRATEGY_RANDOM, STRATEGY_CAUTIOUS, STRATEGY_TUNED = 0, 1, 2, 3
STRATEGIES = ("greedy", "random", "cautious", "tuned")

# rules array slots
R_DIE_SIDES, R_TURN_CAP, R_HEAL = 0, 1, 2
RULES_ARRAY_SIZE = 3
# The policy block (`tune-agent`): one weight after the rules, read only by "tuned".
R_HEAL_BELOW = RULES_ARRAY_SIZE
HEAL_BELOW_DEFAULT, HEAL_BELOW_RANGE = 5, (0, 20)
# cell array slots (what `cell_array` returns)
C_FACTION0, C_FACTION1, C_LIFE0, C_LIFE1, C_FIRST, C_STRATEGY0, C_STRATEGY1 = range(7)
# match state slots: three generators (rules, seat 0 policy, seat 1 policy)
S_RULE_RNG, S_POLICY_RNG = 0, 1
N_RECORD = agg.REC_COUNTERS + len(COUNTER_NAMES)


@dataclass(frozen=True)
class ToyRules:
    die_sides: int = 6
    turn_cap: int = 60
    heal: int = 2

    def __post_init__(self):
        for name, low, high in (("die_sides", 2, 100), ("turn_cap", 1, 10_000), ("heal", 0, 100)):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise CardbalanceError("toy rules: '%s' must be an integer from %d to %d (got %r)." % (name, low, high, value))

    def to_array(self) -> np.ndarray:
        return np.array([self.die_sides, self.turn_cap, self.heal], dtype=np.int64)

    def as_dict(self) -> dict:
        return asdict(self)

    def differences_from_default(self) -> dict:
        base = ToyRules().as_dict()
        return {k: v for k, v in self.as_dict().items() if base[k] != v}

    def stable_hash(self) -> str:
        payload = json.dumps({"v": BEHAVIOUR_VERSION, **self.as_dict()}, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:12]


PRESETS = {
    "default": {},
    "big-die": {"die_sides": 10},          # shorter matches, more exact kills
    "short": {"turn_cap": 12},             # many draws
    "no-heal": {"heal": 0},
}


def load_rules(name_or_path=None) -> ToyRules:
    """A preset name or a TOML file with die_sides / turn_cap / heal."""
    if name_or_path is None:
        return ToyRules()
    text = str(name_or_path)
    if text in PRESETS:
        return ToyRules(**PRESETS[text])
    import tomllib
    from pathlib import Path
    path = Path(text)
    if not path.is_file():
        raise CardbalanceError("rules: '%s' is neither a preset (%s) nor a readable TOML file." % (text, ", ".join(PRESETS)))
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise CardbalanceError("rules file %s is not valid TOML: %s." % (path, error)) from None
    unknown = set(data) - {"die_sides", "turn_cap", "heal"}
    if unknown:
        raise CardbalanceError("%s: unknown key '%s'; allowed keys: die_sides, heal, turn_cap." % (path, sorted(unknown)[0]))
    return ToyRules(**data)


def strategy_names() -> tuple[str, ...]:
    return STRATEGIES


def strategy_id(name: str) -> int:
    if name not in STRATEGIES:
        raise CardbalanceError("strategy '%s' is unknown; known strategies: %s." % (name, ", ".join(STRATEGIES)))
    return STRATEGIES.index(name)


def cell_array(faction0, faction1, life0, life1, first, strategy0, strategy1) -> np.ndarray:
    return np.array([faction0, faction1, life0, life1, first, strategy0, strategy1], dtype=np.int64)


# grid dimensions, in cell order
PAIRING = Dimension("pairing", CHOICE, "pairing (seat 0's colour vs seat 1's)", values=tuple(PAIRINGS), key="pairings",
                    columns=lambda name: {"faction0": FACTIONS[PAIRINGS[name][0]], "faction1": FACTIONS[PAIRINGS[name][1]]})
LIFE = Dimension("life", PER_SEAT, "starting life", low=1, high=100_000, default=(10, 20), single=(50, 50))
FIRST = Dimension("first", SEAT, "first player", default=(0, 1))


def cell_of(values: dict, strategy0: int, strategy1: int) -> np.ndarray:
    """`GameSpec.cell_array`: {pairing, life, first} -> the kernel's cell array."""
    faction0, faction1 = PAIRINGS[values["pairing"]]
    life0, life1 = LIFE.check(values["life"])
    return cell_array(faction0, faction1, life0, life1, FIRST.check(values["first"]), strategy0, strategy1)


# ---- numba engine -------------------------------------------------------------

@nb.njit(cache=True)
def _heal_below(rules, strategy):
    """The life at or under which a cautious agent heals: 5, or tuned's policy weight."""
    if strategy == STRATEGY_TUNED and rules.shape[0] > R_HEAL_BELOW:
        return rules[R_HEAL_BELOW]
    return HEAL_BELOW_DEFAULT


@nb.njit(cache=True)
def _choose_attack(rules, strategy, own_life, own_start, state, seat):
    if strategy == STRATEGY_RANDOM:
        return rng.nb_below(state, S_POLICY_RNG + seat, 2) == 0
    if strategy == STRATEGY_CAUTIOUS or strategy == STRATEGY_TUNED:
        return not (own_life <= _heal_below(rules, strategy) and own_life < own_start)
    return True


@nb.njit(cache=True)
def _play_match(rules, cell, seed, record):
    """Play one match into `record` (layout: sim/aggregate.py)."""
    state = np.empty(3, dtype=np.int64)
    state[S_RULE_RNG] = np.int64(seed)
    state[S_POLICY_RNG] = np.int64(rng.nb_match_seed(seed, 1))
    state[S_POLICY_RNG + 1] = np.int64(rng.nb_match_seed(seed, 2))
    life = np.array([cell[C_LIFE0], cell[C_LIFE1]], dtype=np.int64)
    start = life.copy()
    for k in range(agg.REC_COUNTERS, record.shape[0]):
        record[k] = 0
    active = cell[C_FIRST]
    winner = agg.DRAW
    end_type = END_TURN_CAP
    turn = 1
    while True:
        if turn > rules[R_TURN_CAP]:
            turn = rules[R_TURN_CAP]
            break
        strategy = cell[C_STRATEGY0 + active]
        if _choose_attack(rules, strategy, life[active], start[active], state, active):
            sides = rules[R_DIE_SIDES] + cell[C_FACTION0 + active]
            roll = rng.nb_below(state, S_RULE_RNG, sides) + 1
            record[agg.REC_COUNTERS + COUNTER_ATTACKS] += 1
            if roll == sides:
                record[agg.REC_COUNTERS + COUNTER_MAX_ROLLS] += 1
            other = 1 - active
            exact = roll == life[other]
            life[other] -= roll
            if life[other] <= 0:
                winner = active
                end_type = END_EXACT if exact else END_KNOCKOUT
                break
        else:
            record[agg.REC_COUNTERS + COUNTER_HEALS] += 1
            life[active] = min(life[active] + rules[R_HEAL], start[active])
        active = 1 - active
        turn += 1
    record[agg.REC_WINNER] = winner
    record[agg.REC_END_TYPE] = end_type
    record[agg.REC_TURNS] = turn
    record[agg.REC_LIFE0] = life[0]
    record[agg.REC_LIFE1] = life[1]
    record[agg.REC_FIRST] = cell[C_FIRST]


@nb.njit(cache=True)
def _play_batch(rules, cell, chunk_seed, start_index, n_matches, out):
    record = np.zeros(N_RECORD, dtype=np.int64)
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        _play_match(rules, cell, seed, record)
        agg.accumulate(out, record, len(END_TYPES), len(COUNTER_NAMES), LENGTH_BINS)


@nb.njit(cache=True)
def _play_paired_batch(rules_a, rules_b, cell, chunk_seed, start_index, n_matches, out):
    record_a = np.zeros(N_RECORD, dtype=np.int64)
    record_b = np.zeros(N_RECORD, dtype=np.int64)
    for i in range(n_matches):
        seed = rng.nb_match_seed(chunk_seed, start_index + i)
        _play_match(rules_a, cell, seed, record_a)
        _play_match(rules_b, cell, seed, record_b)
        agg.accumulate_paired(out, record_a, record_b, len(END_TYPES))


def play_batch(rules_array, cell, chunk_seed, start_index, n_matches) -> np.ndarray:
    out = agg.empty_aggregate(len(END_TYPES), len(COUNTER_NAMES), LENGTH_BINS)
    _play_batch(np.asarray(rules_array, dtype=np.int64), np.asarray(cell, dtype=np.int64),
                np.uint64(chunk_seed), np.int64(start_index), np.int64(n_matches), out)
    return out


def play_paired_batch(rules_a, rules_b, cell, chunk_seed, start_index, n_matches) -> np.ndarray:
    out = agg.empty_paired(len(END_TYPES))
    _play_paired_batch(np.asarray(rules_a, dtype=np.int64), np.asarray(rules_b, dtype=np.int64),
                       np.asarray(cell, dtype=np.int64), np.uint64(chunk_seed),
                       np.int64(start_index), np.int64(n_matches), out)
    return out


# ---- plain-Python twin (the "reference engine" for bench and tests) -----------

def reference_play_match(rules, cell, match_seed, log=None) -> np.ndarray:
    """Same match as the kernel, in plain Python; `log` (a list) gets one line per turn."""
    rules_array = rules.to_array() if hasattr(rules, "to_array") else np.asarray(rules)
    die_sides, turn_cap, heal = (int(x) for x in rules_array[:RULES_ARRAY_SIZE])
    heal_below = int(rules_array[R_HEAL_BELOW]) if len(rules_array) > R_HEAL_BELOW else HEAL_BELOW_DEFAULT
    cell = [int(x) for x in cell]
    seed = int(match_seed) & rng.MASK64
    rule_rng = rng.PyRng(seed)
    policy_rngs = [rng.PyRng(rng.match_seed(seed, 1)), rng.PyRng(rng.match_seed(seed, 2))]
    life = [cell[C_LIFE0], cell[C_LIFE1]]
    start = list(life)
    counters = [0] * len(COUNTER_NAMES)
    active, winner, end_type, turn = cell[C_FIRST], agg.DRAW, END_TURN_CAP, 1
    while True:
        if turn > turn_cap:
            turn = turn_cap
            if log is not None:
                log.append("turn cap reached: draw")
            break
        strategy = cell[C_STRATEGY0 + active]
        if strategy == STRATEGY_RANDOM:
            attack = policy_rngs[active].below(2) == 0
        elif strategy in (STRATEGY_CAUTIOUS, STRATEGY_TUNED):
            threshold = heal_below if strategy == STRATEGY_TUNED else HEAL_BELOW_DEFAULT
            attack = not (life[active] <= threshold and life[active] < start[active])
        else:
            attack = True
        other = 1 - active
        if attack:
            sides = die_sides + cell[C_FACTION0 + active]
            roll = rule_rng.below(sides) + 1
            counters[COUNTER_ATTACKS] += 1
            counters[COUNTER_MAX_ROLLS] += roll == sides
            exact = roll == life[other]
            life[other] -= roll
            if log is not None:
                log.append("turn %d: seat %d attacks, rolls %d (d%d); life %d-%d" % (turn, active, roll, sides, life[0], life[1]))
            if life[other] <= 0:
                winner, end_type = active, END_EXACT if exact else END_KNOCKOUT
                if log is not None:
                    log.append("seat %d wins (%s)" % (active, END_TYPES[end_type]))
                break
        else:
            counters[COUNTER_HEALS] += 1
            life[active] = min(life[active] + heal, start[active])
            if log is not None:
                log.append("turn %d: seat %d heals; life %d-%d" % (turn, active, life[0], life[1]))
        active = other
        turn += 1
    return np.array([winner, end_type, turn, life[0], life[1], cell[C_FIRST], *counters], dtype=np.int64)


def replay_log(rules, cell, match_seed) -> list[str]:
    lines = ["Dice Duel: %s vs %s, life %d-%d, seat %d first, %s vs %s, match seed %d" % (
        FACTIONS[int(cell[C_FACTION0])], FACTIONS[int(cell[C_FACTION1])], cell[C_LIFE0], cell[C_LIFE1],
        cell[C_FIRST], STRATEGIES[int(cell[C_STRATEGY0])], STRATEGIES[int(cell[C_STRATEGY1])], int(match_seed))]
    reference_play_match(rules, cell, match_seed, log=lines)
    return lines


# ---- the engine contract, step by step (sim/contract.py) ---------------------------------
# The same game as `_play_match`, cut into the contract's steps over a small state array
# (numba kernels + a plain-Python twin); `tests/test_contract.py` holds it to the contract and
# checks that stepping it with the strategies gives `reference_play_match`'s records.
T_RULE_RNG, T_LIFE, T_START, T_BONUS, T_ACTIVE, T_TURN, T_WINNER, T_END, T_OVER, T_COUNTERS = 0, 1, 3, 5, 7, 8, 9, 10, 11, 12
T_SIZE = T_COUNTERS + len(COUNTER_NAMES)
ACT_ATTACK, ACT_HEAL = 0, 1


@nb.njit(cache=True)
def _step_new(rules, cell, seed, state):
    state[:] = 0
    state[T_RULE_RNG] = np.int64(seed)
    for p in range(2):
        state[T_LIFE + p] = cell[C_LIFE0 + p]
        state[T_START + p] = cell[C_LIFE0 + p]
        state[T_BONUS + p] = cell[C_FACTION0 + p]
    state[T_ACTIVE] = cell[C_FIRST]
    state[T_TURN] = 1
    state[T_WINNER] = agg.DRAW
    state[T_END] = END_TURN_CAP


@nb.njit(cache=True)
def _step_apply(rules, state, action):
    active = state[T_ACTIVE]
    other = 1 - active
    if action == ACT_ATTACK:
        sides = rules[R_DIE_SIDES] + state[T_BONUS + active]
        roll = rng.nb_below(state, T_RULE_RNG, sides) + 1
        state[T_COUNTERS + COUNTER_ATTACKS] += 1
        if roll == sides:
            state[T_COUNTERS + COUNTER_MAX_ROLLS] += 1
        exact = roll == state[T_LIFE + other]
        state[T_LIFE + other] -= roll
        if state[T_LIFE + other] <= 0:
            state[T_WINNER] = active
            state[T_END] = END_EXACT if exact else END_KNOCKOUT
            state[T_OVER] = 1
            return
    else:
        state[T_COUNTERS + COUNTER_HEALS] += 1
        state[T_LIFE + active] = min(state[T_LIFE + active] + rules[R_HEAL], state[T_START + active])
    state[T_ACTIVE] = other
    state[T_TURN] += 1
    if state[T_TURN] > rules[R_TURN_CAP]:
        state[T_TURN] = rules[R_TURN_CAP]
        state[T_OVER] = 1


class ToyMatch:
    """The plain-Python twin of `_step_new` / `_step_apply` (the contract's reference engine)."""

    def __init__(self, rules, state):
        self.rules, self.state = rules, list(state)

    @classmethod
    def new(cls, rules, cell, seed):
        cell = [int(x) for x in cell]
        state = [0] * T_SIZE
        state[T_RULE_RNG] = rng.to_signed(int(seed) & rng.MASK64)
        state[T_LIFE:T_LIFE + 2] = state[T_START:T_START + 2] = cell[C_LIFE0:C_LIFE0 + 2]
        state[T_BONUS:T_BONUS + 2] = cell[C_FACTION0:C_FACTION0 + 2]
        state[T_ACTIVE], state[T_TURN], state[T_WINNER], state[T_END] = cell[C_FIRST], 1, agg.DRAW, END_TURN_CAP
        return cls(rules, state)

    def is_over(self) -> bool:
        return bool(self.state[T_OVER])

    def legal_actions(self) -> list[int]:
        return [] if self.is_over() else [ACT_ATTACK, ACT_HEAL]

    def apply(self, action: int) -> None:
        s, active = self.state, self.state[T_ACTIVE]
        other = 1 - active
        if action == ACT_ATTACK:
            generator = rng.PyRng(s[T_RULE_RNG] & rng.MASK64)
            sides = self.rules.die_sides + s[T_BONUS + active]
            roll = generator.below(sides) + 1
            s[T_RULE_RNG] = rng.to_signed(generator.state)
            s[T_COUNTERS + COUNTER_ATTACKS] += 1
            s[T_COUNTERS + COUNTER_MAX_ROLLS] += roll == sides
            exact = roll == s[T_LIFE + other]
            s[T_LIFE + other] -= roll
            if s[T_LIFE + other] <= 0:
                s[T_WINNER], s[T_END], s[T_OVER] = active, END_EXACT if exact else END_KNOCKOUT, 1
                return
        else:
            s[T_COUNTERS + COUNTER_HEALS] += 1
            s[T_LIFE + active] = min(s[T_LIFE + active] + self.rules.heal, s[T_START + active])
        s[T_ACTIVE], s[T_TURN] = other, s[T_TURN] + 1
        if s[T_TURN] > self.rules.turn_cap:
            s[T_TURN], s[T_OVER] = self.rules.turn_cap, 1

    def to_array(self) -> np.ndarray:
        return np.array(self.state, dtype=np.int64)


@nb.njit(cache=True)
def _step_choose(strategy, view, rules, legal, n_legal, policy_words, seat):
    """The strategies of `_choose_attack`, reading only the view (an index into `legal`)."""
    if strategy == STRATEGY_RANDOM:
        return 0 if rng.nb_below(policy_words, seat, 2) == 0 else 1
    if (strategy == STRATEGY_CAUTIOUS or strategy == STRATEGY_TUNED) and \
            view[T_LIFE + seat] <= _heal_below(rules, strategy) and view[T_LIFE + seat] < view[T_START + seat]:
        return 1
    return 0


class ToyEngine:
    """Dice Duel's face of the engine contract (`sim.contract.GameEngine`). No card is
    hidden; a view hides only the rule generator (future rolls)."""

    def rules_array(self, rules):
        return np.append(rules.to_array(), HEAL_BELOW_DEFAULT)  # with the policy block, as tune-agent plays

    def new_match(self, rules_array, cell, seed):
        state = np.zeros(T_SIZE, dtype=np.int64)
        _step_new(rules_array, np.asarray(cell, dtype=np.int64), np.int64(rng.to_signed(int(seed) & rng.MASK64)), state)
        return state

    def legal_actions(self, state, rules_array):
        return np.zeros(0, dtype=np.int64) if state[T_OVER] else np.array([ACT_ATTACK, ACT_HEAL], dtype=np.int64)

    def apply_action(self, state, rules_array, action):
        _step_apply(rules_array, state, np.int64(action))

    def is_over(self, state):
        return bool(state[T_OVER])

    def decider(self, state):
        return int(state[T_ACTIVE])

    def result(self, state):
        return int(state[T_WINNER]), int(state[T_END])

    def invariant_errors(self, state, rules_array):
        errors = []
        for p in (0, 1):
            if state[T_LIFE + p] > state[T_START + p]:
                errors.append("seat %d's life %d above its start %d" % (p, state[T_LIFE + p], state[T_START + p]))
        if not 1 <= state[T_TURN] <= rules_array[R_TURN_CAP]:
            errors.append("turn %d outside 1..turn_cap" % state[T_TURN])
        if (state[T_COUNTERS:T_SIZE] < 0).any():
            errors.append("a negative counter")
        return errors

    def view(self, state, rules_array, seat):
        view = state.copy()
        view[T_RULE_RNG] = 0
        return view

    def hidden_cards(self, state, rules_array, seat):
        return frozenset()  # a game of dice: no cards

    def hidden_in_view(self, view, rules_array):
        return frozenset()

    def sample_world(self, view, rules_array, seat, rng_word):
        world = view.copy()
        world[T_RULE_RNG] = rng.to_signed(rng.splitmix_next(int(rng_word) & rng.MASK64)[1])
        return world

    def reference_new(self, rules, cell, seed):
        return ToyMatch.new(rules, cell, seed)

    def action_text(self, state, action):
        return ACTIONS[int(action)]

    def dump_position(self, reference):
        s = reference.state
        return {"rules": reference.rules.as_dict(), "life": s[T_LIFE:T_LIFE + 2], "start": s[T_START:T_START + 2],
                "bonus": s[T_BONUS:T_BONUS + 2], "active": s[T_ACTIVE], "turn": s[T_TURN], "rng": s[T_RULE_RNG],
                "counters": s[T_COUNTERS:T_SIZE],
                "result": None if not s[T_OVER] else [s[T_WINNER], END_TYPES[s[T_END]]]}

    def load_position(self, data, rules):
        state = [0] * T_SIZE
        state[T_LIFE:T_LIFE + 2], state[T_START:T_START + 2] = data["life"], data["start"]
        state[T_BONUS:T_BONUS + 2], state[T_COUNTERS:T_SIZE] = data["bonus"], data["counters"]
        state[T_ACTIVE], state[T_TURN], state[T_RULE_RNG] = data["active"], data["turn"], data["rng"]
        state[T_WINNER], state[T_END] = agg.DRAW, END_TURN_CAP
        if data["result"] is not None:
            state[T_WINNER], state[T_END], state[T_OVER] = data["result"][0], END_TYPES.index(data["result"][1]), 1
        return ToyMatch(ToyRules(**data["rules"]), state)

    def agent_names(self):
        return STRATEGIES

    def decide(self, agent, state, rules_array, legal, seat, policy_words):
        view = self.view(state, rules_array, seat)
        return int(_step_choose(np.int64(strategy_id(agent)), view, rules_array, legal, np.int64(len(legal)),
                                policy_words, np.int64(seat)))


def make_spec() -> GameSpec:
    return GameSpec(
        name=GAME_NAME, dimensions=(PAIRING, LIFE, FIRST), end_types=END_TYPES,
        special_end_types=SPECIAL_END_TYPES, counter_names=COUNTER_NAMES, length_bins=LENGTH_BINS,
        behaviour_version=BEHAVIOUR_VERSION, load_rules=load_rules, rules_presets=tuple(PRESETS),
        strategy_names=strategy_names, strategy_id=strategy_id, cell_array=cell_of, play_batch=play_batch,
        play_paired_batch=play_paired_batch, replay_log=replay_log, reference_play_match=reference_play_match,
        modules=(__name__,), engine=ToyEngine,
    )


def register_toy_game() -> None:
    """Make `get_game("toy")` work in this process (idempotent)."""
    register(GAME_NAME, make_spec)


# ---- "toy_duel": the same engine declared with dimensions unlike Faction War's -----------
# No factions and no pairings: a `bonus` (who rolls the extra die side), starting
# `hp` per seat, and the first player. It is registered by one line (below) and
# goes through every command (tests/test_new_game.py), with no code outside this
# file naming it.

BONUS_SEATS = {"none": (0, 0), "seat0": (1, 0), "seat1": (0, 1), "both": (1, 1)}
BONUS = Dimension("bonus", CHOICE, "seat(s) rolling one extra die side", values=tuple(BONUS_SEATS))
HP = Dimension("hp", PER_SEAT, "starting hp", low=1, high=500, default=(8, 12, 16), single=(12, 12))
DUEL_FIRST = Dimension("first", SEAT, "first player", default=(0, 1))
ACTIONS = ("attack", "heal")
POSITION_KEYS = ("rules", "hp", "start_hp", "bonus", "active", "turn", "rng", "actions")


def duel_cell(values: dict, strategy0: int, strategy1: int) -> np.ndarray:
    bonus0, bonus1 = BONUS_SEATS[BONUS.check(values["bonus"])]
    hp0, hp1 = HP.check(values["hp"])
    return cell_array(bonus0, bonus1, hp0, hp1, DUEL_FIRST.check(values["first"]), strategy0, strategy1)


def duel_scenario(path, legal: bool = False) -> tuple[dict, list[str]]:
    """A position: {"hp": [a, b], "bonus": name, "active": seat, "turn": n, "rng": state,
    "actions": ["attack" | "heal", ...]} -> the position after the actions."""
    from pathlib import Path
    path = Path(path)
    if not path.is_file():
        raise CardbalanceError("scenario file '%s' does not exist." % path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as error:
        raise CardbalanceError("position is not valid JSON: %s." % error) from None
    unknown = sorted(set(data) - set(POSITION_KEYS))
    if unknown:
        raise CardbalanceError("position: unknown key '%s'; allowed: %s." % (unknown[0], ", ".join(POSITION_KEYS)))
    rules = load_rules(data.get("rules", "default"))
    hp = list(HP.check(data.get("hp", list(HP.single)), "position"))
    start = list(HP.check(data.get("start_hp", hp), "position"))
    bonus = BONUS_SEATS[BONUS.check(data.get("bonus", "none"), "position")]
    active, turn = DUEL_FIRST.check(data.get("active", 0), "position"), int(data.get("turn", 1))
    rule_rng = rng.PyRng(int(data.get("rng", 1)) & rng.MASK64)
    log, winner, end = [], None, None
    for index, action in enumerate(data.get("actions", [])):
        if winner is not None:
            raise CardbalanceError("actions[%d] '%s': the match is over." % (index, action))
        if action not in ACTIONS:
            raise CardbalanceError("actions[%d] '%s' is not an action; allowed: %s." % (index, action, ", ".join(ACTIONS)))
        other = 1 - active
        if action == "attack":
            sides = rules.die_sides + bonus[active]
            roll = rule_rng.below(sides) + 1
            exact = roll == hp[other]
            hp[other] -= roll
            log.append("seat %d attacks, rolls %d; hp %d-%d" % (active, roll, hp[0], hp[1]))
            if hp[other] <= 0:
                winner, end = active, END_TYPES[END_EXACT if exact else END_KNOCKOUT]
        else:
            hp[active] = min(hp[active] + rules.heal, start[active])
            log.append("seat %d heals; hp %d-%d" % (active, hp[0], hp[1]))
        active, turn = other, turn + 1
    out = {"hp": hp, "start_hp": start, "active": active, "turn": turn, "rng": rule_rng.state}
    if winner is not None:
        out.update(winner=winner, end_type=end)
    if legal:
        out["legal"] = [] if winner is not None else list(ACTIONS)
    return out, log


# ---- `cardbalance tune-agent --game toy_duel`: the shared study (strategies/tuning.py) ----------
TUNE_HP, TUNE_SEEDS = (12, 12), (1, 2)  # the deals' starting hp; streams of the tuning and re-check seeds


def _tuned_against_greedy(heal_below: int, chunk_seed: int, deals: int, hp=TUNE_HP) -> dict:
    from strategies import tuning as shared
    rules_array = np.append(ToyRules().to_array(), int(heal_below))

    def play(strategies, tuned_seat, first):
        cell = duel_cell({"bonus": "none", "hp": hp, "first": first}, strategies[0], strategies[1])
        return play_batch(rules_array, cell, chunk_seed, 0, deals)
    return shared.four_ways(play, STRATEGY_TUNED, STRATEGY_GREEDY, len(END_TYPES))


def duel_tune(out, trials: int, matches: int, seed: int, recheck_matches: int, command: str, progress=None) -> dict:
    """Tune tuned's healing threshold against greedy on paired deals; resumable from out/trials.jsonl."""
    from strategies import tuning as shared
    shared.check_options(trials, matches, recheck_matches, seed, min_matches=4, min_matches_why="one deal, four ways",
                         min_recheck=4)
    deals, ranges = -(-int(matches) // 4), {"heal_below": HEAL_BELOW_RANGE}
    settings = {"game": "toy_duel", "seed": int(seed), "matches": int(matches),
                "ranges": {k: list(v) for k, v in ranges.items()}}
    with shared.tuning_folder(out, "settings.json", settings, command) as out:  # checked, locked, ours
        log = out / "trials.jsonl"
        history = shared.contiguous(shared.read_log(log, repair=True))
        tune_seed, recheck_seed = (rng.match_seed(int(seed), stream) for stream in TUNE_SEEDS)
        while len(history) < trials:
            params = shared.propose(int(seed), 1, history, ranges, {"heal_below": HEAL_BELOW_DEFAULT})
            result = _tuned_against_greedy(params["heal_below"], tune_seed, deals)
            entry = {"trial": len(history), "params": params, **result, "value": shared.decided_share(result)}
            shared.append_log(log, entry)
            history.append(entry)
            if progress is not None:
                progress("toy_duel", entry, shared.best_entry(history))
        best = shared.best_entry(history[:trials])
        recheck_deals = -(-int(recheck_matches) // 4)
        rows = [{"hp": "%d" % hp[0], **shared.share_row(_tuned_against_greedy(best["params"]["heal_below"], recheck_seed,
                                                                             recheck_deals, hp))}
                for hp in ((8, 8), (16, 16))]
        document = {"weights": best["params"], "provenance": {
            "game": "toy_duel", "opponent": "greedy", "trials": int(trials), "seed": int(seed), "command": command,
            "tuning_value": {"best_trial": best["trial"], "best": round(best["value"], 4),
                             "greedy_baseline": round(history[0]["value"], 4)},
            "recheck": {"by": "hp", "matches_per_hp": recheck_deals * 4, "interval": "95 % Wilson, on decided matches",
                        "hps": rows}}}
        shared.write_atomic(out / "tuned_weights.json", json.dumps(document, indent=2) + "\n")
    return document


# ---- toy_duel's game data: the tuned agent's weights, played from the run folder's copy ----------
# (GameSpec.game_data; tests/test_new_game.py changes SHIPPED_DUEL_WEIGHTS to show that --resume
# and `play --from` play the run's stored copy, not the file shipped now)
DUEL_WEIGHTS_FILE = "tuned_weights.json"
SHIPPED_DUEL_WEIGHTS = b'{"heal_below": 5}\n'


def _duel_rules(rules, data):
    """The rules array with the data's weight as its policy block (unless it has one)."""
    array = rules.to_array() if hasattr(rules, "to_array") else np.asarray(rules, dtype=np.int64)
    if data and len(array) == RULES_ARRAY_SIZE:
        array = np.append(array, int(json.loads(data[DUEL_WEIGHTS_FILE])["heal_below"]))
    return array


def duel_play_batch(rules_array, cell, chunk_seed, start_index, n_matches, data=None):
    return play_batch(_duel_rules(rules_array, data), cell, chunk_seed, start_index, n_matches)


def duel_play_paired_batch(rules_a, rules_b, cell, chunk_seed, start_index, n_matches, data=None):
    return play_paired_batch(_duel_rules(rules_a, data), _duel_rules(rules_b, data), cell, chunk_seed,
                             start_index, n_matches)


def duel_reference_play_match(rules, cell, match_seed, data=None):
    return reference_play_match(_duel_rules(rules, data), cell, match_seed)


def duel_replay_log(rules, cell, match_seed, data=None):
    lines = replay_log(rules, cell, match_seed)[:1]
    reference_play_match(_duel_rules(rules, data), cell, match_seed, log=lines)
    return lines


DUEL_DATA = (GameData(DUEL_WEIGHTS_FILE, "the tuned agent's healing threshold", lambda: SHIPPED_DUEL_WEIGHTS),)


DUEL_SPEC = GameSpec(
    name="toy_duel", dimensions=(BONUS, HP, DUEL_FIRST), end_types=END_TYPES,
    special_end_types=SPECIAL_END_TYPES, counter_names=COUNTER_NAMES, length_bins=LENGTH_BINS,
    behaviour_version=BEHAVIOUR_VERSION, load_rules=load_rules, rules_presets=tuple(PRESETS),
    strategy_names=strategy_names, strategy_id=strategy_id, cell_array=duel_cell, play_batch=duel_play_batch,
    play_paired_batch=duel_play_paired_batch, replay_log=duel_replay_log,
    reference_play_match=duel_reference_play_match, game_data=DUEL_DATA, run_scenario=duel_scenario, modules=(__name__,), engine=ToyEngine, extra={"tune_agent": duel_tune},
    default_sweep={"name": "duel", "game": "toy_duel", "bonus": ["none", "seat1"], "hp": [8, 12],
                   "strategies": ["greedy:cautious"], "matches": 400, "chunk_size": 200},
)

# ---- "toy_ranks": two per-seat dimensions, a per-seat choice and a derived axis -------------
# The same engine once more: a colour per seat (blue rolls one extra side), starting hp and a
# rank per seat (each rank level adds a die side), and the rank gap derived from the ranks.
# tests/test_dimensions_per_seat.py proves that no table sums across any of them.
COLOUR = Dimension.per_seat_choice("colour", "colour (seat 0's / seat 1's)", FACTIONS, default=("red", "red/blue"))
RANK = Dimension("rank", PER_SEAT, "rank (extra die sides)", low=0, high=5, default=(0, 2), single=(0, 0))
RANK_GAP = DerivedAxis("rank_gap", "rank", "rank gap (seat 1 - seat 0)")


def ranks_cell(values: dict, strategy0: int, strategy1: int) -> np.ndarray:
    colours = COLOUR.cell_columns(COLOUR.check(values["colour"]))
    rank0, rank1 = RANK.check(values["rank"])
    hp0, hp1 = HP.check(values["hp"])
    sides = [FACTIONS.index(colours["colour%d" % p]) + rank for p, rank in ((0, rank0), (1, rank1))]
    return cell_array(sides[0], sides[1], hp0, hp1, DUEL_FIRST.check(values["first"]), strategy0, strategy1)


RANKS_SPEC = GameSpec(
    name="toy_ranks", dimensions=(COLOUR, HP, RANK, DUEL_FIRST), derived_axes=(RANK_GAP,), end_types=END_TYPES,
    special_end_types=SPECIAL_END_TYPES, counter_names=COUNTER_NAMES, length_bins=LENGTH_BINS,
    behaviour_version=BEHAVIOUR_VERSION, load_rules=load_rules, rules_presets=tuple(PRESETS),
    strategy_names=strategy_names, strategy_id=strategy_id, cell_array=ranks_cell, play_batch=play_batch,
    play_paired_batch=play_paired_batch, replay_log=replay_log, reference_play_match=reference_play_match,
    modules=(__name__,), engine=ToyEngine,
    default_sweep={"name": "ranks", "game": "toy_ranks", "colour": ["red", "red/blue"], "hp": [10],
                   "hp_pairs": [[10, 14]], "rank": [0], "rank_pairs": [[0, 2]], "strategies": ["greedy:greedy"],
                   "matches": 200, "chunk_size": 100},
)


register_toy_game()  # importing the module is enough (bench's compile probe, subprocess tests)
register("toy_duel", "toygame:DUEL_SPEC")  # the new game's one registry line
register("toy_ranks", "toygame:RANKS_SPEC")
