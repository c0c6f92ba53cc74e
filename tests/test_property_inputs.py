"""Property-based tests (Hypothesis): every generated input either loads or is refused
in one line — exit 2, no traceback — and a refused input leaves no file behind.

Generated, for every registered game that has the part (the Novel TCG joins when it
registers): rules files, sweep files, positions, and command lines of `play`,
`rules`, `sweep`, `ladder`, `compare` and `tune-agent`; and the options of the design
commands `fair`, `sensitivity` and `map` (issue 39), where an accepted command line must
also have made its run folder whole and locked, with a finite target, bounded map axes,
each reading once and no two parameters setting one seat's value. Nothing is played: the
points where matches would start are replaced by a stub that raises `_WouldPlay`,
so an input that gets that far counts as accepted (everything is checked before
any match, issue 30).

Settings: `EXAMPLES` examples per test (derandomized, so CI runs the same
examples every time; set HYPOTHESIS_EXAMPLES to search longer locally) and no
deadline (the machine is shared). Half the generated files are one bad field
on an otherwise valid base, so the checks after the first are reached too.
Time: 8 tests x 40 examples in about 10-15 s wall on the loaded 2-core machine
(kernels cached); 300 examples each take about 3 minutes. What they found while
they were written: an error quoting a name with a line break was two lines;
four Faction War position fields crashed on a value of the wrong type
(counters, used_this_turn lists, spent_kings, a phase that is a list).
The design commands' test: 40 examples in about 7 s (2,500 in 43 s found nothing more);
writing it found that a Faction War design without --pairing crashed with a KeyError in
the game's cell_array (the `fair --help` example for the default game among them).
"""

from __future__ import annotations

import contextlib
import io
import json
import os

import pytest

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.registry import game_names, get_game

EXAMPLES = int(os.environ.get("HYPOTHESIS_EXAMPLES", "40"))
SETTINGS = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


class _WouldPlay(BaseException):
    """Raised where a match would start: the input was accepted (BaseException: main does not catch it)."""


def _product_games() -> list[str]:
    """The registered games of the product (not the test suite's toy games, whose loaders
    are deliberately minimal): a game joins by registering, this file is not edited."""
    return [name for name in game_names()
            if not any(module.split(".")[0] in ("toygame", "tests") for module in get_game(name).modules)]


def _games_with(attribute: str) -> list[str]:
    return [name for name in _product_games() if getattr(get_game(name), attribute, None) is not None]


def _run(argv, folder) -> tuple[int | None, str]:
    """(exit code or None when a match would start, stderr) of the CLI, with the
    invariants of a refusal checked: one line, no traceback, `folder` unchanged."""
    before = sorted(os.listdir(folder))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except _WouldPlay:
            return None, err.getvalue()
    text = err.getvalue()
    assert "Traceback" not in text, text
    if code != 0:
        assert code == 2, (argv, code, text)
        lines = text.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("cardbalance %s: error: " % argv[0]), (argv, text)
        assert sorted(os.listdir(folder)) == before, (argv, text)
    return code, text


@pytest.fixture
def no_matches(monkeypatch):
    """Every place a command would start playing raises `_WouldPlay`."""
    def stop(*args, **kwargs):
        raise _WouldPlay
    monkeypatch.setattr("sim.sweep.runner.run_sweep", stop)
    monkeypatch.setattr("sim.compare.runner.run", stop)
    for name in _games_with("replay_log"):
        replay = get_game(name).replay_log
        if hasattr(replay, "_target"):  # a `lazy`: its target is what plays
            monkeypatch.setattr(replay, "_target", stop)
    for module in ("strategies.faction_war.tuning", "strategies.poker_duel.tuning"):
        monkeypatch.setattr(module + ".candidate_value", stop)


# ---- values -------------------------------------------------------------------------------------------

HUGE = "9" * 4400
TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
NUMBERS = st.one_of(st.integers(-5, 200), st.integers(), st.sampled_from([2**63, -(2**63) - 1, 10**30]))
SCALARS = st.one_of(st.none(), st.booleans(), NUMBERS, st.floats(allow_nan=True), TEXT)
JSON_VALUES = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                            st.dictionaries(TEXT, inner, max_size=4)), max_leaves=12)
CARDS = st.one_of(st.sampled_from(["S7", "HQ", "BJ", "LJ", "D10", "CA", "SK", "H2", "S7'", "p1:C5", "D7#2", "XX", ""]),
                  TEXT, NUMBERS)


