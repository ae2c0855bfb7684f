"""The words that join the slots of a place's or an organisation's name, left out of the
release with the name: French linking words (``des`` of ``allée des Tilleuls``, ``L'`` of
``L'Écho du Loir``), the possessive ``'s`` inside an English name (``Robin's Stone``,
``the Widow's Cross``, ``Lam's Fish Bar``), ``of`` and ``the`` (``the Vale of Pickering``,
``Bank of the West``) and a
capitalised ``The`` that starts a place's name (``The Street``).

Text mode keeps these words as written (they are function words of its allow-list).  Inside a
name whose words are all privatised, a kept joining word is a word of the name released as
written — ``allée des`` and two surrogates, ``Tring's Marsh``: it tells which names the
place may have had (those with a possessive, those with ``des``).  Each is
:class:`~emprivacy.preparation.decisions.Dropped`, and the span is released as its slots'
surrogates alone (``Lorient Quimper``).  A possessive after a word of the name that is not
privatised, and the possessive of a whole name in the sentence (``the Drill Hall's roof``:
the place's span ends before it) stay as written.  Pre-processing of the
release (:func:`~emprivacy.preparation.entity_slots.entity_decisions`), outside the guarantee.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence

from emprivacy.entities.kinds import entity_words
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.spans import EntitySpan
from emprivacy.preparation.decisions import (
    INITIAL,
    Decision,
    Dropped,
    EntitySlot,
    Placeholder,
    decision_type,
)
from emprivacy.text.tokens import Token

__all__ = ["JOINING_WORDS", "POSSESSIVES", "joining_words", "links_between_names", "place_joins",
           "protected_name"]

#: The possessive clitics (as the tokenizer splits them, lower-cased) that join the words of
#: an English name: ``Robin's Stone``, ``ROBIN'S STONE``, ``Robin’s Stone``.
POSSESSIVES = frozenset({"'s", "’s"})

#: The words (besides a language's linking words) that join two protected words of one name:
#: ``Vale of Pickering``, ``Bank of the West``; French ``Pré aux Moines``, ``Châlons sur
#: Marne``.  Per language code (not ``and``, ``et``, ``à``, ``en``: a detected span often
#: joins two streets, ``junction of Milkstone Road and Drake Street``).
JOINING_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset({"of", "the"}),
    "fr": frozenset({"aux", "au", "sur", "sous"}),
}

#: The span types whose names a possessive or a joining word may join.
_JOINED_TYPES = frozenset({"LOCATION", "ORG"})


def place_joins(marking: EntityMarking, decisions: list[Decision],
                spans: Sequence[EntitySpan], covering_of: Sequence[Sequence[int]],
                text: str, tokens: Sequence[Token], words: Sequence[str],
                linking: frozenset[str], *, joining: frozenset[str] = frozenset()) -> None:
    """Mark the joining words of places' and organisations' names :class:`Dropped`, in place.

    ``linking``: the language's linking words (French; none in English), dropped between two
    slots of a place's span.  Those and ``joining`` (:func:`joining_words`) are dropped
    between two protected words (slots or placeholders) of one place's or organisation's
    span that covers them all (``the Vale of Pickering``, ``Bank of the West``, ``le Pré aux
    Moines``, ``L'Écho de l'Orbière``).  A possessive of
    :data:`POSSESSIVES` is dropped where it is joined to a slot or a placeholder before it
    and a span of :data:`_JOINED_TYPES` covers both: inside the name, a protected word of
    the span after it (``Robin's Stone`` → ``Tring Marsh``), or at the end of a saint's name
    (``from St James's on Monday``; not ``St James's been closed``); the spaces after it are
    kept.  A detected span that ends with a possessive elsewhere keeps it (``Church Lane's
    end``: the sentence's).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "at Robin's Stone"
    >>> toks = list(tokenize(text))
    >>> d = [None, EntitySlot(("PERSON", "robin"), 1), None, EntitySlot(("LOCATION", "stone"), 2)]
    >>> place_joins(None, d, [EntitySpan(3, 16, "LOCATION")],  # no marking: no linking words
    ...             [[], [0], [0], [0]], text, toks, ["at", "robin", "'s", "stone"], frozenset())
    >>> d[2]
    Dropped(type='LOCATION', spaces=True)
    """
    if linking:
        _linking_words(marking, decisions, spans, covering_of, text, tokens, words, linking)
        _leading_elision(marking, decisions, spans, covering_of, tokens, words, linking)
    _possessives(decisions, spans, covering_of, text, tokens, words)
    _leading_article(decisions, text, tokens)
    _saint_between(marking, decisions, text, tokens, words)
    _joining_words(decisions, spans, covering_of, text, tokens, words, linking | joining)


#: What ends a sentence or a line: a capitalised ``The`` after it may be the sentence's.
_SENTENCE_END = re.compile(r"[.!?:;\n|\t]")


def _leading_article(decisions: list[Decision], text: str, tokens: Sequence[Token]) -> None:
    """A Title-case ``The`` inside a sentence right before a place's slot (``Not The Street``,
    ``at The Green``: a village's street and green so named) goes with the name, as French
    ``L'`` of ``L'Écho du Loir`` does: kept, it tells that the place's name is one of the few
    with an article.  At a sentence's start or in capitals (``THE GREEN``) the capital shows
    nothing, and the word stays."""
    for i in range(1, len(tokens) - 1):
        after = decisions[i + 1]
        if (decisions[i] is None and tokens[i].text == "The"
                and isinstance(after, EntitySlot) and after.key[0] == "LOCATION"
                and tokens[i + 1].text[:1].isupper()
                and text[tokens[i].end:tokens[i + 1].start] == " "
                and tokens[i - 1].kind == "word"
                and _SENTENCE_END.search(text, tokens[i - 1].end, tokens[i].start) is None):
            decisions[i] = Dropped("LOCATION")


#: The written forms of a saint's title inside a place's or a family's name.
_SAINT_FORMS = frozenset({"St", "ST", "Ste", "STE"})


def _saint_between(marking: EntityMarking | None, decisions: list[Decision], text: str,
                   tokens: Sequence[Token], words: Sequence[str]) -> None:
    """``St`` between two protected capitalised words, one space apart, the second a
    person's and a name of the lists or a rare word (a saint's: ``Fennick St Agnes``,
    ``ASHCOMBE ST GILES``, a village so named; ``Deborah St John-Mensforth``, a family name)
    goes with them (issue 40, the fortieth English set): kept, it tells that the name is one
    of the few with a saint's in it.  Not after a title or a sign (``Revd St Ebba's``, ``at
    St Mary's``), nor before a common word (``Oxford St London``, a street, ``London`` typed
    a person's: the fortieth stage's review)."""
    for i in range(1, len(tokens) - 1):
        if tokens[i].text not in _SAINT_FORMS or decisions[i] is not None:
            continue  # (the cheap test first: every token of every piece comes here)
        before, after = protected_name(decisions[i - 1]), protected_name(decisions[i + 1])
        if (before is not None and after is not None and decision_type(after) == "PERSON"
                and (marking is None or marking.given_or_rare(words[i + 1].split("-")[0]))
                and text[tokens[i - 1].end:tokens[i].start] == " "
                and text[tokens[i].end:tokens[i + 1].start] == " "
                and len(tokens[i - 1].text) > 1 and tokens[i - 1].text[:1].isupper()
                and tokens[i + 1].text[:1].isupper()):
            decisions[i] = Dropped(decision_type(after))


def joining_words(lang: str) -> frozenset[str]:
    """The words of ``lang`` (a code) besides its linking words that join two words of one
    place's or organisation's name: :data:`JOINING_WORDS`, none for a language it does not
    hold.

    >>> sorted(joining_words("en"))
    ['of', 'the']
    """
    return JOINING_WORDS.get(lang, frozenset())


def _joining_words(decisions: list[Decision], spans: Sequence[EntitySpan],
                   covering_of: Sequence[Sequence[int]], text: str,
                   tokens: Sequence[Token], words: Sequence[str],
                   joining: frozenset[str]) -> None:
    """A run of ``joining`` words between two protected words of one place's or
    organisation's span that covers them all, only spaces (or an elision) between (module
    doc)."""
    i = 1
    while i < len(tokens):
        j = i
        while (j < len(tokens) - 1 and decisions[j] is None and tokens[j].kind == "word"
               and words[j] in joining
               and text[tokens[j - 1].end:tokens[j].start] in ("", " ")):
            j += 1
        if j == i:
            i += 1
            continue
        if (isinstance(decisions[i - 1], EntitySlot | Placeholder)
                and isinstance(decisions[j], EntitySlot | Placeholder)
                and text[tokens[j - 1].end:tokens[j].start] in ("", " ")):
            shared = set(covering_of[i - 1]).intersection(*(covering_of[k]
                                                             for k in range(i, j + 1)))
            types = {spans[k].type for k in shared} & _JOINED_TYPES
            if types:
                for k in range(i, j):
                    decisions[k] = Dropped("LOCATION" if "LOCATION" in types else "ORG")
        i = j


def _possessives(decisions: list[Decision], spans: Sequence[EntitySpan],
                 covering_of: Sequence[Sequence[int]], text: str,
                 tokens: Sequence[Token], words: Sequence[str]) -> None:
    """The ``'s`` of a place's or an organisation's name, after one of its slots or its
    placeholder (module doc)."""
    for i in range(1, len(tokens)):
        if decisions[i] is not None or words[i] not in POSSESSIVES:
            continue
        if not (isinstance(decisions[i - 1], EntitySlot | Placeholder)
                and tokens[i - 1].end == tokens[i].start):
            continue
        shared = set(covering_of[i - 1]) & set(covering_of[i])
        types = {spans[j].type for j in shared} & _JOINED_TYPES
        if not types:
            continue
        inside = i + 1 < len(tokens) and bool(shared & set(covering_of[i + 1])) \
            and isinstance(decisions[i + 1], EntitySlot | Placeholder)
        if not inside and not _saints_name(text, tokens, i, spans, shared):
            continue  # "Church Lane's end", "Jack's Field Manager": the sentence's
        decisions[i] = Dropped("LOCATION" if "LOCATION" in types else "ORG", spaces=True)


#: Words after a saint's name's ``'s`` that make it ``has`` or ``is``: ``St James's been
#: closed``.
_VERB_AFTER = frozenset("been got gone had going not just still".split())


def _saints_name(text: str, tokens: Sequence[Token], i: int, spans: Sequence[EntitySpan],
                 shared: set[int]) -> bool:
    """Whether the ``'s`` at token ``i`` ends a church's or a school's name that its span
    starts with ``St`` or ``Saint`` (``from St James's on Monday``, ``ST JUDE'S``), not before
    a verb it contracts (``St James's been closed``)."""
    following = tokens[i + 1].text.lower() if i + 1 < len(tokens) else ""
    return following not in _VERB_AFTER and any(
        text[spans[j].start:spans[j].end].lower().startswith(("st ", "st. ", "saint "))
        for j in shared)


def _linking_words(marking: EntityMarking, decisions: list[Decision],
                   spans: Sequence[EntitySpan], covering_of: Sequence[Sequence[int]],
                   text: str, tokens: Sequence[Token], words: Sequence[str],
                   linking: frozenset[str]) -> None:
    """The linking words of a place's span between two of its slots (``des`` of ``allée des
    Tilleuls``, ``du`` of ``place du Champ-de-Mars``, ``de l'`` of ``rue de l'Église``) are
    :class:`Dropped`, where text mode kept them as function words: the span is released as
    its slots' surrogates alone (``Lorient Quimper``), so that no word of the name is
    released as written.  Only spaces (nothing after an elision) between them."""
    i = 0
    while i < len(tokens):
        j = i
        while (j < len(tokens) and decisions[j] is None and tokens[j].kind == "word"
               and words[j] in linking and covering_of[j]
               and marking.span_type(spans, covering_of[j])[0] == "LOCATION"
               and j + 1 < len(tokens)
               and text[tokens[j].end:tokens[j + 1].start] in ("", " ")):
            j += 1
        if j == i:
            i += 1
            continue
        before = decisions[i - 1] if i else None
        after = decisions[j] if j < len(tokens) else None
        if (isinstance(before, EntitySlot) and isinstance(after, EntitySlot)
                and text[tokens[i - 1].end:tokens[i].start] in ("", " ")):
            for k in range(i, j):
                decisions[k] = Dropped("LOCATION")
        i = j


def _leading_elision(marking: EntityMarking, decisions: list[Decision],
                     spans: Sequence[EntitySpan], covering_of: Sequence[Sequence[int]],
                     tokens: Sequence[Token], words: Sequence[str],
                     linking: frozenset[str]) -> None:
    """A Title-case elided linking word opening a place's span, joined to its first slot
    (``L'`` of ``L'Écho du Loir`` typed a place), is :class:`Dropped`, as the linking words
    between its slots are: kept, it would be written in full before the surrogate (``Le
    Tennis``), the name's own article released as written."""
    for i in range(len(tokens) - 1):
        tok, after = tokens[i], decisions[i + 1]
        if (decisions[i] is None and tok.kind == "word" and words[i] in linking
                and words[i].endswith("'") and tok.text[:1].isupper() and covering_of[i]
                and tokens[i + 1].start == tok.end and isinstance(after, EntitySlot)
                and after.key[0] == "LOCATION"
                and any(spans[j].start == tok.start for j in covering_of[i])
                and marking.span_type(spans, covering_of[i])[0] == "LOCATION"):
            decisions[i] = Dropped("LOCATION")



#: The most linking words between two protected words that :func:`links_between_names` joins
#: (``de la``, ``de l'``).
_MOST_LINKS = 2


def links_between_names(marking: EntityMarking, decisions: list[Decision],
                        counted: Counter[str], text: str, tokens: Sequence[Token],
                        words: Sequence[str], rows: Sequence[int], *,
                        slot: Callable[[str, str, str, int], EntitySlot],
                        covered: Sequence[bool]) -> None:
    """The linking words between two protected words of one place's or organisation's name
    that no span joins, :class:`Dropped` with it, in place: French ``le phare [de la]
    roquette``, ``la pointe [du] loup``, ``la fanfare [de] port-auranel``, ``Étang [de l']
    Auranel`` (issue 42, the thirty-ninth stage: where a rule, not a detector's span, took a
    kind or a name, its linking words stayed, and with the two surrogates they showed the
    name's form).

    One or two of the language's linking words, or in capitals or Title case its joining
    words (:func:`joining_words`: ``Côte [aux] Poiriers``, ``LE PRÉ [AUX] MOINES``; not ``le
    garage sur la route``: the garage is on the road), none in English, with only spaces or an
    elision around them, a protected word on each side (a slot or a placeholder of a person,
    a place or an organisation, not an initial's) in one case (both lower case, both in
    capitals, or both capitalised), the first a kind of the ``[before-name]`` section
    (``Étang`` typed a person's) or, capitalised, a place's or an organisation's.  After a
    person's word they stay (``Pierre de la Roche``: a person's particles,
    :mod:`~emprivacy.preparation.particles`; ``ibrahima ndiaye de dakar``, ``prudence de la
    mairie``: where the person is from), and after a place's or an organisation's word in
    lower case or in capitals that is no kind (``FILS DE IBRAHIMA``, ``LA MARCHE DE LA
    VICTOIRE``: words a rule took in capitals; the first runs' harm) or before a person's
    (``à Lyon chez Martin``: the stage's review).  Between one
    organisation's placeholder on both sides the words take that placeholder (one
    ``[ORG]``).  ``counted`` and ``rows``, ``slot`` and ``covered`` are the other passes' (a
    linking word is a function word, counted nowhere).

    >>> from types import SimpleNamespace
    >>> from emprivacy.text.tokens import tokenize
    >>> text = "au phare de la roquette"
    >>> toks = list(tokenize(text))
    >>> d = [None, EntitySlot(("LOCATION", "phare"), 1), None, None,
    ...      EntitySlot(("LOCATION", "roquette"), 2)]
    >>> links_between_names(SimpleNamespace(lang="fr"), d, Counter(), text, toks,
    ...                     [t.text for t in toks], [0] * 5, slot=None, covered=[False] * 5)
    >>> d[2], d[3]
    (Dropped(type='LOCATION', spaces=False), Dropped(type='LOCATION', spaces=False))
    """
    entity = entity_words(marking.lang) if marking is not None else None
    if entity is None or not entity.link:
        return
    links = entity.link | joining_words(marking.lang)
    i = 1
    while i < len(tokens):
        j = i
        while (j < len(tokens) and j - i < _MOST_LINKS and decisions[j] is None
               and tokens[j].kind == "word" and words[j] in links
               and text[tokens[j - 1].end:tokens[j].start] in ("", " ")):
            j += 1
        if j == i:
            i += 1
            continue
        if j < len(tokens) and text[tokens[j - 1].end:tokens[j].start] in ("", " ") \
                and not (tokens[j].text.islower()
                         and any(words[m] not in entity.link for m in range(i, j))):
            _join(entity.before_name, decisions, tokens, words, i, j)
        i = j


def _join(kinds: dict[tuple[str, ...], bool], decisions: list[Decision],
          tokens: Sequence[Token], words: Sequence[str], i: int, j: int) -> None:
    """Drop the linking words ``i`` to ``j - 1`` where the protected words around them are
    one name's (:func:`links_between_names`)."""
    left, right = protected_name(decisions[i - 1]), protected_name(decisions[j])
    if left is None or right is None \
            or not _one_case(tokens[i - 1].text, tokens[j].text, tokens[i:j]):
        return
    types = {decision_type(left), decision_type(right)}
    kind = (words[i - 1],) in kinds or tuple(words[max(i - 2, 0):i]) in kinds
    if not kind and (decision_type(left) not in _JOINED_TYPES or tokens[i - 1].text.isupper()
                     or tokens[i - 1].text.islower() or decision_type(right) == "PERSON"):
        return  # "Pierre de la Roche", "ibrahima ndiaye de dakar", "FILS DE IBRAHIMA",
        # "à Lyon chez Martin"
    if left is right and isinstance(left, Placeholder):
        for m in range(i, j):
            decisions[m] = left
        return
    for m in range(i, j):
        decisions[m] = Dropped("ORG" if types & _JOINED_TYPES == {"ORG"} else "LOCATION")


def protected_name(decision: Decision) -> EntitySlot | Placeholder | None:
    """The decision where it protects a person's, a place's or an organisation's name (a slot,
    not an initial's, or a placeholder), else ``None``: the passes around names ask it
    (:mod:`~emprivacy.preparation.name_heads`)."""
    if isinstance(decision, EntitySlot) and decision.key[0] in _NAMED \
            and not decision.key[1].startswith(INITIAL):
        return decision
    if isinstance(decision, Placeholder) and decision.type in _NAMED:
        return decision
    return None


_NAMED = _JOINED_TYPES | {"PERSON"}


def _one_case(first: str, last: str, links: Sequence[Token]) -> bool:
    """Whether two words and the linking words between are written in one case: all lower
    case, all in capitals, or two capitalised words with linking words in lower case or
    capitalised."""
    if first.islower() and last.islower():
        return all(t.text.islower() for t in links)
    if first.isupper() and last.isupper():
        return all(t.text.isupper() or not any(c.isalpha() for c in t.text) for t in links)
    return (first[:1].isupper() and last[:1].isupper() and not first.isupper()
            and not last.isupper())
