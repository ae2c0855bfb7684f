"""Local places named by common words: ``the drill hall``, ``up Mill Brow``, ``FROM SCOUT
BOTTOM``, ``the Lady Well`` (issue 40, the thirty-fifth stage: places and organisations).

A village's places are mostly named by ordinary words: a word or two and the kind of place
(``Drill Hall``, ``Home Farm``, ``Children's Well``, ``Lead Miners Arms``).  No word of them is
rare, so the designators' rare-word rule (:mod:`~emprivacy.entities.designators`) does not
start a span; a name list often takes the last word for a surname (``Hall``, ``Well``,
``Bottom``) and leaves the words before it to the general mechanism, which at a large ε gives
them back: ``Drill [surrogate]`` tells the reader which building.

:func:`local_places` makes a ``LOCATION`` span (``ORG`` for an inn's ``Arms``) of one or two
words and a head of :data:`PLACE_HEADS` where

* they follow ``the`` or a preposition of place (``at``, ``up``, ``from``, …), or, in Title
  case or capitals, start a line or a table's or list's cell (``| Lady Well |``, ``– SCOUT
  BOTTOM –``), in lower case only where a slash, a colon or a dash follows, as in a rota's
  list (``town farm / robin's stone: dawn``);
* they share one case (all lower case, all Title case or all capitals);
* no word before the head is a function word, a title, a kin word, a number's word, a head
  that is a common word (``THE HEAD OFFICE``, ``ROAD WORKS``) or one of the words that make
  a place of no name (:data:`GENERIC_WORDS`: ``the sports hall``, ``the following spring``,
  ``the wrong end``), nor, in lower case, ends in ``-ed``, ``-ing``
  or ``-ly`` (``the team played well``; ``Holly Farm`` is a place);
* a head that is a common word in other senses too (:data:`COMMON_HEADS`: ``well``, ``end``,
  ``top``, ``office`` …) starts no line and no cell but a table's or a list's (after ``|``, a
  dash, a slash or a tab: not ``amir: sleep well``), and makes a place in lower case or in
  capitals, where case shows nothing, only where the same words recur in the text (``the town
  well`` twice; not ``run the business well``, ``FINISHED IN SOLID OAK``) or in such a list.

In a chat or captions written without a capital, :func:`recurring_landmarks` takes the
town's landmarks named by one common noun (``down at the basin``, ``meet by the junction``):
a noun said at least twice after ``the`` and a preposition of place there, once at least of
destination, and on no allow-list of the nouns that name no place (``the back``, ``the van``).

English only.  Detection is pre-processing, outside the guarantee; docs/ENTITIES.md measures
what it takes that is no place.
"""

from __future__ import annotations

import re
import threading
from collections import Counter
from itertools import pairwise

from emprivacy.entities.capitalised import CALENDAR_WORDS, TITLES
from emprivacy.entities.designator_words import ORG_DESIGNATORS, STREET_DESIGNATORS
from emprivacy.entities.labels import FORM_KEYS, NAME_FIELDS, NAME_TITLES, SPEAKER_ROLES
from emprivacy.entities.name_words import family_names, name_key
from emprivacy.entities.naming import KIN_WORDS
from emprivacy.entities.spans import SPAN_ORDER, EntitySpan, SpanIndex
from emprivacy.entities.streets import GENERIC_WORDS as _STREET_GENERIC
from emprivacy.entities.text_shape import word_case
from emprivacy.exceptions import MissingExtraError
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS, NUMBER_WORDS

__all__ = [
    "COMMON_HEADS",
    "FORMER_USES",
    "GENERIC_WORDS",
    "PLACE_HEADS",
    "POSSESSIVE_HEADS",
    "former_uses",
    "in_local_place",
    "kept_places",
    "local_places",
    "named_after_the",
    "possessive_places",
    "recurring_landmarks",
]

