"""Initials that stand for a name the text spells out (issue 40, tenth stage).

Notes, minutes and case files name a person in full once and by initials after: ``Jordan
Mensah`` then ``JM often alone evenings``, ``J.M.``; a caseworker ``Priya Venkataraman`` then
``20 Mar PV: spoke to claimant``.  No detector finds ``JM`` (no list holds it, a model reads
it as an acronym), and released at the general ε it would be kept as often as not, naming
the person to anyone who read the full name.  :func:`initials_of_names` finds the letters in
capitals, two or three of them, bare (``JM``) or each with its full stop (``J.M.``), that
are the initials of a run of words a ``PERSON`` span covers in the same text (or a
capitalised run of words all rare in English: ``NKECHI EZE``, issue 40, thirteenth stage;
an initial
right before the span included: ``RH`` of ``Ms R. Hussain``): every letter of
the run (``JKR`` of ``Jane K. Rowling``; ``CAB`` of ``Caroline Ashworth-Bell``, a hyphenated
name's parts) or its first and last (``JR``); a family name first, in capitals, the given
name's and the family name's (``MG`` of ``GRANT, Marcia``, ``RS`` of ``SHORT Rebecca``: a
rota's initials column, issue 40, the forty-seventh English set's tuning half); where another
type's
span covers them already (``IK`` read as a capitalised word), the person's span is added.
In a person's span, letters in capitals are a name's whatever lists hold
(:func:`~emprivacy.preparation.entity_slots.entity_decisions`).  A word this common
in English (:data:`COMMON_ZIPF`: ``UK``, ``OK``, ``TV``) or a title (``DC``, ``PC``) is left
as it is: a ``Tom Vance`` does not make every ``TV`` his; a common word is taken where the
text defines the letters as the name's, in brackets right after it (``Mr D. Okafor (DO)``: a
school report's teacher codes, issue 40, twelfth stage), and not beside another word in
capitals (``DO NOT``), or where they sign an entry, alone at a line's end after a sentence's
end (``LOG CLOSED. CAB`` of a duty log whose manager is Caroline Ashworth-Bell; thirteenth
stage); a title never is.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from emprivacy.entities.labels import NAME_TITLES
from emprivacy.entities.spans import PROPER_NOUN, EntitySpan, SpanIndex
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = [
    "COMMON_ZIPF",
    "LETTER_MENTIONS",
    "RARE_RUN_ZIPF",
    "bare_initials",
    "initials_of_names",
    "letters_of_names",
    "particle_initials",
]

#: A run of letters this common in English (Zipf) is a word or an acronym, never initials.
COMMON_ZIPF = 4.5

_WORD = re.compile(r"[^\W\d_][\w'’.-]*")
_INITIALS = re.compile(r"(?<![\w.’'-])(?:[A-Z]{2,3}|(?:[A-Z]\.){2,3})(?![\w’'-])")


_INITIAL = r"[A-Z]\.(?:-[A-Z]\.)?"
_PARTICLE = (r"(?:[Dd]e la|[Dd]e l['’]|[Vv]an der|[Vv]an den|[Vv]an de|[Ll]e|[Ll]a|[Dd]e|[Dd]u|"
             r"[Dd]es|[Dd]a|[Dd]i|[Dd]el|[Dd]os|[Dd]as|[Vv]an|[Vv]on|[Aa]l|[Ee]l|[Aa]p|[Aa]b) ")
#: What stands before and after a signature's initials: a line's start or end, a cell's
#: ``|`` or tab, a colon, a bracket, a comma, a dash, two spaces (not a word: ``Option A. La
#: B. est moins chère``).
_SIGNED_BEFORE = r"(?:^|(?<=[|\t:(\[,–—])|(?<=\s\s)|(?<=[|\t:(\[,–—] ))"
_SIGNED_AFTER = r"(?=[ \t]*(?:[|\t)\],;–—]|-[ \t]|$))"
_PARTICLE_INITIALS = re.compile(
    rf"{_SIGNED_BEFORE}(?:{_INITIAL} ?){{1,3}}(?:{_PARTICLE}|[DdOo]['’]){_INITIAL}"
    rf"{_SIGNED_AFTER}", re.MULTILINE)


def particle_initials(text: str) -> list[EntitySpan]:
    """``PERSON`` spans of a name's initials with its family name's particle between them:
    ``M. Le G.``, ``H. de la R.-A.``, ``C. D'A.``, ``S. O'N.``, ``R. de S.``, Welsh ``E. ab
    I.`` (the forty-eighth English set's tuning half) — a sign-in
    sheet's or a form's signature (issue 42, the twentieth French set, where ``Le`` of
    ``M. Le G.`` was released as a word and ``G.`` as a capital the detector took alone).
    Each initial is a capital and a full stop (a hyphenated name's ``R.-A.``); the whole
    stands apart, as a signature does: after a line's start, a cell's ``|`` or tab, a
    colon, a bracket, a comma, a dash or two spaces, and before the like (not ``Option A.
    La B. est moins chère``).

    >>> text = "| M. Le G. | H. de la R.-A. | C. D'A. |\\nOption A. La B. est moins chère."
    >>> [text[s.start:s.end] for s in particle_initials(text)]
    ['M. Le G.', 'H. de la R.-A.', "C. D'A."]
    """
    if "." not in text:
        return []
    return [EntitySpan(m.start(), m.end(), "PERSON") for m in _PARTICLE_INITIALS.finditer(text)]


#: After the word ``signed`` or ``initialled`` (a quote between): ``THE NOTE IS SIGNED "H.
#: W."``; after ``signs`` only with a quote (``WHO SIGNS "T. E."``: issue 40, the thirty-first
#: English set; not ``vital signs B. P. stable``).
_SIGNED_WORD = "(?:" + "|".join(
    rf"(?<=(?<!\w){w}{q})" for word in ("signed", "signs", "initialled", "initialed")
    for w in (word, word.capitalize(), word.upper())
    for q in ((' "', " “") if word == "signs" else (" ", ' "', " “"))) + ")"
_QUOTE_OPEN = r"(?<=[\"“])"
#: The leading lookahead lets every position that is not a capital and a full stop fail before
#: the many lookbehinds are tried (a sixteenth of the time on ordinary prose).
_BARE_INITIALS = re.compile(
    rf"(?=[A-Z]\.)(?:{_SIGNED_BEFORE}(?:[A-Z]\. ){{1,3}}[A-Z]\.{_SIGNED_AFTER}"
    rf"|{_SIGNED_WORD}(?:[A-Z]\. ?){{1,3}}[A-Z]\.(?!\w)"
    # a quote's initials, whole or before a year ("J. D. 1952" burnt in a frame), and a
    # note's after its last sentence, before its closing quote or the line's end ("…
    # CHILDREN. J. D.\"", "SEE NEW BOOK. S. B.")
    rf"|{_QUOTE_OPEN}(?:[A-Z]\. ){{1,3}}[A-Z]\.(?=[\"”]|[ \t]+\d{{4}}(?!\d))"
    rf"|(?<=[^\W\d_]{{2}}[.!?] )(?:[A-Z]\. ){{1,3}}[A-Z]\.(?=[\"”]|[ \t]*\r?$))", re.MULTILINE)


_SIGN_WORDS = re.compile(r"(?i)igned|igns|nitial")


def bare_initials(text: str) -> list[EntitySpan]:
    """``PERSON`` spans of two to four initials, each a capital and a full stop, with no
    name after them: a transcript's or a log's sign-off (``[END – A. F. – CHECKED T. Ó
    M.]``; issue 40, the twenty-first English set, seen), before a dash, a comma, a
    semicolon, a closing bracket, a table's ``|`` or the line's end (not ``A. F. Smith``),
    standing apart as :func:`particle_initials` (not ``Plan A. B. C.`` in a sentence), or
    right after the word ``signed`` or ``initialled``, or a quote after ``signs``, whatever
    follows (``the note is signed "H. W."``, ``signed H.W. Smith``: the thirtieth; ``WHO
    SIGNS "T. E."``: the thirty-first; not ``unsigned``, ``designed``, ``vital signs B.
    P.``); or a quote's initials, one space apart, whole or before a year (``"J. D. 1952"``
    burnt in a frame; not ``"U.S."``, nor an abbreviation's, ``"A. D. 1887"``), or a note's
    initials after its last sentence (a word's full stop, not an initial's: ``U. S. A.``),
    before its closing quote or the line's end (``… CHILDREN. J. D."``, ``SEE NEW BOOK. S.
    B.``: issue 40, stage 33).

    >>> text = "[END – A. F. – CHECKED]  Dr A. F. Smith came. | J. R. |"
    >>> [text[s.start:s.end] for s in bare_initials(text)]
    ['A. F.', 'J. R.']
    >>> text = 'THE NOTE IS SIGNED "H. W.". Signed H.W. Smith; signed J. K. and not'
    >>> [text[s.start:s.end] for s in bare_initials(text)]
    ['H. W.', 'H.W.', 'J. K.']
    >>> bare_initials("unsigned J. K. designed A. B. and signed H.W.")[-1].start
    41
    >>> text = 'has "J. D. 1952" on it, "U.S." and Plan A. B. C. too. SEE BOOK. S. B.\\r\\n'
    >>> [text[s.start:s.end] for s in bare_initials(text + "made in the U. S. A.\\n")]
    ['J. D.', 'S. B.']
    """
    if ". " not in text and not _SIGN_WORDS.search(text):
        return []
    return [EntitySpan(m.start(), m.end(), "PERSON") for m in _BARE_INITIALS.finditer(text)
            if not (text[m.start() - 1:m.start()] in ('"', "“")
                    and m.group().replace(".", "").replace(" ", "") in _QUOTED_NOT_INITIALS)]


#: Letters that a quote holds as an abbreviation, no one's initials: ``"A. M."``, ``"A. D.
#: 1887"`` on a foundation stone, a medal's ``"R. A. F. 1943"`` (issue 40, stage 33's second
#: reading).
_QUOTED_NOT_INITIALS = frozenset(
    "AM PM AD BC CE BCE RAF RN USA US UK GB PS PPS NB RSVP IE EG OK PO HMS VC".split())


def _name_runs(text: str, spans: Sequence[EntitySpan]) -> list[tuple[list[str], int]]:
    """The runs of capitalised words that ``spans`` (a person's) cover, with only spaces or
    tabs between them (``Jordan Mensah`` found as one span or as two), each with the offset
    where it ends; an initial right before a span starts its run (``R. Hussain``: no
    detector's span holds the letter)."""
    people = sorted((s.start, s.end) for s in spans)
    runs: list[tuple[list[str], int]] = []
    last_end = -1
    for start, end in people:
        for m in _WORD.finditer(text, start, end):
            word = m.group().rstrip(".")
            if not word[:1].isupper():
                last_end = -1
                continue
            if runs and last_end >= 0 and text[last_end:m.start()].strip(" \t") == "" \
                    and m.start() > last_end:
                runs[-1][0].append(word)
            else:
                before = _INITIAL_BEFORE.search(text, max(0, m.start() - 4), m.start())
                runs.append(([before.group(1)] if before else [], 0))
                runs[-1][0].append(word)
            last_end = m.start() + len(word)
            runs[-1] = (runs[-1][0], last_end)
    return runs


def _keyed(text: str, people: SpanIndex) -> set[str]:
    """Initials a key defines before the name they stand for, a person's span: ``GO = Grace
    Okoro``, ``HA – Heather Ashworth`` (a register's checked-by key; issue 40, the
    twenty-fifth English set, where ``GO`` of every row was released as the word ``go``):
    its first letters, or its first and last; not after a colon (``TO: Tom Okafor``, a
    field) nor a function word (``AM = Adam Mills`` beside ``9 AM``).

    >>> text = "# checked_by: GO = Grace Okoro, TP – Teresa Pemberton"
    >>> sorted(_keyed(text, SpanIndex([EntitySpan(19, 30, "PERSON"), EntitySpan(37, 53,
    ...     "PERSON")])))
    ['GO', 'TP']
    >>> _keyed("GO = Grace Okoro", SpanIndex([]))
    set()

    A key on a line of two people's keys or more, and more of them than of other keys, is a
    person's whatever a model typed its name (``SP = Sky Pennock`` beside ``AC = Autumn
    Crabbe; MF = Mark Fenwick``; issue 40, the thirty-first English set):

    >>> text = "AC = Autumn Crabbe; MF = Mark Fenwick; SP = Sky Pennock"
    >>> sorted(_keyed(text, SpanIndex([EntitySpan(5, 18, "PERSON"), EntitySpan(25, 37,
    ...     "PERSON")])))
    ['AC', 'MF', 'SP']
    """
    out: set[str] = set()
    if not _KEY_SIGNS.search(text):
        return out
    unnamed: dict[int, set[str]] = {}  # per line, keys whose name no person's span covers
    named: Counter[int] = Counter()
    line, counted_to = 0, 0  # the line of each key, counted as the keys go (not from 0)
    for m in _KEYED.finditer(text):
        words = m.group(2).split()
        if m.group(1).lower() in KEPT_FUNCTION_WORDS or m.group(1) in ("AM", "PM"):
            continue  # "AM = Adam Mills" beside "9 AM", "ON = Olivia Nash": words first
        firsts = [w[0].upper() for w in words]
        if m.group(1) not in ("".join(firsts), firsts[0] + firsts[-1]):
            continue
        line += text.count("\n", counted_to, m.start())
        counted_to = m.start()
        if people.covers(m.start(2), m.start(2) + len(words[0])):
            out.add(m.group(1))
            named[line] += 1
        elif len(words) >= 2:
            unnamed.setdefault(line, set()).add(m.group(1))
    for line, keys in unnamed.items():  # "SP = Sky Pennock" on a line of people's keys
        if named[line] >= 2 and named[line] > len(keys):  # (a model typed it a firm); not
            out |= keys  # a line of places' codes a model took two of for people's
    return out


#: The signs a key puts between initials and a name.
_KEY_SIGNS = re.compile("[=–—]")
#: Initials and the name a key gives them (``GO = Grace Okoro``): a capital's word or two
#: or three after ``=`` or a dash.
_KEYED = re.compile(r"(?<![\w.’'-])([A-Z]{2,3})[ \t]*(?:=|–|—)[ \t]*"
                    r"((?:[A-Z][\w'’-]*)(?:[ \t]+[A-Z][\w'’-]*){0,2})")
#: A capital initial right before a name (``R. `` of ``Ms R. Hussain``).
_INITIAL_BEFORE = re.compile(r"(?<![\w.’'-])([A-Z])\.?[ \t]+$")
#: Initials in brackets right after the name they stand for (``Mr D. Okafor (DO)``).
_BRACKETED = re.compile(r"[ \t]*\(((?:[A-Z]\.?){2,3})\)")


def initials_of_names(text: str, spans: Sequence[EntitySpan], *,
                      zipf: Callable[[str], float] | None = None,
                      own_zipf: Callable[[str], float] | None = None) -> list[EntitySpan]:
    """``PERSON`` spans of the initials in ``text`` of the names its ``PERSON`` spans cover
    (see the module's description); spans already found are not repeated.  ``own_zipf``, the
    text's language's frequencies: initials read from a name written family name first only
    are not a common word of it either (French ``IL`` of ``IL Y A`` beside ``LEBLANC
    Isabelle``: issue 42, stage 45's comparison).

    >>> text = "Client: Jordan Mensah. JM v. close to his nan; J.M. left. UK, TV."
    >>> spans = [EntitySpan(8, 21, "PERSON")]
    >>> [text[s.start:s.end] for s in initials_of_names(text, spans)]
    ['JM', 'J.M.']
    >>> initials_of_names("JM came.", [])
    []
    >>> text = "| GRANT, Marcia | MG | SHORT Rebecca | RS |"
    >>> spans = [EntitySpan(2, 15, "PERSON"), EntitySpan(23, 36, "PERSON")]
    >>> [text[s.start:s.end] for s in initials_of_names(text, spans)]
    ['MG', 'RS']
    """
    if not any(s.type == "PERSON" for s in spans):
        return []
    wanted: set[str] = set()
    backwards: set[str] = set()  # read from a name written family name first
    defined: set[str] = set()  # initials a text defines in brackets: "Mr D. Okafor (DO)"
    named = [s for s in spans if s.type == "PERSON" or (  # "NKECHI EZE" of a log in capitals
        zipf is not None and s.type == PROPER_NOUN and _rare_words(text, s, zipf))]
    runs = _name_runs(text, named)
    for k, (run, end) in enumerate(runs):
        if len(run) == 1 and run[0].isupper() and k + 1 < len(runs) \
                and text.startswith(", " + runs[k + 1][0][0], end):
            backwards.add(runs[k + 1][0][0][0].upper() + run[0][0])  # "GRANT, Marcia": MG
        if len(run) < 2:
            continue
        firsts = [w[0].upper() for w in run]
        these = {"".join(firsts)} if len(firsts) <= 3 else set()
        these.add(firsts[0] + firsts[-1])
        if len(run) == 2 and run[0].isupper() and len(run[0]) > 1 and not run[1].isupper():
            backwards.add(firsts[1] + firsts[0])  # "SHORT Rebecca": RS
        parts = [p[0].upper() for w in run for p in w.split("-") if p]
        if len(parts) <= 3:  # "CAB" of "CAROLINE ASHWORTH-BELL": a hyphenated name's parts
            these.add("".join(parts))
        wanted |= these
        bracket = _BRACKETED.match(text, end)
        if bracket and bracket.group(1).replace(".", "") in these:
            defined.add(bracket.group(1).replace(".", ""))
    if own_zipf is not None:
        backwards = {b for b in backwards if own_zipf(b.lower()) < COMMON_ZIPF}
    wanted |= backwards
    if not wanted and not _KEY_SIGNS.search(text):
        return []  # most pieces: no name of two words, no key
    people = SpanIndex(s for s in spans if s.type == "PERSON")
    keyed = _keyed(text, people)
    wanted |= keyed  # a key's initials whatever its name's type ("SP = Sky Pennock")
    if not wanted:
        return []
    defined |= keyed
    out = []
    for m in _INITIALS.finditer(text):
        letters = m.group().replace(".", "")
        if letters not in wanted or (letters.lower() in NAME_TITLES and letters not in defined):
            continue  # "DR", "SR": titles, unless a key defines them ("SR = Sunny Royal")
        if zipf is not None and len(letters) == len(m.group()) and (
                letters not in defined or _in_capitals(text, m.start(), m.end())) \
                and zipf(letters.lower()) >= COMMON_ZIPF and not _signed(text, m):
            continue  # "DO NOT" beside a defined "(DO)": a word of a run in capitals
        if people.covers(m.start(), m.end()):
            continue  # inside a person's span already
        out.append(EntitySpan(m.start(), m.end(), "PERSON"))
    return out


def letters_of_names(text: str, spans: Sequence[EntitySpan]) -> list[EntitySpan]:
    """``PERSON`` spans of the single capital letters that stand for a person the text names
    in full (issue 40, fourteenth stage): a clinical or case note writes ``Farida
    Al-Mansouri`` once, then ``F well.``, ``given to F by phone``, ``with F and K``.  A letter
    counts where it is the first letter of a person's span of two words or more (its given
    name), is no ``A`` or ``I``, stands alone (no full stop, hyphen, slash, digit or
    ``+`` joined to it: ``F.`` before a family name is an initial that
    :func:`initials_of_names` and the names' decisions handle, ``F/U`` an abbreviation) and
    reads as a person: at a sentence's or a bracket's start before a word in lower case
    (``F tearful``, ``(F fluent``, ``K (partner)``), or after a preposition or ``and``
    or a verb of a visit or a call (``to F``, ``with F and K``, ``d/w F``, ``saw F``,
    ``phoned K``) — not after a noun that labels by letter (``Vitamin D``, ``Plan B``, ``Bay
    F``), before a word that makes it a thing (``K low``, ``T wave``, ``O negative``), nor in
    a list with a letter no one's name starts with (``A and E``) — at least
    :data:`LETTER_MENTIONS` times in the text, once at least after a preposition or a verb.

    >>> text = "Patient: Farida Al-Mansouri. F well. Results given to F by phone. Bay F clean."
    >>> [text[s.start:s.end] for s in letters_of_names(text, [EntitySpan(9, 27, "PERSON")])]
    ['F', 'F']
    >>> letters_of_names("Farida Al-Mansouri. F well.", [EntitySpan(0, 18, "PERSON")])
    []
    """
    firsts = set()
    for s in spans:
        if s.type == "PERSON":
            words = _WORD.findall(text, s.start, s.end)
            if len(words) >= 2:  # A and I never match _LETTER: no letter of theirs is taken
                firsts.add(words[0][0])
    if not firsts:
        return []
    people = SpanIndex(s for s in spans if s.type == "PERSON")
    found: dict[str, list[EntitySpan]] = {}
    governs: set[str] = set()
    for m in _LETTER.finditer(text):
        letter = m.group()
        if letter not in firsts or people.covers(m.start(), m.end()):
            continue
        back = max(0, m.start() - 24)
        before = text[back:m.start()]
        word_before = _WORD_BEFORE.search(before)
        prev = word_before.group(1).lower() if word_before else ""
        after = _WORD_AFTER.match(text, m.end())
        listed = _LETTER_LIST.search(before)
        if prev in _LETTER_LABELS or (after is not None and after.group(1).lower()
                                      in _LETTER_THINGS) or (listed and listed.group(1)
                                                             not in firsts):
            continue  # "Bay F", "K low", "T wave", "A and E" (not "F and K": both people's)
        opened = (_OPENED.search(text, back, m.start()) is not None
                  and _LOWER_AFTER.match(text, m.end()) is not None)
        governed = prev in _BEFORE_PERSON and before.endswith(" ")
        if opened or governed:
            found.setdefault(letter, []).append(EntitySpan(m.start(), m.end(), "PERSON"))
            if governed:
                governs.add(letter)
    return [s for letter, spans_of in found.items()
            if len(spans_of) >= LETTER_MENTIONS and letter in governs for s in spans_of]


#: A letter stands for a person when it does so at least this often in the text.
LETTER_MENTIONS = 2
#: A capital letter alone: no letter, digit, full stop, hyphen, slash, ``+`` or apostrophe
#: joined to it.
_LETTER = re.compile(r"(?<![\w.’'/+-])[B-HJ-Z](?![\w.’'/+-])")
#: A sentence's, a line's or a bracket's start right before the letter.
_OPENED = re.compile(r"(?:\A|[.;!?(\n])[ \t]*\Z")
#: A word in lower case (or a bracket before one) after the letter: ``F tearful``, ``K
#: (partner)``.
_LOWER_AFTER = re.compile(r"[ \t]+\(?[a-z]")
#: The word right before the letter, and what separates them.
_WORD_BEFORE = re.compile(r"([A-Za-z/]+)[ \t]+\Z")
#: Words after which a letter is a person's: prepositions, ``and``, a note's ``d/w`` (discussed
#: with), ``re``.
_BEFORE_PERSON = frozenset("to with and by for from w/ d/w re via per told asked saw seen "
                           "visited phoned called".split())
#: The word after a letter, and the words after which a letter is a thing's, not a person's
#: (``K low`` of potassium, ``T wave``, ``O negative``, ``X marks the spot``).
_WORD_AFTER = re.compile(r"[ \t]+([A-Za-z]+)")
_LETTER_THINGS = frozenset(
    "low high level levels normal raised replaced wave waves cells cell negative positive "
    "marks mark ray rays chromosome shaped ring rated grade class type bit minus plus "
    "sharp flat major minor".split())
#: A letter after another letter and ``and``, ``or``, ``,`` (``A and E``, ``B and C``): a list.
_LETTER_LIST = re.compile(r"(?<![\w.])([A-Z])[ \t]*(?:,|and|or|&)[ \t]*\Z")
#: Nouns that label things by a letter (``Vitamin D``, ``Plan B``, ``Bay F``).
_LETTER_LABELS = frozenset(
    "vitamin hep hepatitis plan grade type class group ward bay block level unit section part "
    "appendix annex annexe option schedule exhibit form item room flat zone gate terminal "
    "platform row seat stage phase category team side point route line car coach lane pitch "
    "court grid box column band size cup strain variant wing floor house letter model "
    "version series tier division league pool pod hall building".split())


def _rare_words(text: str, span: EntitySpan, zipf: Callable[[str], float]) -> bool:
    """Whether a capitalised run's words are all rare in English (Zipf below
    :data:`RARE_RUN_ZIPF`): a name no model typed (``NKECHI EZE``), not ``PRIVATE SUITE``."""
    words = _WORD.findall(text, span.start, span.end)
    return bool(words) and all(zipf(w.lower()) < RARE_RUN_ZIPF for w in words)


#: Below this Zipf frequency every word of a capitalised run makes it a name's for initials.
RARE_RUN_ZIPF = 3.0


def _signed(text: str, m: re.Match[str]) -> bool:
    """Whether initials ``m`` sign an entry: alone at their line's end after its start, a
    sentence's end or ``/`` (``LOG CLOSED. CAB``, ``WH / CAB`` of a duty log in capitals,
    where the log's manager is ``CAROLINE ASHWORTH-BELL (CAB)``; issue 40, thirteenth
    stage)."""
    if _LINE_END.match(text, m.end()) is None:
        return False
    line_start = text.rfind("\n", 0, m.start()) + 1
    return _SIGN_BEFORE.search(text, max(line_start, m.start() - 4), m.start()) is not None or \
        text[line_start:m.start()].strip() == ""


#: What may stand before initials that sign an entry, and after them.
_SIGN_BEFORE = re.compile(r"[.;!?/][ \t]{0,2}\Z")
_LINE_END = re.compile(r"[ \t]*(?:\n|\Z)")


def _in_capitals(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` stands beside another word in capitals, a space apart."""
    return (re.match(r"[ \t]+[A-Z]{2}", text[end:end + 4]) is not None
            or re.search(r"[A-Z]{2}[ \t]+$", text[max(0, start - 4):start]) is not None)
