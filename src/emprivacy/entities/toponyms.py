"""Places named by a hyphenated compound with a linking word inside: French
``Notre-Dame-de-la-Mer``, ``Saint-Aulis-de-la-Clède``, ``Châlons-sur-Marne``,
``villeneuve-lès-avignon`` (issue 42, the thirty-eighth stage: places and organisations).

French writes a commune's, a parish's or a chapel's name as one hyphenated word with its
linking words inside, and a common noun so only in a few fixed compounds (``rez-de-chaussée``,
``arc-en-ciel``, ``eau-de-vie``: :data:`COMMON_COMPOUNDS`; the frequency lists split a
hyphenated word, so they cannot tell) and an imperative with its pronouns (``dites-le-moi``).
A hyphenated word of three parts or more, one of them inside a linking word of the language
(``de``, ``la``, ``sur``, ``lès``, or an elision ``d'``, ``l'`` before the next part's
letters), no digit, no pronoun as its last part and none of those compounds, is a
``LOCATION`` span, in any case: in a chat in lower case (``la chapelle
notre-dame-de-la-mer``) no detector took it, nor in a table's cell; and its word is a name by
its form (:func:`toponym`), never released at the general ε as an ordinary lower-case
word.  Detection is pre-processing, outside the guarantee.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from emprivacy.entities.name_words import french_family_names, zipf_in
from emprivacy.entities.spans import EntitySpan
from emprivacy.exceptions import MissingExtraError

__all__ = ["COMMON_COMPOUNDS", "PLURAL_PLACE_ZIPF", "RARE_PART_ZIPF", "linked_toponyms",
           "plural_place", "saints_compound", "toponym"]

#: The French common nouns written as a hyphenated word of three parts or more with a
#: linking word inside (singular and plural): no place's name.
COMMON_COMPOUNDS = frozenset(
    "rez-de-chaussée rez-de-jardin arc-en-ciel arcs-en-ciel eau-de-vie eaux-de-vie "
    "cul-de-sac culs-de-sac pot-de-vin pots-de-vin pomme-de-terre pommes-de-terre "
    "mont-de-piété monts-de-piété boute-en-train pied-de-biche pieds-de-biche pet-de-nonne "
    "pets-de-nonne belle-de-jour belle-de-nuit croc-en-jambe crocs-en-jambe pied-de-poule "
    "pied-de-nez pieds-de-nez chef-d'œuvre chefs-d'œuvre hors-d'œuvre main-d'œuvre "
    "trompe-l'œil eau-de-rose eau-de-cologne haut-de-chausses haut-de-forme hauts-de-forme "
    "porte-à-faux pot-au-feu vol-au-vent tête-à-queue bain-de-bouche œil-de-bœuf "
    "œils-de-bœuf gueule-de-loup langue-de-chat langues-de-chat coq-à-l'âne "
    "va-et-vient sur-le-champ cessez-le-feu hors-la-loi prise-en-charge prises-en-charge "
    "tire-au-flanc meurt-de-faim clés-en-main clé-en-main trompe-la-mort contre-la-montre "
    "mise-en-scène mises-en-scène mise-en-plis pied-à-terre garde-à-vous".split())
#: The first parts of a place's name in lower case whose other parts may all be words
#: (``notre-dame-de-la-mer``, ``saint-aubin-des-prés``): in a lower-case text a compound
#: of common words only is taken only after one of them (the stage's review: ``sur-le-champ``,
#: ``meurt-de-faim``, ``mets-le-là`` in a chat).
_PLACE_STARTS = frozenset("saint sainte st ste notre mont port pont bourg villeneuve "
                          "châteauneuf".split())
#: In lower case, a part rarer than this (Zipf, in the language) makes a compound a place's
#: name (``orbigny-la-forêt``).
RARE_PART_ZIPF = 3.0
#: Pronouns that end an imperative with its pronouns (``dites-le-moi``, ``rends-la-lui``,
#: ``allez-vous-en``).
_PRONOUNS = frozenset("moi toi lui leur nous vous y en le la les".split())

#: A hyphenated word of three parts or more (letters, an elision inside a part).
_COMPOUND = re.compile(r"(?<![\w'’-])[^\W\d_]+(?:['’][^\W\d_]+)?"
                       r"(?:-[^\W\d_]+(?:['’][^\W\d_]+)?){2,}(?![\w'’-])")
#: An elided linking word at a part's start: ``d'`` of ``Saint-Jean-d'Angély``.
_ELIDED = re.compile(r"\A[dlDL]['’]")


def linked_toponyms(text: str, *, links: frozenset[str],
                    zipf: Callable[[str], float] | None = None) -> list[EntitySpan]:
    """``LOCATION`` spans of the hyphenated place names of ``text`` (see the module's
    description): ``links`` are the language's linking words, ``zipf(word)`` a word's
    frequency in the language (for a compound in lower case: :func:`toponym`).

    >>> links = frozenset({"de", "la", "le", "sur", "lès", "en"})
    >>> text = ("à la chapelle notre-dame-de-la-mer, au rez-de-chaussée, à Châlons-sur-Marne, "
    ...         "dites-le-moi")
    >>> [text[s.start:s.end] for s in linked_toponyms(text, links=links)]
    ['notre-dame-de-la-mer', 'Châlons-sur-Marne']
    """
    if text.count("-") < 2:
        return []
    return [EntitySpan(m.start(), m.end(), "LOCATION") for m in _COMPOUND.finditer(text)
            if toponym(m.group(), links=links, zipf=zipf)]


def toponym(word: str, *, links: frozenset[str],
            zipf: Callable[[str], float] | None = None) -> bool:
    """Whether ``word`` is a hyphenated place name by its form (see the module's
    description; ``links``: the language's linking words).  In lower case its first part is
    one of :data:`_PLACE_STARTS` or one of its parts that is no linking word is rarer than
    :data:`RARE_PART_ZIPF` by ``zipf`` (none: no compound of lower-case words is a place):
    ``notre-dame-de-la-mer``, ``orbigny-la-forêt``; not ``sur-le-champ``, ``mets-le-là``.

    >>> links = frozenset({"de", "la", "le"})
    >>> [toponym(w, links=links) for w in ("Saint-Jean-de-Luz", "cul-de-sac", "dis-le-moi")]
    [True, False, False]
    """
    if word.count("-") < 2 or _COMPOUND.fullmatch(word) is None:
        return False
    parts = word.lower().replace("’", "'").split("-")
    if not ((any(p in links or _ELIDED.match(p) for p in parts[1:-1])
             or _ELIDED.match(parts[-1]) is not None)
            and parts[-1] not in _PRONOUNS and "-".join(parts) not in COMMON_COMPOUNDS):
        return False
    if not word.islower():
        return True
    return parts[0] in _PLACE_STARTS or (zipf is not None and any(
        zipf(p) < RARE_PART_ZIPF for p in parts if p not in links and not _ELIDED.match(p)))


#: The first parts of a hyphenated name that make it a place's (a commune's, a farmstead's)
#: whatever a detector typed it.
_COMPOUND_FIRSTS = frozenset({"saint", "sainte", "mas"})


def saints_compound(word: str) -> bool:
    """Whether ``word`` is a hyphenated name whose first part is ``saint``, ``sainte`` or
    ``mas`` (``Saint-Désiré``, ``mas-constant``: a commune's or a farmstead's name after a
    kind, ``l'harmonie de Saint-Désiré``, ``la manade du Mas-Constant``; issue 42, the
    fortieth French set's tuning half).

    >>> [saints_compound(w) for w in ("Saint-Désiré", "mas-constant", "Jean-Baptiste", "saint")]
    [True, True, False, False]
    """
    first, dash, rest = word.lower().partition("-")
    return bool(dash and rest) and first in _COMPOUND_FIRSTS


#: A French plural rarer than this as a word (Zipf) may be a place's name after ``des``.
PLURAL_PLACE_ZIPF = 3.5


def plural_place(word: str) -> bool:
    """Whether ``word``, after ``des``, names a place and no family: a French plural (``-s``,
    ``-x``) rare as a word (Zipf below :data:`PLURAL_PLACE_ZIPF`) and no family name of the
    French list (``le plan des sagnes``; not ``la ferme des dumas``, ``des leroux``, nor ``la
    salle des fêtes``: issue 42, the fortieth stage's review); ``False`` without the lists."""
    if not word.endswith(("s", "x")):
        return False
    try:
        return zipf_in(word, "fr") < PLURAL_PLACE_ZIPF and word not in french_family_names()
    except MissingExtraError:
        return False