#: Kinds of local place that end a name and are seldom anything else after a noun.
_NOUN_HEADS = frozenset(
    "hall farm mill brow fold cottages lodge manor grange barn wharf quay moor garth intake "
    "meadow meadows orchard brook beck institute chapel".split())

#: Kinds of local place that are common words in other senses too (``as well``, ``the top``,
#: ``head office``): places in lower case or capitals only where the phrase recurs in the text
#: or in a table's or list's cell, and never after another of them.
COMMON_HEADS = frozenset(
    "well end top bottom spring common green head foot cross works office yard arms "
    # a parish's boundary marks and ways (the thirty-fifth English set's tuning half: "the
    # gospel oak", "the mere stone", "robin's stone", "stickworth road", "meadow rise")
    "stone oak gate wood pond hill rise road street lane".split())
# (not ``piece``, a field's name of the thirty-seventh set's tuning half, ``penny piece``: a
# recurring ``set piece``, ``party piece``, ``museum piece`` in prose; the stage's review)
# (``arms`` among them: ``in the mother's arms``; a pub in lower case is
# :mod:`~emprivacy.entities.pubs`'s)

#: Every head of a local place's name.
PLACE_HEADS = _NOUN_HEADS | COMMON_HEADS

#: Words before a head that make a place of no name: which one, how it is, what it is for
#: (beside the streets' :data:`~emprivacy.entities.streets.GENERIC_WORDS`).
GENERIC_WORDS = _STREET_GENERIC | frozenset(
    "following whole first second third fourth fifth last next same former updated "
    "sports dining concert sixth deep shallow "
    # the generic halls and offices of any village, and a sheep's tail head (issue 40, the
    # thirty-fifth stage, on every labelled text: "the village hall", "the post office",
    # "THE SCHOOL OFFICE", "ON THE TAIL HEAD"; a route's "START MILL FIELD"; "THE FOUNDATION
    # STONE", "the box office", "LIGHT OAK" boards)
    "village church parish school post tail start finish real foundation box light "
    # the review's: kinds of hall, farm, mill and intake that name no place
    "exam entrance wind pig dairy rumour paper salt research ski hay january february march "
    "april may june july august september october november december".split())

_NO_NAME = (KEPT_FUNCTION_WORDS | NUMBER_WORDS | GENERIC_WORDS | TITLES | KIN_WORDS
            | COMMON_HEADS)
_LEADS = frozenset(("the at in on from to up down near behind by past of round outside "
                    "opposite into beside").split())
_HEAD = re.compile(r"(?<![\w'’-])(?i:" + "|".join(sorted(PLACE_HEADS)) + r")(?![\w'’-])")
_WORD = re.compile(r"(?<![\w'’-])[A-Za-z]+(?:['’][sS])?(?![\w'’-])")
#: Characters that open a table's or a list's cell.
_CELL = frozenset("|–:,(/\t")
#: The cells' starts after which a common head may start a place: a table's, a list's.
_TABLE_CELL = frozenset("|–/\t")
_POSSESSIVE = re.compile(r"['’][sS]\Z")
_VERB_LIKE = re.compile(r"(?:ed|ing|ly)\Z")
#: What follows a place that starts a line of a list in lower case: a slash, a colon, a
#: dash or the line's end.
_LIST_AFTER = re.compile(r"[ \t\r]*(?:[/:–|]|$)", re.MULTILINE)
#: How far back on its line a head's words are read, in characters.
_BACK = 80


#: Kinds of place and business that end a name after a possessive (besides the local
#: places' heads and the street's and organisations' designators): ``Hope's Acre``,
#: ``Tolly's Barrow``, ``the Giant's Steps``, ``Fisherman's Slip``, ``Mehmet's Grill``.
POSSESSIVE_HEADS = frozenset(
    "acre acres barrow steps slip knoll mead piece field copse corner pool leap ground "
    "grill kitchen diner shed fisheries grocers".split())
