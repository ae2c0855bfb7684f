"""Places by the public list where no capital shows them: ``driving up from fresno``,
``ring aunty pat in telford``, ``LIVES IN TELFORD``, ``st anselms``.

A model and the capital-letter detector find places by their capital; in lower-case chats,
transcribed speech and ALL-CAPS forms there is none.  :class:`PlaceListDetector`, part of the
``names`` detector (with :class:`~emprivacy.entities.names.NameListDetector`; a word both
detectors take is a person's, :data:`~emprivacy.entities.spans.TYPE_PRIORITY`) looks a word
up in the place list of
the ``LOCATION`` sub-vocabulary (GeoNames, :func:`~emprivacy.entities.vocabulary.place_words`)
and asks how common it is as an English word (:func:`~emprivacy.entities.name_words.word_zipf`):

* a listed word in lower case or ALL CAPS rarer than :data:`PLACE_RARE` is a place
  (``fresno``, ``telford``, ``tenerife``, ``portishead``) — ``reading``, ``nice``, ``hope``,
  ``mobile`` are far more common as words and stay ordinary words;
* a listed word after a preposition of place (``in``, ``from``, ``to``, ``near``, …) or
  after a street's designator and a comma (an address's town: ``Cowley Road, oxford``) is a
  place up to :data:`PLACE_AFTER_PREPOSITION` (``in paris``, ``from leeds``; not ``in
  reading``, ``to york`` aside, which the list's commonest words leave alone);
* a place's name typed without its accents after such a preposition, four letters or more,
  rarer than :data:`FOLDED_RARE` (``they are from krakow``; not ``the head honcho``);
* an English county by its form: a word of eight letters or more that ends in ``shire``
  (``in staffordshire``, ``LEICESTERSHIRE``: GeoNames lists towns, not counties; the
  thirty-ninth English set's tuning half), not before a dish's or a breed's word
  (``worcestershire sauce``, ``staffordshire bull terrier``);
* ``st`` or ``saint`` before a rare word or a listed name is part of a place's name
  (``st anselms``, ``st jude``);
* a street by its form, whatever its words: a house number, a word and a street's
  designator (``9 mill row``, ``14 chapel street``), or a preposition of place, a word and
  one of :data:`STREETS` (``on chapel street``, ``off canal row``; not ``the street``).

Title-case words are left to the model and the capital-letter detector.  In French
(``PlaceListDetector(lang="fr")``, part of the French ``names`` detector) the frequencies are
French ones (``wordfreq``'s ``"fr"``), the function words French (and the kinds of
``entity-words-fr.txt``: ``CHU`` is no town), the prepositions of place those of
``entity-words-fr.txt`` (``à``, ``au``, ``de``, ``depuis``, ``vers``, …, not ``en``: *en
avion*, *en mission*; :func:`~emprivacy.entities.kinds.entity_words`), the list only the
places' whole one-word names (:func:`~emprivacy.entities.vocabulary.place_names`: so many
words of names are French words, ``gare``, ``repos``, ``gaz``) and the limit after a
preposition :data:`PLACE_AFTER_PREPOSITION_FR`: a French town's name is a common French
word (``grenoble`` 4.25, ``nantes`` 4.56), but so are the towns ``bar`` (4.64, ``au bar``),
``orange`` (4.60) and ``tours`` (4.60).  Like every detector this is pre-processing,
outside the guarantee; docs/ENTITIES.md and docs/LANGUAGES.md measure it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from emprivacy.entities.designator_words import STREET_DESIGNATORS
from emprivacy.entities.kinds import entity_words
from emprivacy.entities.lands import with_lands
from emprivacy.entities.name_words import (
    listed_given_name,
    word_zipf,
    zipf_in,
)
from emprivacy.entities.spans import SPAN_ORDER, EntitySpan, check_texts
from emprivacy.entities.vocabulary import (
    folded_place_words,
    own_places,
    place_names,
    place_words,
)
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["FOLDED_RARE", "PLACE_AFTER_PREPOSITION", "PLACE_AFTER_PREPOSITION_FR", "PLACE_RARE",
           "STREETS", "TOWN_JOINS", "PlaceListDetector", "place_spans", "street_spans",
           "town_spans"]

#: A listed place word rarer than this (Zipf frequency) is a place in any context.
PLACE_RARE = 3.5
#: A place's name typed without its accents (``krakow``) is a place rarer than this (four
#: letters or more: ``vac``, ``nuh`` are a chat's words).
FOLDED_RARE = 3.0
#: A listed place word after a preposition of place is a place up to this Zipf frequency.
PLACE_AFTER_PREPOSITION = 5.0
#: The same limit in French, in French frequencies (see the module's description).
PLACE_AFTER_PREPOSITION_FR = 4.5
_PREPOSITIONS = frozenset(
    "in at from to near outside around via into towards toward past through round "
    "nr".split())
_SAINTS = frozenset({"st", "saint"})
#: The fewest letters of a county's name by its ``shire`` (``fifeshire``; not ``shire``).
#: Not before these: a dish, a breed, a sauce named after the county (the thirty-ninth
#: stage's review: ``worcestershire sauce``, ``staffordshire bull terrier``, ``lancashire
#: hotpot``).
_SHIRE_THINGS = frozenset(
    "sauce sauces bull terrier terriers hotpot pudding puddings cheese cheeses tea ham cat "
    "bacon sausage sausages pie pies parkin pig pigs spot rose roses blue day".split())
_SHIRE_LENGTH = 8
#: The street designators that make a street after a preposition and any word.
STREETS = frozenset("street road lane avenue row terrace crescent mews parade boulevard "
                    "close drive grove gardens court walk hill rise".split())
#: After ``close`` these make it the adjective (``at home close to the shops``).
_CLOSE_TO = re.compile(r"[ \t]+(?:to|by|enough|up|call|friends?)(?![\w'’-])")
_HOUSE_NUMBER = re.compile(r"(?<![\w.,/-])\d{1,4}[a-z]?[ \t]+\Z", re.IGNORECASE)
_WORD = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")


def place_spans(words: Sequence[Token], forms: Sequence[str], text: str, *,
                places: frozenset[str], zipf: Callable[[str], float],
                function_words: frozenset[str], prepositions: frozenset[str] = _PREPOSITIONS,
                after_limit: float = PLACE_AFTER_PREPOSITION,
                street_words: frozenset[str] = frozenset(),
                after_only: frozenset[str] = frozenset(),
                sure: frozenset[str] = frozenset(),
                after_only_prepositions: frozenset[str] | None = None) -> list[EntitySpan]:
    """``LOCATION`` spans of the lower-case and ALL-CAPS words of ``words`` (their
    normalised ``forms``) that the place list and ``zipf`` say are places (see the
    module's description); ``function_words`` are never places; after one of
    ``prepositions`` a listed word is a place up to ``after_limit``, and so it is after one
    of ``street_words`` and a comma (an address's town: ``Cowley Road, oxford``); a word of
    ``after_only`` is a place only there (with ``after_only_prepositions``, only right after
    one of those, however common: ``vers le nord`` is no place, ``à la somme`` is none,
    ``vers somme`` is); a word of ``sure`` is a place wherever it is, however common (a
    French country or region: ``de roumanie``, ``en bourgogne``).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "driving up from fresno, not reading. in paris at st anselms"
    >>> words = [t for t in tokenize(text) if t.kind == "word"]
    >>> freq = {"fresno": 3.4, "reading": 5.1, "paris": 4.8, "anselms": 0.0}
    >>> spans = place_spans(words, [w.text for w in words], text,
    ...                     places=frozenset({"fresno", "reading", "paris"}),
    ...                     zipf=lambda w: freq.get(w, 6.0), function_words=frozenset())
    >>> [text[s.start:s.end] for s in spans]
    ['fresno', 'paris', 'st anselms']
    """
    out: list[EntitySpan] = []
    for i, tok in enumerate(words):
        form = forms[i]
        if not (tok.text.islower() or tok.text.isupper()) or form in function_words:
            continue
        if form in _SAINTS and i + 1 < len(words) and text[tok.end:words[i + 1].start] in (
                " ", ". ") and (words[i + 1].text.islower() or words[i + 1].text.isupper()) \
                and zipf(forms[i + 1]) < PLACE_RARE:
            out.append(EntitySpan(tok.start, words[i + 1].end, "LOCATION"))
            continue
        if form in sure:
            if not _family_particle(words, forms, i, text):
                out.append(EntitySpan(tok.start, tok.end, "LOCATION"))
            continue
        listed = form in places
        if not (listed or form in after_only) or len(form) < 3:
            continue
        if not listed and after_only_prepositions is not None:
            if i > 0 and forms[i - 1] in after_only_prepositions \
                    and text[words[i - 1].end:tok.start].strip(" \t") == "":
                out.append(EntitySpan(tok.start, tok.end, "LOCATION"))
            continue
        gap = text[words[i - 1].end:tok.start] if i else ""
        after = i > 0 and ((forms[i - 1] in prepositions and gap.strip(" \t") == "") or (
            forms[i - 1] in street_words and gap.strip(" \t") == ","))
        if not listed and not after:
            continue  # a place's name typed without accents: only after a preposition
        limit = after_limit if after else PLACE_RARE
        if zipf(form) < limit:
            out.append(EntitySpan(tok.start, tok.end, "LOCATION"))
    return out


@cache
def _folded_places() -> frozenset[str]:
    """The places' names typed without their accents
    (:func:`~emprivacy.entities.vocabulary.folded_place_words`) rarer than
    :data:`FOLDED_RARE`, of four letters or more — ``krakow``, ``gdansk``, ``bogota``; not
    ``lieu``, ``bank`` nor ``vac``: places only after a preposition of place (``from
    krakow``; not ``the head honcho``, ``was awash with``, English words that are such
    forms too)."""
    return frozenset(w for w in folded_place_words()
                     if len(w) >= 4 and word_zipf(w) < FOLDED_RARE)


class PlaceListDetector:
    """Places by the public list in lower-case and ALL-CAPS text (see the module's
    description): :data:`LOCATION` spans; ``lang="fr"`` for French text.

    >>> text = "driving up from fresno, reading is fine. LIVES IN TELFORD"
    >>> [text[s.start:s.end] for s in PlaceListDetector().detect([text])[0]]
    ['fresno', 'TELFORD']
    >>> text = "je rentre de grenoble, un verre au bar, puis à annecy"
    >>> [text[s.start:s.end] for s in PlaceListDetector(lang="fr").detect([text])[0]]
    ['grenoble', 'annecy']
    """

    name = "places"
    types = frozenset({"LOCATION"})

    def __init__(self, lang: str = "en") -> None:
        self.lang = get_language(lang).code

    def __repr__(self) -> str:
        return ("PlaceListDetector()" if self.lang == "en"
                else f"PlaceListDetector(lang={self.lang!r})")

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        own, also_words = own_places(self.lang)
        places = place_words() if self.lang == "en" else place_names()
        options = self._options()
        options["sure"] = own - also_words
        if also_words:  # "vers somme", not "la somme", "un verre de champagne"
            options["after_only"] = options.get("after_only", frozenset()) | also_words
            options["after_only_prepositions"] = OWN_PLACE_AFTER
        out = []
        for text in check_texts(texts):
            # the words by a pattern, not the tokenizer: a tenth of its cost, and a place's
            # name is letters (inner hyphens or apostrophes) whatever the tokenizer does
            words = [Token("word", m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
            if self.lang != "en":  # "d'" and "algérie" of "D'ALGÉRIE"
                words = _split_elisions(words, self.lang)
            forms = [w.text.lower() for w in words]
            if self.lang != "en":
                forms = [f.replace("’", "'") for f in forms]
            found = place_spans(words, forms, text, places=places, **options)
            if self.lang == "en":  # English streets by their form (the designator after)
                found += street_spans(words, forms, text, function_words=KEPT_FUNCTION_WORDS)
                found += _counties(words, forms, found)
                found = with_lands(words, forms, text, found, prepositions=_PREPOSITIONS)
            else:  # French towns by their form (Sablé-sur-Sarthe, à saint-gilles-croix-de-vie)
                towns = town_spans(words, forms, text, options["prepositions"])
                found = [s for s in found
                         if not any(s.overlaps(t.start, t.end) for t in towns)] + towns
            out.append(sorted(found, key=SPAN_ORDER))
        return out

    def _options(self) -> dict[str, Any]:
        """The frequencies, function words and prepositions of the detector's language."""
        if self.lang == "en":
            return {"zipf": word_zipf, "function_words": KEPT_FUNCTION_WORDS,
                    "street_words": STREET_DESIGNATORS, "after_only": _folded_places()}
        language = get_language(self.lang)
        kinds = entity_words(self.lang)
        return {"zipf": lambda w: zipf_in(w, language.wordfreq_code),
                "function_words": language.kept_function_words | (
                    kinds.kind_words if kinds is not None else frozenset()),
                "prepositions": _with_elided(kinds.place_after, language.elisions)
                if kinds is not None else frozenset(),
                "after_limit": PLACE_AFTER_PREPOSITION_FR}


#: The prepositions after which a language's own place that is an ordinary word too
#: (``after-preposition`` in ``data/places-XX.txt``: ``somme``, ``champagne``, ``calvados``) is
#: the place: not ``de``, ``d'``, ``au`` (``un verre de champagne``, ``au lot``), nor
#: ``dans`` or ``en`` (``en somme``).
OWN_PLACE_AFTER = frozenset({"à", "vers", "depuis", "près", "via"})
#: A family name's particles (``GÉRARD D'ARTOIS``, ``les de bourgogne``).
_PARTICLES_FR = frozenset({"d'", "de", "du", "des"})
#: What may come before a family's particle: the plural articles (``les d'artois``).
#: A census given name before the particle is a person's only rarer than this in French
#: (Zipf): ``ami``, ``art``, ``maire`` are census names too (``un ami de roumanie``).
_GIVEN_NOT_WORD = 4.0
_FAMILY_ARTICLES = frozenset({"les", "des"})


def _family_particle(words: Sequence[Token], forms: Sequence[str], i: int, text: str) -> bool:
    """Whether word ``i`` follows a family name's particle, itself after a listed given name
    (a census one rarer than :data:`_GIVEN_NOT_WORD` in French), a title (its full stop
    between) or a plural article (``GÉRARD D'ARTOIS``, ``MME DE BOURGOGNE``, ``les d'artois``):
    a person's name, not the province (the detectors of people decide).

    >>> text = "GÉRARD D'ARTOIS ET LES VINS D'ARTOIS"
    >>> words = _split_elisions([Token("word", m.group(), m.start(), m.end())
    ...                          for m in _WORD.finditer(text)], "fr")
    >>> forms = [w.text.lower() for w in words]
    >>> [_family_particle(words, forms, i, text) for i in (2, 7)]
    [True, False]
    """
    if i < 2 or forms[i - 1] not in _PARTICLES_FR:
        return False
    gap = text[words[i - 2].end:words[i - 1].start]
    before = forms[i - 2]
    titles = get_language("fr").titles
    if gap.strip(" \t") != "" and not (before in titles and gap.strip(" \t") == "."):
        return False  # "M. D'ARTOIS", not "ami.de roumanie"
    return (before in _FAMILY_ARTICLES or before in titles  # not "un ami de roumanie":
            or listed_given_name(before, lang="fr", public_below=_GIVEN_NOT_WORD))


def _with_elided(prepositions: frozenset[str], elisions: frozenset[str]) -> frozenset[str]:
    """``prepositions`` and their elided forms (French ``d'`` of ``de``: ``d'annecy``).

    >>> sorted(_with_elided(frozenset({"de", "à"}), frozenset({"d'", "l'"})))
    ["d'", 'de', 'à']
    """
    return prepositions | {e for e in elisions if e[:-1] + "e" in prepositions}


def _split_elisions(words: Sequence[Token], lang: str) -> list[Token]:
    """``words`` with each elision split off the word after it (French ``d'`` and
    ``algérie`` of ``D'ALGÉRIE``, as the tokenizer splits them).

    >>> [w.text for w in _split_elisions([Token("word", "D'ALGÉRIE", 4, 13)], "fr")]
    ["D'", 'ALGÉRIE']
    """
    language = get_language(lang)
    out: list[Token] = []
    for w in words:
        cut = language.word_parts(w.text)[0]
        if 0 < cut < len(w.text):
            out.append(Token("word", w.text[:cut], w.start, w.start + cut))
            out.append(Token("word", w.text[cut:], w.start + cut, w.end))
        else:
            out.append(w)
    return out


def _counties(words: Sequence[Token], forms: Sequence[str],
              found: Sequence[EntitySpan]) -> list[EntitySpan]:
    """English counties by their form (see the module's description): not before a word of
    :data:`_SHIRE_THINGS` (``worcestershire sauce``), nor where a span is already."""
    return [EntitySpan(w.start, w.end, "LOCATION") for k, (w, f) in enumerate(
                zip(words, forms, strict=True))
            if f.endswith("shire") and len(f) >= _SHIRE_LENGTH
            and (w.text.islower() or w.text.isupper())
            and not (k + 1 < len(forms) and forms[k + 1] in _SHIRE_THINGS)
            and not any(s.overlaps(w.start, w.end) for s in found)]


def street_spans(words: Sequence[Token], forms: Sequence[str], text: str, *,
                 function_words: frozenset[str]) -> list[EntitySpan]:
    """``LOCATION`` spans of streets by their form (see the module's description): a word
    that is no function word before a street's designator, after a house number or, for
    :data:`STREETS`, after a preposition of place, all on one line, one space apart.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "shes at 9 mill row, the cabinet on chapel street, not the street or a busy road"
    >>> words = [t for t in tokenize(text) if t.kind == "word"]
    >>> spans = street_spans(words, [w.text.lower() for w in words], text,
    ...                      function_words=frozenset({"the", "a", "or", "not", "on", "at"}))
    >>> [text[s.start:s.end] for s in spans]
    ['mill row', 'chapel street']
    """
    out: list[EntitySpan] = []
    for i in range(1, len(words)):
        kind, name = forms[i], forms[i - 1]
        if (kind not in STREET_DESIGNATORS or name in function_words or not name.isalpha()
                or name in STREET_DESIGNATORS
                or text[words[i - 1].end:words[i].start] != " "):
            continue
        numbered = _HOUSE_NUMBER.search(text, 0, words[i - 1].start) is not None
        placed = (kind in STREETS and i >= 2 and forms[i - 2] in _PREPOSITIONS | {"on", "off"}
                  and text[words[i - 2].end:words[i - 1].start] == " "
                  and not (kind == "close" and _CLOSE_TO.match(text, words[i].end)))
        if numbered or placed:
            out.append(EntitySpan(words[i - 1].start, words[i].end, "LOCATION"))
    return out


#: The inner words of a French town's hyphenated name (``Sablé-sur-Sarthe``,
#: ``Plessis-lès-Tours``, ``Bois-sous-Roche``): such a word is a town anywhere.
TOWN_JOINS = frozenset({"sur", "sous", "lès", "lez"})
_SAINT_FR = ("saint-", "sainte-", "st-", "ste-")
_ARTICLES_FR = frozenset({"la", "le", "les"})


def town_spans(words: Sequence[Token], forms: Sequence[str], text: str,
               prepositions: frozenset[str]) -> list[EntitySpan]:
    """``LOCATION`` spans of French towns by the form of their name, in lower case or ALL
    CAPS: a hyphenated word with an inner :data:`TOWN_JOINS` word (``sablé-sur-sarthe``,
    ``SABLÉ-SUR-SARTHE``; ``sur-le-champ`` starts with it), or a ``saint-`` word after a
    preposition of place (``à saint-gilles-croix-de-vie``; ``la saint-jean`` is a feast);
    the article of the name with it, after a preposition (``à la roche-sur-yon``).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "à la roche-sur-yon, SABLÉ-SUR-SARTHE, à saint-malo, la saint-jean, sur-le-champ"
    >>> words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    >>> spans = town_spans(words, [w.text.lower() for w in words], text, frozenset({"à"}))
    >>> [text[s.start:s.end] for s in spans]
    ['la roche-sur-yon', 'SABLÉ-SUR-SARTHE', 'saint-malo']
    """
    out: list[EntitySpan] = []
    for i, tok in enumerate(words):
        form = forms[i]
        if "-" not in form or not (tok.text.islower() or tok.text.isupper()):
            continue
        parts = form.split("-")

        def after_preposition(j: int) -> bool:
            return j > 0 and forms[j - 1] in prepositions and \
                text[words[j - 1].end:words[j].start] in (" ", "\u00a0")

        joined = any(p in TOWN_JOINS for p in parts[1:-1])
        if not (joined or (form.startswith(_SAINT_FR) and after_preposition(i))):
            continue
        start = tok.start
        if (i > 0 and forms[i - 1] in _ARTICLES_FR and text[words[i - 1].end:tok.start] == " "
                and after_preposition(i - 1)
                and words[i - 1].text.isupper() == tok.text.isupper()):
            start = words[i - 1].start  # "la" of "à la roche-sur-yon"
        out.append(EntitySpan(start, tok.end, "LOCATION"))
    return out
