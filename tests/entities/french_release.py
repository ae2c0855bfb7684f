"""The French release the tests of French entities look at."""

from __future__ import annotations


def release_fr(text: str, seed: int = 1) -> str:
    """``text`` released in French with ``--entities auto`` at ε = 10⁶, where an ordinary
    word comes back as written: what changes is the entities'."""
    from emprivacy.tables import privatize_texts

    (row,) = privatize_texts([text], epsilon=1e6, seed=seed, lang="fr", entities="auto")
    return row.release
