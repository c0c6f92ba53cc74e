"""The one exception class users see, and the exit codes of the command.

Every bad input (config, strategy name, parameter, position, action) raises
`CardbalanceError` with one plain sentence that names the field and what is
allowed. The CLI maps it to that sentence on stderr and exit code 2; no
traceback reaches the user.

A fault of the environment rather than of the input — the disk is full, a
device fails, a file cannot be read mid-run — is an `OSError`; the CLI
prints one line naming the file and the reason and exits with
`EXIT_ENVIRONMENT` (74, EX_IOERR in sysexits.h), so a CI script can tell
"fix your input" (2) from "fix the machine" (74).
"""

EXIT_USAGE = 2
EXIT_ENVIRONMENT = 74


class CardbalanceError(Exception):
    """A user-facing error: the message is one sentence naming the bad value."""


class IllegalActionError(CardbalanceError):
    """An action that the rules do not allow in the current position."""


def one_line(text: str) -> str:
    """`text` with every character that would break the line (newline, carriage return, the
    other control characters, Unicode line separators) written as an escape: an error is one
    line even when the bad value it quotes held a line break (found by tests/test_property_inputs.py)."""
    return "".join(character if character.isprintable() or character == " " else
                   character.encode("unicode_escape").decode("ascii") for character in str(text))


MAX_ERROR_LINE = 2000  # characters; a bad value quoted whole (a 6,000-character --skill) made a 6,000-character line
LONGEST_QUOTED_WORD = 300  # a run of non-blank characters longer than this is a pasted value, not a path or a name


def error_line(text: str) -> str:
    """`text` as one line of at most MAX_ERROR_LINE characters: the checks quote a bad value
    shortened, and this is the net for any that quotes it whole (issue 39). A long word is cut in
    its middle, so the sentence around it (what is allowed) stays whole."""
    import re
    line = re.sub(r"\S{%d,}" % (LONGEST_QUOTED_WORD + 1),
                  lambda word: "%s...(%d characters)...%s" % (word.group()[:60], len(word.group()), word.group()[-20:]),
                  one_line(text))
    if len(line) <= MAX_ERROR_LINE:
        return line
    tail = "... (%d characters, shortened)" % len(line)
    return line[:MAX_ERROR_LINE - len(tail)] + tail


def describe_os_error(error: OSError) -> str:
    """'cannot write/read PATH (reason)' in one line, for an environment fault."""
    reason = error.strerror or type(error).__name__
    where = error.filename if error.filename is not None else None
    if where is None:
        return one_line("%s (%s)" % (reason, type(error).__name__))
    return one_line("file system error on '%s' (%s)" % (where, reason))
