"""CSV cells that a spreadsheet will not run as formulas.

Tables carry user strings (rules file names, strategy and sweep names). A
cell starting with `=`, `+`, `-` or `@` (or a tab / carriage return, which
some spreadsheets strip before looking) is read by Excel, LibreOffice and
Google Sheets as a formula — CSV injection (OWASP). Such a cell gets a
leading apostrophe, the spreadsheets' own "this is text" mark. Only text
cells are touched; numbers, including negative ones, stay numbers.
"""

from __future__ import annotations

import pandas as pd

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralise_cell(value):
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


def spreadsheet_safe(table: pd.DataFrame) -> pd.DataFrame:
    """A copy of `table` whose text cells cannot start a formula (column names included)."""
    safe = table.copy()
    for column in safe.columns:
        if safe[column].dtype == object or pd.api.types.is_string_dtype(safe[column]):
            safe[column] = safe[column].map(neutralise_cell)
    safe.columns = [neutralise_cell(column) for column in safe.columns]
    return safe
