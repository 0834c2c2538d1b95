"""CSV cells a spreadsheet must not run, and CSV a reader must not guess at.

Export (the OWASP rule): a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return is a formula to Excel, LibreOffice and Google Sheets, so it is written with a leading
``'``, which they show as text. To keep Limbic's own round trip lossless, a cell that already is
one or more ``'`` followed by such a character gets one more; reading a file with Limbic's exact
header takes exactly one off such cells. Other files are read as they are.

Import: quoting is read strictly, so a quote that is never closed (``"unterminated,T``) is refused
with the line it opens on instead of swallowing the rest of the file into one cell.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from limbic.engine.graph.graph import MAX_OBSERVATION_CHARS
from limbic.service.importers.common import ImportInputError

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NEUTRALISED = re.compile(r"^'+[=+\-@\t\r]")
# Python's csv refuses cells over 131,072 characters; the longest observation must fit (with room).
FIELD_LIMIT = 4 * MAX_OBSERVATION_CHARS


class CsvSyntaxError(ImportInputError):
    """A CSV file whose quoting is broken; the message names the file and line."""


def neutralise(cell: object) -> object:
    """The cell as written to a CSV file: a leading ``'`` when a spreadsheet would take it for a formula."""
    if isinstance(cell, str) and cell.lstrip("'").startswith(FORMULA_START):
        return "'" + cell
    return cell


def restore(cell: str) -> str:
    """Undo ``neutralise`` on a cell read from Limbic's own file."""
    return cell[1:] if _NEUTRALISED.match(cell) else cell


def strict_rows(path: Path, text: str, delimiter: str) -> list[list[str]]:
    """Every row of ``text``; raises CsvSyntaxError naming the line of broken quoting, or of a cell too large."""
    if csv.field_size_limit() < FIELD_LIMIT:
        csv.field_size_limit(FIELD_LIMIT)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    rows: list[list[str]] = []
    while True:
        start = reader.line_num + 1  # the physical line the next row starts on
        try:
            row = next(reader)
        except StopIteration:
            return rows
        except csv.Error as exc:
            why = str(exc)
            if "unexpected end of data" in why:
                reason = f"line {start}: a quoted cell opened on this line is never closed"
            elif "field larger than field limit" in why:
                reason = f"line {start}: a cell is longer than {FIELD_LIMIT:,} characters"
            elif "expected after" in why:
                reason = f"line {reader.line_num}: a quoted cell is followed by other text before the next separator"
            else:
                reason = f"line {reader.line_num}: {why}"
            raise CsvSyntaxError(f"{path}, {reason}; nothing was imported.") from None
        rows.append(row)
