"""Names and places by a model learned from the labelled texts: the ``learned`` detector.

The hand-written rules of :mod:`~emprivacy.entities.names`, :mod:`~emprivacy.entities.places`
and their neighbours were each written for texts that had been read; on texts nobody had
read they missed about one person-name token in twenty (docs/ENTITIES.md).  This detector
learns the same evidence from every hand-labelled text of the test suite
(``tests/entities/labelled``; in French ``tests/entities/labelled_fr``) instead: a
multinomial logistic regression over a word's features and its neighbours',

.. math::

    P(c \\mid t) = \\frac{\\exp(b_c + \\sum_{f \\in F(t)} w_{f,c})}
                       {\\sum_{c'} \\exp(b_{c'} + \\sum_{f \\in F(t)} w_{f,c'})},
    \\qquad c \\in \\{\\mathrm{O}, \\mathrm{PERSON}, \\mathrm{LOCATION}, \\mathrm{ORG}\\},

where :math:`F(t)` are the features of word token :math:`t` (:func:`token_features`): its
shape (``x``, ``Xx``, ``XX``), how common it is in the text's language (``wordfreq`` Zipf,
in half steps), whether the census (in French the French list too) holds it as a given or
family name or GeoNames as a place's word, its name class
(:func:`~emprivacy.entities.name_words.census_name_class`), the text's shape (lower case, ALL CAPS,
mixed), a line's start, a colon after it, ``@`` before it, and the same for the two words
either side, with the common words themselves.  A word is an entity
where :math:`1 - P(\\mathrm{O} \\mid t)` exceeds the model's threshold, of the likeliest
type — over :data:`COMMON_THRESHOLD` for a common or ordinary word (:data:`COMMON_ZIPF`,
:data:`ORDINARY_ZIPF`), never a word of another script.

The models (``data/entity-model-en.npz``, ``data/entity-model-fr.npz``: the features, their
weights, the threshold, the language) are written by ``benchmarks/entity_model.py``, which
also prints, set by set, what a model finds on a set it was fitted without.  In a union
(:class:`~emprivacy.entities.spans.UnionDetector`) it fills gaps: its spans are asked apart
and decide only the words every rule left released
(:mod:`~emprivacy.preparation.learned_gaps`), so there it can only add protection; the
names detector asks it too, whether a rare word in lower case is a name
(:data:`~emprivacy.entities.names.LOWER_RARE_SCORE`).  Like every detector it is
pre-processing, outside the guarantee (issue 40, issue 42).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from io import BytesIO
from typing import Any

import numpy as np

from emprivacy.entities.capitalised import text_words
from emprivacy.entities.spans import EntitySpan, check_texts
from emprivacy.text.language import get_language
from emprivacy.text.normalise import latin_letters
from emprivacy.text.tokens import Token, tokenize

__all__ = [
    "CLASSES",
    "MODEL_LANGUAGES",
    "NEAR_THRESHOLD",
    "EntityModel",
    "LearnedDetector",
    "NearSpan",
    "document_shape",
    "load_model",
    "token_features",
    "word_tokens",
]

#: A word at least this common (Zipf in the text's language) is taken only above
#: :data:`COMMON_THRESHOLD`: the model took ``hall``, ``street``, ``reading``, ``plan``,
#: ``hub`` where they were words, at 0.6 to 0.86 (``the keys from the hall``, ``driving up
#: from reading``, ``then down the main street``).
COMMON_ZIPF = 4.5
COMMON_THRESHOLD = 0.9
#: A word on no list of names or places at least this common is an ordinary word first, and
#: needs :data:`COMMON_THRESHOLD` too: the second reading's headings, lists and forms
#: (``Annual Safeguarding Policy Update``, ``- Laptops``, ``Department: Logistics``,
#: ``Dietary requirements:``, ``SUBJECT: INVOICE OVERDUE``, ``the barista drew a heart``).
ORDINARY_ZIPF = 3.0

#: The shortest word the detector takes, by language: a letter is the initials' rules'
#: (English); a French particle of two letters is a name's only beside one (``une pizza da
#: mario``, ``de``, ``du``, ``le``: the particles' rules).
_SHORTEST = {"en": 2, "fr": 3}

#: Beside a word that another decision protects as a name, place or organisation, a word
#: is its neighbour's kin where the model gives it more than this (by language: the French
#: model, fitted on a third of the data, took ``chante``, ``parcelle``, ``petit`` beside
#: names at 0.5), whatever its frequency
#: (:class:`NearSpan`; ``CHIP`` of ``PENNINE CHIP TIMING``, ``ANCHOR`` of ``HOPE & ANCHOR``:
#: the other words of a name that a rule found a part of).
NEAR_THRESHOLD = {"en": 0.5, "fr": 0.7}

#: The languages with a packaged model.
MODEL_LANGUAGES: tuple[str, ...] = ("en", "fr")

#: The classes the model tells apart, in the order of its weights' columns.
CLASSES: tuple[str, ...] = ("O", "PERSON", "LOCATION", "ORG")

#: Words at least this common (Zipf) are features by themselves; rarer ones only by their
#: shape, frequency and lists (a name seen in training teaches nothing about another).
_WORD_ZIPF = 4.0
#: The same for a neighbour: ``passenger``, ``thanks``, ``street`` say what comes beside.
_NEIGHBOUR_ZIPF = 3.5
_WINDOW = (-2, -1, 1, 2)
#: At most this many groups' sums are kept between texts.
_CACHE = 1 << 18


def word_tokens(text: str, lang: str = "en") -> list[Token]:
    """The word tokens of ``text`` (:func:`~emprivacy.text.tokens.tokenize` in ``lang``)."""
    return [t for t in tokenize(text, lang=lang) if t.kind == "word"]


def document_shape(text: str) -> str:
    """How ``text`` is written: ``"U"`` (over 60 % of its letters capitals), ``"L"`` (under
    2 %), else ``"M"``.

    >>> document_shape("ok see u at 8"), document_shape("MR HALE: YES."), document_shape("Hi Al")
    ('L', 'U', 'M')
    """
    letters = "".join(filter(str.isalpha, text))
    if not letters:
        return "M"
    upper = sum(map(str.isupper, letters)) / len(letters)
    return "U" if upper > 0.6 else "L" if upper < 0.02 else "M"


def _shape(word: str) -> str:
    if word.isupper() and len(word) > 1:
        return "XX"
    if word[:1].isupper():
        return "Xx"
    return "x" if word.islower() else "o"


@cache
def _lists(lang: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The given names, family names and places' words a word is looked up in: in French
    the French given names (accent-free, with the census' given names)."""
    from emprivacy.entities.name_words import (
        census_given_names,
        family_names,
        french_given_names,
    )
    from emprivacy.entities.vocabulary import place_words

    given = french_given_names() if lang == "fr" else census_given_names()
    return given, family_names(), place_words()


