"""What a detector finds: typed character spans (:class:`EntitySpan`), and the
:class:`EntityDetector` protocol every detector implements.

Detection is kept apart from what is done with a span (Presidio's design: the analyzer
finds, the anonymizer transforms): a detector reads texts and returns spans, it changes
nothing; the policy per type (:mod:`emprivacy.entities.policy`) decides what each span
becomes.  Detectors are combined by union (:class:`UnionDetector`); where spans of several
types cover one word, the type of highest :data:`TYPE_PRIORITY` wins
(:func:`type_of_overlap`).

Detection is a pre-processing step: it is not part of any privacy guarantee.  A word that no
detector finds is an ordinary word and gets the general ε.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate
from operator import attrgetter
from typing import Protocol, runtime_checkable

__all__ = [
    "ENTITY_TYPES",
    "NAMED_TYPES",
    "PROPER_NOUN",
    "SPAN_ORDER",
    "STRUCTURED_TYPES",
    "TYPE_PRIORITY",
    "EntityDetector",
    "EntitySpan",
    "SpanIndex",
    "UnionDetector",
    "check_texts",
    "drop_field_keys",
    "drop_titles",
    "drop_weekdays",
    "list_items",
    "split_at_gaps",
    "streets_typed_people",
    "type_of_overlap",
    "union_of",
]

#: The type of a capitalised word that no model typed (:mod:`emprivacy.entities.capitalised`):
#: a candidate name, resolved through the public lists (:mod:`emprivacy.entities.policy`).
PROPER_NOUN = "PROPER_NOUN"

#: Named entities: people, places (spaCy's GPE, LOC, FAC) and organisations.
NAMED_TYPES: tuple[str, ...] = ("PERSON", "LOCATION", "ORG")

#: Structured identifiers (Presidio's pattern recognisers, :mod:`.presidio_detector`; dates
#: and identifiers of :mod:`.patterns`): always replaced by a placeholder.
STRUCTURED_TYPES: tuple[str, ...] = ("PHONE", "CREDIT_CARD", "IBAN", "IP_ADDRESS", "SSN",
                                     "DATE", "CRYPTO", "NHS", "EMAIL", "URL", "ID")

#: Every type a built-in detector emits.
ENTITY_TYPES: tuple[str, ...] = (*NAMED_TYPES, PROPER_NOUN, *STRUCTURED_TYPES)

#: Where spans of several types cover one word, the first of this order wins: a structured
#: identifier over a name, an organisation over a person or a place (its policy is the
#: stricter), a model's type over a mere capital letter.  Types not listed come after them.
TYPE_PRIORITY: tuple[str, ...] = (*STRUCTURED_TYPES, "ORG", "PERSON", "LOCATION", PROPER_NOUN)


#: Each type's place in :data:`TYPE_PRIORITY`.
_PRIORITY = {t: i for i, t in enumerate(TYPE_PRIORITY)}


@dataclass(frozen=True, slots=True, order=True)
class EntitySpan:
    """A typed span ``[start, end)`` of characters of one text.

    Attributes
    ----------
    start, end : int
        Character offsets into the text the detector was given, ``0 <= start < end``.
    type : str
        The entity type (:data:`ENTITY_TYPES`, or a custom detector's own): upper case.

    >>> EntitySpan(0, 5, "PERSON")
    EntitySpan(start=0, end=5, type='PERSON')
    >>> EntitySpan(3, 3, "PERSON")
    Traceback (most recent call last):
    ...
    ValueError: a span must have 0 <= start < end; got [3, 3)
    """

    start: int
    end: int
    type: str

    def __post_init__(self) -> None:
        start, end, type_ = self.start, self.end, self.type
        if type(start) is int and type(end) is int and 0 <= start < end \
                and type(type_) is str and type_ and type_ == type_.upper():
            return  # the common case at once: a span per name of every text (issue 40, cost)
        for name in ("start", "end"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"{name} must be an int; got {type(value).__name__}")
        if not 0 <= self.start < self.end:
            raise ValueError(f"a span must have 0 <= start < end; got [{self.start}, "
                             f"{self.end})")
        if not isinstance(self.type, str) or not self.type or self.type != self.type.upper():
            raise ValueError(f"a span's type must be a non-empty upper-case str; got "
                             f"{self.type!r}")

    def overlaps(self, start: int, end: int) -> bool:
        """Whether the span shares a character with ``[start, end)``."""
        return self.start < end and start < self.end


class SpanIndex:
    """Spans ordered by start, asked in logarithmic time whether a stretch ``[start, end)``
    overlaps none of them (:meth:`free`) or lies inside one (:meth:`covers`): a long text
    has many spans (issue 40, cost).

    >>> index = SpanIndex([EntitySpan(0, 5, "PERSON"), EntitySpan(10, 12, "ORG")])
    >>> index.free(5, 10), index.free(4, 6), index.covers(1, 5), index.covers(4, 11)
    (True, False, True, False)
    """

    def __init__(self, spans: Iterable[EntitySpan]) -> None:
        ordered = sorted(spans, key=lambda s: s.start)
        self.starts = [s.start for s in ordered]
        self.ends = list(accumulate((s.end for s in ordered), max))  # furthest end so far

    def free(self, start: int, end: int) -> bool:
        k = bisect_left(self.starts, end)  # the spans that start before the stretch ends
        return k == 0 or self.ends[k - 1] <= start

    def covers(self, start: int, end: int) -> bool:
        k = bisect_right(self.starts, start)  # the spans that start at or before it
        return k > 0 and self.ends[k - 1] >= end


@runtime_checkable
class EntityDetector(Protocol):
    """What a detector implements: a name, the types it emits, and batched detection.

    ``detect(texts)`` returns, for each text, its spans (any order, possibly overlapping),
    their offsets into that text.  It must not change the texts, and must give each text
    the spans it would give it alone (batching is for speed only).
    """

    #: The detector's name in ``--entities`` and in records.
    name: str
    #: The types its spans may have.
    types: frozenset[str]

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        """The spans of each text, one list per text."""
        ...


_COLUMN_GAP = re.compile(r"[ \t]*\t[ \t]*| {2,}")
#: Where a name's span is cut besides: a line break, a bracket (not a phone's or a date's), a
#: table's cell separator (``|``).
_NAME_CUT = re.compile(_COLUMN_GAP.pattern + r"|[ \t]*\n[ \t\n]*|[ \t]*[()|][ \t]*")
_KEY_COLON = re.compile(r"[ \t]*:")


def split_at_gaps(text: str, spans: Iterable[EntitySpan]) -> list[EntitySpan]:
    """``spans`` cut at a form's column gap (two spaces or more, or a tab), at a line break,
    at a bracket and at a table's ``|``: a model or the capital-letter detector runs a name
    into the next field's key (``Niamh O'Sullivan    Relationship:``,
    ``Wilmslow Road    Town:``: issue 40, the seventh held-out set, where each key then
    became a name at every mention; ``Zee\nDate
    of birth``, ``Walks (Meanwood Park``: the eighth).  Each piece keeps the span's type; a
    piece right before a colon is the key and is dropped.

    >>> text = "Parent: Niamh O'Sullivan    Relationship: Mother"
    >>> [text[s.start:s.end] for s in split_at_gaps(text, [EntitySpan(8, 40, "PERSON")])]
    ["Niamh O'Sullivan"]
    """
    out: list[EntitySpan] = []
    for span in spans:
        cut = _COLUMN_GAP if span.type in STRUCTURED_TYPES else _NAME_CUT
        gaps = list(cut.finditer(text, span.start, span.end))
        if not gaps:
            out.append(span)
            continue
        start = span.start
        for end, after in [(m.start(), m.end()) for m in gaps] + [(span.end, span.end)]:
            while end > start and text[end - 1] in ": \t":
                end -= 1  # "Diet:" of "Sylheti\nDiet:  ": the key and its colon
            if start < end and _KEY_COLON.match(text, end) is None:
                out.append(EntitySpan(start, end, span.type))
            start = after
    return out


#: Before a field's key on its line: the line's start or a column gap, then at most a bullet
#: or a number (``1  Name:``) and two of the key's words (``NOT authorised:``); not a time
#: stamp (``[07:59] sky:`` is a chat's speaker, any word).
_KEY_BEFORE = re.compile(r"(?:^|(?<!:)(?:\t|  ))[ \t]*(?:[-*•>]+[ \t]*|\d{1,2}"
                         r"[.)]?[ \t]+)?(?:[^\W\d_][\w'’.-]* ){0,2}\Z", re.MULTILINE)
#: After a key's words: at most two more words (an abbreviation's full stop: ``National
#: Insurance no.:``, ``Tél. :``) and a bracket, then the colon (after spaces, French's
#: no-break ones too) and a space.
_SPACE = "[ \t\u00a0\u202f]"  # a space, French's no-break ones before a colon too
_KEY_AFTER = re.compile(rf"(?:\.(?={_SPACE}*:))?(?: [^\W\d_][\w'’-]*\.?){{0,2}}"
                        rf"(?:[ \t]*\([^)\n]{{0,30}}\))?{_SPACE}*:(?={_SPACE}|$)", re.MULTILINE)
#: The first word of a value after its key's colon.
_VALUE_WORD = re.compile(rf"{_SPACE}*([^\W\d_][\w'’-]*)")
_WORDS = re.compile(r"[^\W\d_][\w'’-]*")


def drop_field_keys(text: str, spans: Iterable[EntitySpan], *,
                    ordinary: Callable[[str], bool], lists: bool = False,
                    speech: Container[str] = frozenset()) -> list[EntitySpan]:
    r"""``spans`` less those that lie in a form's key and hold only ordinary words: a model
    types the keys of a form as names (``Allergies:``, ``Date of birth:``, ``Walks (Meanwood
    Park):`` as PERSON, ORG, LOCATION: issue 40, the eighth held-out set, where each key then
    became a name at every mention).  A key starts its line or follows a column gap (after at
    most a time stamp, a bullet or a number) and ends, within three words, at a colon and a
    space; ``ordinary(word)`` says whether a word of it is no name (a speaker's label,
    ``grace:``, stays).  A date or an identifier (:data:`STRUCTURED_TYPES`) always stays:
    ``20 Mar PV:`` is a note's date and its writer's initials, no key.  With ``lists`` (a
    chat whose speakers are labelled ``name:``), a key only where a list of two people or
    more follows it (``gate: holly, drew, miles`` of a pinned rota), where a label is a
    speaker's otherwise.  A key whose value starts with a word of ``speech`` (French ``je``,
    ``moi``, ``oui``: ``Loup : moi aussi``) is a speaker's label, no key.

    >>> text = "Allergies:  Peanut\nDiet:  Halal\nmark: hi all"
    >>> spans = [EntitySpan(0, 9, "PERSON"), EntitySpan(19, 23, "ORG"),
    ...          EntitySpan(32, 36, "PERSON")]
    >>> [text[s.start:s.end] for s in drop_field_keys(text, spans,
    ...                                               ordinary=lambda w: w != "mark")]
    ['mark']
    """
    spans = list(spans)
    out = []
    for span in spans:
        if span.type in STRUCTURED_TYPES:  # "20 Mar PV: spoke to…": a date is never a key
            out.append(span)
            continue
        # the colon after it first: most spans have none, and the key's start is a search
        after = _KEY_AFTER.match(text, span.end)
        key = (after is not None and "\n" not in text[span.start:span.end]
               and _KEY_BEFORE.search(text, max(0, span.start - 40), span.start) is not None
               and not (speech and (said := _VALUE_WORD.match(text, after.end())) is not None
                        and said.group(1).lower() in speech))
        if not key or not all(ordinary(w.lower()) for w in
                              _WORDS.findall(text, span.start, span.end)) or (
                lists and not _people_listed(text, span.end, spans)):
            out.append(span)
    return out


#: An item of a list: a word or two, then a comma, a bracket or the line's end.
_ITEM = re.compile(r"[ \t]*([^\W\d_][\w'’-]*)(?: [^\W\d_][\w'’-]*)?(?:,|[ \t]*(?:\(|$))",
                   re.MULTILINE)


def list_items(text: str, at: int) -> list[tuple[int, str]]:
    """The items of a comma-separated list starting at ``at`` (after a label's colon), each
    as the start and the first word of its one or two words (``holly, drew, miles (till
    7)``).

    >>> list_items("gate: holly, drew, miles (till 7)", 5)
    [(6, 'holly'), (13, 'drew'), (19, 'miles')]
    """
    out = []
    while (m := _ITEM.match(text, at)) is not None:
        out.append((m.start(1), m.group(1)))
        if not text.startswith(",", m.end() - 1):
            break
        at = m.end()
    return out


def _people_listed(text: str, end: int, spans: Sequence[EntitySpan]) -> bool:
    """Whether the value after the key ending at ``end`` (its colon next) is a list
    (:func:`list_items`) of two items or more that ``PERSON`` spans of ``spans`` start."""
    items = list_items(text, text.index(":", end) + 1)
    starts = {s.start for s in spans if s.type == "PERSON"}
    return len(items) >= 2 and sum(start in starts for start, _ in items) >= 2


def drop_titles(text: str, spans: Iterable[EntitySpan], titles: Container[str]
                ) -> list[EntitySpan]:
    """``spans`` less those whose every word is a title (``SGT``, ``CPL`` of a roll's rank
    column, typed an organisation by the recogniser: issue 40, the twenty-fourth English
    set; ``Dr``): a title names no one, and a name beside it has a span of its own.  A date
    or an identifier always stays, and so do the initials of a person's span (``COL`` after
    ``Carla O. Lewis``).

    >>> text = "BELL, WILLIAM | SGT | 24388120"
    >>> spans = [EntitySpan(0, 13, "PERSON"), EntitySpan(16, 19, "ORG")]
    >>> [text[s.start:s.end] for s in drop_titles(text, spans, {"sgt", "cpl"})]
    ['BELL, WILLIAM']
    """
    spans = list(spans)
    alone = [s for s in spans if s.type not in STRUCTURED_TYPES
             and (words := _WORDS.findall(text, s.start, s.end))
             and all(w.lower() in titles for w in words)]
    if not alone:  # most texts: no span of titles alone
        return spans
    initials = {"".join(w[0] for w in _WORDS.findall(text, s.start, s.end)).upper()
                for s in spans if s.type == "PERSON"}
    dropped = {s for s in alone  # "COL to review": Carla O. Lewis's initials, no colonel
               if "".join(_WORDS.findall(text, s.start, s.end)).upper() not in initials}
    return [s for s in spans if s not in dropped]


#: The weekdays' abbreviations.  ``Thu``, ``Mon`` and ``Sun`` are given names too, so a span
#: of them alone is dropped only where a time, a date or another weekday says which they are
#: (:func:`drop_weekdays`).
WEEKDAY_ABBREVIATIONS = frozenset("mon tue tues wed thu thur thurs fri sat sun".split())
#: The first three letters of every weekday's abbreviation (a span's first word's, at once).
_WEEKDAY_STARTS = frozenset(w[:3] for w in WEEKDAY_ABBREVIATIONS)
#: What may stand between two weekdays' abbreviations of a list (``Fri, Sun, Tue``, ``Mon or
#: Tue``, ``Mon–Fri``; not ``and``: ``Sun and Thu`` are two people as often), and the time or
#: date after one (``MON 16:30``, ``Sat 7am``, ``Mon 20/04``, ``Sun 10-4``; not a race's
#: ``12.41`` nor an age).
_WEEKDAY_GAP = re.compile(r"[ \t]*(?:[,/&–-]|\b(?:or|to)\b)[ \t]*", re.IGNORECASE)
_WEEKDAY_AFTER = re.compile(r"[ \t]+\d{1,2}(?::\d\d|[ \t]?[ap]\.?m\b|/\d{1,2}\b|[-–]\d{1,2}\b)",
                            re.IGNORECASE)


def drop_weekdays(text: str, spans: Iterable[EntitySpan]) -> list[EntitySpan]:
    """``spans`` less those of a weekday's abbreviation alone that a time or a date follows
    (``MON 16:30``, ``Sat 7am``, typed a place or a person by the recogniser: issue 40, the
    twenty-eighth English set) or that stands in a list of weekdays (``(Fri, Sun, Tue)``,
    ``Mon or Tue``): no one's name there, where ``Thu`` of ``Officer Thu Trang Pham`` is.

    >>> text = "STAGE 1 – MON 16:30 · checks (Fri, Sun, Tue) · Officer Thu Pham"
    >>> spans = [EntitySpan(10, 13, "LOCATION"), EntitySpan(30, 38, "ORG"),
    ...          EntitySpan(40, 43, "PERSON"), EntitySpan(55, 63, "PERSON")]
    >>> [text[s.start:s.end] for s in drop_weekdays(text, spans)]
    ['Thu Pham']
    """
    spans = list(spans)
    out = []
    for s in spans:
        first = _WORDS.search(text, s.start, s.end)  # most spans: no weekday first (cost)
        if first is None or first.group()[:3].lower() not in _WEEKDAY_STARTS:
            out.append(s)
            continue
        words = [w.lower() for w in _WORDS.findall(text, s.start, s.end)]
        if s.type in STRUCTURED_TYPES or not words or any(
                w not in WEEKDAY_ABBREVIATIONS for w in words):
            out.append(s)
            continue
        if len(words) > 1:  # "Fri, Sun": weekdays alone
            continue
        after = _WEEKDAY_GAP.match(text, s.end)
        before = re.search(r"([^\W\d_]+)" + _WEEKDAY_GAP.pattern + r"\Z",
                           text[max(0, s.start - 12):s.start], re.IGNORECASE)
        listed = (after is not None and after.end() > s.end and (
            m := _WORDS.match(text, after.end())) is not None
            and m.group().lower() in WEEKDAY_ABBREVIATIONS) or (
            before is not None and before.group(1).lower() in WEEKDAY_ABBREVIATIONS)
        if not listed and _WEEKDAY_AFTER.match(text, s.end) is None:
            out.append(s)
    return out


def check_texts(texts: Sequence[str]) -> list[str]:
    """``texts`` as a list of str (a lone str is refused: it is one text, not a batch).

    >>> check_texts(["a", "b"])
    ['a', 'b']
    >>> check_texts("ab")
    Traceback (most recent call last):
    ...
    TypeError: texts must be a sequence of str, not a single str
    """
    if isinstance(texts, str):
        raise TypeError("texts must be a sequence of str, not a single str")
    out = list(texts)
    for text in out:
        if not isinstance(text, str):
            raise TypeError(f"texts must be str; got {type(text).__name__}")
    return out


def type_of_overlap(types: Iterable[str]) -> str | None:
    """The type that wins among spans covering one word (:data:`TYPE_PRIORITY`); ``None``
    for no span.

    >>> type_of_overlap(["PROPER_NOUN", "PERSON"]), type_of_overlap([])
    ('PERSON', None)
    """
    distinct = set(types)
    if len(distinct) < 2:  # most words: one type
        return next(iter(distinct), None)
    last = len(TYPE_PRIORITY)
    return min(distinct, key=lambda t: (_PRIORITY.get(t, last), t))


class UnionDetector:
    """Several detectors as one: every span any of them finds (sorted, duplicates removed).
    A detector whose ``fills_gaps`` is true (the ``learned`` one) is asked apart
    (:meth:`gap_spans`): what it finds fills the gaps that the others' decisions leave
    (:mod:`~emprivacy.preparation.learned_gaps`), after every rule that reads their spans.

    Parameters
    ----------
    detectors : sequence of EntityDetector
        At least one.

    >>> class Fixed:
    ...     name, types = "fixed", frozenset({"PERSON"})
    ...     def detect(self, texts): return [[EntitySpan(0, 3, "PERSON")] for _ in texts]
    >>> UnionDetector([Fixed(), Fixed()]).detect(["Ann met Bob"])
    [[EntitySpan(start=0, end=3, type='PERSON')]]
    """

    def __init__(self, detectors: Sequence[EntityDetector]) -> None:
        detectors = tuple(detectors)
        if not detectors:
            raise ValueError("a union needs at least one detector; got none")
        for d in detectors:
            if not isinstance(d, EntityDetector):
                raise TypeError(f"detectors must implement EntityDetector (name, types, "
                                f"detect); got {type(d).__name__}")
        self.detectors = tuple(d for d in detectors if not getattr(d, "fills_gaps", False))
        self.gap_detectors = tuple(d for d in detectors if getattr(d, "fills_gaps", False))
        self.name = ",".join(d.name for d in detectors)
        self.types = frozenset().union(*(d.types for d in detectors))

    def __repr__(self) -> str:
        return f"UnionDetector({[d.name for d in (*self.detectors, *self.gap_detectors)]!r})"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return self._union(self.detectors, texts)

    def gap_spans(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        """The spans of the detectors that fill gaps (none: empty lists)."""
        return self._union(self.gap_detectors, texts)

    @staticmethod
    def _union(detectors: Sequence[EntityDetector], texts: Sequence[str]
               ) -> list[list[EntitySpan]]:
        texts = check_texts(texts)
        found: list[set[EntitySpan]] = [set() for _ in texts]
        for detector in detectors:
            spans = detector.detect(texts)
            if len(spans) != len(texts):
                raise ValueError(f"detector {detector.name!r} returned {len(spans)} span lists "
                                 f"for {len(texts)} texts")
            for acc, more in zip(found, spans, strict=True):
                acc.update(more)
        return [sorted(acc, key=SPAN_ORDER) for acc in found]  # no Python call per comparison


def union_of(detectors: Sequence[EntityDetector]) -> EntityDetector:
    """One detector alone as it is, else their :class:`UnionDetector` — a gap filler always
    in a union, alone too, so that it fills gaps and never reads as a rule's spans."""
    if len(detectors) == 1 and not getattr(detectors[0], "fills_gaps", False):
        return detectors[0]
    return UnionDetector(detectors)


