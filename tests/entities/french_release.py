"""The French release the tests of French entities look at."""

from __future__ import annotations

from collections.abc import Callable


def release_fr(text: str, seed: int = 1) -> str:
    """``text`` released in French with ``--entities auto`` at ε = 10⁶, where an ordinary
    word comes back as written: what changes is the entities'."""
    from emprivacy.tables import privatize_texts

    (row,) = privatize_texts([text], epsilon=1e6, seed=seed, lang="fr", entities="auto")
    return row.release


def widened(text: str, spans: list | None = None,
            zipf: Callable[[str], float] | None = None) -> list[tuple[str, str]]:
    """The spans that French kinds before a name make in ``text`` (``widen_before`` with the
    French entity words), as (text, type) pairs."""
    from emprivacy.entities.kinds import entity_words, widen_before
    from emprivacy.text.language import FRENCH

    kinds = entity_words("fr")
    assert kinds is not None
    found = widen_before(text, spans or [], kinds, function_words=FRENCH.kept_function_words,
                         titles=FRENCH.titles, zipf=zipf)
    return [(text[s.start:s.end], s.type) for s in found]
