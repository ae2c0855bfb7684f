"""Titles and family words beside a name, no part of it (issue 40): ``SGT`` of ``SGT
OKAFOR``, ``Dr`` of ``Office of Dr Chen``, ``Dad`` of ``Dad Tom Brook``, French ``tata`` of
``tata constance``; a form's key at a span's edge (``REF`` of ``REF WM-5531207``).  Used by
:func:`~emprivacy.preparation.entity_slots.entity_decisions` and the passes after it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from itertools import pairwise

from emprivacy.entities.french_cues import FAMILY_WORDS
from emprivacy.entities.labels import FORM_KEYS, NAME_TITLES
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.name_words import family_names, name_key, word_zipf
from emprivacy.entities.naming import KIN_WORDS
from emprivacy.entities.spans import PROPER_NOUN, EntitySpan, SpanIndex
from emprivacy.entities.text_shape import word_case
from emprivacy.exceptions import MissingExtraError
from emprivacy.preparation.decisions import Decision, EntitySlot
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["PLACE_TITLES", "kin_word", "nicknames_by_size", "said_family_names",
           "title_outside_name", "titles_as_family_names", "words_beside_given"]


def title_outside_name(marking: EntityMarking, text: str, span: EntitySpan, tok: Token,
                        word: str, titles: frozenset[str], people: SpanIndex) -> bool:
    """Whether ``tok`` (its normalised ``word``), a word of its own in a placeholder's span
    that holds more than it, is no part of the name the placeholder hides: a person's title
    right before a person's name (``SGT`` of ``SGT OKAFOR``, ``Dr`` of ``Office of Dr Mei-Ling
    Chen``, ``MRS`` ending ``NEIGHBOURS MRS`` before ``JUNE SUMMERS``), a family word there
    too, or alone, in a person's or a proper noun's span (``Dad`` of ``Dad Tom Brook``, ``Dad
    says``; not one that is a given name, ``Nan``, nor one after a title, ``Mr Friend``), or
    a form's key that
    starts an identifier's span (``REF`` of ``REF WM-5531207``) or ends a span before a number
    (``AGE`` of ``VAN THANH   AGE 41``).  Not a place's title (``St``),
    not a title before a designator (``Northfold Governor Services``) or inside a name
    (``RAVENSMOOR CORONER'S COURT``, ``Our Lady of Lourdes``), not a key that is all the span
    holds (``Mail`` of ``Mail on Sunday``, ``COL`` that is someone's initials), not a part of
    a handle (``Gen`` of ``AprilMcKenna_Gen``)."""
    if not (tok.start == span.start or text[tok.start - 1:tok.start] in " \t(") \
            or not (tok.end == span.end or text[tok.end:tok.end + 1] in " \t.,:;)"):
        # (a token running past its span to the text's end: ``McDonald's`` in French)
        return False
    alone = not text[span.start:tok.start].strip(" \t.,:;()-") \
        and not text[tok.end:span.end].strip(" \t.,:;()-")
    if span.type in ("PERSON", PROPER_NOUN) and kin_word(marking, word) and (
            alone or tok.start == span.start) \
            and not _TITLE_BEFORE.search(text, max(0, tok.start - 8), tok.start):
        return True  # "Dad says", "Dad Tom Brook": no name's word; "Mr Friend" is one
    if alone:
        return False  # the span is this word alone
    if word in FORM_KEYS:  # "REF WM-5531207" of an ID; "AGE" before its number
        return (span.type == "ID" and tok.start == span.start) or (
            tok.end == span.end and re.match(r"[ \t:]*\d", text[tok.end:tok.end + 4]) is not None)
    if (word not in NAME_TITLES and word not in titles) or word in PLACE_TITLES \
            or marking.designator(word):
        return False
    after = _NEXT_WORD.match(text, tok.end)
    following = after.group(1).lower() if after is not None else ""
    return after is not None and not people.free(after.start(1), after.end(1)) \
        and not marking.designator(following) and following not in _FIRM_WORDS


#: A title right before a word (``Mr Friend``, ``Ms. Cousin``, ``MME PARRAIN``).
_TITLE_BEFORE = re.compile(r"\b(?:mr|mrs|ms|mx|dr|miss|mme|mlle|m|me)\.?[ \t]+\Z", re.IGNORECASE)


def kin_word(marking: EntityMarking, word: str) -> bool:
    """Whether ``word`` (normalised) is a family word of the marking's language that is no
    given name: English ``dad``, ``grandad``, ``friend`` (not ``nan``), French ``tonton``,
    ``mémé``, ``maman``."""
    if marking.english:
        return word in KIN_WORDS and not marking.listed_given(word)
    return get_language(marking.lang).code == "fr" and word in FAMILY_WORDS


#: The words of address before a family name (``Mrs Lord``, ``Mr Judge``), and the offices
#: they address as such (``Mr President``, ``Madam Mayor``).
_ADDRESS = frozenset("mr mrs ms mx miss".split())
_OFFICES = frozenset("president mayor officer chairman chairwoman governor senator provost "
                     "bailie convener speaker".split())
#: Words of address that are no one's family name in practice (``mister hedges``).
_HONORIFICS = frozenset("mr mrs ms mx miss mister dr doctor sir prof rev revd".split())
#: The word after a title: a full stop and spaces between, on its line.
_NEXT_WORD = re.compile(r"\.?[ \t]+([^\W\d_][\w'’-]*)")


#: Titles of places, not people (``St Columba's Hospice``, ``Mt Pleasant``).
PLACE_TITLES = frozenset({"st", "mt", "ft"})
#: Beside the designators, what follows a title in a firm's name (``Judge Brothers
#: Solicitors``), not a person's.
_FIRM_WORDS = frozenset({"brothers", "bros", "sons"})


def _after_given_slot(marking: EntityMarking, decisions: Sequence[Decision], text: str,
                      tokens: Sequence[Token], words: Sequence[str], i: int) -> bool:
    """Whether token ``i`` stands one space after a person's slot that is a listed given
    name, in that word's case (``Margaret Lord``, ``bill rush``; not ``Margaret LORD``)."""
    before = decisions[i - 1]
    return (isinstance(before, EntitySlot) and before.key[0] == "PERSON"
            and text[tokens[i - 1].end:tokens[i].start] == " "
            and word_case(tokens[i].text) == word_case(tokens[i - 1].text)
            and marking.listed_given(words[i - 1]))


def titles_as_family_names(marking: EntityMarking, decisions: list[Decision],
                           counted: Counter[str], text: str, tokens: Sequence[Token],
                           words: Sequence[str]) -> None:
    """A title that is a family name of the census list, right after a person's listed
    given name and in its case, where no capitalised word follows it: the person's family
    name, a ``PERSON`` slot drawn independently of it (ε = 0), in place (issue 40, stage 50,
    the fifty-second English set's tuning half: ``thank Margaret Lord and the board``,
    ``margaret lord chairing``, ``Dr Consuelo Pastor checked``).  A title names the one
    after it (``Lord Smith``, ``Captain Ann Rowe``); after ``Mr``, ``Mrs``, ``Ms`` … too it is
    the family name (``Thank you Mrs Lord.``; ``Mr Justice Cole`` keeps its title, and an
    office addressed so, ``Mr President``), as everywhere before a capitalised word that is
    no function word, a listed given name, a family name rarer than Zipf 4 (``has``,
    ``said`` are on the census list too), a listed
    or ``of`` it stays a title (``jack doctor nair``, ``rhys morgan captain of the
    side``), and so does one after a comma or any gap but one space (``Mary, Provost of
    Ayr``), and a word of address (``mister``, ``miss``, ``doctor``).  English only.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "thank Margaret Lord and Ann Lord Smith"
    >>> toks = [t for t in tokenize(text) if t.kind == "word"]
    >>> words = [t.text.lower() for t in toks]
    >>> d = [None, EntitySlot(("PERSON", "margaret"), 1), None, None,
    ...      EntitySlot(("PERSON", "ann"), 2), None, EntitySlot(("PERSON", "smith"), 3)]
    >>> class M:  # the marking's lists, as the real one has them
    ...     english = True
    ...     def listed_given(self, w): return w in ("margaret", "ann")
    >>> titles_as_family_names(M(), d, Counter(), text, toks, words)
    >>> [type(x).__name__ for x in d]
    ['NoneType', 'EntitySlot', 'EntitySlot', 'NoneType', 'EntitySlot', 'NoneType', 'EntitySlot']
    """
    if not marking.english:
        return
    try:
        family = family_names()
    except MissingExtraError:
        return
    for i in range(1, len(tokens)):
        w = words[i]
        if (decisions[i] is not None or tokens[i].kind != "word" or w not in NAME_TITLES
                or w in _HONORIFICS or name_key(w) not in family
                or tokens[i - 1].kind != "word"):
            continue
        addressed = words[i - 1] in _ADDRESS and text[tokens[i - 1].end:tokens[i].start] in (
            " ", ". ") and tokens[i].text[:1].isupper() and w not in _OFFICES  # "Mrs Lord"
        if not addressed and not _after_given_slot(marking, decisions, text, tokens, words, i):
            continue
        after = _NEXT_WORD.match(text, tokens[i].end)
        following = after.group(1) if after is not None else ""
        if (following[:1].isupper() and following.lower() not in KEPT_FUNCTION_WORDS) \
                or following == "of" or (following and (marking.listed_given(following.lower())
                                                        or (name_key(following) in family
                                                            and word_zipf(following) < 4.0))):
            continue  # "Ann Lord Smith", "rhys morgan captain of", "jack doctor nair": a
            # title before a name or a role
        decisions[i] = EntitySlot(("PERSON", w), -1, None, independent=True)
        counted["PERSON"] += 1


#: The words of size a nickname puts before a given name (``Big Pat``, ``wee jock``).
_SIZE_WORDS = frozenset({"big", "wee"})


def nicknames_by_size(marking: EntityMarking, decisions: list[Decision],
                      counted: Counter[str], text: str, tokens: Sequence[Token],
                      words: Sequence[str]) -> None:
    """``big`` or ``wee`` right before a person's listed given name, one space between and in
    its case, is the nickname's: a ``PERSON`` slot drawn independently of it (ε = 0), in
    place (issue 40, stage 50: ``another text from big pat``, ``Big Len will not``; the
    earlier sets' ``big bryn``).  English only.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "a text from big pat and Big Len; a big pat of butter"
    >>> toks = [t for t in tokenize(text) if t.kind == "word"]
    >>> words = [t.text.lower() for t in toks]
    >>> d = [None] * len(toks)
    >>> d[4], d[7] = EntitySlot(("PERSON", "pat"), 1), EntitySlot(("PERSON", "len"), 2)
    >>> class M:
    ...     english = True
    ...     def listed_given(self, w): return w in ("pat", "len")
    >>> nicknames_by_size(M(), d, Counter(), text, toks, words)
    >>> [toks[i].text for i in range(len(toks)) if d[i] is not None]
    ['big', 'pat', 'Big', 'Len']
    """
    if not marking.english:
        return
    for i in range(len(tokens) - 1):
        after = decisions[i + 1]
        if (decisions[i] is None and words[i] in _SIZE_WORDS and tokens[i + 1].kind == "word"
                and isinstance(after, EntitySlot) and after.key[0] == "PERSON"
                and text[tokens[i].end:tokens[i + 1].start] == " "
                and word_case(tokens[i].text) == word_case(tokens[i + 1].text)
                and marking.listed_given(words[i + 1])):
            decisions[i] = EntitySlot(("PERSON", words[i]), -1, None, independent=True)
            counted["PERSON"] += 1


def words_beside_given(marking: EntityMarking, decisions: list[Decision],
                       counted: Counter[str], text: str, tokens: Sequence[Token],
                       words: Sequence[str]) -> None:
    """The words beside a person's listed given name that are the name's too, in place:
    :func:`titles_as_family_names` (``Margaret Lord``), :func:`nicknames_by_size` (``big
    pat``) and :func:`said_family_names` (``its joy fisher from the wardens``)."""
    titles_as_family_names(marking, decisions, counted, text, tokens, words)
    nicknames_by_size(marking, decisions, counted, text, tokens, words)
    said_family_names(marking, decisions, counted, text, tokens, words)


#: A family name as common as this as an English word is a verb or a word after a given
#: name said twice (``amber warning``), not a said family name (``fisher`` 3.8; ``warning``
#: 4.6); after a caller's opening, one as common as the second (``banks`` 4.7; ``won`` 5.3).
_SAID_ZIPF = 4.5
_OPENED_ZIPF = 5.0
#: Words of farewell and endearment after a given name (``this is jack bye``, ``its sue
#: hun``), some of them census family names.
_FAREWELLS = frozenset("bye hun hon love luv mate pal dear darling babe".split())
#: What opens a caller's or a speaker's full name in speech (``its joy fisher from the
#: wardens``, ``hi this is kev rush``, ``im bill rush``), as the forms before the given name
#: (the tokenizer splits ``'s`` and ``'m``).
_CALLER_OPENINGS = (("its",), ("it", "'s"), ("this", "is"), ("im",), ("i", "'m"))


def said_family_names(marking: EntityMarking, decisions: list[Decision],
                      counted: Counter[str], text: str, tokens: Sequence[Token],
                      words: Sequence[str]) -> None:
    """A census family name right after a person's listed given name that is a ``PERSON``
    slot already, one space between and in its case, where the speaker introduces the
    person (:data:`_CALLER_OPENINGS` before the given name: ``hiya its joy fisher from the
    wardens``, ``this is kev rush``) or the piece says the pair twice (``bill rush`` of a
    phone-in, ``will fisher says``): the family name, a ``PERSON`` slot drawn independently
    of it (ε = 0), in place, in any case (issue 40, stage 50: voicemails and captions in lower
    case, the fifty-second English set's unseen half, read once measured).  Not a function word, a
    title, a form's key or a family word, nor a word as common as :data:`_SAID_ZIPF` (said
    twice) or :data:`_OPENED_ZIPF` (after an opening: ``will call``, ``may be``, ``its bill
    won``).  English only.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "hiya its joy fisher from the wardens. bill rush rang, bill rush again; ann rush"
    >>> toks = [t for t in tokenize(text) if t.kind == "word"]
    >>> words = [t.text.lower() for t in toks]
    >>> d = [EntitySlot(("PERSON", w), 1) if w in ("joy", "bill", "ann") else None
    ...      for w in words]
    >>> class M:
    ...     english = True
    ...     def listed_given(self, w): return w in ("joy", "bill", "ann")
    >>> said_family_names(M(), d, Counter(), text, toks, words)
    >>> [toks[i].text for i in range(len(toks)) if d[i] is not None]
    ['joy', 'fisher', 'bill', 'rush', 'bill', 'rush', 'ann']
    """
    if not marking.english:
        return
    try:
        family = family_names()
    except MissingExtraError:
        return
    pairs: Counter[tuple[str, str]] | None = None  # counted once a candidate is found
    for i in range(1, len(tokens)):
        before, w = decisions[i - 1], words[i]
        if (not isinstance(before, EntitySlot) or decisions[i] is not None
                or tokens[i].kind != "word" or len(w) < 2
                or name_key(w) not in family or w in NAME_TITLES or w in FORM_KEYS
                or w in _FAREWELLS or w in KIN_WORDS or w in KEPT_FUNCTION_WORDS
                or not _after_given_slot(marking, decisions, text, tokens, words, i)):
            continue
        opened = any(tuple(words[max(0, i - 1 - len(o)):i - 1]) == o for o in _CALLER_OPENINGS)
        zipf = word_zipf(w)
        if pairs is None:
            pairs = Counter(pairwise(words))
        twice = pairs[(words[i - 1], w)] >= 2
        if (opened and zipf < _OPENED_ZIPF) or (twice and zipf < _SAID_ZIPF):
            decisions[i] = EntitySlot(("PERSON", w), -1, None, independent=True)
            counted["PERSON"] += 1