def _zipf(word: str, lang: str) -> float:
    """How common ``word`` is in ``lang`` (``wordfreq`` Zipf)."""
    from emprivacy.entities.name_words import word_zipf, zipf_in

    return word_zipf(word) if lang == "en" else zipf_in(word, lang)


@lru_cache(maxsize=1 << 17)
def _word_features(word: str, lang: str = "en") -> tuple[str, str, str, str, str, bool]:
    """(shape, Zipf bucket, lists, name class, lower case, common) of one surface form."""
    from emprivacy.entities.name_words import census_name_class, name_key
    from emprivacy.text.normalise import fold_to_ascii

    given, family, places = _lists(lang)
    key = name_key(word)
    z = _zipf(word, lang)
    lists = ("g" if key in given or (lang != "en" and fold_to_ascii(key) in given) else "") + (
        "f" if key in family else "") + ("p" if key in places else "")
    return (_shape(word), str(min(int(z * 2), 14)), lists or "-", str(census_name_class(word)),
            word.lower(), z >= _NEIGHBOUR_ZIPF)


def _groups(text: str, tokens: Sequence[Token], lang: str = "en"
            ) -> list[list[tuple[Any, ...]]]:
    """Each token's features as keys of groups (:func:`_group_features` spells them): its
    own word's in the text's shape, its place (a line's start, a colon, ``@``), each
    neighbour's word, and each neighbour's with this word's lists and shape; the fast path
    (:meth:`EntityModel.scores`) sums a group's weights once per text."""
    shape = document_shape(text)
    info = [_word_features(t.text, lang) for t in tokens]
    out = []
    n = len(tokens)
    places = _places(text, tokens)
    for i, tok in enumerate(tokens):
        sh, _, ls, _, _, _ = info[i]
        keys: list[tuple[Any, ...]] = [
            ("own", tok.text, shape),
            ("at", *_PLACES[places[i]])]
        for d in _WINDOW:
            j = i + d
            if not 0 <= j < n:
                keys.append(("none", d))
                continue
            sh2, z2, ls2, cls2, low2, common2 = info[j]
            word = low2 if common2 else None
            keys.append(("nb", d, sh2, z2, ls2, cls2, word))
            keys.append(("pair", d, ls2, ls, word, sh))
        out.append(keys)
    return out


