"""A French family name that is an ordinary word, beside the given name it goes with
(issue 42): ``BOIS`` of ``THIERRY BOIS``, ``berger`` of ``pierre berger``, and a family
name that speech splits at its article (``le blanc`` of ``mathis le blanc``, said for
Leblanc).  A pass over the decisions of
:func:`~emprivacy.preparation.entity_slots.entity_decisions`, text mode.

They are frequent family names in France (``bois``, ``berger``, ``boucher``, ``roche``:
:func:`~emprivacy.entities.name_words.french_family_names`); what keeps them from being
names at every mention is that French uses them as words (Zipf above 4: *le bois*, *un
berger*).  Beside a given name, one space apart and in the same case, they are the
person's: the word after a listed given name (``Thierry Bois``), or at an item's start in
capitals before a given name the detectors already made a person (``NOM Prénom`` order of a
list: ``MEUNIER THÉO``).  Each becomes a ``PERSON`` slot drawn independently of the word
(ε = 0: :attr:`~emprivacy.preparation.decisions.EntitySlot.independent`), as
:func:`~emprivacy.preparation.given_names.given_before_names` does for the given name.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Container, Sequence

from emprivacy.entities.designator_words import ROLE_WORDS
from emprivacy.entities.french_cues import BRETON_AFTER_LE, NOT_FAMILY
from emprivacy.entities.labels import FORM_KEYS, NAME_TITLES
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.name_words import (
    folded,
    french_family_names,
    french_given_names,
    french_given_raw,
    french_given_words,
    zipf_in,
)
from emprivacy.entities.naming import KIN_WORDS
from emprivacy.exceptions import MissingExtraError
from emprivacy.preparation.decisions import (
    GENERAL,
    Decision,
    DocumentPeople,
    Dropped,
    EntitySlot,
    Placeholder,
)
from emprivacy.preparation.name_lists import list_item
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

__all__ = ["family_names_beside_given", "split_family_names"]

#: Words before a given name that make it the ordinary word (``la pierre``, ``une rose``).
_ARTICLES = frozenset("la le les l' un une des du de d' ma ta sa mon ton son ces cette "
                      "ce".split())
#: In lower case, a family name more common than this as a French word (Zipf) beside a
#: given name is the word (``léa bois ton café``, ``bravo léa petit génie``), unless the
#: piece names a person by it elsewhere.
_LOWER_ZIPF = 4.5
#: The first words that speech splits from a family name (``le blanc`` for Leblanc, ``des
#: jardins`` for Desjardins, ``beau soleil`` for Beausoleil); the two joined must be a family
#: name of the French list, and written joined in the piece too unless ``le`` or ``la`` comes
#: before a family name (:func:`_split_family`).
_SPLIT_ARTICLES = frozenset({"le", "la", "du", "des", "de", "beau", "bel", "belle", "bon",
                             "sans"})


def _french_lists(marking: EntityMarking) -> tuple[frozenset[str], frozenset[str]] | None:
    """The French given names (family names that are given names too included) and family
    names, or ``None`` where the piece is not French or the ``ner`` extra (the lists) is
    missing: then the French passes change nothing."""
    if get_language(marking.lang).code != "fr":
        return None
    try:
        return french_given_names(with_family_names=True), french_family_names()
    except MissingExtraError:
        return None


def family_names_beside_given(marking: EntityMarking, decisions: list[Decision],
                              counted: Counter[str], text: str, tokens: Sequence[Token],
                              words: Sequence[str], covered: Sequence[bool],
                              titles: frozenset[str] = frozenset(),
                              document: DocumentPeople | None = None) -> None:
    """Make the family name beside a given name a person's, in French (in English:
    :func:`_family_after_given`).

    A word left to the general ε (its decision ``None``) that is a family name frequent in
    France (:func:`~emprivacy.entities.name_words.french_family_names`) is a ``PERSON`` slot
    where

    * it follows a listed given name one space apart, in the same case, and the given name
      is a person's slot already (here or at another mention in the piece), or both words
      are inside a detected span in capitals or Title case (``THIERRY BOIS``, a run the
      capital-letter detector found; the given name becomes a slot too);
    * in capitals, it starts an item (first on its line, or no word before it) and precedes
      a given name that is protected (whatever its type), or that is not yet where the family
      name is of the list and no kind of place (``- MEUNIER THÉO``, ``NOM Prénom`` order of
      a list; the given name becomes a slot too);
    * a family name said in two after a given name (``mathis le blanc``: *leblanc*; ``rose
      la chance`` where the piece writes *lachance*): :func:`split_family_names`;
    * after a listed given name's slot and the particles of a noble name
      (:data:`_NOBLE_PARTICLES`), a word in capitals or Title case that a detector's span
      covers is the family name, on no list too (``HUBERT DE LA BASTIDE``, ``Claire du
      Bois``); the particles become slots too.

    A family name here is one of the list or a form that is a person's slot elsewhere in the
    piece or in the ``document``'s pieces before (``PÂQUES`` of a list in capitals, then
    ``solange pâques``; a chat's ``[19:14] aimé bois :``); after a given name, a kind of place
    too (``ANDRÉ RIVIÈRE``).  Then a listed given name right before a family name of the list
    that is a person's slot, in the same case, is the person's too (``HENRI`` of ``– HENRI
    BOUCHER,`` where ``BOUCHER`` was a person's first); a log-in, ``par n.mercier``, is
    :func:`~emprivacy.preparation.name_parts.login_names`'s.  In lower case a family name
    more common than Zipf 4.5 as a French word follows a given name only where a person is
    named by it so (``léa bois ton café``: the verb).

    An item of a list alone, the pair on its own line or between commas (``liste des
    présents : louis petit, claire bois``), is a name in lower case too, however common the
    family name; so is a family name in capitals beside a given name in Title case (``1. PETIT
    Louis``).  Not after an article or a possessive (``la pierre bleue``), not a title, a
    form's key, a function word or one letter.  Without the ``ner`` extra nothing changes.
    """
    if get_language(marking.lang).code == "en":
        _family_after_given(marking, decisions, counted, text, tokens, words, covered, titles,
                            family=marking.family_name, given=marking.listed_given)
        _form_key_family(marking, decisions, counted, text, tokens, words, covered, titles)
        return
    lists = _french_lists(marking)
    if lists is None:
        return
    given, family = lists
    function_words = get_language(marking.lang).kept_function_words

    def person(i: int) -> bool:
        d = decisions[i]
        return isinstance(d, EntitySlot) and d.key[0] == "PERSON"

    def entity(i: int) -> bool:  # protected, whatever its type (ÉMILE typed ORG)
        return isinstance(decisions[i], EntitySlot | Placeholder)

    def given_at_word(word: str) -> bool:  # not "le", "les" (the census' Le, Les)
        return word not in function_words and all(folded(part) in given
                                                  for part in word.split("-"))

    def given_at(i: int) -> bool:
        parts = [folded(part) for part in words[i].split("-")]
        return (tokens[i].kind == "word" and len(tokens[i].text) > 1
                and words[i] not in function_words  # "les" (the census' Les), "le"
                and all(part in given for part in parts)  # rose-marie
                and not (i and words[i - 1] in _ARTICLES))

    # the forms a person's slot has elsewhere in the piece (PÂQUES of a list in capitals,
    # then "solange pâques" in lower case)
    named = {d.key[1] for d in decisions if isinstance(d, EntitySlot)
             and d.key[0] == "PERSON" and len(d.key[1]) > 1}
    if document is not None:  # and in the document's pieces before ("[19:14] aimé bois :")
        named |= {k for k, d in document.slots.items() if d.key[0] == "PERSON" and len(k) > 1}

    def family_at(i: int, *, kind: bool = False) -> bool:
        # ``kind``: a kind of place may be the name (RIVIÈRE of "ANDRÉ RIVIÈRE": French
        # writes a kind before a name, never after a given name)
        w = words[i]
        return (decisions[i] is None and tokens[i].kind == "word" and len(tokens[i].text) > 1
                and (w in family or folded(w) in family or w in named) and w not in titles
                and w not in NAME_TITLES and w not in FORM_KEYS and w not in function_words
                and (kind or not marking.designator(w)))

    def take(i: int) -> None:
        decisions[i] = EntitySlot(("PERSON", words[i]), -1, None, independent=True)
        counted["PERSON"] += 1
        if len(words[i]) > 1:
            named.add(words[i])

    for i in range(len(tokens)):
        if not family_at(i, kind=i > 0 and given_at(i - 1)):
            continue
        before, after = i - 1, i + 1
        item = before >= 0 and list_item(text, tokens[before].start, tokens[i].end,
                                         commas=True)
        if before >= 0 and (given_at(before) or (  # "aimé", a word too, already a person's
                person(before) and words[before] in french_given_raw())) and _pair(
                    text, tokens[before], tokens[i], nom=True) and (
                not tokens[i].text.islower() or words[i] in named or item
                or zipf_in(words[i], "fr") < _LOWER_ZIPF) and (  # not "léa bois ton café"
                person(before) or (decisions[before] is None and words[before] in named)
                or (decisions[before] is None and (
                    item or (covered[before] and covered[i]
                             and not tokens[i].text.islower())))):
            if decisions[before] is None:
                take(before)
            take(i)
        elif after < len(tokens) and given_at(after) and (entity(after) or (
                decisions[after] is None and words[i] in family
                and not marking.designator(words[i]))) \
                and tokens[i].text.isupper() \
                and _pair(text, tokens[i], tokens[after], nom=True) \
                and (i == 0 or tokens[i - 1].kind != "word"
                     or "\n" in text[tokens[i - 1].end:tokens[i].start]):
            if decisions[after] is None:
                take(after)
            take(i)  # an item of a list in capitals: "- MEUNIER THÉO"
    # before the family names after a given name take ``roux`` of ``claire le roux`` alone
    split_family_names(marking, decisions, counted, text, tokens, words)
    for i in range(len(tokens) - 1):  # "bonjour pierre berger", "– HENRI BOUCHER,"
        if (decisions[i] is None and given_at(i) and person(i + 1) and words[i + 1] in family
                and _pair(text, tokens[i], tokens[i + 1])):
            take(i)
    _family_after_given(marking, decisions, counted, text, tokens, words, covered, titles,
                        family=lambda w: w not in NOT_FAMILY and not marking.designator(w),
                        given=given_at_word)
    for i in range(1, len(tokens)):  # "HUBERT DE LA BASTIDE", "Claire du Bois"
        n = next((len(p) for p in _NOBLE_PARTICLES if tuple(words[i:i + len(p)]) == p), 0)
        j = i + n
        if (n and j < len(tokens) and person(i - 1) and given_at(i - 1)
                and decisions[j] is None and covered[j]
                and all(decisions[k] is None for k in range(i, j))
                and tokens[j].kind == "word" and len(tokens[j].text) > 1
                and not tokens[j].text.islower() and tokens[j].text[:1].isupper()
                and words[j] not in function_words and words[j] not in titles
                and words[j] not in NAME_TITLES and words[j] not in FORM_KEYS
                and all(text[tokens[k].end:tokens[k + 1].start] == " " for k in range(i - 1, j))):
            for k in range(i, j + 1):
                take(k)
    _spoken_particle_names(marking, decisions, text, tokens, words, family, person, given_at,
                           take, titles)


def _spoken_particle_names(marking: EntityMarking, decisions: list[Decision], text: str,
                           tokens: Sequence[Token], words: Sequence[str],
                           family: frozenset[str], person: Callable[[int], bool],
                           given_at: Callable[[int], bool], take: Callable[[int], None],
                           titles: frozenset[str]) -> None:
    """In lower case (speech recognition, a chat), a family name with its particle after a
    given name's ``PERSON`` slot, one space apart (the elided ``l'`` joined to the name:
    ``gurvan l'hour``): ``pierre le goff``, ``yvonne le bihan``,
    ``joël de la roque``, ``hubert de la bastide`` (the forty-second stage, from the earlier
    French captions' leaks); and, before ``le``, after a given name of the French list as
    written that no rule took yet (not the census' ``maire``, ``monte``), which becomes the
    person's slot with them, and before a family name that is a person's slot already,
    whatever its frequency (``rose le gall``: stage 43; not ``une belle victoire de
    lefebvre``, ``grâce de lefebvre``: its second reading).  The word after the particles is
    the family name where it is rarer than :data:`_SPOKEN_RARE` in French, or, after ``le``,
    a family name of the French list rarer than :data:`_LOWER_ZIPF` as a word; not a
    function word, a title, a form's key, a family word or a role (``anne la directrice``),
    nor a kind of place.  The particles and the word become the person's slots (``l'``
    dropped with them).  ``pierre le voit`` (common), ``yvonne le rappellera`` (a verb's
    ending: :data:`_VERB_ENDING`) and ``lucia de la tour`` stay as they are; ``la`` alone is
    no particle (``marie la cuisinière``: a role in apposition)."""
    function_words = get_language(marking.lang).kept_function_words
    for i in range(1, len(tokens)):
        n = next((len(p) for p in _SPOKEN_PARTICLES if tuple(words[i:i + len(p)]) == p), 0)
        j = i + n
        if not (n and j < len(tokens) and given_at(i - 1)
                and (person(i - 1) or (decisions[i - 1] is None and n == 1
                                       and words[i] == "le"
                                       and words[i - 1] in french_given_raw()))
                and (decisions[j] is None or person(j))
                and all(decisions[k] is None for k in range(i, j))
                and tokens[j].kind == "word" and len(tokens[j].text) > 1
                and all(tokens[k].text.islower() for k in range(i - 1, j + 1))
                and all(text[tokens[k].end:tokens[k + 1].start] == (
                    "" if words[k] == "l'" else " ") for k in range(i - 1, j))):
            continue
        w = words[j]
        if (w in function_words or w in titles or w in NAME_TITLES or w in FORM_KEYS
                or w in NOT_FAMILY or marking.designator(w)):
            continue
        if (words[i] in ("le", "l'") and _VERB_ENDING.search(w)) or (
                words[i] == "l'" and not w.startswith("h")):
            continue  # a pronoun and a verb ("le rappellera"); Breton names after l' are L'H…
        z = zipf_in(w, "fr")
        le = n == 1 and words[i] == "le"
        if (le and person(j)) or z < _SPOKEN_RARE or (le and z < _LOWER_ZIPF
                                                      and (w in family or folded(w) in family)):
            for k in range(i - 1 if decisions[i - 1] is None else i, j + 1):
                if decisions[k] is None and words[k] == "l'":
                    decisions[k] = Dropped("PERSON")  # joined to the name: goes with it
                elif decisions[k] is None:
                    take(k)


def _family_after_given(marking: EntityMarking, decisions: list[Decision],
                        counted: Counter[str], text: str, tokens: Sequence[Token],
                        words: Sequence[str], covered: Sequence[bool],
                        titles: frozenset[str], *, family: Callable[[str], bool],
                        given: Callable[[str], bool]) -> None:
    """A word of a detected span left to the general ε right after a ``given`` name's
    ``PERSON`` slot, one space apart and in the same case, is the person's family name where
    ``family`` holds it (English: the census lists it; French: any word that is no kind nor
    family word, ``DOMINIQUE VERT``: issue 42, the second reading of stage 29) and the pair
    is an item (after a line's start, a comma, a semicolon, a colon, a full stop, a title or
    ``from``/``by``; before a sign or the line's end): ``ROSE
    FIELD`` and ``FRANK STYLE`` of a list in capitals, ``LETTER FROM ROWAN FIELD, AGED 10``,
    a signature ``… GOES ROUND NOW. ROWAN FIELD."``; after a title and a given name in any
    case, an item or not (``mister frank style`` of speech recognition: issue 40, the
    twenty-ninth English set).  A ``PERSON`` slot drawn independently of it (ε = 0)."""
    function_words = get_language(marking.lang).kept_function_words
    english = get_language(marking.lang).code == "en"  # a title's case rule (not "c'est")
    for i in range(1, len(tokens)):
        before, tok = decisions[i - 1], tokens[i]
        w = words[i]
        titled = english and i >= 2 and (words[i - 2] in titles or words[i - 2] in NAME_TITLES) \
            and text[tokens[i - 2].end:tokens[i - 1].start] in (" ", ". ")
        if not (isinstance(before, EntitySlot) and before.key[0] == "PERSON"
                and decisions[i] is None and (covered[i] or titled) and tok.kind == "word"
                and len(tok.text) > 1 and (tok.text[:1].isupper() or titled)
                and _pair(text, tokens[i - 1], tok)
                and w not in function_words and w not in titles and w not in NAME_TITLES
                and w not in FORM_KEYS and w not in KIN_WORDS and family(w)
                and given(words[i - 1])):  # not "LIFERAFT READY"
            continue
        gap = text[tokens[i - 2].end:tokens[i - 1].start] if i >= 2 else "\n"
        starts = ("\n" in gap or gap.strip() in (",", ";", ":", ".", '."', ".”")
                  or (gap == " " and (words[i - 2] in titles or words[i - 2] in NAME_TITLES
                                      or words[i - 2] in ("from", "by"))))
        rest = text[tok.end:tok.end + 3].lstrip(" \t")
        if titled or (starts and rest[:1] in ("", "\n", ",", ";", ".", "(", ")", '"', "–", "-",
                                              "|")):
            decisions[i] = EntitySlot(("PERSON", w), -1, None, independent=True)
            counted["PERSON"] += 1
            if covered[i]:
                counted[GENERAL] -= 1  # a word of a span, released at the general ε before


#: Words after a form's key that is a family name (``ward``) that make it the key's post or
#: thing, not the person's name (``hussain ward member``, ``mctavish ward clerk``).
_KEY_AFTER = ROLE_WORDS | frozenset(
    "councillor councillors council seat seats boundary boundaries number round".split())
#: The form's keys (:data:`~emprivacy.entities.labels.FORM_KEYS`) that are family names of
#: the census lists and no function word (not ``no``, ``age`` of ``dawn no``, ``SMITH AGE``).
_FAMILY_KEYS = frozenset({"ward"})
#: Words before a given name that make a form's key after it the place's (``on rowan ward``,
#: ``moved to rowan ward``, ``dad is in daisy ward``, ``cover ivy ward``): a hospital's ward
#: named by a given name (the fortieth stage's review).
_KEY_PLACE_LEADS = frozenset("the on onto off to in into from at cover covering".split())


def _form_key_family(marking: EntityMarking, decisions: list[Decision],
                     counted: Counter[str], text: str, tokens: Sequence[Token],
                     words: Sequence[str], covered: Sequence[bool],
                     titles: frozenset[str]) -> None:
    """A form's key that is a family name (:data:`_FAMILY_KEYS`: ``ward``), left to the
    general ε, is the person's family name right after a
    listed given name's ``PERSON`` slot one space apart and in the same case, after an
    initial's or an abbreviated given name's in capitals (``J. WARD``, ``JAS. WARD``), or
    after a title (issue 40, the fortieth English set: ``dawn ward`` of a chat, ``THE REV
    JAS. WARD``, ``C. WOOD B. BOWLER E. WARD``, ``mrs ward's sister``, a speaker's label
    ``dawn ward:``, ``Mrs. Ward``): not before a colon but in a line's label (``Name: John
    Ward: 7B``), a post's word (:data:`_KEY_AFTER`: ``ward member``), a number (``emily ward
    9``: a ward's) or ``off`` (the verb), nor where the given name follows
    :data:`_KEY_PLACE_LEADS` (``on rowan ward``: a ward so named).  A ``PERSON`` slot drawn
    independently of it (ε = 0)."""
    for i in range(1, len(tokens)):
        w, tok = words[i], tokens[i]
        if decisions[i] is not None or w not in _FAMILY_KEYS or tok.kind != "word":
            continue
        after = text[tok.end:tok.end + 40].lstrip(" \t")
        before, prev = decisions[i - 1], tokens[i - 1]
        line = text[text.rfind("\n", 0, prev.start) + 1:prev.start]
        following = after.split(" ", 1)[0].lower().strip(".,;")
        if (after[:1] == ":" and any(c.isalpha() for c in line)) or following in _KEY_AFTER \
                or following == "off" or after[:1].isdigit():
            continue  # "Name: John Ward: 7B" (not "dawn ward: sandwiches"), "emily ward 9",
            # "did rose ward off the cold"
        gap = text[prev.end:tok.start]
        titled = (words[i - 1] in titles or words[i - 1] in NAME_TITLES) \
            and gap in (" ", ". ") and prev.text[:1].isupper() == tok.text[:1].isupper()
        short = prev.text.isupper() and tok.text.isupper() and len(prev.text) <= 4 \
            and gap in (" ", ". ")  # "J. WARD", "JAS. WARD": an initial, an old abbreviation
        named = isinstance(before, EntitySlot) and before.key[0] == "PERSON" and (
            (marking.listed_given(words[i - 1]) and _pair(text, prev, tok)) or short) \
            and not (i >= 2 and words[i - 2] in _KEY_PLACE_LEADS)
        if not (titled or named):
            continue
        decisions[i] = EntitySlot(("PERSON", w), -1, None, independent=True)
        counted["PERSON"] += 1
        if covered[i]:
            counted[GENERAL] -= 1  # a word of a span, released at the general ε before


#: The particles of a noble family name after a given name (``de la``, ``du``, ``des``): the
#: capitalised word after them, found in a span but left to the general ε as a French word
#: (``BASTIDE``), is the family name.  Not ``de`` alone (``Pierre de Lyon``).
_NOBLE_PARTICLES: tuple[tuple[str, ...], ...] = (("de", "la"), ("du",), ("des",))
#: The particles of a family name said after a given name in lower case, the longest first
#: (``pierre le goff``, ``joël de la roque``, ``gurvan l'hour``: a word in h, stage 49).
_SPOKEN_PARTICLES: tuple[tuple[str, ...], ...] = (("de", "la"), ("du",), ("des",), ("le",),
                                                   ("de",), ("l'",))
#: In lower case a word after a given name and a particle rarer than this (French Zipf) is
#: the family name (``goff``, ``bihan``, ``roque``; not ``tour``, ``voit``).
_SPOKEN_RARE = 3.5
#: The endings of French verb forms that ``le`` or ``l'`` (a pronoun) comes before: the
#: future and conditional, the imperfect, the plural, the infinitive, the participle,
#: ``-onne``, ``-ise`` (``le rappellera``, ``le bichonne``, ``l'adorait``); family names after
#: the particle seldom end so (``goff``, ``bihan``, ``floc'h``, ``corre``, ``meur``).
_VERB_ENDING = re.compile(r"(?:er|era|erai|eras|erez|eront|erait|eraient|ait|aient|ent|ons|"
                          r"ez|é|ée|és|ées|ir|ira|iront|issent|onne|onnent|ise)$")


def _pair(text: str, first: Token, second: Token, *, nom: bool = False) -> bool:
    """Whether two tokens are one space apart and written in the same case (both lower
    case, both in capitals, or both in Title case); with ``nom``, or one in Title case and
    the other in capitals (``PETIT Louis``, ``Louis PETIT``: French writes the family name in
    capitals)."""
    if text[first.end:second.start] != " ":
        return False
    cases = {_case(first.text), _case(second.text)}
    return len(cases) == 1 or (nom and cases == {"title", "upper"})


def _case(word: str) -> str:
    if word.islower():
        return "lower"
    if word.isupper():
        return "upper"
    return "title" if word[:1].isupper() and word[1:].islower() else "mixed"


def _breton(first: str, second: str) -> bool:
    """Whether ``first`` and ``second`` are a Breton family name said with its article
    (:data:`BRETON_AFTER_LE`: ``le bras``)."""
    return first == "le" and second in BRETON_AFTER_LE


def _split_family(first: str, second: str, family: frozenset[str],
                  written: Container[str] = frozenset()) -> bool:
    """Whether ``first`` and ``second`` are a family name said in two: ``le`` or ``la``
    before a family name of the French list
    (:func:`~emprivacy.entities.name_words.french_family_names`) that spells one with it
    (``le blanc``: *leblanc*), one of :data:`_SPLIT_ARTICLES` before any word where the piece
    also writes the two joined (``written``, folded: ``la chance`` beside ``lachance``), or
    ``le`` before a word of :data:`BRETON_AFTER_LE` (``le bras``: Le Bras).

    >>> family = frozenset({"leblanc", "lachance", "blanc", "laporte"})
    >>> _split_family("le", "blanc", family), _split_family("la", "chance", family)
    (True, False)
    >>> _split_family("la", "chance", family, {"lachance"}), _split_family("la", "porte", family)
    (True, False)
    >>> _split_family("le", "bras", family), _split_family("le", "maire", family)
    (True, False)
    """
    joined = folded(first + second)
    return _breton(first, second) or (
        first in _SPLIT_ARTICLES and joined in family and (
            (first in ("le", "la") and second in family) or joined in written))


def split_family_names(marking: EntityMarking, decisions: list[Decision],
                       counted: Counter[str], text: str, tokens: Sequence[Token],
                       words: Sequence[str]) -> None:
    """In French, a family name that speech splits in two after a given name: ``le blanc``
    of ``mathis le blanc`` (Leblanc, ``blanc`` a family name itself), and ``la chance`` of
    ``rose la chance`` or ``beau soleil`` of ``olive beau soleil`` where the piece writes the
    name joined too (``lachance en un mot``; :func:`_split_family`).  Both words and the given
    name before them become ``PERSON`` slots drawn independently of them (ε = 0) where the
    given name is a listed one, not after an article, one space apart and in the same case,
    and is a person's slot already or an uncommon word (Zipf below 3.5 in French); the second
    word is no function word, title, form key or kind of place, but for a Breton name's word
    after ``le`` (``ange le du``: :data:`BRETON_AFTER_LE`).  Not ``merci paul le maire
    va parler``, ``sophie la porte est ouverte`` (no ``lemaire``, ``laporte`` written joined;
    ``maire``, ``porte`` no family names).  Run twice: in :func:`family_names_beside_given`,
    and after the last pass that makes a given name a person's
    (:func:`~emprivacy.preparation.entity_slots.entity_decisions`)."""
    lists = _french_lists(marking)
    if lists is None:
        return
    given, family = lists
    language = get_language(marking.lang)
    function_words, titles = language.kept_function_words, language.titles
    written = {folded(w) for w, t in zip(words, tokens, strict=True) if t.kind == "word"}

    def given_before(i: int) -> bool:
        d = decisions[i]
        return (tokens[i].kind == "word" and len(tokens[i].text) > 1
                and words[i] not in function_words
                and (all(folded(part) in given for part in words[i].split("-"))
                     or words[i] in french_given_words())  # right before a family name
                and not (i and words[i - 1] in _ARTICLES)
                and ((isinstance(d, EntitySlot) and d.key[0] == "PERSON")
                     or (d is None and zipf_in(words[i], "fr") < 3.5)))

    def second_word(i: int) -> bool:
        w = words[i]
        if _breton(words[i - 1], w):
            return True  # "ange le du": a function word, the name's
        return (len(w) > 1 and w.isalpha() and w not in function_words and w not in titles
                and w not in NAME_TITLES and w not in FORM_KEYS
                and not marking.designator(w))

    for i in range(2, len(tokens)):
        before = i - 1
        if decisions[i] is None and decisions[before] is None \
                and tokens[i].kind == tokens[before].kind == "word" and second_word(i) \
                and _split_family(words[before], words[i], family, written) \
                and given_before(before - 1) \
                and _pair(text, tokens[before - 1], tokens[before]) \
                and _pair(text, tokens[before], tokens[i]):
            for k in (before - 1, before, i):
                if decisions[k] is None:
                    decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
                    counted["PERSON"] += 1
