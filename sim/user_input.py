"""The one place each kind of user-supplied value is checked (issue 30).

Every check raises `CardbalanceError` with one sentence naming the field and
what is allowed, and runs before any match is played:

- `read_toml` / `read_json`: a file (or text) in the format, or one line
  saying why not — not UTF-8, not valid syntax, nested too deeply, a number
  longer than Python's integer-string limit, unreadable;
- `parse_count`: a decimal count written in ASCII digits within declared
  bounds ("²" or a 5,000-digit number is refused, not crashed on);
- `check_count`: an integer option (already parsed) within declared bounds;
- `check_jobs`: a number of worker processes, or -1 for all cores;
- `check_path`: a path given on the command line or in a file must be
  valid UTF-8 text (the run folder records it in JSON and a resume reads it
  back), so a name that is not is refused up front rather than handled end
  to end (the trade-off: such files must be renamed to be used);
- `check_name_lengths`: a path the file system can hold (no name over
  NAME_MAX bytes): asking the OS about a longer one fails with an OSError
  (exit 74, "fix the machine") where the input is what is wrong;
- `did_you_mean`: the " (did you mean 'x'?)" tail of an unknown-name error
  (placed after the list of known names), from difflib's close matches.
"""

from __future__ import annotations

import difflib
import json
import os
from pathlib import Path

from sim.errors import CardbalanceError

LONGEST_COUNT_DIGITS = 18  # any count cardbalance takes fits in 18 digits (< 2^63)


def did_you_mean(name, known) -> str:
    """' (did you mean 'x'?)' when `name` is close to one of `known`, else ''."""
    by_folded = {str(k).lower(): str(k) for k in known}  # case-insensitive: a lower-case switch ID finds its own
    matches = difflib.get_close_matches(str(name).strip().lower(), list(by_folded), n=1, cutoff=0.6)
    return " (did you mean '%s'?)" % by_folded[matches[0]] if matches else ""


def parse_count(text, field: str, low: int, high: int, meaning: str = "") -> int:
    """`text` as an integer from `low` to `high` written in ASCII digits, else one clear error."""
    text = str(text)
    if not (text.isascii() and text.isdigit() and len(text) <= LONGEST_COUNT_DIGITS) or not low <= int(text) <= high:
        raise CardbalanceError("%s: N%s must be an integer from %d to %d written in digits 0-9 (got '%s')."
                               % (field, " (%s)" % meaning if meaning else "", low, high, shorten(text)))
    return int(text)


def check_count(value, field: str, low: int, high: int) -> int:
    """An integer option within its declared bounds (e.g. --bootstrap 0 to 100000)."""
    if value is None:
        return None
    if not low <= value <= high:
        raise CardbalanceError("%s must be an integer from %d to %d (got %s)." % (field, low, high, shorten(str(value))))
    return value


MAX_JOBS = 1024  # far above any machine this runs on; a typo like 10000 would fork that many workers


def check_jobs(jobs, field: str = "--jobs") -> int:
    """A number of worker processes (1 to MAX_JOBS) or -1 for all cores: joblib reads 0 as an
    error and -5 as "all cores but four", neither of which a user asking for workers means."""
    if isinstance(jobs, bool) or not isinstance(jobs, int) or not (jobs == -1 or 1 <= jobs <= MAX_JOBS):
        raise CardbalanceError("%s must be a number of worker processes from 1 to %d, or -1 for all cores (got %s)."
                               % (field, MAX_JOBS, shorten(str(jobs))))
    return jobs