def _group_features(key: tuple[Any, ...], lang: str = "en") -> list[str]:
    """The features of one group of :func:`_groups`."""
    kind = key[0]
    if kind == "own":
        sh, z, ls, cls, low, _ = _word_features(key[1], lang)
        shape = key[2]
        f = [f"sh={sh}", f"z={z}", f"l={ls}", f"c={cls}", f"sh.z={sh}.{z}", f"sh.l={sh}.{ls}",
             f"z.l={z}.{ls}", f"ds={shape}", f"ds.sh={shape}.{sh}", f"ds.z={shape}.{z}",
             f"ds.l.z={shape}.{ls}.{z}", f"ds.c={shape}.{cls}", f"suf={low[-3:]}"]
        if int(z) >= 2 * _WORD_ZIPF:
            f.append(f"w={low}")
        return f
    if kind == "at":
        return [f"start={key[1]}", f"colon={key[2]}", f"at={key[3]}"]
    if kind == "none":
        return [f"{key[1]}none"]
    if kind == "ws":  # the fast path's half of a pair
        return [f"{key[1]}w.sh={key[2]}.{key[3]}"]
    d = key[1]
    if kind == "nb":
        sh2, z2, ls2, cls2, word = key[2:]
        f = [f"{d}sh={sh2}", f"{d}z={z2}", f"{d}l={ls2}", f"{d}c={cls2}",
             f"{d}sh.l.z={sh2}.{ls2}.{z2}"]
        return f if word is None else [*f, f"{d}w={word}"]
    ls2, ls, word, sh = key[2:]
    f = [f"{d}l.l={ls2}.{ls}"]
    return f if word is None else [*f, f"{d}w.sh={word}.{sh}"]


#: The places of a token (a line's start, a colon after it, ``@`` before it), in the order
#: :func:`_places` numbers them.
_PLACES: tuple[tuple[bool, bool, bool], ...] = tuple(
    (a, b, c) for a in (False, True) for b in (False, True) for c in (False, True))


def _places(text: str, tokens: Sequence[Token]) -> np.ndarray:
    """Each token's place as an index into :data:`_PLACES`."""
    out = np.empty(len(tokens), np.intp)
    prev_end = None
    for i, tok in enumerate(tokens):
        gap = text[:tok.start] if prev_end is None else text[prev_end:tok.start]
        line = gap.rfind("\n")
        start = (prev_end is None or line >= 0) and not gap[line + 1:].strip()
        prev_end = tok.end
        out[i] = (4 * start + 2 * (text[tok.end:tok.end + 1] == ":")
                  + (text[tok.start - 1:tok.start] == "@"))
    return out


