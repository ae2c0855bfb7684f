"""Ordinary words of a language other than English on a line written in capitals.

A register, a notice or a form in capitals shows no name by its capitals: every word has
them.  English has its own rules for such lines (the spaCy spans of common English words
dropped, :mod:`~emprivacy.entities.spacy_detector`; ``A FARMER``,
:func:`~emprivacy.entities.names.ordinary_in_capitals`).  In French none applied: English
frequencies say nothing of French words, so a French register of 1911 in capitals lost most
of its words to name slots (``M LE MAIRE EXPOSE AU CONSEIL QUE LES JEUX TAURINS`` → ``LE``,
``MAIRE``, ``LES`` … person slots, and ``LE`` replaced by a surrogate at every mention of the
document; issue 42, the fortieth French set).

Here a word on such a line is ordinary when it is a function word of the language (not a
particle before or after a listed or rare word, nor after ``DIT`` or a title: ``LE GALL``,
``YVES LE BRAS``, ``DIT LE ROUGE``, ``M. LE DOUX``), or at least Zipf
:data:`ORDINARY_CAPITALS_ZIPF` in the language, rarer than :data:`FOREIGN_ZIPF` in English,
on no list of names nor of places (:data:`FRENCH_PLACES` too), not beside a listed given
name (``AIMÉ PÂQUES``, ``PÂQUES MARIE``) nor after a name's particle that follows a given
name or a title (``YVON LE BORGNE``, ``MME DES PRÉS``), and more than one letter; a kind
after a title and an article (``M LE MAIRE``, ``MME LA DIRECTRICE``) is a kind whatever the
lists hold (Maire is also a family name).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache
from itertools import accumulate

from emprivacy.entities.french_chat import folded
from emprivacy.entities.french_cues import TITLE_KINDS
from emprivacy.entities.name_words import (
    family_names,
    french_family_names,
    french_given_names,
    french_given_raw,
    given_names,
    listed_given_name,
    name_key,
    zipf_in,
)
from emprivacy.entities.spans import EntitySpan
from emprivacy.entities.vocabulary import own_places, place_words
from emprivacy.exceptions import MissingExtraError
from emprivacy.text.language import get_language

__all__ = ["ACCENTED_NAME_ZIPF", "FRENCH_PLACES", "ORDINARY_CAPITALS_ZIPF",
           "drop_ordinary_in_capitals", "line_in_capitals", "on_name_lists",
           "ordinary_in_capitals_of"]

#: On a line in capitals, a word at least this common in its language (Zipf), on no list of
#: names nor of places, is an ordinary word (``ARÈNES`` 3.3, ``DÉLIBÉRÉ`` 3.4, ``SUBVENTION``
#: 3.9; not ``SAGNES`` 1.6 nor ``VISTRE`` 1.4, names of places no list holds).
ORDINARY_CAPITALS_ZIPF = 3.0

#: ... and rarer than this in English (Zipf): names of people and places are written in
#: English text too (``DIALLO`` 2.4, ``ITALIE`` 1.9 there), a language's own words seldom
#: (``ARÈNES`` 0, ``DÉLIBÉRÉ`` 0, ``SUBVENTION`` 1.7).
FOREIGN_ZIPF = 1.9

#: A French word with an accent that folds to a census given name is the name below this
#: Zipf frequency in French (``joséphine`` 3.5, ``michaël`` 3.3, ``zoë`` 2.1), the word above
#: it (``signé`` 4.6, ``gagné`` 4.8, ``chanté`` 3.9, ``gêné`` 3.7).
ACCENTED_NAME_ZIPF = 3.6

#: French names of places that English text seldom writes and no list here holds: the
#: départements, the regions and provinces, the countries (``data/places-fr.txt``,
#: :func:`~emprivacy.entities.vocabulary.own_places`; ``ALLEMAGNE``, ``(CANTAL)``, ``EN
#: PICARDIE``, ``FINISTÈRE`` of a register in capitals stay places).
FRENCH_PLACES: frozenset[str] = own_places("fr")[0]

_ARTICLES = frozenset({"le", "la", "l'", "les"})
#: What comes before a nickname (``PIERRE PINOT DIT LE ROUGE``) or a family's name (``LA
#: FAMILLE PÂQUES``, ``VEUVE BERGER``, ``NÉE ROUX``).
_NICKNAMED = frozenset({"dit", "dite", "famille", "familles", "veuve", "vve", "épouse",
                        "époux", "née", "fils", "fille", "frères", "sœurs", "héritiers"})
_WORD = re.compile(r"\w+'|[^\s']+")  # "D'" and "ALLEMAGNE" of "D'ALLEMAGNE", as tokens
#: The particles of family names (``LE GALL``, ``D'ARTOIS``, ``DE LA VILLETTE``).
_PARTICLES = frozenset({"le", "la", "les", "de", "du", "des", "d'", "l'"})


def on_name_lists(word: str, lang: str) -> bool:
    """Whether a list of names holds ``word`` (each part of a hyphenated one): the census'
    given names, and the language's own (French given names as written or without accents,
    French family names); the census' family names in a language without its own (they
    hold French words: ``amis``, ``bonjour``).  In French a word with a letter beyond ASCII
    that folds to a census given name is one only where French writes it seldom (under
    :data:`ACCENTED_NAME_ZIPF`: ``joséphine``, ``zoë``) or a French list holds it as written
    (``rené``, ``zoé``); not ``signé`` (Zipf 4.6), the census' Signe, nor ``gagné``.

    >>> on_name_lists("signé", "fr"), on_name_lists("rené", "fr"), on_name_lists("signe", "fr")
    (False, True, True)
    """
    parts = [part for part in word.split("-") if part] or [word]
    given, family = given_names(), family_names()
    french = get_language(lang).code == "fr"
    for part in parts:
        key = name_key(part)
        if key in given or (not french and key in family):
            continue  # the census is ASCII: an accented word is looked up folded, below
        if french and (part in french_given_raw() or part in french_family_names() or (
                (part.isascii() or zipf_in(part, "fr") < ACCENTED_NAME_ZIPF)
                and (folded(part) in french_given_names(with_family_names=True)
                     or folded(part) in french_family_names()))):
            continue  # GWENAEL typed without its accents, JOSÉPHINE rare as a word; not SIGNÉ
        return False
    return True


def line_in_capitals(text: str, pos: int) -> bool:
    """Whether the line of ``text`` that holds position ``pos`` has letters, all capitals.

    >>> line_in_capitals("Le maire\\nLE CONSEIL DÉLIBÈRE, 12 VOIX", 12)
    True
    >>> line_in_capitals("Le maire\\nLE CONSEIL DÉLIBÈRE, 12 VOIX", 2)
    False
    """
    starts, upper = _capital_lines(text)
    return upper[bisect_right(starts, pos) - 1]


@lru_cache(maxsize=8)
def _capital_lines(text: str) -> tuple[list[int], list[bool]]:
    """Each line's start and whether it is in capitals: one pass per text, not one scan of
    the line per word asked about (a long line in capitals asks for each of its words)."""
    lines = text.split("\n")
    starts = list(accumulate((len(line) + 1 for line in lines[:-1]), initial=0))
    return starts, [line.isupper() for line in lines]


@lru_cache(maxsize=1 << 16)
def _ordinary(word: str, lang: str) -> bool:
    language = get_language(lang)
    if word in language.kept_function_words:
        return True
    try:
        return (zipf_in(word, language.wordfreq_code) >= ORDINARY_CAPITALS_ZIPF
                and zipf_in(word, "en") < FOREIGN_ZIPF
                and not on_name_lists(word, lang) and word not in place_words()
                and word not in FRENCH_PLACES)
    except MissingExtraError:
        return False


@lru_cache(maxsize=1 << 16)
def _name_word(word: str, lang: str) -> bool:
    """Whether ``word`` may be a name after a particle: listed, or rare in ``lang``."""
    if word in TITLE_KINDS or word in get_language(lang).kept_function_words:
        return False
    try:
        return on_name_lists(word, lang) or zipf_in(
            word, get_language(lang).wordfreq_code) < ORDINARY_CAPITALS_ZIPF
    except MissingExtraError:
        return False


def _given(word: str, lang: str) -> bool:
    """Whether ``word`` is a given name of the lists (no function word, no initial)."""
    return (len(word) > 1 and word not in get_language(lang).kept_function_words
            and word not in TITLE_KINDS and listed_given_name(word, lang=lang))


def ordinary_in_capitals_of(lang: str, forms: Sequence[str], i: int, text: str,
                            start: int) -> bool:
    """Whether word ``i`` of ``forms`` (lower case), at ``start`` of ``text``, is an
    ordinary word of ``lang`` on a line in capitals (see the module); never in English.

    >>> text = "M LE MAIRE EXPOSE QUE LES ARÈNES DU PLAN DES SAGNES"
    >>> forms = text.lower().split()
    >>> starts = [text.index(w) for w in text.split()]
    >>> [w for i, w in enumerate(forms) if ordinary_in_capitals_of("fr", forms, i, text,
    ...                                                           starts[i])]
    ['le', 'maire', 'que', 'les', 'arènes', 'du']
    """
    if get_language(lang).code == "en" or not line_in_capitals(text, start):
        return False
    word = forms[i]
    if len(word) == 1:  # an initial: "F COLLOMB", "H OUATTARA"
        return False
    after = [f for f in forms[i + 1:i + 3] if f[:1].isalpha()][:1]
    before = [f for f in forms[max(0, i - 4):i] if f[:1].isalpha()]  # "M. LE MAIRE"
    if word in TITLE_KINDS and before[-2:-1] and before[-1] in _ARTICLES \
            and before[-2] in get_language(lang).titles:
        return True  # "M LE MAIRE": the mayor, whatever the lists say of Maire
    titles = get_language(lang).titles
    if word in _PARTICLES and after and (_name_word(after[0], lang) or (before and (
            before[-1] in _NICKNAMED or _name_word(before[-1], lang)
            or (before[-1] in titles and after[0] not in TITLE_KINDS)))):
        return False  # "LE GALL", "YVES LE BRAS", "DIT LE ROUGE", "M. LE DOUX": a name's
    lead = before
    while lead and lead[-1] in _PARTICLES:
        lead = lead[:-1]
    if len(lead) < len(before) and lead and (
            lead[-1] in titles or lead[-1] in _NICKNAMED or _given(lead[-1], lang)):
        return False  # "YVON LE BORGNE", "MME DES PRÉS", "M. DE LA FORÊT": a name
    if after and _given(after[0], lang):
        return False  # "PÂQUES MARIE": a family name before a given name
    if before and (_given(before[-1], lang) or before[-1] in _NICKNAMED):
        return False  # "AIMÉ PÂQUES", "LA FAMILLE PÂQUES": a family name, maybe
    return _ordinary(word, lang)


def drop_ordinary_in_capitals(text: str, spans: Sequence[EntitySpan],
                              lang: str) -> list[EntitySpan]:
    """``spans`` less the organisations' on a line in capitals whose words are all ordinary
    words of ``lang`` (:func:`ordinary_in_capitals_of`): a model trained on edited text tags
    them at random in capitals (``LES ARÈNES``, ``DÉLIBÉRÉ`` typed organisations).  People's
    and places' spans stay (``ALLEMAGNE``, which no list here holds).

    >>> text = "LES ARÈNES ; A DÉLIBÉRÉ ; M FABRE"
    >>> spans = [EntitySpan(0, 10, "ORG"), EntitySpan(15, 23, "ORG"), EntitySpan(26, 33, "PERSON")]
    >>> [text[s.start:s.end] for s in drop_ordinary_in_capitals(text, spans, "fr")]
    ['M FABRE']
    """
    kept = []
    for span in spans:
        if span.type != "ORG" or "\n" in text[span.start:span.end] \
                or not line_in_capitals(text, span.start):
            kept.append(span)
            continue
        # each word read in its line (``FIDÈLE`` of ``FIDÈLE LOUIS``: before a given name)
        line_start = text.rfind("\n", 0, span.start) + 1
        line_end = text.find("\n", span.start)
        line = text[line_start:len(text) if line_end < 0 else line_end].replace("’", "'")
        found = [(line_start + m.start(), line_start + m.end(),
                  m.group().strip(".,:;()/&«»").lower()) for m in _WORD.finditer(line)]
        forms = [f for _, _, f in found]
        inside = [k for k, (at, end, f) in enumerate(found)
                  if f and at < span.end and end > span.start]  # every word it touches
        if not inside or not all(ordinary_in_capitals_of(lang, forms, k, text, found[k][0])
                                 for k in inside):
            kept.append(span)
    return kept