#: The order of spans, ``(start, end, type)``, as a sort key: ``sorted(spans, key=SPAN_ORDER)``
#: is ``sorted(spans)`` without a Python call per comparison (issue 40, cost).
SPAN_ORDER = attrgetter("start", "end", "type")


#: The street designators that are no family name (``Lane``, ``Hill``, ``Green`` are).
_STREET_ONLY = frozenset("road rd street avenue ave boulevard blvd crescent terrace parkway "
                         "highway mews".split())


def streets_typed_people(text: str, spans: Iterable[EntitySpan], *,
                         given: Callable[[str], bool]) -> list[EntitySpan]:
    """``spans``, a person's span of two or more words that ends with a capitalised street
    designator that is no family name typed a place, where no word before the designator
    is a given name (``given(word)``, the word in lower case): ``Mill Road`` (a model typed
    it a person, and ``Road`` was released at the general ε; issue 40, the sixteenth English
    set), not ``Oluwaseun Avenue told me``.

    >>> text = "Mill Road carnival, Lois Lane, Ann Avenue"
    >>> spans = [EntitySpan(0, 9, "PERSON"), EntitySpan(20, 29, "PERSON"),
    ...          EntitySpan(31, 41, "PERSON")]
    >>> [(text[s.start:s.end], s.type) for s in streets_typed_people(
    ...     text, spans, given=lambda w: w in ("ann", "lois"))]
    [('Mill Road', 'LOCATION'), ('Lois Lane', 'PERSON'), ('Ann Avenue', 'PERSON')]
    """
    out = []
    for span in spans:
        parts = text[span.start:span.end].split()
        if (span.type == "PERSON" and len(parts) > 1 and parts[-1][:1].isupper()
                and parts[-1].lower().rstrip(".") in _STREET_ONLY
                and not any(given(w.lower()) for w in parts[:-1])):
            span = EntitySpan(span.start, span.end, "LOCATION")
        out.append(span)
    return out