_TITLE = r"[A-Z][a-z]+"
#: A Title-case word (or ``St`` and one), a possessive, and one or two Title-case words on
#: the same line: ``Tolly's Barrow``, ``Hope's Acre``, ``the Giant's Steps``, ``St Ebba's
#: Well``, ``Trần's Bakery``.
_POSSESSIVE_PLACE = re.compile(
    rf"(?<![\w'’-])(?:(?:St|Saint)\.? )?[^\W\d_a-z][^\W\d_A-Z]+['’]s"
    rf"(?: {_TITLE}){{1,2}}(?![\w'’-])")
#: Words that own no place: days, and the family words beside the kin words (``Today's
#: Kitchen rota``, ``Mum's Kitchen``, ``Ma's Shed``).
_NOT_OWNERS = frozenset("today tonight yesterday tomorrow mum mam mom ma pa nan nana gran "
                        "grandma grandad grandpa".split())
#: A capitalised word right after a possessive place's last word: the name goes on.
_TITLE_NEXT = re.compile(r" [A-Z]")
#: A lower-case word of three letters or more: the line is written in sentence case, not
#: as a Title-case heading where every word has a capital.
_LOWER_WORD = re.compile(r"(?<![\w'’-])[a-z]{3,}(?![\w'’-])")


#: The buildings a village names by what they were, after ``the old`` (``the old forge``,
#: ``The Old Dairy``, ``THE OLD BAKEHOUSE``): a house's or a tearoom's name, not the
#: generic ``old school`` or ``old road``.
FORMER_USES = frozenset(
    "forge smithy bakehouse dairy rectory vicarage granary tannery maltings "
    "schoolhouse brewery workhouse tollhouse manse".split())
_OLD_PLACE = re.compile(r"(?<![\w'’-])(?:the|The|THE) ((?:old|Old|OLD) (?i:"
                        + "|".join(sorted(FORMER_USES)) + r"))(?![\w'’-])")


def former_uses(text: str) -> list[EntitySpan]:
    """``the old`` and a building named by what it was (:data:`FORMER_USES`), the two words
    in one case, as a ``LOCATION`` span from ``old`` (issue 40, the thirty-sixth stage: ``the
    old forge``, ``at The Old Dairy``, ``THE OLD BAKEHOUSE``; not ``the old school``).

    >>> text = "tea at the old forge, then The Old Dairy; the old school shut"
    >>> [text[s.start:s.end] for s in former_uses(text)]
    ['old forge', 'Old Dairy']
    """
    return [EntitySpan(m.start(1), m.end(1), "LOCATION") for m in _OLD_PLACE.finditer(text)
            if len({word_case(w) for w in m.group(1).split(" ")}) == 1]


