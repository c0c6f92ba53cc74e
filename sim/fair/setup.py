"""What `fair`, `sensitivity` and `map` share: their common options, the base setting
(game, rules, grid values, skill level) and the run folder, all checked before any match.

Run folder: `--out DIR` (default runs/<timestamp>-<command>) holds `settings.json` (what
was asked), `chunks/` (every chunk played, for resume), the result, the report and `.lock`
(held by the run writing it, as a sweep's). Given an existing folder whose settings.json
matches, a command resumes it (the chunks it has are not played again; only the match budget
may differ); any other existing folder, or one another run holds, is refused.
"""

from __future__ import annotations

import contextlib
import json
import time
from dataclasses import dataclass
from pathlib import Path

from sim.errors import CardbalanceError
from sim.registry import CHOICE, SEAT, GameSpec, get_game

SETTINGS = "settings.json"


def add_common_options(parser, default_skill: str = "greedy") -> None:
    from sim.cli.options import add_dimension_options, add_game_option
    add_game_option(parser)
    add_dimension_options(parser)
    parser.add_argument("--skill", default=default_skill,
                        help="skill level: AGENT (both seats) or STRONG/WEAK (seat 0 / seat 1), e.g. greedy, "
                             "ismcts, pimc:64/greedy (default %(default)s)")
    parser.add_argument("--rules", default=None, help="rules preset or TOML file (default: the game's default)")
    parser.add_argument("--seed", type=int, default=1, help="root seed (default 1)")
    parser.add_argument("--jobs", type=int, default=-1, help="worker processes (default -1: all cores)")
    parser.add_argument("--backend", choices=("loky", "dask"), default="loky",
                        help="joblib backend: loky (this machine, default) or dask (a dask.distributed cluster)")
    parser.add_argument("--scheduler", help="dask scheduler address, e.g. tcp://host:8786 (with --backend dask; "
                                            "default: a local cluster)")
    parser.add_argument("--chunk-size", type=int, default=250, help="matches per task (default 250)")
    parser.add_argument("--out", help="run folder (default runs/<timestamp>-<command>); an existing one with the "
                                      "same settings is resumed")
    parser.add_argument("--quiet", action="store_true", help="print only the result line")


@dataclass
class Base:
    game: GameSpec
    rules: object
    rules_name: str
    values: dict        # {dimension: value} besides the first player
    strategies: tuple[str, str]
    skill: str
    orders: tuple | None = None  # the first-player orders played (None: both)
    backend: str = "loky"

    def runner(self, seed, jobs, folder, chunk_size, progress=None):
        from sim.fair.runner import PointRunner
        return PointRunner(self.game, self.strategies, seed, jobs, folder, chunk_size, self.orders, self.backend,
                           progress)


def base(args) -> Base:
    from sim.cli.options import dimension_values
    from sim.sweep.grid import skill_pairs
    from sim.sweep.vary import load_named
    from sim.user_input import check_jobs, check_name_lengths
    game = get_game(args.game)
    rules_name = args.rules or "default"
    check_name_lengths(rules_name, "--rules")  # a preset or a file: a longer name is neither (and no OSError)
    rules = load_named(game.load_rules, rules_name)
    given = dimension_values(args, game)
    orders = None  # both first-player orders, unless one is given (then seat 0's share is the first player's)
    for dimension in game.dimensions:
        if dimension.kind == SEAT and dimension.name in given:
            orders = (given.pop(dimension.name),)
    values = {**game.single_values(), **given}
    for dimension in game.dimensions:  # found by the property tests: a KeyError deep in the game's cell_array
        if dimension.kind == CHOICE and values.get(dimension.name) is None:
            raise CardbalanceError("--%s is needed: a design plays one %s; give one of %s."
                                   % (dimension.name, dimension.name, ", ".join(map(str, dimension.values))))
    pair = skill_pairs([args.skill], "--skill", game)[0]
    strategies = game.strategy_pair(pair)
    if args.seed is None or not 0 <= args.seed < 2**63:
        raise CardbalanceError("--seed must be an integer from 0 to 2**63-1 (got %r)." % (args.seed,))
    check_jobs(args.jobs)
    if not 1 <= args.chunk_size <= 1_000_000:
        raise CardbalanceError("--chunk-size must be an integer from 1 to 1000000 (got %r)." % (args.chunk_size,))
    if args.scheduler and args.backend != "dask":
        raise CardbalanceError("--scheduler needs --backend dask.")
    return Base(game, rules, rules_name, values, strategies, args.skill, orders, args.backend)


MAX_CHUNKS = 1_000_000  # chunk files (and their task objects) one design may plan; 10**12 matches in chunks of 250
                       # were a MemoryError building the chunk list, after the run folder existed


