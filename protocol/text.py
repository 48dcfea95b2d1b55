"""Free text a client sends and other members' screens show: names, labels, stats.

Such text may not hold characters that change how *other* text is displayed:

* C0 and C1 control characters (U+0000..U+001F, U+007F..U+009F): a NUL ends a string
  in many renderers, a newline or a carriage return forges extra lines of a log;
* the line and paragraph separators U+2028 and U+2029;
* bidirectional formatting: the embeddings and overrides U+202A..U+202E, the isolates
  U+2066..U+2069 and the marks U+200E, U+200F and U+061C.  An override (U+202E) makes
  what follows it read backwards, so a name can pass for another or flip the words
  printed after it on a player's screen ("Trojan Source").

Refused, not stripped: a normalisation would change what the client asked for without
telling it.  The refusal is ``bad_value`` with the field's path and the code point's
position, as every other bad value is.
"""

from __future__ import annotations

import re
from typing import Final

from protocol.errors import ProtocolError

#: The characters free text may not hold, as a regular expression character class.
FORBIDDEN_CLASS: Final = (
    "\x00-\x1f\x7f-\x9f\u2028\u2029\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069"
)
_FORBIDDEN: Final = re.compile(f"[{FORBIDDEN_CLASS}]")
#: A msgspec ``pattern`` matching text free of them (searched, so anchored with ``\Z``, as
#: ``$`` would also match before a final newline).
CLEAN_PATTERN: Final = f"^[^{FORBIDDEN_CLASS}]*\\Z"


def first_forbidden(text: str) -> int | None:
    """The index of the first forbidden character in ``text``, or None."""
    found = _FORBIDDEN.search(text)
    return None if found is None else found.start()


def why_forbidden(text: str) -> str | None:
    """A reader's explanation of the first forbidden character, or None if clean."""
    at = first_forbidden(text)
    if at is None:
        return None
    return (
        f"character U+{ord(text[at]):04X} at {at} is not allowed in text (control, "
        "line separator or bidirectional formatting)"
    )


def check_text(text: str, path: str = "") -> str:
    """``text`` if it holds no forbidden character, else :class:`ProtocolError`
    (``bad_value``) at ``path``."""
    why = why_forbidden(text)
    if why is not None:
        raise ProtocolError("bad_value", why, path=path)
    return text
