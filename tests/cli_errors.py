"""The shape every refused command line must have (the hardening suites): exit code 2 (or `code`),
exactly one line on stderr, "cardbalance COMMAND: error: ...", and no traceback."""

from sim.cli import main


def one_error_line(capsys, argv, code: int = 2) -> str:
    assert main(argv) == code
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("cardbalance %s: error: " % argv[0]), lines[0]
    assert "Traceback" not in captured.err
    return lines[0]
