"""The installed script's entry (`sim.cli.console`): it skips the interpreter's teardown
with os._exit after the exit handlers, so its exit codes and its buffered output must
survive that: --help 0, a usage error 2, an error 2 with its one line, output complete."""

import subprocess
import sys

import pytest


def _console(*words):
    code = "import sys; sys.argv = ['cardbalance', *%r]; from sim.cli import console; console()" % (words,)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize("words, status", [(("--help",), 0), (("swep",), 2), (("sweep", "--jobs", "x"), 2),
                                           (("play", "--game", "no_such_game"), 2)])
def test_exit_codes_survive_the_fast_exit(words, status):
    done = _console(*words)
    assert done.returncode == status
    assert "Traceback" not in done.stderr


def test_buffered_output_is_written_whole_before_the_fast_exit():
    """`rules default` prints many lines to a pipe (block-buffered): all of them arrive,
    the same as through `main`."""
    done = _console("rules", "default")
    assert done.returncode == 0
    reference = subprocess.run([sys.executable, "-c", "import sys; from sim.cli import main; "
                                "sys.exit(main(['rules', 'default']))"], capture_output=True, text=True, timeout=120)
    assert done.stdout == reference.stdout and len(done.stdout.splitlines()) > 20