def shorten(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else "%s... (%d characters)" % (text[:limit], len(text))


def check_path(path, field: str) -> str:
    """`path` as text, refused when its name is not valid UTF-8 (it could not be recorded or resumed)."""
    text = os.fsdecode(path) if isinstance(path, bytes) else str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        shown = text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
        raise CardbalanceError("%s: the file name '%s' is not valid UTF-8; rename it (names are stored in the "
                               "run folder as UTF-8 text)." % (field, shown)) from None
    if "\x00" in text:
        raise CardbalanceError("%s: a file name cannot contain a NUL character." % field)
    return text


def check_name_lengths(path, option: str) -> Path:
    """Refuse a path the file system cannot hold: a name over NAME_MAX bytes or the whole over
    PATH_MAX (asking the OS about such a path fails with an OSError, not an answer)."""
    path = Path(path)
    anchor = _nearest_existing_quietly(path)
    name_max, path_max = _limit(anchor, "PC_NAME_MAX", 255), _limit(anchor, "PC_PATH_MAX", 4096)
    for part in path.parts:
        if len(os.fsencode(part)) > name_max:
            raise CardbalanceError("%s: the name '%s' is %d bytes long; a file or folder name may have at most %d."
                                   % (option, shorten(part), len(os.fsencode(part)), name_max))
    if len(os.fsencode(str(path))) >= path_max:
        raise CardbalanceError("%s: the path '%s' is %d bytes long; a path may have at most %d."
                               % (option, shorten(str(path)), len(os.fsencode(str(path))), path_max - 1))
    return path


def _nearest_existing_quietly(path: Path) -> Path:
    """The nearest ancestor of `path` that exists (".": when asking fails, e.g. a name too long)."""
    candidate = path.parent
    while candidate != candidate.parent:
        try:
            if candidate.exists():
                return candidate
        except OSError:
            pass
        candidate = candidate.parent
    return candidate if candidate.exists() else Path(".")


def _limit(folder: Path, name: str, default: int) -> int:
    try:
        return int(os.pathconf(folder, name))
    except (OSError, ValueError):
        return default


def _parse_error(what: str, path, reason: str) -> CardbalanceError:
    return CardbalanceError("%s %s is not valid %s." % (what, path, reason))


def read_toml(path, what: str) -> dict:
    """The TOML mapping in file `path` (`what`: "rules file", "sweep file"), else one clear error."""
    import tomllib
    path = Path(check_path(path, what))
    try:
        text = path.read_bytes().decode("utf-8")
        return tomllib.loads(text)
    except UnicodeDecodeError:
        raise CardbalanceError("%s %s is not valid TOML: it is not UTF-8 text." % (what, path)) from None
    except tomllib.TOMLDecodeError as error:
        raise CardbalanceError("%s %s is not valid TOML: %s." % (what, path, error)) from None
    except RecursionError:
        raise CardbalanceError("%s %s is not valid TOML: it is nested too deeply." % (what, path)) from None
    except ValueError as error:  # an integer longer than Python's int-string limit (4,300 digits)
        raise CardbalanceError("%s %s: a number is too long to be a value here (%s)." % (
            what, path, _digits(error))) from None
    except OSError as error:
        raise CardbalanceError("cannot read %s '%s' (%s)." % (what, path, error.strerror or error)) from None


def read_json(text: str, what: str):
    """The JSON value of `text` (`what` names it in the error), else one clear error."""
    try:
        return json.loads(text)
    except RecursionError:
        raise CardbalanceError("%s is not valid JSON: it is nested too deeply." % what) from None
    except ValueError as error:  # JSONDecodeError, or an integer past the int-string limit
        if "integer string conversion" in str(error):
            raise CardbalanceError("%s: a number is too long to be a value here (%s)." % (what, _digits(error))) from None
        raise CardbalanceError("%s is not valid JSON: %s." % (what, _first_sentence(error))) from None


def read_text_file(path, what: str) -> str:
    """A UTF-8 text file's content, else one clear error naming it."""
    path = Path(check_path(path, what))
    try:
        return path.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise CardbalanceError("%s %s is not UTF-8 text." % (what, path)) from None
    except IsADirectoryError:
        raise CardbalanceError("%s %s is a folder, not a file." % (what, path)) from None
    except OSError as error:
        raise CardbalanceError("cannot read %s '%s' (%s)." % (what, path, error.strerror or error)) from None


def _digits(error: Exception) -> str:
    """'5000 digits' from Python's int-string-limit message."""
    text = str(error)
    return text[text.rfind("has ") + 4:].split(";")[0].rstrip(".") if "has " in text else "over 4300 digits"


def _first_sentence(error: Exception) -> str:
    return str(error).split(";")[0].split("\n")[0].rstrip(".")
