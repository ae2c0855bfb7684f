"""What the name-list detector finds, as the tests of names in chat and speech look at it."""

from __future__ import annotations

import pytest


def spans(text: str) -> list[tuple[int, str]]:
    """(start, word) of each span :class:`NameListDetector` finds in ``text``."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.names import NameListDetector

    return [(s.start, text[s.start:s.end]) for s in NameListDetector().detect([text])[0]]


def found(text: str) -> list[str]:
    """The words :class:`NameListDetector` finds in ``text``, in order."""
    return [word for _, word in spans(text)]