def token_features(text: str, tokens: Sequence[Token], lang: str = "en") -> list[list[str]]:
    """The features of each word token of ``text`` (see the module's description).

    >>> text = "thanks dana"
    >>> feats = token_features(text, word_tokens(text))
    >>> "sh=x" in feats[1], "-1w=thanks" in feats[1], "l=gfp" in feats[1]  # given, family, place
    (True, True, True)
    """
    return [[f for key in keys for f in _group_features(key, lang)]
            for keys in _groups(text, tokens, lang)]


@dataclass(frozen=True)
class EntityModel:
    """A learned model: feature names, their weights (one column per class of
    :data:`CLASSES`), the biases and the threshold on :math:`1 - P(\\mathrm{O})`.

    Attributes
    ----------
    features : (F,) array of str
    weights : (F, 4) float32 array
    bias : (4,) float64 array
    threshold : float
        In (0, 1).
    lang : str, default "en"
        The language of the texts it was fitted on (its frequencies and lists).
    """

    features: np.ndarray
    weights: np.ndarray
    bias: np.ndarray
    threshold: float
    lang: str = "en"

    def __post_init__(self) -> None:
        if self.weights.shape != (len(self.features), len(CLASSES)):
            raise ValueError(f"weights must have shape ({len(self.features)}, {len(CLASSES)}); "
                             f"got {self.weights.shape}")
        if not (isinstance(self.threshold, float) and 0 < self.threshold < 1):
            raise ValueError(f"threshold must be a number in (0, 1); got {self.threshold!r}")
        object.__setattr__(self, "_index", {f: i for i, f in enumerate(self.features.tolist())})
        object.__setattr__(self, "_cache", {})

    def probabilities(self, features: Sequence[Sequence[str]]) -> np.ndarray:
        """:math:`P(c \\mid t)` for each token's features, shape (len(features), 4)."""
        total = np.empty((len(features), len(CLASSES)))
        for i, feats in enumerate(features):
            total[i] = self.bias + self._sum(feats)
        return _softmax(total)

    def _sum(self, features: Iterable[str]) -> np.ndarray:
        index: dict[str, int] = self._index  # type: ignore[attr-defined]
        rows = [k for f in features if (k := index.get(f)) is not None]
        return self.weights[rows].sum(axis=0, dtype=np.float64)

    def _own_sums(self, keys: Sequence[tuple[str, str]]) -> np.ndarray:
        """:meth:`_sum` of each ``(word, shape)``'s own group, (len(keys), 4): all gathered at
        once and added up in order, as :meth:`_sum` adds one (issue 40, cost)."""
        index: dict[str, int] = self._index  # type: ignore[attr-defined]
        found = [[r for f in _group_features(("own", *key), self.lang)
                  if (r := index.get(f)) is not None] for key in keys]
        group = np.repeat(np.arange(len(keys)), [len(f) for f in found])
        weights = self.weights[[r for f in found for r in f]].astype(np.float64)
        return np.stack([np.bincount(group, weights=weights[:, c], minlength=len(keys))
                         for c in range(weights.shape[1])], axis=1)

    def _cached(self, key: tuple[Any, ...]) -> np.ndarray:
        cache: dict[tuple[Any, ...], np.ndarray] = self._cache  # type: ignore[attr-defined]
        got = cache.get(key)
        if got is None:
            if len(cache) > _CACHE:  # a corpus's words: memory bounded
                cache.clear()
            got = cache[key] = self._sum(_group_features(key, self.lang))
        return got

    def _cached_many(self, keys: Sequence[tuple[Any, ...]]) -> np.ndarray:
        """:meth:`_cached` of each key, stacked: the kept sums looked up at once, only the
        missing ones summed (issue 40, cost: a call per key was a third of the scoring)."""
        cache: dict[tuple[Any, ...], np.ndarray] = self._cache  # type: ignore[attr-defined]
        got = list(map(cache.get, keys))
        for j, value in enumerate(got):
            if value is None:
                got[j] = self._cached(keys[j])
        return np.asarray(got)

    def scores(self, text: str, tokens: Sequence[Token]) -> np.ndarray:
        """:math:`P(c \\mid t)` for each word token of ``text``, shape (len(tokens), 4):
        :meth:`probabilities` of :func:`token_features` (:meth:`scores_many` of one text)."""
        return self.scores_many([(text, tokens)])[0]

    def scores_many(self, pieces: Sequence[tuple[str, Sequence[Token]]]) -> list[np.ndarray]:
        """:meth:`scores` of several texts at once: each group of features (:func:`_groups`)
        summed once per distinct word, the tokens of all the texts added up in arrays (no
        window crosses from one text to the next)."""
        sizes = [len(tokens) for _, tokens in pieces]
        n = sum(sizes)
        if not n:
            return [np.empty((0, len(CLASSES))) for _ in pieces]
        ids: dict[tuple[str, str], int] = {}
        words: list[int] = []
        doc = np.repeat(np.arange(len(pieces)), sizes)
        places = np.concatenate([_places(text, tokens) for text, tokens in pieces])
        for text, tokens in pieces:
            shape = document_shape(text) if tokens else ""
            words += [ids.setdefault((t.text, shape), len(ids)) for t in tokens]
        wid = np.asarray(words, np.intp)
        info = [_word_features(w, self.lang) for w, _ in ids]
        # a word's own group is summed per call, never kept: a text's rare words are its own
        total = self.bias + self._own_sums(list(ids))[wid]
        total += np.asarray([self._cached(("at", *p)) for p in _PLACES])[places]
        lists = sorted({i[2] for i in info})
        shapes = sorted({i[0] for i in info})
        lid = np.asarray([lists.index(i[2]) for i in info])[wid]
        sid = np.asarray([shapes.index(i[0]) for i in info])[wid]
        common = [(k, i[4]) for k, i in enumerate(info) if i[5]]
        for d in _WINDOW:
            there = np.arange(n) + d
            ok = (there >= 0) & (there < n)
            ok[ok] &= doc[there[ok]] == doc[ok]
            total[~ok] += self._cached(("none", d))
            here, there = np.flatnonzero(ok), there[ok]
            nb = self._cached_many([("nb", d, *i[:4], i[4] if i[5] else None) for i in info])
            pair = self._cached_many([("pair", d, a, b, None, "") for a in lists
                                      for b in lists]).reshape(len(lists), len(lists), -1)
            said = np.zeros((len(ids), len(shapes), len(CLASSES)))
            if common:  # a common neighbour's word with this word's shape
                said[[k for k, _ in common]] = self._cached_many(
                    [("ws", d, low, sh) for _, low in common for sh in shapes]
                ).reshape(len(common), len(shapes), -1)
            total[here] += nb[wid[there]] + pair[lid[there], lid[here]] + said[wid[there],
                                                                                 sid[here]]
        return np.split(_softmax(total), np.cumsum(sizes)[:-1])

    def save(self) -> bytes:
        """The model as ``.npz`` bytes (:func:`load_model` reads them)."""
        buffer = BytesIO()
        np.savez_compressed(buffer, features=self.features.astype(str),
                            weights=self.weights.astype(np.float32), bias=self.bias,
                            threshold=np.array(self.threshold), lang=np.array(self.lang))
        return buffer.getvalue()

    @classmethod
    def from_bytes(cls, data: bytes) -> EntityModel:
        """The model saved by :meth:`save`."""
        with np.load(BytesIO(data), allow_pickle=False) as z:
            lang = str(z["lang"]) if "lang" in z.files else "en"
            return cls(z["features"], z["weights"], z["bias"], float(z["threshold"]), lang)


