"""Why a document is skipped, and what is said about it: a document with nothing to release
(empty after normalisation, or a bag with no word in the vocabulary) is skipped with a
warning that names it, never its text; a run that skips every document is an error.
"""

from __future__ import annotations

from collections.abc import Sequence

from emprivacy.exceptions import InputError

__all__ = ["SKIPPED_EMPTY", "SKIPPED_OUT_OF_VOCABULARY", "nothing_to_release",
           "skipped_warning"]

#: Why a document was skipped: nothing left after normalisation (no word; in text mode, no
#: token at all).
SKIPPED_EMPTY = "empty"
#: Why a document was skipped: a bag with no word in the vocabulary (nothing to privatise).
SKIPPED_OUT_OF_VOCABULARY = "out_of_vocabulary"


def skipped_warning(doc_id: str, reason: str, vocabulary: str) -> str:
    """The one-line warning for a skipped document: it names the document, never its text.

    >>> skipped_warning("a.txt", SKIPPED_OUT_OF_VOCABULARY, "glove-6b-50d")
    "document 'a.txt' has no word in the vocabulary of 'glove-6b-50d'; skipped"
    """
    if reason == SKIPPED_OUT_OF_VOCABULARY:
        return f"document {doc_id!r} has no word in the vocabulary of {vocabulary!r}; skipped"
    return f"document {doc_id!r} is empty after normalisation; skipped"


def nothing_to_release(skipped: Sequence[tuple[str, str]], vocabulary: str) -> InputError:
    """The error when every document of a run was skipped: ``skipped`` holds each
    ``(id, reason)``, in input order (at least one)."""
    reasons = {reason for _, reason in skipped}
    what = ("is empty after normalisation" if reasons == {SKIPPED_EMPTY}
            else f"has no word in the vocabulary of {vocabulary!r}"
            if reasons == {SKIPPED_OUT_OF_VOCABULARY}
            else "is empty after normalisation or has no word in the vocabulary of "
                 f"{vocabulary!r}")
    return InputError(f"every input document {what} ({len(skipped)}, first "
                      f"{skipped[0][0]!r}); nothing to release")
