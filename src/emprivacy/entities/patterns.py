"""Dates and identifiers by pattern: the whole date (its month word included) and the whole
identifier (its letters included) as one span.

Text mode turns every number into ``[NUM]`` by itself, which leaves a date's month
(``March [NUM], [NUM]``) and an identifier's letters (``KD-[NUM]``, ``[NUM]-CV-[NUM]``) in
the release.  This detector needs no model and no extra:

* ``DATE`` — a month name or its abbreviation with a day and/or a year (``March 3, 2021``,
  ``3rd of March``, ``Mar. 2021``, ``march 3``; a weekday before a day and a month joins the
  span: ``Sat 22 June``, ``Tuesday, March 3``), numeric dates (``3/14/22``,
  ``14.03.2022``, ``2022-03-14``), in any case, and a month's full name alone after a
  preposition of time (``in March``, ``since June``, ``until``, ``till``, ``by``, ``from``,
  ``during``, ``before``, ``after``, ``through``, ``early``, ``late``, ``mid``, ``last``,
  ``next``, ``this``, ``the month of``): the month word alone is the span, the preposition
  stays a word; a date read aloud, its day's ordinal in words (``the thirty first of
  february``, ``june the ninth``); a month that is no one's name nor another word
  (``January``, ``February``, ``September`` to ``December``, ``Feb``, ``Oct``, ``Nov``) as a
  word of its own (``waive February rent``, ``rent for feb``; not in ``22/NOV/19``).  A month name
  elsewhere (``June said``, ``with April``) is left to the person detectors: the month
  words of dates are never released as they are (issue 40);
* ``ID`` — a word of letters and digits joined by hyphens or slashes with at least one
  letter and one digit (``KD-44718``, ``22-CV-0193``, ``MRN-00123``), any word mixing
  letters and digits (``A1234567``, ``7ABC123``, ``KX19``, ``pd40182``) but an ordinal, a
  time, a decade or a quantity with its unit (``3rd``, ``10am``, ``90s``, ``5mg``, ``14-day``,
  ``5-year-old``, ``2-3-week``), a
  British number plate in capitals (``KX19 RWE``; in lower case its first part), ``#``
  followed by digits (``#48213``), and a prefix of one to three letters before groups of
  digits, four digits at least (``wo 7731``, ``BB 4471 0932``, ``ra 4 772 190 k``: a single
  letter after them, a check letter, joins) unless the letters are a common short word
  (``at 1030``, ``in 2024``, ``on 14 03``, ``tue 1400``); a user name of words joined by
  underscores (``dai_the_bat``, ``chopper_evans``), whose parts the tokenizer would release
  one by one; an identifier read aloud, letters among numbers (``k l nine four two``);
* ``EMAIL`` — an e-mail address read aloud (``advice at northway housing dot org dot uk``).

Its types are structured identifiers: their policy is always a placeholder
(:mod:`emprivacy.entities.policy`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from emprivacy.entities.spans import (
    SPAN_ORDER,
    STRUCTURED_TYPES,
    EntitySpan,
    SpanIndex,
    check_texts,
)

__all__ = ["SHARED_CODE_LINES", "PatternDetector", "drop_codes", "shared_codes"]

_MONTH = (r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?"
          r"|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)")
_DAY = r"(?:[0-3]?\d(?:st|nd|rd|th)?)"
_YEAR = r"(?:(?:1[5-9]|20)\d\d|'\d\d)"  # 1500-2099: a family history's 1852 too
#: A weekday before a date joins its span (``Sat 22 June``, ``Tuesday, March 3``): the day of
#: the week narrows the date as its month does.  An abbreviation only with a capital or its
#: full stop (``wed. 3 june``; not ``I sat 22 June exams``).
_WEEKDAY = (r"(?:(?:(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday),?"
            r"|(?-i:Mon|Tues?|Wed|Thu(?:rs?)?|Fri|Sat|Sun|MON|TUES?|WED|THU(?:RS?)?|FRI|SAT|SUN)"
            r"\.?,?|(?:mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\.,?)[ \t]+(?:the[ \t]+)?)")
_DATE = re.compile(  # no day right after a time's colon: "19:09 june wood:" is a chat's line
    rf"\b(?<!\d:)(?:{_WEEKDAY}?{_MONTH}\.?[ \t]+{_DAY}(?:,?[ \t]+{_YEAR})?\b"
    rf"|{_WEEKDAY}?{_DAY}[ \t]+(?:of[ \t]+)?{_MONTH}\b\.?(?:,?[ \t]+{_YEAR}\b)?"
    rf"|{_MONTH}\.?,?[ \t]+(?:quarter[ \t]+)?{_YEAR}\b"  # "December quarter 1852": an index's
    r"|\d{4}-\d{1,2}-\d{1,2}\b|\d{1,2}[/.\-]\d{1,2}[/.\-](?:\d{4}|\d{2})\b)",
    re.IGNORECASE)
#: A day's ordinal in words (``ninth``, ``thirty first``, ``twenty-second``).
_ORDINAL_WORD = (r"(?:(?:twenty|thirty)[ \t-]?(?:first|second|third|fourth|fifth|sixth|seventh"
                 r"|eighth|ninth)|first|second|third|fourth|fifth|sixth|seventh|eighth|ninth"
                 r"|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth"
                 r"|eighteenth|nineteenth|twentieth|thirtieth)")
#: A date read aloud (a transcribed call: ``the ninth of june``, ``june the ninth``), found
#: from its month word: what comes before it, what comes after it.
_MONTH_WORD = re.compile(rf"\b{_MONTH}\b", re.IGNORECASE)
_ORDINAL_BEFORE = re.compile(rf"\b(?:the[ \t]+)?{_ORDINAL_WORD}[ \t]+of[ \t]+\Z",
                             re.IGNORECASE)
_ORDINAL_AFTER = re.compile(rf"[ \t]+(?:the[ \t]+)?{_ORDINAL_WORD}\b", re.IGNORECASE)
#: A month's full name alone after a preposition of time: a date (group 1 is the month).
_LONE_MONTH = re.compile(
    r"\b(?:in|since|until|till|by|from|during|before|after|through|early|late|mid|last|next"
    r"|this|month[ \t]+of)[ \t]+(january|february|march|april|may|june|july|august|sept"
    r"|september|october|november|december)\b", re.IGNORECASE)  # each a match of _MONTH_WORD
#: A month's name in Title case between ``the`` and a word in lower case: a date used as a
#: noun's attribute (``the September meeting``, ``to the March agenda``; issue 40, stage 49,
#: the fifty-first English set's minutes, read once measured); not ``the march`` (a walk).
_THE_MONTH = re.compile(r"\bthe[ \t]+(January|February|March|April|May|June|July|August"
                        r"|September|October|November|December)(?=[ \t]+[a-z])")
#: The months whose names are no one's given name nor another word (``June``, ``May``,
#: ``April``, ``March``, ``August`` are; ``Jan`` and ``Dec`` are names' short forms, ``sept``
#: a French number): their full names and the abbreviations ``Feb``, ``Oct``, ``Nov`` name a
#: month as a word of their own (``waive February rent``, ``rent for feb``; issue 40, stage
#: 50, the fifty-second English set's tuning half), in any case; not inside a code
#: (``22/SEPT/19``, ``88713/Nov``: the identifier's) nor a word (group 1 is the month).
_PLAIN_MONTH = re.compile(r"(?<![\w'’/-])(january|february|september|october|november"
                          r"|december|feb|oct|nov)(?![\w'’/-])", re.IGNORECASE)
_ID = re.compile(
    r"(?<![\w@.])(?:(?=[A-Za-z0-9]*[/-])(?=[\w/-]*\d)(?=[\w/-]*[A-Za-z])"
    r"[A-Za-z0-9]+(?:[/-][A-Za-z0-9]+)+"
    r"|[A-Z]{2}\d{2}[ \t][A-Z]{3}(?![\w@])"
    r"|(?=[A-Za-z]*\d)(?=\d*[A-Za-z])[A-Za-z0-9]{2,}"
    r"|\#\d{3,})(?![\w@])")
_HANDLE = re.compile(r"(?<![\w@.])[A-Za-z][A-Za-z0-9]*(?:_+[A-Za-z0-9]+)+(?![\w@])")
_SPACED_ID = re.compile(
    r"(?<![\w@.'’-])(?P<letters>[A-Za-z]{1,3})(?P<digits>(?:[ \t]+\d+){1,4})"
    r"(?:[ \t]+(?P<check>[A-Za-z]))?(?![\w@'’-])")
#: The radio alphabet's words among :data:`_LETTER_NAMES`: a code holds two letters at least.
_RADIO = frozenset(
    "alpha alfa bravo charlie delta echo foxtrot golf hotel india juliet juliett kilo lima "
    "mike november oscar papa quebec romeo sierra tango uniform victor whiskey whisky x-ray "
    "xray yankee zulu".split())
#: One unit of an identifier read aloud (a transcribed call: ``k l nine four two``): a letter,
#: a digit's word (``oh``, ``double``), or digits.
#: The number words of a count (``seven``, ``twenty``, ``hundred``).
_COUNT_WORDS = (r"zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen"
                r"|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty"
                r"|fifty|sixty|seventy|eighty|ninety|hundred")
_SPOKEN_UNIT = (r"(?:oh|" + _COUNT_WORDS + r"|double|triple|\d{1,4}"
                r"|em|ess|aitch|zed|" + "|".join(sorted(_RADIO, key=len, reverse=True))
                + r"|[A-Za-z])(?![\w'’-])")
#: Units of a spoken identifier that only a phone number or a code says: no count says them.
#: A digit: every alternative of :data:`_DATE`, :data:`_ID` and :data:`_SPACED_ID` needs one.
_DIGIT = re.compile(r"\d")
_DIGIT_WORDS = frozenset({"oh", "double", "triple"})
#: Letters said by their names in a spoken code (``em thirty oh h x``) or by the radio
#: alphabet (a plate read out, ``kilo lima seven two x-ray yankee``: issue 40, the
#: twenty-fifth English set's breakdown calls).
_LETTER_NAMES = frozenset({"em", "ess", "aitch", "zed"}) | _RADIO
#: An e-mail address read aloud (``advice at northway housing dot org dot uk``, with letters
#: spelled in its first part: ``grainne dot o s at example mail dot com``, or before it: an
#: initial, ``email a warsame at hallowby somali dot org``); its domain ends with a common
#: top-level domain or a reserved one (RFC 2606: ``mailbox dot example``, the twenty-seventh
#: English set's).
_SPOKEN_EMAIL = re.compile(
    r"(?<![\w.'’-])(?:[a-z][ \t]+){0,2}[a-z0-9][\w.]{0,63}+"
    r"(?:[ \t]+(?:(?:dot|underscore)[ \t]+\w+|[a-z](?![\w'’-])))"
    r"{0,4}[ \t]+at[ \t]+"
    r"(?:\w+[ \t]+){0,2}?\w+(?:[ \t]+dot[ \t]+(?:com|org|net|co|uk|gov|ac|nhs|edu|io|fr|ie"
    r"|info|biz|me|example|test)){1,4}(?![\w'’-])", re.IGNORECASE)
#: What every e-mail address read aloud holds: `` dot `` (looked for before the address).
_SPOKEN_DOT = re.compile(r"[ \t]dot[ \t]", re.IGNORECASE)
_SPOKEN_ID = re.compile(
    rf"(?<![\w'’-]){_SPOKEN_UNIT}(?:[ \t]*+(?:-[ \t]*+)?{_SPOKEN_UNIT}){{2,}}", re.IGNORECASE)
_UNIT = re.compile(_SPOKEN_UNIT, re.IGNORECASE)
#: Short words that stand before a number without being an identifier's letters.
_WORDS_BEFORE_NUMBERS = frozenset(
    "a an i at on in by of to is be or and the for are was via per all age its it we he she "
    "her his our you me my us up out off top ago now not but had has got get over from than "
    "let can may did am pm mon tue wed thu fri sat sun jan feb mar apr jun jul aug sep oct "
    "nov dec no nr nos vs yes ok till til".split())
# A word of letters and digits that is no identifier: an ordinal, a time, a quantity with its
# unit, a decade (``3rd``, ``10am``, ``5mg``, ``90s``; ``14-day``, ``5-year-old``, a
# quantity joined to its unit by a hyphen), checked on the lower-cased word.
_NOT_ID = re.compile(
    r"\d+(?:st|nd|rd|th|s|am|pm|h|hr|hrs|min|mins|sec|secs|ms|d|wk|wks|yr|yrs|mo|k|m|bn|x"
    r"|mg|mcg|g|kg|lb|lbs|oz|ml|l|cl|km|cm|mm|mi|ft|in|mph|kph|gb|mb|kb|tb|p|px|pt|c|f)"
    r"|\d+(?:\.\d+)?(?:-\d+)?-(?:second|minute|min|hour|hr|day|night|week|month|year|mile|metre"
    r"|meter|km|foot|ft|inch|yard|mm|cm|kg|litre|liter|gallon|pound|ton|tonne|page|point|piece"
    r"|part|seater|storey|story|bed|bedroom|room|man|person|hole|lap|game|match|star|step|way"
    r"|speed|pack|time)s?(?:-olds?)?")


#: A postcode's first half right before a second half (``MX7 `` of ``MX7 3HR``).
_OUTWARD_BEFORE = re.compile(r"(?<![\w@.])[A-Z]{1,2}\d[A-Z\d]?[ \t]+\Z")


def _inward_code(text: str, m: re.Match[str]) -> bool:
    """Whether a match that reads as a quantity or an ordinal (``3HR``, ``2ND``) is a
    postcode's second half: a digit and two capitals after a first half (``MX7 3HR``; issue
    40, the twenty-fifth English set, where ``HR`` was released beside ``[NUM]``)."""
    word = m.group()
    return (len(word) == 3 and word[0].isdigit() and word[1:].isupper()
            and _OUTWARD_BEFORE.search(text, max(0, m.start() - 8), m.start()) is not None)


class PatternDetector:
    """Dates (``DATE``) and identifiers (``ID``) by pattern (see the module's description).

    >>> text = "Seen March 3, 2021 (ID KD-44718, case 22-CV-0193); follow-up on 3/14/22."
    >>> [(text[s.start:s.end], s.type) for s in PatternDetector().detect([text])[0]]
    [('March 3, 2021', 'DATE'), ('KD-44718', 'ID'), ('22-CV-0193', 'ID'), ('3/14/22', 'DATE')]
    >>> text = "car kx19 rwe at 10am, 2nd visit, ref dc7 and pd40182, 5mg; BA12 was late"
    >>> [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    ['kx19', 'dc7', 'pd40182', 'BA12']
    >>> text = "by the thirty first of february, born june the ninth, the first of many"
    >>> [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    ['the thirty first of february', 'june the ninth']
    >>> text = "In March we met; June said she would stay until june."
    >>> [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    ['March', 'june']
    >>> text = "order wo 7731, card bb 4471 0932 i think, ni ra 4 772 190 k; at 1030 in 2024"
    >>> [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    ['wo 7731', 'bb 4471 0932', 'ra 4 772 190 k']
    >>> text = "ref is k l nine four two, a b c, plan b two weeks, i 1 2"
    >>> [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    ['k l nine four two']
    >>> text = "Posted by dai_the_bat at 21:14; see snake_case_ok and __init__"
    >>> [text[s.start:s.end] for s in PatternDetector().detect([text])[0]]
    ['dai_the_bat', 'snake_case_ok']
    """

    name = "patterns"
    types = frozenset({"DATE", "ID", "EMAIL"})

    def __repr__(self) -> str:
        return "PatternDetector()"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return [self._spans(text) for text in check_texts(texts)]

    @staticmethod
    def _spans(text: str) -> list[EntitySpan]:
        # what a pattern cannot match without is looked for once, and the pattern skipped
        # where the text lacks it (issue 40, cost): a digit (a numeric date, an identifier),
        # a month's name (a date in words), an underscore (a user name)
        digits = _DIGIT.search(text) is not None
        months = list(_MONTH_WORD.finditer(text))
        dates = ([EntitySpan(m.start(), m.end(), "DATE") for m in _DATE.finditer(text)]
                 if digits else [])
        dates += [s for s in _spoken_dates(text, months)
                  if not any(d.overlaps(s.start, s.end) for d in dates)]
        if months:
            alone = {(m.start(1), m.end(1))
                     for m in (*_LONE_MONTH.finditer(text), *_THE_MONTH.finditer(text),
                               *_PLAIN_MONTH.finditer(text))}
            dates += [EntitySpan(start, end, "DATE") for start, end in sorted(alone)
                      if not any(d.overlaps(start, end) for d in dates)]
        shared = shared_codes(text) if digits else frozenset()
        ids = []
        for m in _ID.finditer(text) if digits else ():
            inside = [d for d in dates if d.overlaps(m.start(), m.end())] if dates else []
            if (inside and not (text[m.start()].isalpha() and all(
                    m.start() < d.start and d.end <= m.end() for d in inside))) \
                    or (_NOT_ID.fullmatch(m.group().lower()) is not None
                        and not _inward_code(text, m)) \
                    or (shared and set(_CODE_PARTS.split(m.group().upper())) <= shared):
                continue  # a date's own digits; but an archive's "D/MAR/3/1-14" is one code
            if inside:
                dates = [d for d in dates if d not in inside]
            ids.append(EntitySpan(m.start(), m.end(), "ID"))
        if "_" in text:
            ids += [EntitySpan(m.start(), m.end(), "ID") for m in _HANDLE.finditer(text)
                    if not any(s.overlaps(m.start(), m.end()) for s in dates + ids)]
        taken = dates + ids
        for m in _SPACED_ID.finditer(text) if digits else ():
            if (m["letters"].lower() in _WORDS_BEFORE_NUMBERS
                    or (sum(c.isdigit() for c in m["digits"]) < 4 and not _registration(text, m))
                    or any(s.overlaps(m.start(), m.end()) for s in taken)):
                continue
            end = m.end() if m["check"] and m["check"].lower() not in "ai" else m.end("digits")
            ids.append(EntitySpan(m.start(), end, "ID"))
        ids += _spoken_ids(text, dates + ids)
        ids += _lettered_numbers(text, dates + ids)
        for m in _SERIAL_OF_DATE.finditer(text) if dates else ():  # "143 of 01/10/26": one
            ref = EntitySpan(m.start(1), m.end(2), "ID")  # reference, its "of" with it
            dates = [d for d in dates if not ref.overlaps(d.start, d.end)]
            ids = [d for d in ids if not ref.overlaps(d.start, d.end)] + [ref]
        return sorted(dates + ids, key=SPAN_ORDER)


def _registration(text: str, m: re.Match[str]) -> bool:
    """Whether a spaced code of fewer than four digits is a registration in a table's cell or
    a field's value, the cell's or the field's edges on both sides, or after the word that
    asks for one: two or three capital letters and one number (a fishing boat's port
    letters, ``| VN 117 |``, ``Reg: FY 123``, ``registration VN 42.``; issue 40, stage 49:
    the fifty-first English set).

    >>> [_registration(t, _SPACED_ID.search(t)) for t in ("| VN 117 |", "Reg: FY 123",
    ...  "we won 3 of 4", "ON 12 MAY", "| Vn 117 |", "registration no. VN 42. Will")]
    [True, True, False, False, False, True]
    """
    before = text[max(0, m.start() - 20):m.start()]
    return (m["letters"].isupper() and len(m["letters"]) > 1 and m["check"] is None
            and len(m["digits"].split()) == 1 and (_REGISTRATION.search(before) is not None or (
                _CELL_AFTER.match(text, m.end()) is not None
                and (_CELL_BEFORE.search(before) is not None
                     or before.rstrip(" \t").endswith(":")))))


#: The word that asks for a registration (``registration VN 42.``: the fifty-first English
#: set's meeting, read once measured).
_REGISTRATION = re.compile(r"(?i)\b(?:registration|reg\.?)(?:[ \t]+no\.?)?[ \t]+\Z")


#: A police log's reference, a serial number and the date of the day's log (``quote 143 of
#: 01/10/26``), after a word that asks for it: one identifier, its ``of`` too (issue 40, the
#: forty-ninth English set's e-mails and comments, read once its unseen half was measured:
#: the ``of`` was the identifier's only word left).
_SERIAL_OF_DATE = re.compile(
    r"(?i)\b(?:ref(?:erence)?|quote|quoting|incident|serial|log|crime)[ \t:]+"
    r"(?:(?:number|no\.?)[ \t:]*)?(\d{1,5})[ \t]+of[ \t]+(\d{1,2}/\d{1,2}/\d{2,4})(?![\w/])")


#: A short code: one letter and one or two digits (``R3``, ``C30``, ``U10``, ``M40``), not a
#: postcode's first half (``M15`` of ``M15 5JX``).
_SHORT_CODE = re.compile(r"(?<![\w@.])[A-Za-z]\d{1,2}(?![\w@])(?![ \t]\d[A-Za-z]{2}\b)")
#: The parts of a code written with a slash or a hyphen (``R3/C30``).
_CODE_PARTS = re.compile(r"[/-]")
#: On how many lines a short code stands in a cell to be a category's, not one record's.
SHARED_CODE_LINES = 3
#: A cell's edges around a short code: the line's start or end, a tab, a bar, a comma, a
#: semicolon, two spaces, or the slash between two codes (``R3/C30``).
_CELL_BEFORE = re.compile(r"(?:\A|\t|\||,|;|/|  )[ \t]*\Z")
_CELL_AFTER = re.compile(r"[ \t]*(?:\Z|\n|\t|\||,|;|/|  )")


def shared_codes(text: str) -> frozenset[str]:
    """The short codes (:data:`_SHORT_CODE`) that stand in a table's cell on at least
    :data:`SHARED_CODE_LINES` lines of ``text``, in capitals: a room, a clinic, an age group,
    a race's category (``R3/C30`` on every row of an appointment list, ``U10`` of a club's
    teams) — shared by many records, so no identifier of one (issue 40, stage 24: 50 room and
    clinic letters of the new set's appointment list were ``[ID]``).  A code in running text
    however often (``Bed K7 … K7 … K7``, ``the M25``), a longer code (``WY21``) and a
    postcode's first half (``M15 5JX``) stay identifiers.

    >>> sorted(shared_codes("R3 | Ann\\nR3 | Bob\\nR3/C30 | Cy\\nC30 | Di\\nC30 | Ed\\nK7 K7 K7"))
    ['C30', 'R3']
    """
    lines: dict[str, set[int]] = {}
    for m in _SHORT_CODE.finditer(text):
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _CELL_BEFORE.search(text[line_start:m.start()]) and _CELL_AFTER.match(text, m.end()):
            lines.setdefault(m.group().upper(), set()).add(line_start)
    return frozenset(code for code, where in lines.items() if len(where) >= SHARED_CODE_LINES)


def _spoken_dates(text: str, months: Sequence[re.Match[str]]) -> list[EntitySpan]:
    """Dates read aloud, the day's ordinal in words before ``of`` and the month or after it
    (``the thirty first of february``, ``june the ninth``), at the ``months`` of ``text``
    (the matches of :data:`_MONTH_WORD`)."""
    out = []
    for m in months:
        before = _ORDINAL_BEFORE.search(text, max(0, m.start() - 40), m.start())
        after = _ORDINAL_AFTER.match(text, m.end())
        if before is not None or after is not None:
            out.append(EntitySpan(m.start() if before is None else before.start(),
                                  m.end() if after is None else after.end(), "DATE"))
    return out


#: A span of short codes alone (``R3/C30``, ``C14``).
_CODES = re.compile(r"[A-Za-z]\d{1,2}(?:[/-][A-Za-z]\d{1,2})*")


def drop_codes(text: str, spans: Iterable[EntitySpan]) -> list[EntitySpan]:
    """``spans`` less the names' spans (neither a date nor an identifier) that are short
    codes alone, each one of the codes many rows share (:func:`shared_codes`): the
    recogniser types a room and a clinic as an organisation (``R3/C30`` on every row: issue
    40, the twenty-fourth English set's appointment list); a band's ``U2`` stays an
    organisation.

    >>> text = "08:30 | R3/C30 | TD\\n08:35 | R3/C30 | TD\\n08:40 | R3/C30 | Ann"
    >>> spans = [EntitySpan(8, 14, "ORG"), EntitySpan(57, 60, "PERSON")]
    >>> [text[s.start:s.end] for s in drop_codes(text, spans)]
    ['Ann']
    >>> len(drop_codes("U2 were brilliant", [EntitySpan(0, 2, "ORG")]))
    1
    """
    spans = list(spans)
    codes = [s for s in spans if s.type not in STRUCTURED_TYPES
             and _CODES.fullmatch(text, s.start, s.end) is not None]
    if not codes:  # most texts: the shared codes are not read
        return spans
    shared = shared_codes(text)
    dropped = {s for s in codes
               if set(_CODE_PARTS.split(text[s.start:s.end].upper())) <= shared}
    return [s for s in spans if s not in dropped]


#: A lone ``a`` or ``i`` before a spoken e-mail: an initial only after these (``email a
#: warsame at …``), else the article or the pronoun (``wrote to a friend at gmail dot com``).
_INITIAL_AFTER = re.compile(r"(?:e[ -]?mail|mail|address|is|contact)[ \t]+\Z", re.IGNORECASE)
_LONE_AI = re.compile(r"[ai][ \t]+", re.IGNORECASE)


def _email_start(text: str, m: re.Match[str]) -> int:
    """Where a spoken e-mail starts: past a lone ``a`` or ``i`` that no e-mail verb comes
    before (:data:`_INITIAL_AFTER`)."""
    lone = _LONE_AI.match(text, m.start())
    if lone is None or _INITIAL_AFTER.search(text, max(0, m.start() - 12), m.start()):
        return m.start()
    return lone.end()


def _spoken_ids(text: str, taken: Sequence[EntitySpan]) -> list[EntitySpan]:
    """Identifiers read aloud, letters among numbers (``my reference is k l nine four two``,
    ``H X 7 7 4 1``, ``em thirty oh h x``): a run of three or more units
    (:data:`_SPOKEN_UNIT`), from its first unit that is no ``a`` or ``i``, with a letter but
    ``a`` and ``i`` (words: ``at 3 a 4``) and two numbers at least, or four numbers with a
    word only a phone number says (``oh seven seven double oh nine``); and an e-mail address
    read aloud (``advice at northway housing dot org dot uk``, ``EMAIL``); the letters
    would otherwise be released as words beside the numbers' ``[NUM]``."""
    free = SpanIndex(taken).free
    out = [EntitySpan(_email_start(text, m), m.end(), "EMAIL")
           for m in _SPOKEN_EMAIL.finditer(text)
           if free(m.start(), m.end())] if _SPOKEN_DOT.search(text) else []  # cheap first
    emails = SpanIndex(out).free
    for m in _SPOKEN_ID.finditer(text):
        units = list(_UNIT.finditer(text, m.start(), m.end()))
        while units and units[0].group().lower() in ("a", "i"):
            units.pop(0)
        forms = [u.group().lower() for u in units]
        letters = sum((len(f) == 1 and f.isalpha()) or f in _LETTER_NAMES for f in forms)
        if letters < 2 and any(f in _RADIO for f in forms):
            continue  # "we flew delta 2 3 times", "echo 1 2 3": one radio word is a word
        words = sum(f in ("a", "i") for f in forms)  # "at 3 a 4": a word
        digits = any(f in _DIGIT_WORDS for f in forms)  # "oh seven seven double oh nine"
        if len(units) < 3 or len(units) - letters < 2 or (letters == words and not (
                digits and len(units) - letters >= 4)):
            continue
        start, end = units[0].start(), units[-1].end()
        if free(start, end) and emails(start, end):  # the runs come in order, apart
            out.append(EntitySpan(start, end, "ID"))
    return out


#: Things numbered with a letter after the number (``plot five a``, ``flat 12 c``, ``bed 4
#: b``; issue 40, the forty-seventh English set's tuning half: a phone-in's ``by plot seven
#: a``): the number and its letter are one identifier, or the letter is released as a word
#: beside the number's ``[NUM]``.
_LETTERED = re.compile(
    r"(?<![\w'’-])(?:plot|flat|unit|room|bay|pitch|stall|bed|block|apartment|apt|suite|stand"
    r"|berth|cabin|locker|platform|ward|gate|seat|lot)s?[ \t]+(?:no\.?[ \t]+|number[ \t]+)?"
    r"(?P<number>\d{1,4}|(?:" + _COUNT_WORDS + r")(?:[ \t-]+(?:one|two|three|four|five"
    r"|six|seven|eight|nine))?)[ \t]*(?P<letter>[a-hj-z])(?![\w'’-])"
    r"(?:[ \t]+(?P<next>[A-Za-z]+))?", re.IGNORECASE)
#: The words after ``a`` that make it a letter, not an article (``plot five a she said``;
#: not ``room two a few times``, ``room 12 a very nice room``: the stage's review).
_AFTER_LETTER_A = frozenset(
    "she he it they we i you where which who that and or but is was has had by on in at near "
    "next then so because with for to of from".split())
#: After a letter that is a unit's too (``the pitch 100 m long``, ``room 18 c all winter``),
#: these make it the unit's.
_AFTER_UNIT = frozenset("long wide high tall deep away across all of per in from".split())
_UNIT_LETTERS = frozenset("mcklgs")


def _lettered_numbers(text: str, taken: Sequence[EntitySpan]) -> list[EntitySpan]:
    """The number and letter of a thing numbered so (:data:`_LETTERED`: ``plot five a``,
    ``flat 12 c``) as an ``ID``, where no span is yet; ``a`` only before the line's or a
    clause's end or a pronoun, a conjunction or a preposition (:data:`_AFTER_LETTER_A`:
    ``plot five a she said``; not ``room two a bit cold``, ``room two a few times``); not a
    unit's letter before a measure's word (``the pitch 100 m long``), nor a capital before a
    capitalised word (``Room 5 B Block``: the block's letter)."""
    free = SpanIndex(taken).free
    out = []
    for m in _LETTERED.finditer(text):
        after = m["next"]
        letter = m["letter"].lower()
        if after is not None and ((letter == "a" and after.lower() not in _AFTER_LETTER_A) or (
                letter in _UNIT_LETTERS and after.lower() in _AFTER_UNIT)):
            continue
        if after is not None and after[:1].isupper() and m["letter"].isupper() \
                and not after.isupper():
            continue  # "Room 5 B Block": the block's letter
        if free(m.start("number"), m.end("letter")):
            out.append(EntitySpan(m.start("number"), m.end("letter"), "ID"))
    return out