def possessive_places(text: str) -> list[EntitySpan]:
    """The places and firms named by a possessive in Title case inside a sentence's words
    (issue 40, the thirty-sixth stage): a capitalised word that is no function word,
    ``'s`` and one or two capitalised words ending in a kind of place or business (a local
    place's head, a street's or an organisation's designator, or one of
    :data:`POSSESSIVE_HEADS`: ``Tolly's Barrow``, ``Hope's Acre``, ``the Giant's Steps``,
    ``Mehmet's Grill``), on a line that has lower-case words too (not a heading).  A
    person's things, an apple's variety, a prize stay (``Tom's Dad``, ``Declan's Irish
    account``, ``Ellery's Seedling``, ``Chief Scout's Gold Award``).  ``ORG`` where the last
    word is an organisation's designator (``Dhillon's Bakery``), else ``LOCATION``.

    >>> text = "park at Hope's Acre by Tolly's Barrow, not Tom's Dad or Trần's Bakery."
    >>> [(text[s.start:s.end], s.type) for s in possessive_places(text)]
    [("Hope's Acre", 'LOCATION'), ("Tolly's Barrow", 'LOCATION'), ("Trần's Bakery", 'ORG')]
    >>> possessive_places("It's Yasmin. Dawn's Birthday Party. Ellery's Seedling is fine")
    []
    """
    found = []
    for m in _POSSESSIVE_PLACE.finditer(text):
        start = text.rfind("\n", 0, m.start()) + 1
        stop = text.find("\n", m.end())
        line = text[start:stop if stop >= 0 else len(text)]
        owner, _, rest = m.group().rpartition("'s " if "'s " in m.group() else "’s ")
        whose = owner.split(" ")[-1].lower()
        if (_LOWER_WORD.search(line) is None or whose in KEPT_FUNCTION_WORDS
                or whose in KIN_WORDS or whose in _NOT_OWNERS):
            continue  # "It's Yasmin", "Dad's Shed", "Today's Kitchen rota"
        words = rest.split(" ")
        for n in range(len(words), 0, -1):  # "Day's Yard" of "Day's Yard My late husband"
            last = words[n - 1].lower()
            end = m.start() + len(owner) + 3 + len(" ".join(words[:n]))
            if (_TITLE_NEXT.match(text, end) and (n == len(words)
                                                  or words[n].lower() not in KEPT_FUNCTION_WORDS)):
                break  # a longer name goes on: "Tom's Field Day", not "Tom's Field" (but
                # "Day's Yard" of "Day's Yard My late husband")
            if last in ORG_DESIGNATORS and last not in STREET_DESIGNATORS:
                found.append(EntitySpan(m.start(), end, "ORG"))
            elif last in PLACE_HEADS or last in STREET_DESIGNATORS or last in POSSESSIVE_HEADS:
                found.append(EntitySpan(m.start(), end, "LOCATION"))
            else:
                continue
            break
    return found


def local_places(text: str) -> list[EntitySpan]:
    """The spans of the local places named by common words in ``text`` (see the module's
    description).

    >>> text = ("tea at the drill hall, then up Mill Brow to the town well. the town well "
    ...         "is lit\\n| Lady Well | FROM SCOUT BOTTOM |\\n– SCOUT BOTTOM –\\n"
    ...         "we ran the business well")
    >>> [(text[s.start:s.end], s.type) for s in local_places(text)]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('drill hall', 'LOCATION'), ('Mill Brow', 'LOCATION'), ('town well', 'LOCATION'),
     ('town well', 'LOCATION'), ('Lady Well', 'LOCATION'), ('SCOUT BOTTOM', 'LOCATION'),
     ('SCOUT BOTTOM', 'LOCATION')]
    >>> text = "town farm / robin's stone: dawn\\ngood farm, that"
    >>> [text[s.start:s.end] for s in local_places(text)]
    ['town farm', "robin's stone"]
    >>> local_places("the sports hall, as well, the following spring, the team played well")
    []
    """
    found = []
    for h in _HEAD.finditer(text):
        line_start = text.rfind("\n", 0, h.start()) + 1
        line = max(line_start, h.start() - _BACK)
        before = list(_WORD.finditer(text, line, h.start()))
        if not before or text[before[-1].end():h.start()].strip(" "):
            continue  # the head must follow a word with only spaces between
        for n in (1, 2):
            if len(before) < n:
                break
            words = before[-n:]
            if any(text[a.end():b.start()].strip(" ") for a, b in pairwise(words)):
                break
            lead = before[-n - 1] if len(before) > n else None
            gap = text[lead.end() if lead is not None else line:words[0].start()].strip(" ")
            if lead is not None and not gap:
                if lead.group().lower() not in _LEADS:
                    continue
                by_lead = True
            elif (gap[-1:] in _CELL or (not gap and line == line_start)) \
                    and (h.group().lower() not in COMMON_HEADS or gap[-1:] in _TABLE_CELL):
                by_lead = False  # a cell's or a line's start; a common head a table's or a
                # list's cell only ("amir: sleep well", "Get Well Soon" are no places)
            else:
                continue
            forms = [w.group() for w in words]
            if any(_POSSESSIVE.sub("", w).lower() in _NO_NAME
                   or (w.islower() and _VERB_LIKE.search(w)) for w in forms):
                continue
            shapes = {word_case(w) for w in (*forms, h.group())}
            if len(shapes) != 1 or (not by_lead and shapes == {"lower"}
                                    and not _LIST_AFTER.match(text, h.end())):
                continue  # a line's or cell's start in lower case: any words at all, but
                # those of a rota's list ("town farm / robin's stone: dawn, mihai")
            phrase = " ".join(w.lower() for w in (*forms, h.group()))
            found.append((words[0].start(), h.end(), phrase,
                          shapes != {"title"} and by_lead, h.group().lower()))
            break
    counts = Counter(phrase for _, _, phrase, _, _ in found)
    return [EntitySpan(start, end, "ORG" if head == "arms" else "LOCATION")
            for start, end, phrase, uncased, head in found
            if not (uncased and head in COMMON_HEADS and counts[phrase] < 2)]


