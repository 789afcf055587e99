"""``;error:`` / ``;warning:`` records of AMD IL metadata (spec 000 "Error Token", "Warning
Token": a message of at most 32 characters after a 4-character condition code; the runtime fails
a build whose kernel carries an error and logs the warnings). The condition codes are those of
AMD's compiler for the same conditions; the wording is kernelkit's."""

from __future__ import annotations

from kernelkit.formats.amdil import records as r

# condition code -> message (32 characters at most)
MESSAGES = {
    "W000": "barrier limits the group size",
    "E018": "too many atomic counters",
    "E023": "inc and dec on one counter",
}


def message(code: str) -> r.Message:
    text = MESSAGES[code]
    assert len(text) <= 32, code
    return r.Message("error" if code.startswith("E") else "warning", f"{code}:{text}")