def _toml_value(value) -> str:
    """A Python value as TOML text (what a user could write)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value) if value == value and value not in (float("inf"), float("-inf")) else "nan"
    if value is HUGE:  # a bare 4,400-digit integer, past Python's integer-string limit
        return HUGE
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[%s]" % ", ".join(_toml_value(v) for v in value if v is not None and not isinstance(v, dict))
    return '"?"'


def _toml(mapping: dict) -> str:
    lines, tables = [], []
    for key, value in mapping.items():
        if isinstance(value, dict):
            tables.append((key, value))
        elif value is not None:
            lines.append("%s = %s" % (json.dumps(key), _toml_value(value)))
    for key, table in tables:
        lines.append("[%s]" % json.dumps(key))
        lines += ["%s = %s" % (json.dumps(k), _toml_value(v)) for k, v in table.items()
                  if v is not None and not isinstance(v, dict)]
    return "\n".join(lines) + "\n"


def _rules_keys(game) -> list[str]:
    values = game.load_rules(None).as_dict()
    return [key for key in values if key != "ambiguities"], list(values.get("ambiguities", {}))


@st.composite
def rules_mappings(draw, game_name: str):
    game = get_game(game_name)
    numbers, switches = _rules_keys(game)
    keys = st.one_of(st.sampled_from(numbers or ["x"]), TEXT)
    values = st.one_of(NUMBERS, st.booleans(), TEXT, st.just(HUGE), st.lists(NUMBERS, max_size=2))
    if draw(st.booleans()):  # one field
        return {draw(st.sampled_from(numbers or ["x"])): draw(values)}
    mapping = draw(st.dictionaries(keys, values, max_size=4))
    if switches and draw(st.booleans()):
        readings = [r for amb in switches for r in _readings(game, amb)] or ["x"]
        mapping["ambiguities"] = draw(st.dictionaries(st.one_of(st.sampled_from(switches), TEXT),
                                                      st.one_of(st.sampled_from(readings), TEXT, NUMBERS), max_size=3))
    return mapping


def _readings(game, amb_id) -> list[str]:
    """The readings of switch `amb_id` where the game's rules module lists them (AMBIGUITIES)."""
    import importlib
    path = getattr(game.load_rules, "path", None)  # a `lazy` names its module
    module_name = path.partition(":")[0] if path else getattr(game.load_rules, "__module__", "")
    table = getattr(importlib.import_module(module_name), "AMBIGUITIES", {}) if module_name else {}
    return list(table.get(amb_id, (None, ()))[1])


# ---- rules files --------------------------------------------------------------------------------------

@pytest.mark.parametrize("game_name", _games_with("load_rules"))
@SETTINGS
@given(data=st.data(), raw=st.one_of(st.none(), st.binary(max_size=40)))
def test_generated_rules_files_load_or_exit_2(tmp_path, game_name, data, raw):
    path = tmp_path / "rules.toml"
    if raw is not None:
        path.write_bytes(raw)
    else:
        path.write_text(_toml(data.draw(rules_mappings(game_name))), encoding="utf-8")
    code, _ = _run(["rules", "--game", game_name, str(path)], tmp_path)
    assert code in (0, 2)


# ---- sweep files --------------------------------------------------------------------------------------

SWEEP_KEYS = ["name", "game", "rules", "strategies", "skills", "matches", "chunk_size", "seed", "precision",
              "max_matches", "life", "hp", "pairings", "first", "vary", "common_deals"]


@st.composite
def sweep_mappings(draw, game_name: str):
    game = get_game(game_name)
    agents = list(game.strategy_names()) + ["pimc:64", "pimc:²", "pimc:" + HUGE[:30], "nobody"]
    value = st.one_of(NUMBERS, TEXT, st.lists(st.one_of(st.sampled_from(agents), TEXT, NUMBERS), max_size=3),
                      st.lists(st.sampled_from(["default", "core", "advanced", "x"]), max_size=2))
    mapping = {"game": game_name}
    if draw(st.booleans()):  # one bad field on the game's default sweep: reaches every later check
        mapping[draw(st.sampled_from(SWEEP_KEYS))] = draw(st.one_of(value, JSON_VALUES))
        return mapping
    mapping.update(draw(st.dictionaries(st.one_of(st.sampled_from(SWEEP_KEYS), TEXT), value, max_size=5)))
    if draw(st.booleans()):
        numbers, switches = _rules_keys(game)
        mapping["vary"] = draw(st.dictionaries(st.sampled_from(numbers + switches + ["x"]),
                                               st.lists(st.one_of(NUMBERS, TEXT), max_size=2), max_size=2))
    return mapping


