"""The one exception class users see.

Every bad input (config, strategy name, parameter, position, action) raises
`CardbalanceError` with one plain sentence that names the field and what is
allowed. The CLI maps it to that sentence on stderr and exit code 2; no
traceback reaches the user.
"""


class CardbalanceError(Exception):
    """A user-facing error: the message is one sentence naming the bad value."""


class IllegalActionError(CardbalanceError):
    """An action that the rules do not allow in the current position."""