#: One or two words in Title case after ``the`` in lower case, itself after a word in lower
#: case (a comma or a semicolon after it) and a space: the middle of a sentence in ordinary
#: case; not ``Jones the Milk``, a by-name (:mod:`~emprivacy.preparation.by_names`).
_AFTER_THE = re.compile(r"(?<![\w'’-])[a-z]+[,;]? the ([A-Z][a-z]+(?:-[a-z]+)?"
                        r"(?: [A-Z][a-z]+)?)(?![\w'’-])")
#: What ``the`` and a capital name that is no place nor body: a day, a month or ``the Year``
#: of an award, a title, a role, a form's key, a kin word, a people (``the Polish``, ``the
#: Dutch``).
_NOT_AFTER_THE = (CALENDAR_WORDS | NAME_TITLES | NAME_FIELDS | FORM_KEYS | SPEAKER_ROLES
                  | KIN_WORDS | KEPT_FUNCTION_WORDS | frozenset({"year"}))
_PEOPLE = re.compile(r"(?:ese|ian)\Z|(?:engl|ir|pol|span|turk|scott|brit|dan|swed|finn|kurd"
                     r"|corn)ish\Z|\A(?:welsh|dutch|french|scotch)\Z")


def _family_plural(word: str) -> bool:
    """Whether ``word`` is a family named by its name's plural (``the Trewins``, ``the
    Smiths``): a person's, for the name detectors, not a place."""
    try:
        return word.endswith("s") and name_key(word[:-1]) in family_names()
    except MissingExtraError:
        return False


def named_after_the(text: str) -> list[EntitySpan]:
    """Places and bodies a town names by common words, written with a capital after ``the``
    in the middle of a sentence, as English writes a name (``from the Slip``, ``off the
    Point``, ``at the Mermaid``, ``the Fish Market``; issue 40, stage 49: the fifty-first
    English set's tuning half): a ``LOCATION`` span (``ORG`` where the last word is an
    organisation's designator), not a day, a month, a title, a role, a form's key, a kin word
    or a people (:data:`_NOT_AFTER_THE`: ``on the Saturday``, ``the Reverend``, ``the
    Polish``), nor a family (``the Trewins``).  In lower case or in capitals case shows
    nothing: no span.

    >>> text = "Holly cheered from the Slip, then the Fish Market and the Trust. The Quay"
    >>> [(text[s.start:s.end], s.type) for s in named_after_the(text)]
    [('Slip', 'LOCATION'), ('Fish Market', 'ORG'), ('Trust', 'ORG')]
    >>> named_after_the("we met on the Saturday with the Reverend and the Polish team")
    []
    >>> named_after_the("Dai Jones the Milk came by, with the Smiths")
    []
    """
    found = []
    for m in _AFTER_THE.finditer(text):
        forms = m.group(1).lower().split()
        if any(f in _NOT_AFTER_THE for f in forms) or _PEOPLE.search(forms[0]) or (
                len(forms) == 1 and _family_plural(forms[0])):
            continue
        found.append(EntitySpan(m.start(1), m.end(1),
                                "ORG" if forms[-1] in ORG_DESIGNATORS else "LOCATION"))
    return found