def _softmax(total: np.ndarray) -> np.ndarray:
    """Each row of logits as probabilities (in place)."""
    total -= total.max(axis=1, keepdims=True)
    np.exp(total, out=total)
    total /= total.sum(axis=1, keepdims=True)
    return total


@cache
def load_model(lang: str = "en") -> EntityModel:
    """The packaged model of ``lang`` (``data/entity-model-<lang>.npz``): English and French
    (``ValueError`` for another language)."""
    if lang not in MODEL_LANGUAGES:
        known = ", ".join(map(repr, MODEL_LANGUAGES))
        raise ValueError(f"the learned detector has a model for {known} only; got {lang!r}")
    data = files("emprivacy").joinpath("data", f"entity-model-{lang}.npz").read_bytes()
    return EntityModel.from_bytes(data)


@dataclass(frozen=True, slots=True, order=False)
class NearSpan(EntitySpan):
    """A word the model takes only beside a protected name, place or organisation word
    (:data:`NEAR_THRESHOLD`): :mod:`~emprivacy.preparation.learned_gaps` fills it only
    there; ``score`` is :math:`1 - P(\\mathrm{O})`.  Order such spans with
    :data:`~emprivacy.entities.spans.SPAN_ORDER`."""

    score: float = 0.0


class LearnedDetector:
    """Entities by the learned model (see the module's description): a word whose
    :math:`1 - P(\\mathrm{O})` exceeds the model's threshold is one span of its likeliest
    type.  Needs the ``ner`` extra (the name lists and ``wordfreq``).

    Parameters
    ----------
    model : EntityModel, optional
        Default: the packaged English model (:func:`load_model`).
    lang : str, default "en"
        The packaged model's language (without ``model``).
    beside : bool, default False
        Also return, as :class:`NearSpan`, the words over :data:`NEAR_THRESHOLD` that the
        thresholds above leave out (what a union fills beside a protected word).
    """

    name = "learned"
    types = frozenset({"PERSON", "LOCATION", "ORG"})
    #: In a union, its spans count only where no other detector's span lies.
    fills_gaps = True

    def __init__(self, model: EntityModel | None = None, *, lang: str = "en",
                 beside: bool = False) -> None:
        if not isinstance(beside, bool):
            raise TypeError(f"beside must be a bool; got {type(beside).__name__}")
        self.beside = beside
        if model is not None and not isinstance(model, EntityModel):
            raise TypeError(f"model must be an EntityModel; got {type(model).__name__}")
        if model is None and lang not in MODEL_LANGUAGES:
            load_model(lang)  # the one-line error
        self._model = model
        self.lang = model.lang if model is not None else lang

    def __repr__(self) -> str:
        return "LearnedDetector()" if self.lang == "en" else f"LearnedDetector(lang={self.lang!r})"

    @property
    def model(self) -> EntityModel:
        """The model in use."""
        if self._model is None:
            self._model = load_model(self.lang)
        return self._model

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        model = self.model
        language = get_language(self.lang)  # the words the union's other detectors read too
        pieces = [(text, text_words(text, language).words) for text in check_texts(texts)]
        shortest = _SHORTEST.get(self.lang, 2)
        low = (min(NEAR_THRESHOLD.get(self.lang, 0.5), model.threshold) if self.beside
               else model.threshold)
        out = []
        for (_, tokens), p in zip(pieces, model.scores_many(pieces), strict=True):
            kinds = p[:, 1:].argmax(axis=1) + 1
            found: list[EntitySpan] = []
            for t, k, q in zip(tokens, kinds, 1 - p[:, 0], strict=True):
                if q <= low or len(t.text) < shortest or not latin_letters(t.text):
                    continue  # a letter: the initials' rules; another script: the
                    # mechanism's ([UNK]), not a name's (the lists and labelled texts are Latin)
                sure = q > model.threshold and (q > COMMON_THRESHOLD or not self._ordinary(t.text))
                if sure or self.beside:
                    found.append(EntitySpan(t.start, t.end, CLASSES[k]) if sure
                                 else NearSpan(t.start, t.end, CLASSES[k], float(q)))
            out.append(found)
        return out

    def _ordinary(self, word: str) -> bool:
        """Whether ``word`` needs :data:`COMMON_THRESHOLD`: Zipf :data:`COMMON_ZIPF` or more,
        or :data:`ORDINARY_ZIPF` or more and on no list of names or places."""
        z = _zipf(word, self.lang)
        return z >= COMMON_ZIPF or (z >= ORDINARY_ZIPF
                                    and _word_features(word, self.lang)[2] == "-")