def check_chunk_count(matches: int, chunk: int, what: str) -> None:
    """Refuse a design whose `matches` (the most it may play) would be more than MAX_CHUNKS chunks of `chunk`."""
    chunks = -(-matches // chunk)
    if chunks > MAX_CHUNKS:
        raise CardbalanceError("%s: %s matches in chunks of %d would be %s chunks; at most %s (a larger --chunk-size "
                               "or fewer matches)." % (what, format(matches, ","), chunk, format(chunks, ","),
                                                       format(MAX_CHUNKS, ",")))


@contextlib.contextmanager
def cluster(args, probe, setting):
    """With --backend dask: a connected client whose workers played a probe match of `setting`
    (one clear error otherwise), for the whole block; call it before `prepare_folder`."""
    if args.backend != "dask":
        yield
        return
    from sim.executor import check_dask_workers, close_dask, connect_dask
    client = connect_dask(args.scheduler, args.jobs)
    try:
        check_dask_workers(client, probe.probe_chunk(setting), args.seed)
        yield
    finally:
        close_dask(client)


def describe_base(b: Base) -> dict:
    values = {name: list(value) if isinstance(value, tuple) else value for name, value in b.values.items()}
    return {"game": b.game.name, "rules": b.rules_name, "rules_hash": b.rules.stable_hash(), "values": values,
            "strategies": list(b.strategies), "skill": b.skill, "behaviour_version": b.game.behaviour_version,
            "first_player_orders": list(b.orders) if b.orders else "both"}


# Settings a resumed run may change: a larger budget replays the stored chunks (the same deals it would
# play anew) and goes on, every decision taken afresh for the new budget.
RESUMABLE_CHANGES = ("max_matches",)


@contextlib.contextmanager
def prepare_folder(out: str | None, command: str, settings: dict):
    """Hold the run folder for the block: `with prepare_folder(...) as (folder, resumed):`.

    The sweep's run-folder rules (sim/sweep/runlock.py, sim/safe_output.py): a new folder is
    built under a hidden name with its settings.json and its lock taken, then renamed into
    place, so it appears whole and already held; an existing one is locked before its settings
    are read, so a second run on it is refused naming the first instead of playing the same
    chunks again, and the temporaries a killed run left are removed. Call it last before
    playing: nothing is created before every check passed."""
    from sim.safe_output import atomic_folder, check_output_folder, write_text_atomic
    from sim.sweep.runlock import command_line, hold_run_lock
    from sim.user_input import check_name_lengths
    path = Path(out) if out else Path("runs") / ("%s-%s" % (time.strftime("%Y%m%d-%H%M%S"), command))
    check_name_lengths(path, "--out")  # asking the OS about a name too long fails with an OSError
    text = json.dumps(settings, sort_keys=True, indent=1, default=str)
    with contextlib.ExitStack() as held:
        resumed = path.exists()
        if not resumed:
            check_output_folder(path, "--out")
            try:
                with contextlib.ExitStack() as building_lock:
                    with atomic_folder(path) as building:
                        write_text_atomic(building / SETTINGS, text)
                        building_lock.enter_context(hold_run_lock(building, command_line()))
                    held.enter_context(building_lock.pop_all())
            except OSError:
                if not path.is_dir():
                    raise
                resumed = True  # another run created the folder first: join it as any existing one
        if resumed:
            _reopen(path, command, text, held)
        yield path, resumed


def _reopen(path: Path, command: str, text: str, held: contextlib.ExitStack) -> None:
    """Lock an existing run folder, check it holds this run, and clear what a killed run left."""
    from sim.fair.runner import CHUNKS
    from sim.safe_output import remove_stale_temporaries, write_text_atomic
    from sim.sweep.runlock import command_line, hold_run_lock
    stored = path / SETTINGS
    if not path.is_dir() or not stored.is_file():
        raise CardbalanceError("--out: '%s' exists and is not a `cardbalance %s` run folder; give a new folder."
                               % (path, command))
    held.enter_context(hold_run_lock(path, command_line()))
    try:
        old = json.loads(stored.read_bytes().decode("utf-8"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deeply
        old = None
    if not isinstance(old, dict):
        raise CardbalanceError("--out: '%s' is not the settings of a cardbalance run (not a JSON object); give a "
                               "new folder." % stored)
    if old.get("command") != command:
        raise CardbalanceError("--out: '%s' holds a `cardbalance %s` run, not a `cardbalance %s` one; give a new "
                               "folder." % (path, old.get("command"), command))
    new = json.loads(text)
    fixed = lambda data: {k: v for k, v in data.items() if k not in RESUMABLE_CHANGES}
    if fixed(old) != fixed(new):
        raise CardbalanceError("--out: '%s' holds a run with other settings; give a new folder to start another."
                               % path)
    for folder in (path, path / CHUNKS):  # writes a SIGKILL stopped before their rename
        remove_stale_temporaries(folder)
    if old != new:
        write_text_atomic(stored, text)


def progress(args, command: str, points: int | None = None):
    """The command's progress on stderr (sim/sweep/progress.py; nothing with --quiet): `points` the design's
    points when known in advance (sensitivity, map), None for fair, whose search picks its points as it goes."""
    from sim.sweep.progress import Progress
    return Progress(points, "quiet" if args.quiet else "auto", label=command, unit="points")


def say(args, text: str) -> None:
    if not args.quiet:
        print(text, flush=True)
