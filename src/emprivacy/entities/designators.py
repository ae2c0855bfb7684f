"""The words that make a name an organisation's or a street's: ``Hollins Pharmacy``,
``Halverson Logistics, Inc.``, ``fenwick road``.

A model or a name list often finds the name part of an organisation (``Hollins``, a
surname) and leaves its designator (``Pharmacy``) to the general mechanism, which at a large
ε gives it back unchanged: ``[PERSON] Pharmacy``, or a surrogate and ``Pharmacy``, tells the
reader what kind of place the person went to and, with the town, which one.  This step widens
the spans of a text after detection, whatever the detectors:

* **designators after a name** — a detected span (any named type or
  :data:`~emprivacy.entities.spans.PROPER_NOUN`) followed, on the same line, by one or more
  designators (:data:`ORG_DESIGNATORS`: legal forms, kinds of business and institution;
  :data:`STREET_DESIGNATORS`), with only spaces, a comma or ``&`` between them, becomes one
  span: ``ORG`` for an organisation's designator, ``LOCATION`` for a street's (a comma or
  ``&`` only between two designators, never between the name and the first); the span takes
  in up to three capitalised words just before it on its line (no function word), which a
  capital-letter detector leaves out at a sentence's start.  A word a detector typed
  ``PERSON`` stays a person under ``ORG=keep`` (the most protective type wins,
  :meth:`~emprivacy.entities.marking.EntityMarking.span_type`); a designator in lower case
  joins only if it is one of :data:`LOWER_CASE_DESIGNATORS` or the span is a place's or an
  organisation's (``ashdown close``, ``st anne's primary``; not ``ward`` before ``manager``),
  which then takes in a compass word just before it (:data:`COMPASS_WORDS`: ``west
  oxfordshire district council``), as any place or organisation does, and a flat's or a
  unit's number before it (``FLAT 4, 27 QUAYSIDE MEWS``, ``Unit 4, Ashgrove Estate``);
* **a rare word before a designator** — with ``zipf`` given (how common a word is,
  :func:`~emprivacy.entities.name_words.word_zipf`), a word that no span covers, rarer than
  :data:`RARE_BEFORE` and no function word, followed by designators, starts a span of
  their type: ``kestrel fuels`` and ``fenwick road`` in a lower-case chat, where no
  detector saw a name (``main road``, ``the pharmacy`` stay as they are); in lower case up
  to two words that are no function words may stand between (``whitby community
  hospital``, ``harbourside building society``);
* **a family firm** — one or two words, ``&``, ``and`` or ``et``, then ``Sons``,
  ``Brothers``, ``fils``, ``frères`` or ``Cie`` (``Hughes & Sons``, ``plomberie olive et
  fils``) is an ``ORG`` span (:func:`~emprivacy.entities.family_firms.family_firms`), and
  so is a dotted acronym (``R.G.A.``: :func:`~emprivacy.entities.acronyms.dotted_acronyms`);
* **a capitalised word beside an organisation** — a ``PROPER_NOUN`` span that touches an
  ``ORG`` span (only spaces between, same line) joins it (``Vantage EDR``, ``EDR`` typed);
* **capitalised words between a name and its designator** — on a capitalised name (Title
  case or ALL CAPS), up to two capitalised words that are no function words, possessives
  included, may stand between it and its designator (``MAGISTRATES'`` of ``WESTMARCH
  MAGISTRATES' COURT``, ``Ambulance`` of ``South Western Ambulance Service``);
* **a kind before ``of``** — English writes some kinds *before* the name, linked by
  ``of`` (:data:`ORG_KINDS_OF`, :data:`PLACE_KINDS_OF`: ``Diocese of Galloway``, ``Bank of
  England``, ``BOARD OF EDUCATION``, ``Isle of Wight``): a kind, ``of`` (and ``the``), then a
  detected span or capitalised words (no function word or title; more of them after ``of``
  or ``the``, up to :data:`MOST_KIND_NAME_WORDS`) is one span, ``ORG`` or ``LOCATION``.  The
  kind must be capitalised unless the name is a detected place or organisation (``bank of
  england`` in a lower-case chat; not ``the house of [PERSON]``).  The span is widened over
  designators after it like any other (``Our Lady of Lourdes Primary``).

The lists are allow-lists of what to protect, in lower case; their words are common English
words, so a designator after no detected name (``the pharmacy``, ``main road``) is left
alone (a club's initials, :data:`CAPITALISED_ONLY`, never join in lower case).  Like every
detector this is pre-processing, outside the guarantee (docs/ENTITIES.md measures it).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterator, Sequence

from emprivacy.entities.acronyms import dotted_acronyms
from emprivacy.entities.capitalised import CALENDAR_WORDS
from emprivacy.entities.designator_words import (
    CAPITALISED_ONLY,
    COMPASS_WORDS,
    LOWER_CASE_DESIGNATORS,
    MULTI_WORD_DESIGNATORS,
    NAMED_ORG_ENDS,
    ORG_DESIGNATORS,
    ORG_KINDS_OF,
    PLACE_KINDS_OF,
    STREET_DESIGNATORS,
)
from emprivacy.entities.family_firms import family_firms
from emprivacy.entities.labels import FILLERS
from emprivacy.entities.spans import NAMED_TYPES, PROPER_NOUN, SPAN_ORDER, EntitySpan
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["MOST_KIND_NAME_WORDS", "RARE_BEFORE", "widen_spans"]

#: A flat or a unit and its number before an address (``FLAT 4, 27 QUAYSIDE MEWS``, ``Unit 4,
#: Ashgrove Trading Estate``): part of the place.
_UNIT_BEFORE = re.compile(r"(?<![\w'’-])(?:flat|unit|apartment|apt|suite)\.?[ \t]+\d{1,4}[a-z]?"
                          r"(?:/\d{1,4})?,?[ \t]+(?:\d{1,4}[a-z]?,?[ \t]+)?\Z", re.IGNORECASE)
#: The words :data:`_UNIT_BEFORE` starts with: a text without one has no flat's number.
_UNIT_WORD = re.compile(r"(?<![\w'’-])(?:flat|unit|apartment|apt|suite)", re.IGNORECASE)

#: The most name words (capitalised words or detected spans) after a kind and ``of``.
MOST_KIND_NAME_WORDS = 4

#: Designators that are adjectives or a noun's modifiers too, and the nouns after which they
#: are (``primary carer``, ``nursery nurse``, ``ward manager``: stage 39; not ``oakfield
#: primary``).
_ADJECTIVE_BEFORE = frozenset({"primary", "nursery", "ward"})
_NOUN_AFTER = re.compile(r"[ \t]+(?:carers?|care|contact|reason|concern|source|nurse|worker|"
                         r"teacher|staff|age|years|diagnosis|aim|goal|managers?|members?|"
                         r"rounds?|sister|clerk)\b", re.IGNORECASE)
#: A word rarer than this (Zipf frequency) before a designator is a name's.
RARE_BEFORE = 4.0

# What may stand between a name and its designator, or between two designators.
_GAP = re.compile(r"[ \t]*(?:[,&][ \t]*)?")
_SPACE_GAP = re.compile(r"[ \t]+")
#: Between a name and its first designator: one space, no form's column gap
#: (``Dr Imran Qureshi<tab>Practice:`` is a name and the next key).
_NAME_GAP = re.compile(r"[ \u00a0](?![ \t])")
_WORD = re.compile(r"[A-Za-z]+(?![\w'’-])(?:\.(?=[ \t]*,))?")
_NAME_WORD = re.compile(r"(?<![\w'’-])[A-Za-z][A-Za-z'’-]*[A-Za-z](?=[ \t]+[A-Za-z])")
_LOWER_WORD_AFTER = re.compile(r"[ \t]+([a-z]+)(?![\w'’-])")
_WORD_BEFORE = re.compile(r"(?<![\w'’-])([A-Za-z][A-Za-z'’-]*|\d{1,3}(?i:st|nd|rd|th))[ \t]+\Z")
_KIND_OF = re.compile(r"(?<![\w'’-])(our[ \t]+lady|[a-z]+)[ \t]+of[ \t]+(?:the[ \t]+)?", re.I)
_CAPITALISED_AT = re.compile(r"[A-Z][A-Za-z'’-]*(?<!['’-])")
_OF_AFTER = re.compile(r"[ \t]+(?:of|the|of[ \t]+the)[ \t]+", re.IGNORECASE)
_POSSESSIVE = re.compile(r"['’][sS]?(?=[ \t])")
_CAPITALISED_AFTER = re.compile(  # "and" between too: "Fire and Rescue Service"
    r"[ \t]+(?:(?:and|&)[ \t]+)?([A-Z][A-Za-z]*(?:['’][Ss]?)?)(?![\w'’-])")
#: The most words between a name and its designator (capitalised, or in lower case), and
#: the words that are never among them.
_MOST_BETWEEN = 2
_NOT_BETWEEN = KEPT_FUNCTION_WORDS | FILLERS
_LETTERS = re.compile(r"[A-Za-z]+")
_LAST_WORD = re.compile(r"[A-Za-z]+\Z")
_ALL_DESIGNATORS = ORG_DESIGNATORS | STREET_DESIGNATORS
#: The most capitalised words a designator's span takes in before its name.
_MOST_BEFORE = 3
#: Spans further apart than this many characters never touch.
_NEAR = 64
#: How far back :meth:`_DesignatorsNear.words_before` reads for a designator's words
#: before reading the whole line, in characters.
_BACK_CHARS = 512
_CHUNK = re.compile(r"\S+")
_NAMED = frozenset(NAMED_TYPES) | {PROPER_NOUN}
_PLACES = frozenset({"LOCATION", "ORG"})


def widen_spans(text: str, spans: Sequence[EntitySpan], *,
                zipf: Callable[[str], float] | None = None) -> list[EntitySpan]:
    """The spans of ``text`` (sorted) with the organisation and street spans their
    designators and neighbours make (see the module's description); the spans given are
    kept, the new ones added.

    >>> text = "Collected from Hollins Pharmacy on Fenwick Road; Vantage EDR flagged it."
    >>> found = [EntitySpan(15, 22, "PERSON"), EntitySpan(35, 42, "PROPER_NOUN"),
    ...          EntitySpan(49, 56, "PROPER_NOUN"), EntitySpan(57, 60, "ORG")]
    >>> [(text[s.start:s.end], s.type) for s in widen_spans(text, found)
    ...  if s not in found]
    [('Hollins Pharmacy', 'ORG'), ('Fenwick Road', 'LOCATION'), ('Vantage EDR', 'ORG')]
    >>> widen_spans("the pharmacy on main road", [])
    []
    >>> text = "the van from kestrel fuels is on main road"
    >>> rarity = {"kestrel": 2.9, "main": 5.6}
    >>> [(text[s.start:s.end], s.type)
    ...  for s in widen_spans(text, [], zipf=lambda w: rarity.get(w.lower(), 7.0))]
    [('kestrel fuels', 'ORG')]
    """
    saints = _saints(text, spans)
    if saints:  # a person's span that takes in the saint ("st james's") is the place's; what
        # it holds past the place stays the person's ("st john okafor": okafor)
        place_end = {s.start: s.end for s in saints}
        spans = [s if s.start not in place_end or s.type not in ("PERSON", PROPER_NOUN)
                 else EntitySpan(place_end[s.start], s.end, s.type) for s in spans
                 if not (s.start in place_end and s.type in ("PERSON", PROPER_NOUN)
                         and s.end <= place_end[s.start])]
    spans = sorted({*spans, *_kinds_of(text, spans), *saints,
                    *family_firms(text, zipf, spans, rare=RARE_BEFORE), *dotted_acronyms(text)},
                   key=SPAN_ORDER)
    out = set(spans)
    # where the designators are: a word no designator follows closely on its line makes no
    # span, so most words are passed over without a look (issue 40, cost)
    near = _DesignatorsNear(text)
    if zipf is not None and near.starts:
        out.update(_rare_before_designators(text, spans, zipf, near))
    for s in spans:
        if s.type == PROPER_NOUN and (last := _LAST_WORD.search(text, s.start, s.end)) and (
                form := last.group().lower()) in _ALL_DESIGNATORS:
            # a capitalised run ending in a designator (NORTHGATE of NORTHGATE BOROUGH COUNCIL
            # at a line's start): the organisation's or street's, with the capitalised words
            # before it and any designators after it; not a designator alone ("the Court")
            start = _capitalised_before(text, s.start, ordinal=form in ORG_DESIGNATORS)
            if start < s.start or (form in NAMED_ORG_ENDS
                                   and _named_before(text, s, form, zipf)):
                # or a run of its own whose words before the designator are not all
                # designators ("The Lantern Players"; not "Health Centre")
                end, kind = _designators_after(text, s.end)
                out.add(EntitySpan(start, end if kind is not None else s.end,
                                   "ORG" if form in ORG_DESIGNATORS or kind == "ORG"
                                   else "LOCATION"))
                continue
        if s.type not in _NAMED or not near.after(s.end):
            continue
        past = _possessive_end(text, s.end)  # CORONER'S COURT, MAGISTRATES' COURT
        end, kind = _designators_after(text, past, any_case=s.type in _PLACES)
        if kind is None and s.type != "PERSON" and text[s.start:s.end].islower():
            end, kind = _designators_past(text, s.end, _LOWER_WORD_AFTER)
        elif kind is None and text[s.start].isupper():
            end, kind = _designators_past(text, past, _CAPITALISED_AFTER)
        if kind is not None:
            start = _capitalised_before(text, s.start)
            out.add(EntitySpan(_compass_before(text, start) if s.type in _PLACES else start,
                               end, kind))
    units = _UNIT_WORD.search(text) is not None  # most texts name no flat: one look
    for s in spans:  # "west oxfordshire district council": the compass word before it
        if s.type in _PLACES and (start := _compass_before(text, s.start)) < s.start:
            out.add(EntitySpan(start, s.end, s.type))
        if units and s.type in _PLACES and (unit := _UNIT_BEFORE.search(
                text, text.rfind("\n", 0, s.start) + 1, s.start)) is not None:
            out.add(EntitySpan(unit.start(), s.end, "LOCATION"))  # "Unit 4, Ashgrove ..."
    orgs = sorted((s for s in spans if s.type == "ORG"), key=SPAN_ORDER)
    starts = [o.start for o in orgs]
    by_end = sorted(orgs, key=lambda o: o.end)
    ends = [o.end for o in by_end]
    for s in spans:
        if s.type != PROPER_NOUN or not orgs:
            continue
        # only the organisations that start right after it or end right before it
        after = orgs[bisect_left(starts, s.end):bisect_right(starts, s.end + _NEAR)]
        before = by_end[bisect_left(ends, s.start - _NEAR):bisect_right(ends, s.start)]
        for o in (*after, *before):
            if _touching(text, s, o):
                out.add(EntitySpan(min(s.start, o.start), max(s.end, o.end), "ORG"))
    return sorted(out, key=SPAN_ORDER)


#: A family firm (``Hughes & Sons``, ``plomberie olive et fils``, ``Martin et Cie``): one or two
#: words, then ``&``, ``and`` (before a capital), or ``et``, then the family word.
#: A saint's abbreviation or title right before a name (``st james's``, ``St. Anne's``).
_SAINT_BEFORE = re.compile(r"(?<![\w'’-])(?:st\.?|saint)[ \t]+\Z", re.IGNORECASE)


def _saints(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """``LOCATION`` spans of a saint's place: ``st`` or ``saint`` right before a person's or
    a capitalised word's span, with its possessive (``home from st james's``: a hospital,
    its ``st`` and ``'s`` released as words beside the name's surrogate); a person's span
    that starts at the saint is dropped (:func:`widen_spans`), an organisation's or a place's
    is left as it is."""
    out = []
    for s in spans:
        if s.type in ("PERSON", PROPER_NOUN) and (
                saint := _SAINT_BEFORE.search(text, max(0, s.start - 8), s.start)):
            out.append(EntitySpan(saint.start(), _possessive_end(text, s.end), "LOCATION"))
    return out


class _DesignatorsNear:
    """The starts of the words of ``text`` that may be designators (a superset: any case,
    any word of the lists, ``and district``), to ask whether one follows a position closely."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = sorted([m.start() for m in _LETTERS.finditer(text)
                              if m.group().lower() in _ALL_DESIGNATORS]
                             + [m.start() + 1 for m in MULTI_WORD_DESIGNATORS.finditer(text)])

    def words_before(self, pattern: re.Pattern[str]) -> Iterator[re.Match[str]]:
        """The matches of ``pattern`` (words: no whitespace in a match) in order, each once,
        among the last ``_MOST_BETWEEN + 3`` words before each designator on its line: a
        superset of the words after which :meth:`after` holds, found without reading the
        rest of the text (issue 40, cost: most words are far from any designator)."""
        text, done, line, last = self.text, 0, 0, 0
        for d in self.starts:
            # the line's start, read forward from the designator before (linear in all);
            # every word before done was read for an earlier designator
            line = max(line, text.rfind("\n", last, d) + 1)
            last = d
            first = max(line, done)
            chunks = [c.start() for c in _CHUNK.finditer(text, max(first, d - _BACK_CHARS), d)]
            if len(chunks) < _MOST_BETWEEN + 3 and d - _BACK_CHARS > first:
                chunks = [c.start() for c in _CHUNK.finditer(text, first, d)]
            lo = chunks[-(_MOST_BETWEEN + 3)] if len(chunks) >= _MOST_BETWEEN + 3 else first
            for m in pattern.finditer(text, max(lo, done)):
                if m.start() >= d:
                    break
                done = m.end()
                yield m
            done = max(done, d)

    def after(self, pos: int) -> bool:
        """Whether a designator starts after ``pos`` on its line with at most
        :data:`_MOST_BETWEEN` words (and a possessive) between: where every path of
        :func:`widen_spans` may find one."""
        k = bisect_left(self.starts, pos)
        if k == len(self.starts):
            return False
        between = self.text[pos:self.starts[k]]
        return "\n" not in between and len(between.split()) <= _MOST_BETWEEN


