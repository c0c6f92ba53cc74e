"""The `cardbalance` command: parses, calls the library, maps errors.

Each subcommand lives in its own module `sim/cli/<name>_cmd.py` exposing
`ORDER` (position in --help), `add_parser(subparsers)` and `run(args) -> int`.
They are discovered here, so adding a command touches no shared file.
A `CardbalanceError` becomes one line on stderr and exit code 2; an
`OSError` (disk full, I/O error) one line and exit code 74 (sim/errors.py).
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import importlib
import os
import pkgutil
import sys
import warnings

from sim.errors import EXIT_ENVIRONMENT, EXIT_USAGE, CardbalanceError, describe_os_error, error_line

DESCRIPTION = """cardbalance: Monte Carlo balance analysis for poker-card battle games.

Examples:
  cardbalance sweep                          run the default balance sweep and its report
  cardbalance play --p0 {p0} --p1 {p1} {setup} --seed 7
  cardbalance rules default                  print the effective rules
  cardbalance scenario docs/examples/attack.json --legal
"""


class _Parser(argparse.ArgumentParser):
    """Usage errors: one sentence and exit code 2 (argparse's default code)."""

    def error(self, message):
        self.exit(2, "cardbalance %s: error: %s\n" % (self.prog.split()[-1], error_line(_with_suggestion(message))))


def _with_suggestion(message: str) -> str:
    """argparse's "invalid choice: 'swep' (choose from 'sweep', ...)" with a "did you mean"."""
    import re
    from sim.user_input import did_you_mean
    found = re.search(r"invalid choice: '(.*)' \(choose from (.*)\)$", message)
    if not found:
        return message
    choices = re.findall(r"'([^']*)'", found.group(2))
    return message + did_you_mean(found.group(1), choices).replace(" (", "; ", 1).rstrip(")")


@contextlib.contextmanager
def quiet_library_warnings():
    """Library warnings (joblib's worker warnings on a full disk, numba's, pandas') do not
    reach the user's stderr: an error must stay the one line the CLI prints (issue 30).
    The product's own messages are printed, never warned. PYTHONWARNINGS shows them again."""
    if os.environ.get("PYTHONWARNINGS"):
        yield
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        yield


def _command_modules():
    package = importlib.import_module("sim.cli")
    modules = []
    for info in pkgutil.iter_modules(package.__path__):
        if info.name.endswith("_cmd"):
            modules.append(importlib.import_module("sim.cli." + info.name))
    return sorted(modules, key=lambda module: module.ORDER)


def build_parser() -> argparse.ArgumentParser:
    from sim.cli.options import example_words
    parser = _Parser(prog="cardbalance", description=DESCRIPTION.format(**example_words()),
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    subparsers.required = True
    for module in _command_modules():
        sub = module.add_parser(subparsers)
        sub.set_defaults(handler=module.run)
    return parser


def _check_text_arguments(argv) -> None:
    """Every word of the command line must be valid UTF-8 (sim/user_input.py: a path that is
    not could not be recorded in a run folder nor resumed); the error names its option."""
    from sim.user_input import check_path
    for index, word in enumerate(argv):
        previous = argv[index - 1] if index else ""
        if word.startswith("--") and "=" in word:  # --out=PATH
            check_path(word, word.partition("=")[0])
        check_path(word, previous if previous.startswith("-") else "argument %d" % index)


def main(argv=None) -> int:
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    try:
        _check_text_arguments(argv)
        with quiet_library_warnings():
            return int(args.handler(args) or 0)
    except CardbalanceError as error:
        print("cardbalance %s: error: %s" % (args.command, error_line(error)), file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:  # e.g. `cardbalance play ... | head`
        sys.stderr.close()
        return 0
    except OSError as error:  # the environment failed (disk full, I/O error), not the input
        print("cardbalance %s: error: %s." % (args.command, error_line(describe_os_error(error))), file=sys.stderr)
        return EXIT_ENVIRONMENT
    except KeyboardInterrupt:
        print("cardbalance %s: interrupted" % args.command, file=sys.stderr)
        return 130


def console() -> None:
    """The installed `cardbalance` script: `main`, then an exit that skips the
    interpreter's teardown. After a cold compile, freeing numba's compiled modules and
    the rest of the heap took 1.1 s that the user waited for after the last line
    (docs/performance.md, "Cold compile, second round"). Registered first, the handler runs
    after every other exit handler (loky's workers, joblib's temporary folders,
    logging), so only the teardown is skipped; a traceback still exits with 1."""
    exit_code = [1]
    atexit.register(_exit_now, exit_code)
    try:
        code = main()
    except SystemExit as stop:  # argparse: --help (0), a usage error (2)
        code = stop.code
    if isinstance(code, str):
        print(code, file=sys.stderr)
        code = 1
    exit_code[0] = 0 if code is None else int(code)
    sys.exit(exit_code[0])


def _exit_now(exit_code: list) -> None:
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):  # a closed pipe (`| head`) must not change the code
            stream.flush()
    os._exit(exit_code[0])


if __name__ == "__main__":
    console()