#: The words before ``the`` and a landmark in a lower-case line that count its mentions:
#: prepositions of place and motion, and ``of`` (``at the basin``, ``on the green``, ``the
#: far side of the cut``), and those of them that name a destination or a spot (``at``, ``to``,
#: ``from``, ``outside`` …; not ``on`` or ``in``, which take any noun: ``on the bench``).
_LANDMARK_LEADS = _LEADS | frozenset("over under off along across inside through toward".split())
_DESTINATION_LEADS = frozenset(
    "at to from by near outside behind past opposite towards toward".split())
#: The nouns a lower-case chat puts after ``at the``, ``to the`` … that name no place of a
#: town: where (``the top``, ``the back``), when (``the weekend``), which (``the first``),
#: who (``the couple``, ``the crew``, ``the choir``, ``the doctor``), what happens or is
#: thought (``the finish``, ``the appeal``, ``the point``, ``the news``), the weather and the
#: water (``the sea``, ``the tide``), a home's rooms and things (``the kitchen``, ``the
#: fridge``) and the things and media of a conversation (``the van``, ``the page``).  An
#: allow-list of what is released as it is; every other recurring noun there is a place, the
#: town's institutions too (``at the hospital``, ``the school``, ``the pub``: in a town's
#: chat its own, an organisation's placeholder).
LANDMARK_RELEASED = frozenset("""top back bottom front middle end side edge corner way rest
    day morning evening night afternoon week weekend time year month season moment minute
    hour today tonight first second third last next other same whole following thing things
    lot stuff bit one ones kids children lads girls boys family families parents couple crew
    choir band team committee board panel group chat meeting inquiry appeal match game race
    start finish music lights weather rain wind sea sky tide water phone car van bus train
    door gate window wall floor machine hammer list page link post photo video pic pics
    picture sheet form email text message call line queue rota drive left right point party
    internet news future traffic problem problems deadline plan idea house home kitchen
    bathroom bedroom table fridge sofa bed desk doctor doctors dentist vet police""".split())
_THE_NOUN = re.compile(r"(?<![\w'’-])(?:([a-z]+) )?the ([a-z]+(?:-[a-z]+)?)(?![\w'’-])")
#: A chat's time stamp at a line's start (``[14/08/26, 19:02]``, Android's ``14/08/2026,
#: 7:02 PM -``), which may hold capitals (``PM``) without making the line's words cased, and
#: the speaker's label after it (``Joy Field:``): capitals there are a name's, not the line's.
_STAMP = re.compile(r"\A(?:\[[^\]\n]*\]|\d{1,2}/\d{1,2}/\d{2,4},? \d{1,2}:\d{2}"
                    r"(?: ?[AaPp][Mm])? -)?(?: ?[^\W\d_][\w.'’ -]{0,40}: )?")


