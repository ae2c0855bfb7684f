"""A list of names, one to a line: every word of its lines is a name's.

A ceremony's roll, a register, the credits of captions: short lines of words alone (at most
:data:`MOST_WORDS`, no punctuation), each holding a person's slot or placeholder, one after
the other.  Speech recognition writes the names it does not know as ordinary words (``shove
on mcglinchey`` for Siobhán McGlinchey, ``quack who men sir``, ``oh the way shaun adeyemi``:
issue 40, the sixteenth English set's graduation captions), and those words went through
the mechanism at the general ε.  In a run of at least :data:`FEWEST_LINES` such lines (no
blank line between: a thread's comments, each after its author's line, are no list), a line
that holds a person is a name's line, and so is a line of at most :data:`FILL_WORDS` words
between two of them that holds none: every word of it becomes a person's slot (its own
vector, else drawn independently of it) or joins the person's placeholder of its line.
So are the names of a roll, each line a name and the same words after it
(:func:`_roll_call`), and both words of a table's cell "Surname, Forename" where one is a
person's (:func:`comma_cells`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence

from emprivacy.entities.labels import GREETINGS, SPEAKER_ROLES
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.name_words import (
    folded,
    french_family_names,
    french_given_names,
    name_class,
)
from emprivacy.entities.naming import DETERMINERS
from emprivacy.preparation.decisions import (
    GENERAL,
    Decision,
    EntitySlot,
    Placeholder,
    decision_type,
)
from emprivacy.preparation.particles import person_decision_at
from emprivacy.preparation.titles import kin_word
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

__all__ = ["FEWEST_LINES", "FILL_WORDS", "MOST_WORDS", "comma_cells", "lines_of_names",
           "list_item"]

#: The most words of a line of a list of names.
MOST_WORDS = 5
#: The most words of a line without a name found that stands between two lines of names.
FILL_WORDS = 4
#: The fewest lines of names, one after the other, that make a list.
FEWEST_LINES = 3


def lines_of_names(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                   text: str, tokens: Sequence[Token], words: Sequence[str],
                   rows: Sequence[int], verbatim: Sequence[bool]) -> None:
    """The words of a list of names' lines become the names' (see the module's
    description); ``decisions`` are changed in place, ``counted`` counts them."""
    lines = _lines(text, tokens)
    short = [_short(text, tokens, a, b, MOST_WORDS) for a, b, _ in lines]
    person = [short[k] and any(person_decision_at(decisions, i) for i in range(a, b))
              for k, (a, b, _) in enumerate(lines)]
    item = [person[k] or (0 < k < len(lines) - 1 and person[k - 1] and person[k + 1]
                          and not lines[k][2] and not lines[k + 1][2]
                          and _short(text, tokens, lines[k][0], lines[k][1], FILL_WORDS))
            for k in range(len(lines))]
    k = 0
    while k < len(lines):
        end = k + 1 if item[k] else k
        while end < len(lines) and item[end] and not lines[end][2]:  # a blank line ends it
            end += 1
        if end - k >= FEWEST_LINES:
            for a, b, _ in lines[k:end]:
                _name_line(marking, decisions, counted, tokens, words, rows, a, b)
        k = max(end, k + 1)
    _roll_call(marking, decisions, counted, text, tokens, words, rows, verbatim, lines)
    _listed_people(marking, decisions, counted, text, tokens, words, rows, verbatim)


#: Between two items of a list: a comma and a space or a line's end (not a CSV's bare
#: comma), or ``and``, ``et`` (a word of its own between spaces); after the last, a comma,
#: a full stop, a semicolon, a bracket or the line's end (not a colon: ``Apologies:``).
_ITEM_GAP = re.compile(r",(?:[ \t]+|[ \t]*\n[ \t]*)")
_CONJUNCTIONS = frozenset({"and", "et"})
_LAST_ITEM = re.compile(r"[ \t]*(?:[,.;)]|\n|\Z)")
#: Before a list's first item, words that make it a noun (``their daughters, April and May``,
#: ``the ushers, Kev``, ``two probationers``).
_BEFORE_NOUN = DETERMINERS | frozenset(
    "his her their our my your its two three four some les la le ses leurs mes des nos vos "
    "deux trois".split())


def _listed_people(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                   text: str, tokens: Sequence[Token], words: Sequence[str],
                   rows: Sequence[int], verbatim: Sequence[bool]) -> None:
    """The other items of a list of one-word items, two of them people's (or one a person's
    and one an organisation's: the recogniser types names so), are people's too
    where a list of names holds them (a given name, or a census name that is rare as a word),
    across its lines (a death notice's ``SON ÉPOUSE MARIAMA,`` then ``CHEIKH, AWA ET ABDOULAYE
    N'DIAYE``; ``BERTRAND, HÉLÈNE, AUGUSTIN``: issue 42, the twenty-seventh French set): no
    kept function word, title, family word or form key, no first item after a determiner
    (``their daughters, April and May``), no last item that more words follow."""
    language = get_language(marking.lang)
    i = 0
    while i < len(tokens):
        items = [i]
        while tokens[items[-1]].kind == "word":
            j = items[-1]
            if (j + 1 < len(tokens) and tokens[j + 1].kind == "word"
                    and _ITEM_GAP.fullmatch(text, tokens[j].end, tokens[j + 1].start)):
                items.append(j + 1)
            elif (j + 2 < len(tokens) and words[j + 1] in _CONJUNCTIONS
                  and tokens[j + 2].kind == "word"
                  and text[tokens[j].end:tokens[j + 1].start] == " "
                  and text[tokens[j + 1].end:tokens[j + 2].start] == " "):
                items.append(j + 2)
            else:
                break
        named = [decision_type(d) for k in items
                 if isinstance(d := decisions[k], EntitySlot | Placeholder)]
        if len(items) >= 3 and "PERSON" in named and named.count("PERSON") + named.count(
                "ORG") >= 2:
            if items[0] and words[items[0] - 1] in _BEFORE_NOUN:
                items = items[1:]  # "their daughters, April and May": no name first
            for k in items:
                if (decisions[k] is None and not verbatim[k] and len(tokens[k].text) > 1
                        and not _no_name(marking, words[k], language.titles)
                        and words[k] not in language.kept_function_words
                        and not kin_word(marking, words[k])
                        and not kin_word(marking, words[k][:-1])  # NEPHEWS, COUSINS
                        and (k != items[-1] or _LAST_ITEM.match(text, tokens[k].end))
                        and _listed_name(marking, language.code, words[k])):
                    _name_line(marking, decisions, counted, tokens, words, rows, k, k + 1)
        i = items[-1] + 1


def _listed_name(marking: EntityMarking, code: str, word: str) -> bool:
    """Whether a list of names holds ``word``: a given name, or in English a census name
    rare as a word (``cloakroom`` is one), in French a frequent family name of France
    (``bertrand``; the census' rare words there are French professions: ``cariste``)."""
    if marking.listed_given(word):
        return True
    if code == "fr":
        return folded(word) in french_given_names() or folded(word) in french_family_names()
    return marking.given_or_rare(word)


#: A cell's edge before its first word: the line's start, a tab, a bar, a semicolon or two
#: spaces; after its last word the same, or the line's end.
_CELL_BEFORE = re.compile(r"(?:\A|\n|\t|\||;|  )[ \t]*\Z")
_CELL_AFTER = re.compile(r"[ \t]*(?:\Z|\n|\t|\||;|  )")


def comma_cells(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                text: str, tokens: Sequence[Token], words: Sequence[str],
                rows: Sequence[int], *, covered: Sequence[bool] | None = None) -> None:
    """A table's cell of two words with a comma between, one of them protected as a name:
    the other is a person's too, however common a word (``MASON, WILL``, ``FIELD, DAWN`` of a
    results sheet's name column, where the recogniser took ``MASON`` for an organisation:
    issue 40, the twenty-third English set) — a place's beside a place (``Leeds,
    Yorkshire``) — but a title, a greeting, a role or a form's key.  ``covered``: the tokens a
    detector's span covers, which ``counted`` holds as released at the general ε until one
    is filled."""
    titles = get_language(marking.lang).titles
    for i in range(len(tokens) - 1):
        a, b = tokens[i], tokens[i + 1]
        if a.kind != "word" or b.kind != "word" or text[a.end:b.start] not in (",", ", ") \
                or not _CELL_BEFORE.search(text, 0, a.start) \
                or not _CELL_AFTER.match(text, b.end):
            continue
        for here, there in ((i, i + 1), (i + 1, i)):
            other = decisions[there]
            kind = (decision_type(other) if isinstance(other, EntitySlot | Placeholder)
                    else None)
            # no greeting ("Thanks, Dawn", "Sorry, Priya"), title, role or key
            if decisions[here] is None and kind in ("PERSON", "ORG", "LOCATION") \
                    and len(tokens[here].text) > 1 and not _no_name(marking, words[here], titles):
                _name_line(marking, decisions, counted, tokens, words, rows, here, here + 1,
                           "LOCATION" if kind == "LOCATION" else "PERSON")
                if decisions[here] is not None and covered is not None and covered[here]:
                    counted[GENERAL] -= 1
    _comma_names(marking, decisions, counted, text, tokens, words, rows, covered)


def _no_name(marking: EntityMarking, word: str, titles: frozenset[str]) -> bool:
    """Whether ``word`` beside a name and a comma is no name's: a title, a greeting
    (``Thanks, Dawn``), a speaker's role or a form's key or label."""
    return (word in titles or word in GREETINGS or word in SPEAKER_ROLES
            or marking.label_word(word))


#: Words in capitals before a comma and a name that are said to the person, no surname
#: (``OK, Sarah``, ``NO, Tom is right``, ``DONE, Priya``; French ``VU, Jean``).
_INTERJECTIONS = frozenset("ok okay no yes done vu oui non hi hey thanks sorry please nb ps "
                           "re fyi just".split())


def _comma_names(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                 text: str, tokens: Sequence[Token], words: Sequence[str],
                 rows: Sequence[int], covered: Sequence[bool] | None) -> None:
    """A name written "SURNAME, Forename" in a text of ordinary case, in a cell or not
    (``with mum DAY, Lorraine;``, ``LOW, Wen Hui``: the surname in capitals, a protected
    forename after it, capitalised), and an initial after a protected surname (a person's or
    an organisation's) and its comma (``BROOK, D.``): both a person's, however common a
    word (issue 40, the twenty-fourth English set's appointment list and reunion roll); not
    an interjection said to the person (``OK, Sarah``: :data:`_INTERJECTIONS`, or a word
    that is no name of any class) nor a title."""
    titles = get_language(marking.lang).titles
    ordinary_case: bool | None = None  # the text's case, read at the first comma's pair
    for i in range(len(tokens) - 1):
        a, b = tokens[i], tokens[i + 1]
        if a.kind != "word" or b.kind != "word" or text[a.end:b.start] != ", ":
            continue
        if ordinary_case is None:
            letters = [c for c in text[:4000] if c.isalpha()]
            ordinary_case = sum(c.islower() for c in letters) > len(letters) / 2
        if (ordinary_case and decisions[i] is None and a.text.isalpha() and a.text.isupper()
                and len(a.text) > 1 and b.text[:1].isupper() and not b.text.isupper()
                and person_decision_at(decisions, i + 1)
                and name_class(words[i]) is not None and words[i] not in _INTERJECTIONS
                and not _no_name(marking, words[i], titles)):
            here = i  # "DAY, Lorraine"
        elif (decisions[i + 1] is None and len(b.text) == 1 and b.text.isupper()
              and text.startswith(".", b.end) and words[i + 1] not in titles  # "DURAND, M. ROY"
              and isinstance(before := decisions[i], EntitySlot | Placeholder)
              and decision_type(before) in ("PERSON", "ORG")):
            here = i + 1  # "BROOK, D." (the recogniser may take BROOK for an organisation)
        elif (not ordinary_case and a.text.isupper() and b.text.isupper()
              and list_item(text, a.start, b.end)
              and (k := _capitals_pair(marking, decisions, words, titles, i)) is not None):
            here = k  # "3RD BELL, SUMMER;", "2ND WOOD, JUNE" of a prize list in capitals
        else:
            continue
        _name_line(marking, decisions, counted, tokens, words, rows, here, here + 1)
        if decisions[here] is not None and covered is not None and covered[here]:
            counted[GENERAL] -= 1


#: Before an item of a list: a line's, a cell's or a clause's start, or a place's ordinal
#: (``1ST``, ``3RD``); with commas, a comma's, a bullet's, a dash's or a number's (``1.``) too.
_ITEM_BEFORE = re.compile(r"(?:\A|\n|\t|\||;|:|  |\b\d+(?:ST|ND|RD|TH)? )[ \t]*\Z")
_ITEM_BEFORE_COMMAS = re.compile(
    r"(?:\A|\n|\t|\||;|:|,|•|–|-|  |\b\d+(?:ST|ND|RD|TH)? |\b\d+[.)])[ \t]*\Z")
#: After it: a line's, a cell's or a clause's end, or a bracket (``(TOLLBY)``); with commas, a
#: comma, a full stop or ``et`` too.
_ITEM_AFTER = re.compile(r"[ \t]*(?:\Z|\n|\t|\||;|  |\()")
_ITEM_AFTER_COMMAS = re.compile(r"[ \t]*(?:\Z|\n|\t|\||;|  |\(|[,.]|et\b)")


def list_item(text: str, start: int, end: int, *, commas: bool = False) -> bool:
    """Whether ``text[start:end]`` is an item of a list alone: a line's, a cell's or a
    clause's whole (``3RD BELL, SUMMER;``), and with ``commas`` one of a list cut at commas
    or numbered (``présents : louis petit, claire bois``, ``1. PETIT Louis``).

    >>> text = "présents : louis petit, claire bois et paul gros"
    >>> [list_item(text, text.index(n), text.index(n) + len(n), commas=True)
    ...  for n in ("louis petit", "claire bois", "paul gros")]
    [True, True, False]
    >>> list_item("3RD BELL, SUMMER;", 4, 16), list_item("we met louis petit", 7, 18)
    (True, False)
    """
    before, after = ((_ITEM_BEFORE_COMMAS, _ITEM_AFTER_COMMAS) if commas
                     else (_ITEM_BEFORE, _ITEM_AFTER))
    return (before.search(text, max(0, start - 12), start) is not None
            and after.match(text, end) is not None)


def _capitals_pair(marking: EntityMarking, decisions: list[Decision], words: Sequence[str],
                   titles: frozenset[str], i: int) -> int | None:
    """In a list item ``A, B`` in capitals, the index of the word that is a person's name
    too because the other is (``BELL, SUMMER``: ``BELL`` a person's; ``LOVE, IVY``: ``IVY``
    a person's), however common a word: a listed name of some class, no interjection, title
    or key (issue 40, the twenty-fifth English set's prize list); else ``None``."""
    for here, there in ((i + 1, i), (i, i + 1)):
        if (decisions[here] is None and person_decision_at(decisions, there)
                and name_class(words[here]) is not None and words[here] not in _INTERJECTIONS
                and not _no_name(marking, words[here], titles)):
            return here
    return None


def _roll_call(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
               text: str, tokens: Sequence[Token], words: Sequence[str], rows: Sequence[int],
               verbatim: Sequence[bool], lines: Sequence[tuple[int, int, bool]]) -> None:
    """A roll of names, each line a name and the same words after it (``le goff
    jean-marie mort pour la france``, ``gui you françois mort pour la france``: a war
    memorial's roll read out; issue 42, the fifteenth French set): in a run of at least
    :data:`FEWEST_LINES` lines that end with the same two to four words, each before them at
    most :data:`MOST_WORDS` words alone, one of the runs' names holding a person, every word
    before the ending is a name's, but in a line whose words before it are all function
    words (``il est mort pour la france``)."""
    def ending(k: int, n: int) -> tuple[str, ...] | None:
        a, b, _ = lines[k]
        if b - a <= n or b - a - n > MOST_WORDS or not _short(text, tokens, a, b, b - a):
            return None
        return tuple(words[a:b][-n:])

    done = [False] * len(lines)  # in a roll of a longer ending already
    for n in (4, 3, 2):
        k = 0
        while k < len(lines):
            same = None if done[k] else ending(k, n)
            end = k + 1
            while (same is not None and end < len(lines) and not lines[end][2]
                   and not done[end] and ending(end, n) == same):
                end += 1
            names = [(a, b - n) for a, b, _ in lines[k:end]]
            if end - k >= FEWEST_LINES and any(
                    person_decision_at(decisions, i) for a, b in names for i in range(a, b)):
                for a, b in names:
                    if not all(verbatim[a:b]):  # "il est mort pour la france": no name
                        _name_line(marking, decisions, counted, tokens, words, rows, a, b)
                done[k:end] = [True] * (end - k)
            k = end


def _lines(text: str, tokens: Sequence[Token]) -> list[tuple[int, int, bool]]:
    """Each line's tokens as a range ``(first, end)`` of token indices, and whether a blank
    line stands before it (lines without a token left out)."""
    out: list[tuple[int, int, bool]] = []
    start, blank = 0, False
    for i in range(1, len(tokens) + 1):
        gap = text[tokens[i - 1].end:tokens[i].start] if i < len(tokens) else "\n"
        if "\n" in gap:
            out.append((start, i, blank))
            start, blank = i, gap.count("\n") > 1
    return out


def _short(text: str, tokens: Sequence[Token], a: int, b: int, most: int) -> bool:
    """Whether the line of tokens ``a`` to ``b`` holds words alone, at most ``most`` of
    them, nothing but spaces around them (no punctuation: ``OMG Holly coming now!!!!``)."""
    if not 0 < b - a <= most or not all(t.kind == "word" for t in tokens[a:b]):
        return False
    begin = text.rfind("\n", 0, tokens[a].start) + 1
    end = text.find("\n", tokens[b - 1].end)
    return (text[begin:tokens[a].start].strip(" \t") == ""
            and text[tokens[b - 1].end:len(text) if end < 0 else end].strip(" \t") == ""
            and all(text[tokens[i - 1].end:tokens[i].start] in (" ", "\t")
                    or (tokens[i - 1].end == tokens[i].start  # "d'aboville"
                        and tokens[i - 1].text[-1:] in ("'", "’"))
                    for i in range(a + 1, b)))


def _name_line(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
               tokens: Sequence[Token], words: Sequence[str], rows: Sequence[int],
               a: int, b: int, type_: str = "PERSON") -> None:
    """Every word of tokens ``a`` to ``b`` not yet protected becomes a person's (a
    ``type_``'s), as the policy of the type says."""
    placeholder = next((d for d in decisions[a:b]
                        if isinstance(d, Placeholder) and decision_type(d) == type_), None)
    for i in range(a, b):
        if decisions[i] is not None:
            continue
        kind, _ = marking.resolve(type_, rows[i])
        if kind in ("slot", "unlisted"):
            decisions[i] = (EntitySlot((type_, words[i]), rows[i]) if kind == "slot"
                            else EntitySlot((type_, words[i]), -1, None, independent=True))
        elif kind == "placeholder" and placeholder is not None:
            decisions[i] = placeholder
        else:  # kept, or a placeholder with none on the line to join
            continue
        counted[type_] += 1