def _rare_before_designators(text: str, spans: Sequence[EntitySpan],
                             zipf: Callable[[str], float],
                             near: _DesignatorsNear) -> list[EntitySpan]:
    """The spans that a rare word no span covers (or a lower-case person's span alone)
    starts, followed by designators."""
    found = []
    covered = sorted((s.start, s.end) for s in spans)
    people = {(s.start, s.end) for s in spans if s.type == "PERSON"}
    k = 0
    for m in near.words_before(_NAME_WORD):
        if not near.after(m.end()):
            continue
        while k < len(covered) and covered[k][1] <= m.start():
            k += 1
        if k < len(covered) and covered[k][0] < m.end() and not (
                m.group().islower() and (m.start(), m.end()) in people):
            continue  # inside a span already; not a lower-case name's alone (oakfield of
            # "oakfield high school", a rare word the names detector took for a person's)
        end, kind = _designators_after(text, m.end())
        if kind is None and not m.group().islower():
            continue
        if m.group().lower() in KEPT_FUNCTION_WORDS or zipf(m.group()) >= RARE_BEFORE:
            continue
        if kind is None:  # rare and in lower case: up to two words may stand between
            end, kind = _designators_past(text, m.end(), _LOWER_WORD_AFTER)
        if kind is not None:
            found.append(EntitySpan(_compass_before(text, m.start()), end, kind))
    return found


