"""Kinds of street and organisation written BEFORE the name, as French writes them:
``rue du Vieux-Puits``, ``18, boulevard des Poilus``, ``gendarmerie de Crest``, ``EHPAD Les
Hortensias``, ``Caisse primaire d'assurance maladie de Loire-Atlantique``.

English puts its designators after the name (``Fenwick Road``, ``Hollins Pharmacy``:
:mod:`emprivacy.entities.designators`); French puts the kind first and links it to the name
with ``de``, ``du``, ``des``, ``de la``, ``de l'``, ``d'``, ``les``, ``la``, ``le``.  A model
finds the name (``Crest``, ``Tilleuls``) and leaves the kind and the linking words to the
general mechanism, which at a large ε gives them back unchanged: ``gendarmerie de [ORG]``,
``allée des`` and a surrogate.  :func:`widen_before` makes one span from the kind to the end
of the name:

* **a kind** of the language's lists (:class:`EntityWords`: ``[street]`` kinds make a
  ``LOCATION``, ``[org]`` kinds an ``ORG``), in any case, the longest one that matches
  (``centre hospitalier`` before ``centre``);
* **then linking words** (``[link]``), and up to :data:`MOST_QUALIFIERS` lower-case words
  after an organisation's kind: any word after a capitalised kind (``primaire``,
  ``médiation`` of ``Centre de médiation de l'Erdre``), a word shaped like an adjective
  or a word after a linking word after a lower-case one (``correctionnel`` of ``tribunal
  correctionnel de Thonon``, ``élémentaire``, ``agricole``, ``cyclisme`` of ``comité
  départemental de cyclisme de la Sarthe``; not ``envoie`` of ``la mairie envoie Paul``);
* **then the name**: a detected span (a named type or
  :data:`~emprivacy.entities.spans.PROPER_NOUN`), a capitalised word that is no function word
  or title of the language, or — after a street's kind — a lower-case word rarer than
  :data:`RARE_NAME` (``rue du vieux-puits``), or — right after a kind and an article — a
  lower-case word rarer than :data:`RARE_AFTER_ARTICLE` (``traiteur maison le gall``), or
  — right after an organisation's kind — a lower-case word rarer than :data:`RARE_NAME`
  (``l'hôpital lapeyronie``) or a hyphenated one whose first part is a given name or
  ``saint`` (``lycée professionnel jean-jaurès``, ``école saint-exupéry``);
  the name goes on over more such words, with linking words between (``Pays des Abers``),
  up to :data:`MOST_NAME_WORDS` of them; a
  Title-case ``Au``, ``Aux`` or ``À`` before a capitalised word opens the name
  (``boulangerie Au Pain d'Antan``).

An organisation's kind in Title case inside a sentence, with no name after it, is the
organisation's name itself, with the adjectives after it: ``la Gendarmerie nationale``,
``la Chambre de métiers et de l'artisanat`` (at a sentence's start every word has a
capital: no span).  A lower-case one with no name after it is an organisation when an
adjective of a commune, a département, a region or the state follows it (``la police
municipale``, ``la sûreté départementale``), unless the kind is also an ordinary noun
(``not-before-person``: ``le conseil municipal a voté`` stays words).  A kind marked
``named`` is a name by itself, in any case, and takes nothing after it: the places and bodies
that nearly every French commune has and names by common words (``place de l'église``,
``place du marché``, ``grande-rue``, ``le comité des fêtes``, ``l'office de tourisme``,
``les archives départementales``; issue 42, the thirty-fifth French stage).

Everything from the kind to the name's end is on one line, only spaces between the words
(or nothing, after an elision).  A kind marked ``not-before-person`` (``place``, ``cours``,
``maison``) makes no span of a name that a detector typed a person's alone (``à la place de
Marie``).  The lists are a data file per language, ``emprivacy/data/entity-words-XX.txt``
(:func:`entity_words`); a language without one (English) has no kinds before the name.
Like every detector this is pre-processing, outside the guarantee (docs/LANGUAGES.md
measures it).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files

from emprivacy.entities.spans import NAMED_TYPES, PROPER_NOUN, EntitySpan

__all__ = ["MOST_NAME_WORDS", "MOST_QUALIFIERS", "RARE_AFTER_ARTICLE", "RARE_NAME",
           "EntityWords", "entity_words", "name_article", "widen_articles", "widen_before"]

#: The most lower-case words between a capitalised organisation's kind and its name.
MOST_QUALIFIERS = 3
#: The most words (or detected spans) a name after a kind takes.
MOST_NAME_WORDS = 4
#: A lower-case word rarer than this (Zipf frequency in the language) after a street's kind
#: is its name.
RARE_NAME = 3.0

# a word: letters with inner hyphens, or an elision (its apostrophe before a letter)
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*(?:['’](?=[^\W\d_]))?")
_SPACES = re.compile(r"[ \t\u00a0\u202f]+")
_NAMED = frozenset(NAMED_TYPES) | {PROPER_NOUN}
#: A lower-case word rarer than this right after a kind and an article (``maison le gall``,
#: ``hôtel le galion``) is its name: French puts no article between a kind and an ordinary
#: word but in a name (``le matin`` of ``au café le matin`` is too common).
RARE_AFTER_ARTICLE = 3.5
#: The articles that may open a name right after its kind.
_ARTICLES = frozenset({"le", "la", "les", "l'"})
#: The endings of the adjectives that qualify a kind (``correctionnel`` of ``tribunal
#: correctionnel de Thonon``, ``élémentaire``, ``académique``, ``agricole``, ``municipale``,
#: ``administratif``): after a lower-case kind only such a word is a qualifier.
_ADJECTIVE = re.compile(r"(?:[ae]ls?|aux|ales?|elles?|iques?|aires?|i[eè]re?s?|ives?|ifs?"
                        r"|icoles?)$")
#: Adjectives that make a lower-case organisation's kind one organisation with no name
#: after it: the body of a commune, a département, a region or the state (``la police
#: municipale``, ``la sûreté départementale``; not after a kind that is also an ordinary
#: noun, ``le conseil municipal``).
_ADMINISTRATIVE = re.compile(r"(?:municipa|départementa|régiona|nationa|intercommuna"
                             r"|préfectora)(?:l|le|ux|les)")
#: Articles in Title case that open a name after a kind (``Au`` of ``boulangerie Au Pain
#: d'Antan``), before a capitalised word.
_OPENING = frozenset({"au", "aux", "à"})


@dataclass(frozen=True)
class EntityWords:
    """A language's words around names (its ``entity-words-XX.txt``).

    Attributes
    ----------
    street, org : dict
        Kind (a tuple of lower-case words, elisions with ``'``) → whether it is
        ``not-before-person``.
    link : frozenset
        The linking words between a kind and its name (``de``, ``l'``).
    place_after : frozenset
        The prepositions after which a listed place in lower case is a place up to a higher
        frequency (:mod:`emprivacy.entities.places`).
    named : frozenset
        The kinds marked ``named``: a place's or an organisation's name by themselves, in any
        case, with no name after them (``place de l'église``, ``comité des fêtes``).
    before_name : dict
        Kinds (section ``[before-name]``) that make a place or an organisation of the words
        after them only where a rule already protects them as a name (``le gaec du …``,
        ``la crêperie de la calade``: :mod:`~emprivacy.preparation.name_heads`) → whether
        the kind is an organisation's (marked ``org``) rather than a place's.
    before_person : frozenset
        The kinds of ``[before-name]`` marked ``before-person``: a coast's or a country's
        feature (``la pointe du loup``, ``la calanque de l'ange``), named after a person as
        often as not, and never a person's thing (``le journal de marie``) — a person's
        protected name after them and linking words is the place's name too.
    """

    street: dict[tuple[str, ...], bool]
    org: dict[tuple[str, ...], bool]
    link: frozenset[str]
    place_after: frozenset[str]
    named: frozenset[tuple[str, ...]] = frozenset()
    before_name: dict[tuple[str, ...], bool] = field(default_factory=dict)
    before_person: frozenset[tuple[str, ...]] = frozenset()

    @property
    def kind_words(self) -> frozenset[str]:
        """Every word of a kind: inside a place's or an organisation's span it is part of
        the name, in any case."""
        return frozenset(w for kinds in (self.street, self.org) for k in kinds for w in k)

    @property
    def longest(self) -> int:
        """The most words of a kind."""
        return max(len(k) for kinds in (self.street, self.org) for k in kinds)


def _form(word: str) -> str:
    return word.lower().replace("’", "'")


@cache
def entity_words(lang: str) -> EntityWords | None:
    """The entity words of ``lang`` (a code) from its data file, or ``None`` when it has none.

    >>> words = entity_words("fr")
    >>> ("rue",) in words.street, ("centre", "hospitalier") in words.org, "d'" in words.link
    (True, True, True)
    >>> entity_words("en") is None
    True
    """
    path = files("emprivacy").joinpath("data", f"entity-words-{lang}.txt")
    if not path.is_file():
        return None
    sections: dict[str, dict[tuple[str, ...], bool]] = {}
    current: dict[tuple[str, ...], bool] | None = None
    named: set[tuple[str, ...]] = set()
    before_person: set[tuple[str, ...]] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.partition("#")[0].strip()
        if not text:
            continue
        if text.startswith("[") and text.endswith("]"):
            current = sections.setdefault(text[1:-1], {})
            continue
        if current is None:
            raise ValueError(f"entity-words-{lang}.txt: {text!r} is in no section")
        person = current is sections.get("before-name") and text.endswith(" before-person")
        text = text.removesuffix(" before-person").strip() if person else text
        organisation = current is sections.get("before-name") and text.endswith(" org")
        text = text.removesuffix(" org").strip() if organisation else text
        whole = text.endswith(" named")
        text = text.removesuffix(" named").strip()
        marked = text.endswith("not-before-person")
        kind = text.removesuffix("not-before-person").strip()
        key = ((_form(kind),) if " " not in kind  # one word: "d'", "jusqu'à", "lieu-dit"
               else tuple(_form(w.group()) for w in _WORD.finditer(kind)))
        current[key] = organisation if current is sections.get("before-name") else marked
        if whole:
            named.add(key)
        if person:
            before_person.add(key)
    return EntityWords(street=sections.get("street", {}), org=sections.get("org", {}),
                       link=frozenset(w for (w,) in sections.get("link", {})),
                       place_after=frozenset(w for (w,) in sections.get("place-after", {})),
                       named=frozenset(named),
                       before_name=sections.get("before-name", {}),
                       before_person=frozenset(before_person))


def widen_before(text: str, spans: Sequence[EntitySpan], words: EntityWords, *,
                 function_words: frozenset[str], titles: frozenset[str] = frozenset(),
                 zipf: Callable[[str], float] | None = None,
                 given: Callable[[str], bool] | None = None) -> list[EntitySpan]:
    """The new spans that the kinds before names make in ``text`` (see the module's
    description): ``LOCATION`` from a street's kind, ``ORG`` from an organisation's.
    ``function_words`` and ``titles`` are never a name's words; ``zipf`` (a word's Zipf
    frequency in the language; ``None``: no rare-word names) tells a rare lower-case name,
    ``given`` (whether a word is a given name) a hyphenated one after an organisation's kind
    (``lycée jean-jaurès``).

    >>> fr = entity_words("fr")
    >>> text = "Il habite 7, allée des Tilleuls ; la gendarmerie de Crest a appelé."
    >>> found = [EntitySpan(23, 31, "PROPER_NOUN"), EntitySpan(56, 61, "LOCATION")]
    >>> [(text[s.start:s.end], s.type) for s in widen_before(
    ...     text, found, fr, function_words=frozenset({"des", "de", "la", "a"}))]
    [('allée des Tilleuls', 'LOCATION'), ('gendarmerie de Crest', 'ORG')]
    >>> widen_before("la place de Marie", [EntitySpan(12, 17, "PERSON")], fr,
    ...              function_words=frozenset({"la", "de"}))
    []
    """
    tokens = [(m.start(), m.end(), _form(m.group())) for m in _WORD.finditer(text)]
    if not tokens:
        return []
    by_start: dict[int, list[EntitySpan]] = {}
    for s in spans:
        if s.type in _NAMED:
            by_start.setdefault(s.start, []).append(s)
    out: list[EntitySpan] = []
    i = 0
    while i < len(tokens):
        found = _kind_at(text, tokens, i, words)
        if found is None:
            i += 1
            continue
        n, kind_type, not_before_person = found
        numbered = kind_type == "LOCATION" and _NUMBER_BEFORE.search(
            text, max(0, tokens[i][0] - 12), tokens[i][0]) is not None
        if tuple(t[2] for t in tokens[i:i + n]) in words.named:
            # "place de l'église", "le comité des fêtes": a name, and after it only a
            # detected place (not "place du marché Marie Dupont")
            end: int | None = _place_after(text, tokens, i + n, by_start, words.link,
                                           tokens[i + n - 1][1])
        else:
            end = _name_after(
                text, tokens, i + n, by_start, words, kind_type=kind_type,
                capitalised=text[tokens[i][0]].isupper(), not_before_person=not_before_person,
                function_words=function_words, titles=titles, zipf=zipf, numbered=numbered,
                given=given)
        if (end is None and kind_type == "ORG" and not not_before_person
                and i + n < len(tokens)
                and _joined(text, tokens, i + n) and text[tokens[i][0]].islower()
                and _ADMINISTRATIVE.fullmatch(tokens[i + n][2])):
            end = tokens[i + n][1]  # "la police municipale", "la sûreté départementale"
        if end is None and kind_type == "ORG" and _proper(text, tokens, i):
            end = tokens[i + n - 1][1]  # "la Chambre de métiers et de l'artisanat a promis"
            k = i + n
            while (k < len(tokens) and _joined(text, tokens, k) and _adjective(tokens[k][2])
                   and text[tokens[k][0]].islower()):
                end = tokens[k][1]  # "nationale" of "la Gendarmerie nationale"
                k += 1
        if end is None:
            i += n
            continue
        out.append(EntitySpan(tokens[i][0], end, kind_type))
        while i < len(tokens) and tokens[i][0] < end:
            i += 1
    return out


def _place_after(text: str, tokens: Sequence[tuple[int, int, str]], j: int,
                 by_start: dict[int, list[EntitySpan]], link: frozenset[str], end: int) -> int:
    """Where a named kind's span ends: at ``end`` (the kind's), or at the end of a detected
    place or organisation after it and its linking words (``crédit agricole de
    saint-servan``); a person's name or a capitalised word after it is not the kind's."""
    k = j
    while k < len(tokens) and _joined(text, tokens, k) and tokens[k][2] in link:
        k += 1
    if k > j and k < len(tokens) and _joined(text, tokens, k):
        found = [s for s in by_start.get(tokens[k][0], []) if s.type in ("LOCATION", "ORG")]
        if found:
            return max(s.end for s in found)
    return end


#: A hyphenated word of letters (``jean-jaurès``).
_HYPHENATED = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)+")


def _named_hyphen(form: str, given: Callable[[str], bool] | None) -> bool:
    """Whether a hyphenated word right after an organisation's kind is a person's or a
    saint's name (``lycée professionnel jean-jaurès``, ``école saint-exupéry``): its first
    part a given name by ``given`` or ``saint``/``sainte`` (not ``après-vente``,
    ``peut-être``, ``elle-même``)."""
    if _HYPHENATED.fullmatch(form) is None:
        return False
    first = form.split("-", 1)[0]
    return first in ("saint", "sainte") or (given is not None and given(first))
#: A house number right before a street's kind (``12 rue``, ``47 bis, avenue``).
_NUMBER_BEFORE = re.compile(r"(?<![\w,.])\d{1,4}(?:[ \t]?(?:bis|ter|[a-d]))?,?[ \t]+\Z",
                            re.IGNORECASE)


def _adjective(form: str) -> bool:
    """Whether a lower-case word is shaped like an adjective that qualifies a kind
    (:data:`_ADJECTIVE`; ``hier`` is too short to be one)."""
    return len(form) > 4 and _ADJECTIVE.search(form) is not None


#: What ends a sentence or a line, or starts a part of one that may begin with a capital
#: (a dash, a bullet, an opening bracket or quote: ``Centre hospitalier de Morlaix –
#: Service de médecine``).
_SENTENCE_END = re.compile(r"[.!?:;\n–—•(\[«\"“]")


def _proper(text: str, tokens: Sequence[tuple[int, int, str]], i: int) -> bool:
    """Whether the kind at token ``i`` is written as a proper name: in Title case, inside a
    sentence (not its first word, where every word has a capital)."""
    start = tokens[i][0]
    surface = text[start:tokens[i][1]]
    return (i > 0 and surface[0].isupper() and not surface.isupper()
            and _SENTENCE_END.search(text, tokens[i - 1][1], start) is None)


def _joined(text: str, tokens: Sequence[tuple[int, int, str]], j: int) -> bool:
    """Whether token ``j`` follows token ``j - 1`` on its line with only spaces between
    (nothing after an elision), not a form's column gap (three spaces or more, a tab:
    ``cimetière de Ploaré        Carré :``; two spaces are a typing slip, ``rue  pasteur``)."""
    gap = text[tokens[j - 1][1]:tokens[j][0]]
    if tokens[j - 1][2].endswith("'"):
        return gap == ""
    return _SPACES.fullmatch(gap) is not None and "   " not in gap and "\t" not in gap


def _kind_at(text: str, tokens: Sequence[tuple[int, int, str]], i: int, words: EntityWords
             ) -> tuple[int, str, bool] | None:
    """The longest kind starting at token ``i``: its number of tokens, its span type and
    whether it is ``not-before-person``."""
    for n in range(min(words.longest, len(tokens) - i), 0, -1):
        if any(not _joined(text, tokens, j) for j in range(i + 1, i + n)):
            continue
        key = tuple(t[2] for t in tokens[i:i + n])
        for kinds, kind_type in ((words.street, "LOCATION"), (words.org, "ORG")):
            if key in kinds:
                return n, kind_type, kinds[key]
    return None


def _name_after(text: str, tokens: Sequence[tuple[int, int, str]], j: int,
                by_start: dict[int, list[EntitySpan]], words: EntityWords, *, kind_type: str,
                capitalised: bool, not_before_person: bool, function_words: frozenset[str],
                titles: frozenset[str], zipf: Callable[[str], float] | None,
                numbered: bool = False,
                given: Callable[[str], bool] | None = None) -> int | None:
    """Where the name after a kind (ending at token ``j - 1``) ends, or ``None``: linking
    words (and qualifiers), then name words joined by linking words; after a street's kind
    with a house number before it (``numbered``: ``12 rue des fossés``) or after ``des``,
    ``du``, ``de la``, ``de l'`` (``rue de la bastille``; not after a kind that is also an
    ordinary noun, ``place``, ``cours``), any lower-case word that is no function word is
    the name's first; right after any kind, a hyphenated word whose first part is a given
    name or a saint's, even one a detector typed a person's (``la salle jean-moulin``, ``place
    Aimé-Fabre``: a place named after a person); right after an organisation's kind, a
    rare lower-case word that is no adjective (``l'hôpital lapeyronie``; Zipf below
    :data:`RARE_NAME`) or a hyphenated word whose first part is a given name by ``given``
    or a saint's (``lycée professionnel jean-jaurès``), or after ``des``, ``du``, ``de
    la``, ``de l'`` one a little less rare (below :data:`RARE_AFTER_ARTICLE`: ``maison de
    santé des capucins``)."""
    qualifiers = 0
    end: int | None = None
    units = 0
    k = j
    while k < len(tokens) and _joined(text, tokens, k) and units < MOST_NAME_WORDS:
        start, stop, form = tokens[k]
        surface = text[start:stop]
        if form in words.link:
            k += 1
            continue
        detected = by_start.get(start, [])
        if detected:
            if (units == 0 and not_before_person and {s.type for s in detected} == {"PERSON"}
                    and not (k == j and _named_hyphen(form, given))):
                return None  # "la place de Marie"; not "la salle Jean-Moulin"
            units += 1
            end = max(s.end for s in detected)
            while k < len(tokens) and tokens[k][0] < end:
                k += 1
            continue
        if form in titles:
            break
        if surface[0].isupper() and form not in function_words:
            units += 1
            end = stop
        elif (units == 0 and surface.islower() and form not in function_words and (
                (kind_type == "LOCATION" and (numbered or (zipf is not None
                                                           and zipf(form) < RARE_NAME)
                                              or (k == j and _named_hyphen(form, given))
                                              or (not not_before_person  # "rue de la
                                                  and _after_contraction(tokens, j, k))))
                or (kind_type == "ORG" and not _adjective(form) and zipf is not None
                    and ((k == j and (zipf(form) < RARE_NAME or _named_hyphen(form, given)))
                         or (qualifiers and _named_hyphen(form, given))  # "lycée
                         # agricole jean-constant": after the kind's qualifiers
                         or (_after_contraction(tokens, j, k)
                             and zipf(form) < RARE_AFTER_ARTICLE))))):
            units += 1  # "rue des fossés", "l'hôpital lapeyronie", "lycée professionnel
            end = stop  # jean-jaurès", "maison de santé des capucins": the name
        elif (units == 0 and k == j + 1 and tokens[j][2] in _ARTICLES and zipf is not None
              and surface.islower() and form not in function_words
              and zipf(form) < RARE_AFTER_ARTICLE):
            units += 1  # "gall" of "traiteur maison le gall": a kind, an article, a name
            end = stop
        elif (units == 0 and kind_type == "ORG" and qualifiers < MOST_QUALIFIERS
              and surface.islower() and form not in function_words
              and (capitalised or _adjective(form) or tokens[k - 1][2] in words.link)):
            qualifiers += 1  # "primaire" of "Caisse primaire d'assurance maladie de …",
            # "cyclisme" of "comité départemental de cyclisme de la Sarthe" (after "de")
        elif (units == 0 and form in _OPENING and surface[0].isupper()
              and k + 1 < len(tokens) and _joined(text, tokens, k + 1)
              and text[tokens[k + 1][0]].isupper()):
            pass  # "Au" of "boulangerie Au Pain d'Antan": the name's first word
        else:
            break
        k += 1
    return end


def _after_contraction(tokens: Sequence[tuple[int, int, str]], j: int, k: int) -> bool:
    """Whether token ``k`` follows ``des``, ``du``, ``de la`` or ``de l'`` right after the
    kind (which ends before token ``j``): ``maison de santé des capucins``, ``clinique de
    la roseraie`` (not ``de`` alone, nor ``de le``)."""
    if k == j + 1:
        return tokens[j][2] in ("des", "du")
    return k == j + 2 and tokens[j][2] == "de" and tokens[j + 1][2] in ("la", "l'")


def name_article(text: str, start: int, end: int, before_end: int | None) -> bool:
    """Whether the article ``text[start:end]`` (``le``, ``la``, ``les``, ``l'``) is written as
    a name's first word: in ALL CAPS before a name in ALL CAPS (a news story's dateline,
    ``LE MANS``), or in Title case inside a sentence (``à La Flèche``: ``before_end``, the
    end of the word before it, or ``None`` at the text's start)."""
    surface = text[start:end]
    if len(surface) > 1 and surface[:2].isupper():
        return True
    return (surface[0].isupper() and before_end is not None
            and _SENTENCE_END.search(text, before_end, start) is None)


def widen_articles(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """The new spans that an article written as a name's first word makes, from the article
    to the end of the place, organisation or proper noun right after it on its line
    (:func:`name_article`: ``LA FLÈCHE``, ``à La Flèche``), or of the organisation or place
    after a Title-case ``L'`` joined to it anywhere (``L'Écho du Loir``).  French writes the article
    of a town or a newspaper as part of its name; a model often leaves it out.

    >>> text = "Édition du jour\\nLE MANS\\nIl vit à La Flèche. L'Écho du Loir le dit. La Poste"
    >>> found = [EntitySpan(19, 23, "LOCATION"), EntitySpan(36, 42, "LOCATION"),
    ...          EntitySpan(46, 58, "ORG"), EntitySpan(70, 75, "ORG")]
    >>> [(text[s.start:s.end], s.type) for s in widen_articles(text, found)]
    [('LE MANS', 'LOCATION'), ('La Flèche', 'LOCATION'), ("L'Écho du Loir", 'ORG')]
    """
    tokens = [(m.start(), m.end(), _form(m.group())) for m in _WORD.finditer(text)]
    by_start = {t[0]: k for k, t in enumerate(tokens)}
    out: list[EntitySpan] = []
    for s in spans:
        k = by_start.get(s.start)
        if s.type not in _NAMED or not k or tokens[k - 1][2] not in _ARTICLES \
                or not _joined(text, tokens, k):
            continue
        start, end, form = tokens[k - 1]
        name = text[s.start:s.end]
        elided = form == "l'" and text[start].isupper() and s.type in ("ORG", "LOCATION")
        if elided or (name_article(text, start, end, tokens[k - 2][1] if k > 1 else None)
                      and (name[:2].isupper() or not text[start:end].isupper())):
            out.append(EntitySpan(start, s.end, s.type))
    return out
