"""Warnings and errors specific to emprivacy."""

from __future__ import annotations

__all__ = ["EmbeddingsFormatError", "PrivacyLeakWarning"]


class PrivacyLeakWarning(UserWarning):
    """A word is released without going through the privacy mechanism.

    Raised whenever the user explicitly asks for something that the privacy
    guarantee (Thm. 1 / Cor. 2 / Thm. 4 of the paper) does not cover, such as keeping
    out-of-vocabulary words unchanged.
    """


class EmbeddingsFormatError(ValueError):
    """An embeddings file is missing, truncated, corrupt or of an unknown format."""