def recurring_landmarks(text: str) -> list[EntitySpan]:
    """The landmarks a town names by a common noun, in its lower-case chats and captions:
    ``at the basin``, ``down to the junction``, ``meet by the crane`` (issue 40, stage 50).

    In a line with no capital (a chat's time stamp and speaker's label aside) case shows
    nothing, and a town's
    people write its places as they say them: ``the basin`` is the Basin.  A noun after
    ``the`` and a preposition of place (:data:`_LANDMARK_LEADS`) in such lines is a
    ``LOCATION`` (``ORG`` for an organisation's designator: ``the club``) where, in the
    text, it stands so at least twice, once at least after a preposition of destination
    (``at``, ``to``, ``from``, ``outside`` …), and is no function word, no word ending in
    ``-ing``, ``-ed`` or ``-ly``, no number's word, no title or kin word and none of
    :data:`LANDMARK_RELEASED` (``the top``, ``the van``, ``the weekend``).  Each such
    mention of it after ``the`` in such lines is then a span, the noun alone (``the
    junction is closed``, ``at the basin tonight``), but for one before ``of`` (``the
    friends of the mill``: a kind before its name); a mention followed by another word
    than a function word (``the bank holiday``) counts for neither condition.
    English only; pre-processing, outside the guarantee.

    >>> text = "see you at the basin\\nboat's by the basin now\\nat the van. at the van"
    >>> [text[s.start:s.end] for s in recurring_landmarks(text)]
    ['basin', 'basin']
    >>> recurring_landmarks("See you at the Basin. By the Basin now")
    []
    """
    mentions = []
    for line in re.finditer(r"[^\n]+", text):
        stamp = _STAMP.match(line.group())
        body_start = line.start() + (stamp.end() if stamp else 0)
        if any(c.isupper() for c in text[body_start:line.end()]):
            continue
        for m in _THE_NOUN.finditer(text, body_start, line.end()):
            lead, noun = m.group(1) or "", m.group(2)
            if (noun in KEPT_FUNCTION_WORDS
                    or noun in LANDMARK_RELEASED or noun in NUMBER_WORDS or noun in TITLES
                    or noun in KIN_WORDS or _VERB_LIKE.search(noun)):
                continue
            after = _WORD.match(text, m.end() + 1) if text[m.end():m.end() + 1] == " " else None
            if after is not None and after.group() == "of":
                continue  # "the friends of": a kind before its name
            # "the bank holiday": a kind of thing, no evidence of a landmark (but "the basin
            # tonight" is the basin's mention once the basin is one)
            clean = after is None or after.group().lower() in KEPT_FUNCTION_WORDS
            mentions.append((m.start(2), m.end(2), noun, lead if clean else ""))
    counts = Counter(noun for _, _, noun, lead in mentions if lead in _LANDMARK_LEADS)
    destined = {noun for _, _, noun, lead in mentions if lead in _DESTINATION_LEADS}
    return [EntitySpan(start, end, "ORG" if noun in ORG_DESIGNATORS else "LOCATION")
            for start, end, noun, _ in mentions if counts[noun] >= 2 and noun in destined]


#: The last text read in each thread, its places and their index (per thread: two threads'
#: pieces taking turns would otherwise read each other's text again at every word).
_last = threading.local()


def _kept(text: str) -> tuple[list[EntitySpan], SpanIndex]:
    kept = getattr(_last, "kept", None)
    if kept is None or (kept[0] is not text and kept[0] != text):
        spans = sorted({*local_places(text), *possessive_places(text), *former_uses(text),
                        *named_after_the(text), *recurring_landmarks(text)},
                       key=SPAN_ORDER)
        kept = _last.kept = (text, spans, SpanIndex(spans))
    return kept[1], kept[2]


def kept_places(text: str) -> list[EntitySpan]:
    """:func:`local_places`, :func:`possessive_places`, :func:`former_uses`,
    :func:`named_after_the` and :func:`recurring_landmarks` of ``text``, kept for
    :func:`in_local_place`: the marking's detection and the decisions on the same piece read
    them once.

    >>> [s.type for s in kept_places("at the drill hall")]
    ['LOCATION']
    """
    return list(_kept(text)[0])


def in_local_place(text: str, start: int, end: int) -> bool:
    """Whether ``[start, end)`` of ``text`` lies inside a local place's span
    (:func:`local_places`): a word of ``the drill hall`` is the place's, never released at
    the general ε as an ordinary lower-case word.  The places of the last text read
    (:func:`kept_places`) are kept, so the words of one text cost one pass.

    >>> in_local_place("at the drill hall", 7, 12), in_local_place("a drill bit", 2, 7)
    (True, False)
    """
    return _kept(text)[1].covers(start, end)