@pytest.mark.parametrize("game_name", [name for name in _games_with("load_rules") if get_game(name).default_sweep
                                       is not None or name in ("faction_war", "poker_duel")])
@SETTINGS
@given(data=st.data())
def test_generated_sweep_files_load_or_exit_2(tmp_path, no_matches, game_name, data):
    path = tmp_path / "sweep.toml"
    path.write_text(_toml(data.draw(sweep_mappings(game_name))), encoding="utf-8")
    out = tmp_path / "run"
    code, _ = _run(["sweep", str(path), "--out", str(out), "--quiet", "--no-report"], tmp_path)
    assert code in (None, 2)
    if code is None:  # accepted: clean up for the next example
        import shutil
        shutil.rmtree(out, ignore_errors=True)


# ---- positions ----------------------------------------------------------------------------------------

POSITION_KEYS = ["preset", "rules", "turn", "active", "first", "phase", "attack", "uses", "turn_suit", "players",
                 "actions", "rng", "pending", "life", "hp", "bonus", "counters", "used_this_turn", "extra", "decider",
                 "winner", "end_type"]
PLAYER_KEYS = ["hp", "start_hp", "life", "start_life", "hand", "monsters", "back_row", "graveyard", "deck", "new",
               "rows", "exile", "faction", "discard", "deck_count"]
PHASES = ["main", "declare", "battle_step", "damage_step", "discard", "placement", "battle", "x"]


@st.composite
def positions(draw):
    player = st.dictionaries(st.sampled_from(PLAYER_KEYS),
                             st.one_of(st.lists(CARDS, max_size=4), NUMBERS, JSON_VALUES), max_size=4)
    value = {"players": st.lists(player, min_size=0, max_size=3), "phase": st.sampled_from(PHASES),
             "actions": st.lists(st.one_of(st.sampled_from(["pass", "summon S7", "attack 0 5", "end"]), TEXT),
                                 max_size=3),
             "rules": st.one_of(st.dictionaries(TEXT, JSON_VALUES, max_size=2),
                                st.fixed_dictionaries({"ambiguities": JSON_VALUES})),
             "preset": st.sampled_from(["default", "core", "advanced", "x", ""])}
    if draw(st.booleans()):  # one bad field on two plain players: reaches the checks after 'players'
        key = draw(st.sampled_from(POSITION_KEYS))
        players = [{}, {}]
        if key in PLAYER_KEYS and draw(st.booleans()):
            players[draw(st.integers(0, 1))][key] = draw(st.one_of(st.lists(CARDS, max_size=3), JSON_VALUES))
            return {"players": players}
        return {"players": players, key: draw(st.one_of(JSON_VALUES, value.get(key, NUMBERS)))}
    keys = draw(st.lists(st.one_of(st.sampled_from(POSITION_KEYS), TEXT), max_size=6, unique=True))
    return {key: draw(value.get(key, st.one_of(NUMBERS, JSON_VALUES))) for key in keys}


@pytest.mark.parametrize("game_name", _games_with("run_scenario"))
@SETTINGS
@given(position=st.one_of(positions(), JSON_VALUES), raw=st.one_of(st.none(), st.binary(max_size=30)))
def test_generated_positions_load_or_exit_2(tmp_path, game_name, position, raw):
    path = tmp_path / "position.json"
    if raw is not None:
        path.write_bytes(raw)
    else:
        path.write_text(json.dumps(position), encoding="utf-8")
    code, _ = _run(["scenario", "--game", game_name, str(path)], tmp_path)
    assert code in (0, 2)


# ---- command lines ------------------------------------------------------------------------------------

OPTION_VALUES = st.one_of(st.sampled_from(["", "0", "-1", "1", "7", "2", HUGE, "1e9", "²", "pimc:²", "greedy",
                                           "random,greedy", "core", "default", "/proc/x", "x/../y"]),
                          NUMBERS.map(str), TEXT.filter(lambda text: not text.startswith("-")))