def _kinds_of(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """The spans that a kind written before ``of`` makes with the name after it (see the
    module's description).

    >>> text = "the Diocese of Galloway and the bank of england, not the house of Ann"
    >>> found = [EntitySpan(15, 23, "PROPER_NOUN"), EntitySpan(40, 47, "LOCATION"),
    ...          EntitySpan(66, 69, "PERSON")]
    >>> [(text[s.start:s.end], s.type) for s in _kinds_of(text, found)]
    [('Diocese of Galloway', 'ORG'), ('bank of england', 'ORG')]
    """
    from emprivacy.entities.capitalised import TITLES
    if "of" not in text and "OF" not in text and "Of" not in text:
        return []
    by_start: dict[int, int] = {}
    typed: dict[int, set[str]] = {}
    for s in spans:
        if s.type in _NAMED:
            by_start[s.start] = max(by_start.get(s.start, s.end), s.end)
            typed.setdefault(s.start, set()).add(s.type)
    found = []
    for m in _KIND_OF.finditer(text):
        kind = "_".join(m.group(1).lower().split())
        span_type = ("ORG" if kind in ORG_KINDS_OF
                     else "LOCATION" if kind in PLACE_KINDS_OF else None)
        if span_type is None:
            continue
        capitalised = m.group(1)[0].isupper()
        pos, end, units = m.end(), None, 0
        while units < MOST_KIND_NAME_WORDS:
            if pos in by_start:
                if not capitalised and units == 0 and not typed[pos] & {"LOCATION", "ORG"}:
                    break
                if "ORG" in typed[pos]:  # Vale of [Glamorgan Council]: an organisation
                    span_type = "ORG"
                end = pos = by_start[pos]
            else:
                word = _CAPITALISED_AT.match(text, pos)
                if (word is None or not capitalised
                        or word.group().lower() in KEPT_FUNCTION_WORDS
                        or word.group().lower().rstrip(".") in TITLES):
                    break
                end = pos = word.end()
            units += 1
            link = _OF_AFTER.match(text, pos)
            space = _SPACE_GAP.match(text, pos)
            if link is not None and (link.end() in by_start
                                     or _CAPITALISED_AT.match(text, link.end())):
                pos = link.end()
            elif (space is not None and capitalised
                  and (nxt := _CAPITALISED_AT.match(text, space.end())) is not None
                  and nxt.group().lower() not in ORG_DESIGNATORS | STREET_DESIGNATORS):
                pos = space.end()  # a designator after the name is widened below
            else:
                break
        if end is not None:
            found.append(EntitySpan(m.start(1), end, span_type))
    return found


def _possessive_end(text: str, pos: int) -> int:
    """After a possessive ending right at ``pos`` (``'s``, ``'S``, ``'``) followed by a space:
    its end; else ``pos``."""
    m = _POSSESSIVE.match(text, pos)
    return m.end() if m is not None else pos


def _designators_past(text: str, pos: int, words: re.Pattern[str]) -> tuple[int, str | None]:
    """As :func:`_designators_after`, past up to two words of ``words`` (a pattern matching
    one word after spaces, its group 1 the word) that are no function words: lower-case ones
    (``community`` of ``whitby community hospital``, ``building`` of ``harbourside building
    society``) or capitalised ones (``MAGISTRATES'`` of ``WESTMARCH MAGISTRATES' COURT``); no
    filler (``ripon doctor um row rao``)."""
    for _ in range(_MOST_BETWEEN):
        following = words.match(text, pos)
        if following is None or following.group(1).lower() in _NOT_BETWEEN:
            break
        pos = following.end()
        end, kind = _designators_after(text, pos)
        if kind is not None:
            return end, kind
    return pos, None


def _designators_after(text: str, pos: int, *, any_case: bool = False
                       ) -> tuple[int, str | None]:
    """The end of the run of designators after ``pos`` (same line), and the type it makes:
    ``ORG`` if any is an organisation's, ``LOCATION`` if they are a street's, ``None`` if
    there are none.  In lower case only those of :data:`LOWER_CASE_DESIGNATORS` end a run,
    unless ``any_case`` (after a place or an organisation: ``ashdown close``, ``st anne's
    primary``)."""
    end, kind = pos, None
    at, tentative = pos, None  # a lower-case run ends in a designator of the lower-case list
    while True:
        if (several := MULTI_WORD_DESIGNATORS.match(text, at)) is not None:  # "C of E"
            at, end, kind, tentative = several.end(), several.end(), "ORG", "ORG"
            continue
        # a comma or "&" only between designators (LOGISTICS, INC.), never after the name
        gap = (_GAP if tentative is not None else _NAME_GAP).match(text, at)
        word = _WORD.match(text, gap.end()) if gap else None
        if word is None:
            return end, kind
        form = word.group().rstrip(".").lower()
        if form in _ADJECTIVE_BEFORE and _NOUN_AFTER.match(text, word.end()):
            return end, kind  # "kofi primary carer": an adjective, no school
        if form in ORG_DESIGNATORS and not (form in CAPITALISED_ONLY and word.group().islower()):
            tentative = "ORG"
        elif form in STREET_DESIGNATORS:
            tentative = tentative or "LOCATION"
        else:
            return end, kind
        at = word.end()
        if not word.group().islower() or form in LOWER_CASE_DESIGNATORS or any_case:
            end, kind = at, tentative  # "building society": building only before society


def _named_before(text: str, span: EntitySpan, last: str,
                  zipf: Callable[[str], float] | None) -> bool:
    """Whether a capitalised run ``span`` that ends with the organisation's designator
    ``last`` holds, before it, a word that is no designator nor a calendar word, and less
    common than Zipf :data:`NAMED_BEFORE_ZIPF` (by ``zipf``, where given): the
    organisation's name (``Lantern`` of ``The Lantern Players``; issue 40, the seventeenth
    English set), not a kind alone (``Health Centre``, ``Sunday School``, ``The Book Club``,
    ``Youth Club``)."""
    words = text[span.start:span.end].split()
    return len(words) >= 2 and words[-1].lower() == last and any(
        w.lower() not in _ALL_DESIGNATORS and w.lower() not in CALENDAR_WORDS
        and w[:1].isupper() and (zipf is None or zipf(w.lower()) < NAMED_BEFORE_ZIPF)
        for w in words[:-1])


#: A word before a named organisation's designator below this Zipf frequency is a name's
#: (``Lantern`` 3.6, ``Polish`` 4.3; not ``Book`` 5.4, ``Youth`` 4.8).
NAMED_BEFORE_ZIPF = 4.5


def _capitalised_before(text: str, pos: int, *, ordinal: bool = False) -> int:
    """Where a name that ends in a designator starts: ``pos``, or earlier over the
    capitalised words before it on its line (only spaces between; no function word), which a
    capital-letter detector leaves out at a line's or sentence's start (``NORTHGATE`` of
    ``NORTHGATE BOROUGH COUNCIL``), and with ``ordinal`` one before them (``1ST POLISH``)."""
    start = pos
    line = text.rfind("\n", 0, pos) + 1
    for _ in range(_MOST_BEFORE):
        m = _WORD_BEFORE.search(text, line, start)
        if m is not None and m.group(1)[0].isdigit():  # "1ST POLISH ARMOURED DIVISION"
            return m.start(1) if ordinal else start  # not "3RD ROW", "2ND FLOOR"
        if m is None or not m.group(1)[0].isupper() or m.group(1).lower() in KEPT_FUNCTION_WORDS:
            return start
        start = m.start(1)
    return start


def _compass_before(text: str, pos: int) -> int:
    """Where a place's or an organisation's name starts with the compass word just before
    ``pos`` (:data:`COMPASS_WORDS`, any case, one space between: ``west`` of ``west
    oxfordshire district council``, ``North`` of ``North Yorkshire Police``); else ``pos``.
    Only the few characters before the spaces at ``pos`` are read, not the line (issue 40,
    cost): a longer word is no compass word, and no match starts inside a word."""
    end = pos
    while end > 0 and text[end - 1] in " \t":
        end -= 1
    if end == pos:
        return pos
    start = max(text.rfind("\n", 0, end) + 1, end - _LONGEST_COMPASS)
    m = _WORD_BEFORE.search(text, start, pos)
    return m.start(1) if m is not None and m.group(1).lower() in COMPASS_WORDS else pos


_LONGEST_COMPASS = max(map(len, COMPASS_WORDS))  # the window of _compass_before


def _touching(text: str, a: EntitySpan, b: EntitySpan) -> bool:
    """Whether two spans are neighbours on one line with only spaces between them."""
    left, right = (a, b) if a.end <= b.start else (b, a)
    if left.end > right.start or right.start - left.end > _NEAR:
        return False
    gap = text[left.end:right.start]
    return gap == "" or _SPACE_GAP.fullmatch(gap) is not None