COMMAND_OPTIONS = {
    "play": ["--p0", "--p1", "--seed", "--rules", "--cell", "--match", "--hp", "--life", "--first"],
    "rules": [],
    "ladder": ["--agents", "--matches", "--rules", "--seed", "--chunk-size", "--bootstrap", "--jobs", "--hp"],
    "sweep": ["--matches", "--seed", "--precision", "--max-matches", "--jobs", "--skills"],
    "compare": ["--skill", "--seed", "--batch", "--min-matches", "--max-matches", "--confidence", "--jobs"],
    "tune-agent": ["--trials", "--matches", "--recheck", "--seed"],
}


@st.composite
def command_lines(draw):
    command = draw(st.sampled_from(sorted(COMMAND_OPTIONS)))
    argv = [command, "--game", draw(st.sampled_from(_games_with("load_rules") + ["nogame"]))]
    for option in draw(st.lists(st.sampled_from(COMMAND_OPTIONS[command] or ["--game"]), max_size=3, unique=True)):
        argv += [option, draw(OPTION_VALUES)]
    if command == "compare":
        argv += ["core", "advanced"]
    if command == "rules":
        argv += [draw(st.sampled_from(["default", "core", "x", ""]))]
    return argv


@SETTINGS
@given(argv=command_lines())
def test_generated_command_lines_run_or_exit_2(tmp_path, no_matches, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    if argv[0] in ("ladder", "tune-agent"):
        argv = argv + ["--out", str(tmp_path / "out")]
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except _WouldPlay:
            code = None
        except SystemExit as stop:  # argparse: a value of the wrong type, one usage line (code 2)
            code = stop.code
    text = err.getvalue()
    assert "Traceback" not in text, (argv, text)
    assert code in (None, 0, 2), (argv, code, text)
    if code == 2:
        assert text.strip().splitlines()[-1].startswith("cardbalance"), (argv, text)
    import shutil
    shutil.rmtree(tmp_path / "out", ignore_errors=True)
    shutil.rmtree(tmp_path / "runs", ignore_errors=True)


def test_the_property_suite_covers_every_registered_game():
    """A game registered later (the Novel TCG) is generated for without editing this file."""
    assert set(_games_with("load_rules")) == set(_product_games()) >= {"faction_war", "poker_duel"}
    assert set(_games_with("run_scenario")) >= {"faction_war", "poker_duel"}


# ---- the design commands: fair, sensitivity, map (issue 39) --------------------------------------------

DESIGN_NUMBERS = st.one_of(st.integers(-5, 300), st.sampled_from([0, 1, 10**13, 2**63]))
DESIGN_VALUES = st.one_of(OPTION_VALUES, st.sampled_from(["inf", "-inf", "nan", "0.5", "1e400", "0.0", "-0"]))
DESIGN_OPTIONS = {
    "common": ["--jobs", "--seed", "--chunk-size", "--skill", "--rules", "--first", "--out"],
    "fair": ["--metric", "--target", "--precision", "--max-matches", "--round-matches"],
    "sensitivity": ["--method", "--n", "--matches", "--max-matches", "--spread-over"],
    "map": ["--metric", "--target", "--matches", "--max-matches", "--delta", "--adjust"],
}
OPTION_CHOICES = {  # valid values as well, so that the checks after the first are reached
    "--jobs": ["1", "2", "-1", "0", "-5", "5000"], "--metric": ["seat0", "first", "special", "length", "x"],
    "--method": ["sobol", "morris", "lhs", "fast"], "--adjust": ["holm", "bh", "none", "x"],
    "--skill": ["greedy", "random", "greedy/random", "pimc:4", "x"], "--first": ["0", "1", "2"],
    "--target": ["0.5", "inf", "nan", "0", "1", "30"], "--spread-over": ["pairing", "matchup", "life", "hp", "x"],
    "--out": ["", "afile", "afile/sub", "notrun", "x" * 300, "sub/../run"],
    "--max-matches": ["1000", "100000", str(10**18)], "--matches": ["10", "9", str(10**12)],
    "--round-matches": ["10", "100", str(10**12)], "--n": ["4", "8", "16", str(2**30)],
    "--chunk-size": ["1", "10", "250", "1000000"],
}


def _design_names(game_name: str) -> tuple[list[str], dict]:
    """(parameter names, {factor: readings as the rules print them}) of a game's default rules."""
    from sim.fair import params
    game = get_game(game_name)
    rules = game.load_rules(None)
    factors = params.declared_factors(rules)
    names = [name for name in params.known_names(game, rules, factors=False)] + list(params.declared_reals(rules))
    return names + sorted(factors)[:6], {name: [str(r) for r in readings] for name, readings in factors.items()}


@st.composite
def design_specs(draw, game_name: str, axis: bool):
    """`--param` (or with `axis`, `--x`/`--y`) text: a known name or any text, then a range, readings or junk."""
    names, factors = _design_names(game_name)
    name = draw(st.one_of(st.sampled_from(names), TEXT))
    readings = factors.get(name, []) + ["true", "false", "True", "x"]
    if axis:
        tail = draw(st.one_of(st.tuples(DESIGN_NUMBERS, DESIGN_NUMBERS, DESIGN_NUMBERS).map(lambda t: "%d:%d:%d" % t),
                              TEXT))
    else:
        tail = draw(st.one_of(st.none(), st.tuples(DESIGN_NUMBERS, DESIGN_NUMBERS).map(lambda t: "%d:%d" % t),
                              st.lists(st.sampled_from(readings), max_size=4).map(",".join), TEXT))
    return name if tail is None else "%s=%s" % (name, tail)


def _valid_design_parts(game_name: str) -> tuple[list, list[str], list[str]]:
    """([(integer parameter, low, high)], [factor names], [options a design needs]) of a game."""
    from sim.errors import CardbalanceError
    from sim.fair import params
    game = get_game(game_name)
    rules = game.load_rules(None)
    numbers = []
    for name in params.known_names(game, rules, factors=False):
        with contextlib.suppress(CardbalanceError):
            param = params.resolve(game, rules, name)
            numbers.append((name, int(param.low), int(param.high)))
    needed = [["--" + d.name, str(d.values[0])] for d in game.dimensions if d.kind == "choice" and d.single is None]
    factors = sorted(name for name, readings in params.declared_factors(rules).items() if len(readings) >= 2)
    return numbers, factors, [word for pair in needed for word in pair]


@st.composite
def valid_design_command_lines(draw, command: str, game_name: str):
    """A command line that is accepted: declared parameters in their declared ranges."""
    numbers, factors, needed = _valid_design_parts(game_name)
    argv = [command, "--game", game_name] + needed
    name, low, high = draw(st.sampled_from(numbers))
    if command == "fair":
        return argv + ["--param", name]
    others = [entry for entry in numbers if entry[0].rstrip("01") != name.rstrip("01")]
    if command == "sensitivity":
        second = draw(st.sampled_from(factors)) if factors and draw(st.booleans()) else draw(st.sampled_from(others))[0]
        return argv + ["--param", name, "--param", second, "--method", "morris", "--n", "4", "--matches", "10"]
    other, other_low, other_high = draw(st.sampled_from(others))
    axis = lambda n, a, b: "%s=%d:%d:%d" % (n, a, b, max(1, (b - a) // 3))
    return argv + ["--x", axis(name, low, high), "--y", axis(other, other_low, other_high), "--matches", "10"]


@st.composite
def design_command_lines(draw):
    """Half: a valid command line with one generated option or parameter added (so the checks after
    the first are reached); half: generated parameters and options throughout."""
    command = draw(st.sampled_from(["fair", "sensitivity", "map"]))
    game_name = draw(st.sampled_from(_product_games()))
    options = DESIGN_OPTIONS["common"] + DESIGN_OPTIONS[command]
    option_value = lambda option: st.one_of(st.sampled_from(OPTION_CHOICES.get(option, ["1"])), DESIGN_VALUES)
    if draw(st.booleans()):
        argv = draw(valid_design_command_lines(command, game_name))
        if draw(st.booleans()):  # options with values from OPTION_CHOICES (mostly valid) or anything
            for option in draw(st.lists(st.sampled_from(options), max_size=2, unique=True)):
                argv += [option, draw(st.sampled_from(OPTION_CHOICES.get(option, ["1", "2", "7"])))
                         if draw(st.booleans()) else draw(option_value(option))]
            return argv
        flag = {"fair": "--param", "sensitivity": "--param", "map": draw(st.sampled_from(["--x", "--y"]))}[command]
        spec = draw(design_specs(game_name, command == "map"))
        if command == "sensitivity":
            return argv + [flag, spec]
        index = argv.index(flag) + 1  # a replaced parameter (a later --param would override it)
        return argv[:index] + [spec] + argv[index + 1:]
    argv = [command, "--game", game_name]
    if command == "fair":
        argv += ["--param", draw(design_specs(game_name, False))]
    elif command == "sensitivity":
        for _ in range(draw(st.integers(1, 3))):
            argv += ["--param", draw(design_specs(game_name, False))]
    else:
        argv += ["--x", draw(design_specs(game_name, True)), "--y", draw(design_specs(game_name, True))]
    for option in draw(st.lists(st.sampled_from(options), max_size=4, unique=True)):
        argv += [option, draw(option_value(option))]
    return argv


def _check_accepted_design(argv, folder) -> None:
    """What every accepted design must hold (the issue's classes as properties): a whole, locked run
    folder; a finite target; map axes within their bound; readings and seats given once."""
    from sim.cli.map_cmd import MAX_AXIS_VALUES
    from sim.fair.setup import MAX_CHUNKS
    assert {"settings.json", ".lock"} <= set(os.listdir(folder)), (argv, os.listdir(folder))
    settings = json.loads((folder / "settings.json").read_text(encoding="utf-8"))
    assert settings["command"] == argv[0]
    if "target" in settings:
        assert 0 < settings["target"] < float("inf"), (argv, settings["target"])
    if argv[0] == "map":
        assert len(settings["x"][1]) <= MAX_AXIS_VALUES and len(settings["y"][1]) <= MAX_AXIS_VALUES
        chunks = len(settings["x"][1]) * len(settings["y"][1]) * 2 * -(-settings["matches"] // settings["chunk_size"])
        assert chunks <= MAX_CHUNKS, (argv, chunks)  # the chunk list is built before the first match
    if argv[0] == "fair":
        assert settings["max_matches"] // settings["chunk_size"] <= MAX_CHUNKS, argv
    for described in settings.get("params", []):
        if " in {" in described:
            readings = described.partition(" in {")[2].rstrip("}").split(", ")
            assert len(readings) == len(set(readings)) >= 2, (argv, described)
    names = [p.split(" in ")[0] for p in settings.get("params", [])] + [settings[a][0] for a in ("x", "y") if a in settings]
    per_seat = {d.name for d in get_game(argv[2]).dimensions if d.kind == "per_seat"}
    seats = [(name, seat) for name in names if name in per_seat for seat in (0, 1)]
    seats += [(name[:-1], int(name[-1])) for name in names if name[:-1] in per_seat and name[-1:] in ("0", "1")]
    assert len(seats) == len(set(seats)), (argv, names)  # no two parameters set one seat's value


@SETTINGS
@given(argv=design_command_lines())
def test_generated_design_command_lines_run_or_exit_2(tmp_path, monkeypatch, argv):
    """`fair`, `sensitivity` and `map` options: accepted (a match would start, with the folder made
    whole and locked) or one line, exit 2, nothing written; never a traceback or exit 74."""
    import shutil
    from sim.errors import MAX_ERROR_LINE
    from sim.fair.runner import PointRunner

    def stop(*args, **kwargs):
        raise _WouldPlay
    monkeypatch.setattr(PointRunner, "play", stop)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    (tmp_path / "notrun").mkdir(exist_ok=True)
    (tmp_path / "notrun" / "keep").write_text("x")
    if "--out" not in argv:
        argv = argv + ["--out", "run"]
    out = tmp_path / argv[argv.index("--out") + 1]
    before = sorted(os.listdir(tmp_path))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        try:
            code = main(argv)
        except _WouldPlay:
            code = None
        except SystemExit as stop_parsing:  # argparse: a value of the wrong type, one usage line (code 2)
            code = stop_parsing.code
    text = err.getvalue()
    event("%s %s" % (argv[0], "accepted" if code is None else "refused"))  # --hypothesis-show-statistics
    try:
        assert "Traceback" not in text, (argv, text)
        assert code in (None, 2), (argv, code, text)
        if code == 2:
            lines = text.strip().splitlines()
            assert len(lines[-1]) <= MAX_ERROR_LINE + 40 and lines[-1].startswith("cardbalance"), (argv, text)
            assert len(lines) == 1 or lines[0].startswith("usage:"), (argv, text)
            assert sorted(os.listdir(tmp_path)) == before, (argv, text)
        else:  # an empty --out is the default, runs/<timestamp>-<command>
            _check_accepted_design(argv, out if out != tmp_path else next((tmp_path / "runs").iterdir()))
    finally:
        for name in os.listdir(tmp_path):
            if name not in ("afile", "notrun"):
                shutil.rmtree(tmp_path / name, ignore_errors=True)
