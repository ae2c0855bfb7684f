"""The kind of place or organisation written around a protected name where case shows nothing:
``roadguard recovery``, ``harlshire archives``, ``larch ward``, ``CORVENSHIRE ARCHIVES``,
``friends of brinmouth lido``, French ``la boulangerie fournier``, ``GAEC du Bois de la Dame``
(issues 40 and 42, the thirty-eighth stage: places and organisations).

Where a detector or a rule protected a word as a person's, a place's or an organisation's,
the kind beside it names the same thing: a firm, a body, a ward, a farm.  In mixed case the
capitalised run does it (:func:`~emprivacy.preparation.organisations.organisation_runs`); in
lower case and in capitals the kind was released at the general ε, and at a large ε it comes
back as written (``[surrogate] archives``, ``la salle [surrogate]``): it tells the reader
which kind of body or place was named, and with the town's surrogate often which one.  Four
passes, in turn (:func:`kinds_around_names`), each giving the kind the name's protection (an
organisation's placeholder, the name's where that is one; a place's slot):

* :func:`heads_after_names` (English): a kind of business or body (:data:`ORG_HEADS`) or of
  farm, field or coast (:data:`PLACE_HEADS`) right after the name, or after its possessive
  (then a business's only: ``flower's bakery``, not ``nguyen's house``), one space between,
  in the same case; not after a listed given name's slot (``tell grace school is shut``), a
  word as common as :data:`NAME_ZIPF` (``the church hall``), nor before a post's word
  (``ward member``, ``ward round``); a street's designator stays (text mode keeps ``Road`` of
  ``Fenwick Road`` too);
* :func:`kinds_of_names` (English): a kind before ``of`` and a place's or an organisation's
  name (``the university of esselbury``; not ``two friends of okafor came``);
* :func:`kinds_before_names` (a language whose entity words have a ``[before-name]``
  section: French): a kind before the name, at most two linking words between and then not a
  person's name (``les amis de la clède``; not ``le journal de marie``);
* :func:`names_after_links` (French): a capitalised word after ``de la``, ``du`` once a place's
  or an organisation's name has begun (``GAEC du Bois de la Dame``).

Pre-processing of the release (:func:`~emprivacy.preparation.entity_slots.entity_decisions`),
outside the guarantee.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from emprivacy.entities.designator_words import (
    ORG_DESIGNATORS,
    ORG_KINDS_OF,
    PLACE_KINDS_OF,
    STREET_DESIGNATORS,
)
from emprivacy.entities.kinds import entity_words
from emprivacy.entities.name_words import zipf_in
from emprivacy.entities.policy import placeholder
from emprivacy.preparation.decisions import (
    GENERAL,
    INITIAL,
    Decision,
    Dropped,
    EntitySlot,
    Kept,
    Placeholder,
    decision_type,
)
from emprivacy.preparation.place_joins import POSSESSIVES
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

if TYPE_CHECKING:
    from emprivacy.entities.marking import EntityMarking

__all__ = ["NAME_ZIPF", "ORG_HEADS", "PLACE_HEADS", "heads_after_names", "kinds_around_names",
           "kinds_before_names", "kinds_of_names", "names_after_links"]

#: The words that end an organisation's name right after a name in lower case and capitals:
#: kinds of business and body that are seldom a verb or a noun's modifier after a surname (the
#: earlier sets' leaks: ``harlshire archives``, ``roadguard recovery``, ``netherlees mills
#: band``, ``vale cars``, ``flower's bakery``, ``ebbescombe village stores``; the stage's
#: review: not ``press``, ``service``, ``room``, ``shop``, ``unit``, ``house``, which a
#: surname's own noun phrase takes, ``okafor press release``, ``mr okafor service user``,
#: ``MRS OKAFOR ROOM 12``, ``tell zielinski shop early``).
ORG_HEADS: frozenset[str] = frozenset(
    "archives recovery cars coaches taxis cabs band bakery bakeries brewery stores arms "
    "rescue council police homes furniture energy ambulance choir chorus orchestra society "
    "academy college university surgery clinic hospital hospice pharmacy chemist chemists "
    "dental garage motors builders plumbing roofing electrical joinery solicitors "
    "accountants estates lettings logistics haulage removals couriers foods kitchen kitchens "
    "catering cafe café restaurant bistro pub inn tavern hotel hotels gallery museum library "
    "theatre cinema studios nursery fc afc rovers athletic wanderers rangers harriers league "
    "guild institute association federation foundation centre center group ward wards "
    "tearoom tearooms florist florists barbers opticians launderette printers cleaners "
    "dispensary smokehouse pizzeria boatyard chandlery engineering contractors "
    "constabulary infirmary".split()) & (ORG_DESIGNATORS | frozenset("archives stores".split()))

#: The words that end a local place's name after it, no possessive between (a person's farm or
#: house is theirs: ``joy's farm``, ``nguyen's house``): farms, barns, fields' and a coast's
#: names (``penny piece``, ``gull rock``, ``lisk valley cottages``); not a word that is a verb
#: or a noun's modifier
#: after a surname (the stage's review: ``okafor end up``, ``mensah field the questions``,
#: ``dimitrov steps in``, ``nguyen bottom line``, ``mensah common sense``, ``okonkwo point
#: taken``, ``mensah house hunting``), nor a street's designator (``fenwick road``: text mode
#: keeps ``Road`` of ``Fenwick Road`` too).
PLACE_HEADS: frozenset[str] = frozenset(
    "farm barn lodge manor grange wharf quay moor garth meadow meadows orchard brook beck "
    "pond piece acre acres copse spinney pightle paddock cottages rock rocks bay cove sands "
    "beach pier island cliff cliffs reef".split()) - STREET_DESIGNATORS - ORG_HEADS

#: Names this common (Zipf, English) are mostly words that a rule took for a name beside
#: another (``school choir``, ``the church hall``, ``THE NEW RING``): no designator after them
#: is taken.
NAME_ZIPF = 4.9

#: Words after a designator that make it a post's or a role's (``hussain ward member``,
#: ``declan ó súilleabháin housing officer``): the designator is the post's, not a body's.
_ROLES = frozenset(
    "officer officers member members manager managers worker workers assistant nurse lead "
    "rep coordinator staff secretary director chair carer carers contact teacher "
    "teachers doctor round rounds sister clerk".split())  # "kofi primary carer is his
# nan": an adjective; "dr mensah ward round" (the stage's review)


def kinds_around_names(marking: EntityMarking, decisions: list[Decision],
                       counted: Counter[str], text: str, tokens: Sequence[Token],
                       words: Sequence[str], rows: Sequence[int], verbatim: Sequence[bool], *,
                       slot: Callable[[str, str, str, int], EntitySlot],
                       covered: Sequence[bool]) -> None:
    """Every pass of this module in turn, in place: :func:`heads_after_names`,
    :func:`kinds_of_names`, :func:`kinds_before_names`, :func:`names_after_links`."""
    heads_after_names(marking, decisions, counted, text, tokens, words, rows, verbatim,
                      slot=slot, covered=covered)
    for step in (kinds_of_names, kinds_before_names, names_after_links):
        step(marking, decisions, counted, text, tokens, words, rows, slot=slot,
             covered=covered)


def heads_after_names(marking: EntityMarking, decisions: list[Decision],
                      counted: Counter[str], text: str, tokens: Sequence[Token],
                      words: Sequence[str], rows: Sequence[int], verbatim: Sequence[bool], *,
                      slot: Callable[[str, str, str, int], EntitySlot],
                      covered: Sequence[bool]) -> None:
    """Give a designator right after a protected name the name's protection, in place (see
    the module's description).

    ``slot(type, kind, word, row)`` makes a place's slot; ``covered`` says per token whether
    a detector's span covers it (a word no longer counted at the general ε).  Nothing changes
    in text that is not English, nor where a type's policy keeps its words.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "call roadguard recovery"
    >>> toks = list(tokenize(text))
    >>> d = [None, EntitySlot(("LOCATION", "roadguard"), 7), None]
    >>> heads_after_names(None, d, Counter(), text, toks, ["call", "roadguard", "recovery"],
    ...                   [1, 7, 9], [False] * 3, slot=lambda *a: None, covered=[False] * 3)
    >>> d[2]
    Placeholder(span=-4, text='[ORG]', type='ORG', start=15)
    """
    if marking is not None and marking.lang != "en":
        return
    for i in range(1, len(tokens)):
        tok = tokens[i]
        word = words[i]
        if decisions[i] is not None or tok.kind != "word" or verbatim[i] \
                or not (word in ORG_HEADS or word in PLACE_HEADS) \
                or not (tok.text.islower() or tok.text.isupper()):
            continue
        j = i - 1
        possessive = words[j] in POSSESSIVES and j > 0 and tokens[j].start == tokens[j - 1].end
        if possessive:
            j -= 1
        name = _named(decisions[j])
        if text[tokens[j + possessive].end:tok.start] != " " or tokens[j].kind != "word" \
                or name is None \
                or tokens[j].text.islower() != tok.text.islower() \
                or (tok.text.isupper() and not tokens[j].text.isupper()):
            continue
        if marking is not None and (
                (decision_type(name) == "PERSON" and marking.listed_given(words[j]))
                or zipf_in(words[j], "en") >= NAME_ZIPF):
            continue  # "tell grace school is shut", "hoa's shop", "the church hall"
        if (i + 1 < len(tokens) and words[i + 1] in _ROLES) \
                or (possessive and word not in ORG_HEADS):
            continue  # "ward member"; "nguyen's house", "okafor's room"
        decision = _kind(marking, slot, name, tok, i, rows[i], word,
                         organisation=word in ORG_HEADS)
        if decision is None:
            continue
        _take(decisions, counted, covered, i, decision)


def _named(decision: Decision) -> EntitySlot | Placeholder | None:
    """The decision where it protects a name (a person's, a place's or an organisation's slot,
    not an initial's, or placeholder), else ``None``."""
    if isinstance(decision, EntitySlot) and decision.key[0] in _NAMED_TYPES \
            and not decision.key[1].startswith(INITIAL):
        return decision
    if isinstance(decision, Placeholder) and decision.type in _NAMED_TYPES:
        return decision
    return None


_NAMED_TYPES = frozenset({"PERSON", "LOCATION", "ORG"})


def _take(decisions: list[Decision], counted: Counter[str], covered: Sequence[bool], i: int,
          decision: Decision) -> None:
    """Token ``i`` becomes ``decision``, counted under its type (no longer at the general ε
    where a detector's span covered it)."""
    decisions[i] = decision
    counted[_type(decision)] += 1
    if covered[i]:
        counted[GENERAL] -= 1


def _kind(marking: EntityMarking | None, slot: Callable[[str, str, str, int], EntitySlot],
          name: EntitySlot | Placeholder, tok: Token, i: int, row: int, word: str, *,
          organisation: bool) -> Decision:
    """A kind's decision beside ``name``: an organisation's (:func:`_organisation`) or a
    place's (:func:`_place`)."""
    if organisation:
        return _organisation(marking, name, tok, i, row, word)
    return _place(marking, slot, tok, i, row, word)


def _organisation(marking: EntityMarking | None, name: EntitySlot | Placeholder, tok: Token,
                  i: int, row: int, word: str) -> Decision:
    """An organisation's designator's decision: the name's placeholder where it is an
    organisation's (one placeholder for the run), else a placeholder of its own."""
    kind, resolved = ("placeholder", "ORG") if marking is None else marking.resolve(
        "ORG", row, word)
    if kind == "word" or resolved is None:
        return None
    if kind == "keep":
        return Kept(str(resolved))
    if kind != "placeholder":
        return None
    if isinstance(name, Placeholder) and name.type == resolved:
        return name
    return Placeholder(-2 - i, placeholder(str(resolved)), str(resolved), tok.start)


def _place(marking: EntityMarking | None, slot: Callable[[str, str, str, int], EntitySlot],
           tok: Token, i: int, row: int, word: str) -> Decision:
    """A place's head's decision: what the place policy makes of it."""
    if marking is None:
        return None
    kind, resolved = marking.resolve("LOCATION", row, word)
    if kind == "word" or resolved is None:
        return None
    if kind == "keep":
        return Kept(str(resolved))
    if kind == "placeholder":
        return Placeholder(-2 - i, placeholder(str(resolved)), str(resolved), tok.start)
    return slot(str(resolved), kind, word, row)


def kinds_of_names(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                   text: str, tokens: Sequence[Token], words: Sequence[str],
                   rows: Sequence[int], *, slot: Callable[[str, str, str, int], EntitySlot],
                   covered: Sequence[bool]) -> None:
    """Give the kind written before ``of`` and a protected name the name's protection, in
    place, in lower case and in capitals: ``the university of esselbury``, ``friends of
    brinmouth lido``, ``THE ISLE OF SKERRA`` (issue 40, the thirty-eighth stage; in mixed case
    the capitalised kind is the span's: :mod:`~emprivacy.entities.designators`).  The kind is
    one of :data:`~emprivacy.entities.designator_words.ORG_KINDS_OF` (an organisation's
    placeholder, the name's where it is an organisation's, ``of`` and ``the`` too) or
    :data:`~emprivacy.entities.designator_words.PLACE_KINDS_OF` (a place's slot, ``of`` and
    ``the`` dropped with the name); ``of`` (and ``the``) right after it, one space apart, then
    the protected name in the kind's case, a place's or an organisation's, or a person's slot
    (a detector's type for a local word) of no listed given name with a protected word right
    after it (``friends of brinmouth lido``; the stage's review: not ``two friends of okafor
    came``, ``the society of kowalski descendants``, ``the house of mr jones``).  English
    only."""
    if marking is None or marking.lang != "en":
        return
    for i in range(len(tokens) - 2):
        tok = tokens[i]
        word = words[i]
        if decisions[i] is not None or tok.kind != "word" \
                or not (word in ORG_KINDS_OF or word in PLACE_KINDS_OF) \
                or not (tok.text.islower() or tok.text.isupper()) or words[i + 1] != "of":
            continue
        k = i + 2 + (words[i + 2] == "the" and i + 3 < len(tokens))
        if k >= len(tokens) or any(decisions[m] is not None for m in range(i + 1, k)) \
                or not all(text[tokens[m].end:tokens[m + 1].start] == " " for m in range(i, k)):
            continue
        name = _named(decisions[k])
        if name is None \
                or tokens[k].text.islower() != tok.text.islower() \
                or (decision_type(name) == "PERSON" and (
                    marking.listed_given(words[k]) or k + 1 >= len(tokens)
                    or not isinstance(decisions[k + 1], EntitySlot | Placeholder))):
            continue  # "two friends of okafor came", "the guild of nguyen translators"
        decision = _kind(marking, slot, name, tok, i, rows[i], word,
                         organisation=word in ORG_KINDS_OF)
        if decision is None:
            continue
        _take(decisions, counted, covered, i, decision)
        for m in range(i + 1, k):  # "of", "the": with the name
            decisions[m] = decision if decision is name else Dropped(_type(decision))


def kinds_before_names(marking: EntityMarking, decisions: list[Decision],
                       counted: Counter[str], text: str, tokens: Sequence[Token],
                       words: Sequence[str], rows: Sequence[int], *,
                       slot: Callable[[str, str, str, int], EntitySlot],
                       covered: Sequence[bool]) -> None:
    """Give a kind of place or organisation written right before a protected name the name's
    protection, in place: French ``le gaec du bois``, ``la crêperie de la calade``, ``les
    amis de la clède``, ``la salle aimé-léger``, ``Radio Plateau`` (issue 42, the
    thirty-eighth stage).

    The kinds are those of the ``[before-name]`` section of the language's entity words
    (:func:`~emprivacy.entities.kinds.entity_words`; none in English, whose kinds come after
    the name: :func:`heads_after_names`).  Between the kind and the name at most two of the
    language's linking words (``du``, ``de la``, ``d'``), spaces or an elision between, and
    none before a person's name (``le journal de marie``, ``la radio de paul``, ``le foyer de
    marc``: a person's things; the stage's review); the kind and the name in one case (both
    lower case, or both capitalised); before the kind an
    article, a preposition or no word of the line (not ``journal radio du comité``, ``nos
    amis du québec``).  An
    organisation's kind becomes the name's placeholder where that is an organisation's (the
    linking words too: one placeholder for ``la [ORG]``), else a placeholder of its own; a
    place's kind becomes a slot of the place sub-vocabulary per word.
    """
    if marking is None:
        return
    entity = entity_words(marking.lang)
    if entity is None or not entity.before_name:
        return
    longest = max(len(k) for k in entity.before_name)
    i = 0
    while i < len(tokens):
        found = next(((n, entity.before_name[tuple(words[i:i + n])])
                      for n in range(longest, 0, -1)
                      if tuple(words[i:i + n]) in entity.before_name), None)
        if found is None or any(d is not None for d in decisions[i:i + found[0]]) \
                or any(t.kind != "word" for t in tokens[i:i + found[0]]):
            i += 1
            continue
        n, organisation = found
        if i and tokens[i - 1].kind == "word" and words[i - 1] not in _FRENCH_LEADS \
                and text[tokens[i - 1].end:tokens[i].start] in ("", " "):
            i += 1  # "journal radio du comité", "tambours fanfare des", "nos amis du québec"
            continue
        k = i + n
        while k < len(tokens) and k - (i + n) < 2 and words[k] in entity.link \
                and decisions[k] is None:
            k += 1
        if k >= len(tokens) or not all(text[tokens[m].end:tokens[m + 1].start] in ("", " ")
                                       for m in range(i, k)):
            i += 1
            continue
        name = _named(decisions[k])
        if name is None \
                or (decision_type(name) == "PERSON" and k > i + n) \
                or tokens[i].text.islower() != tokens[k].text.islower():
            i += 1  # "le journal de marie", "la radio de paul": a person's things
            continue
        if organisation:
            decision = _organisation(marking, name, tokens[i], i, rows[i], words[i])
            if decision is None:
                i += 1
                continue
            joined = range(i, k) if decision is name else range(i, i + n)
            for m in joined:
                if m < i + n:
                    _take(decisions, counted, covered, m, decision)
                elif decisions[m] is None:  # the linking words: one placeholder
                    decisions[m] = decision
        else:
            for m in range(i, i + n):
                decision = _place(marking, slot, tokens[m], m, rows[m], words[m])
                if decision is None:
                    continue
                _take(decisions, counted, covered, m, decision)
        i = k


#: The words a kind may follow (an article, a preposition): a kind right after another word
#: of the line is that word's complement (``JOURNAL RADIO DU COMITÉ``, ``AGENTS RADIO``, ``lan
#: radio noëlla``), after a possessive the speaker's own (``nos amis du québec``).
_FRENCH_LEADS = frozenset(
    "le la les l' un une des du de d' au aux à chez pour sur par en avec vers dans devant "
    "derrière près et ou".split())


#: A capitalised word after ``de la`` at least this common (Zipf, in the language) is a
#: capitalised word, not a name's (``Lyon de la Même façon``: the stage's review).
_COMMONEST_AFTER_LINK = 5.5


def names_after_links(marking: EntityMarking, decisions: list[Decision],
                      counted: Counter[str], text: str, tokens: Sequence[Token],
                      words: Sequence[str], rows: Sequence[int], *,
                      slot: Callable[[str, str, str, int], EntitySlot],
                      covered: Sequence[bool]) -> None:
    """A capitalised word after a place's or an organisation's protected word and one or two
    linking words is the same name's, in place: French ``GAEC du Bois de la Dame``, ``Champ
    de la Croix`` where a span ended at ``Bois`` or at ``Champ`` (issue 42, the thirty-eighth
    stage).  French capitalises a proper noun and little else, so inside a sentence in mixed
    case a capitalised word after ``de la`` goes on with the name.  Only in Title case (not
    in capitals, where every word is capitalised), spaces or an elision between; the word
    becomes the organisation's placeholder (the linking words too) or a place's slot (the
    linking words then :class:`~emprivacy.preparation.decisions.Dropped`, as inside one
    place's span), and so on along the name.  Not after a person's (``Marie de Bourgogne``:
    a detector's call).
    """
    if marking is None:
        return
    entity = entity_words(marking.lang)
    if entity is None or not entity.link:
        return
    language = get_language(marking.lang)
    function_words = language.kept_function_words
    for k in range(2, len(tokens)):
        tok = tokens[k]
        if decisions[k] is not None or tok.kind != "word" or not _title(tok.text) \
                or words[k] in function_words \
                or zipf_in(words[k], language.wordfreq_code) >= _COMMONEST_AFTER_LINK:
            continue  # "Lyon de la Même façon"
        j = k - 1
        while j >= 0 and k - j <= 2 and words[j] in entity.link \
                and not isinstance(decisions[j], EntitySlot | Placeholder):
            j -= 1
        if j < 0 or j == k - 1 or k - j > 3:
            continue
        name = _named(decisions[j])
        if name is None or decision_type(name) == "PERSON" \
                or not _title(tokens[j].text) \
                or not all(text[tokens[m].end:tokens[m + 1].start] in ("", " ")
                           for m in range(j, k)):
            continue
        decision = _kind(marking, slot, name, tok, k, rows[k], words[k],
                         organisation=decision_type(name) == "ORG")
        if decision is None:
            continue
        _take(decisions, counted, covered, k, decision)
        for m in range(j + 1, k):  # the linking words go with the name, as inside one
            # place's span (:func:`~emprivacy.preparation.place_joins.place_joins`)
            decisions[m] = decision if decision is name else Dropped(_type(decision))


def _title(word: str) -> bool:
    """Whether a word is capitalised and not in capitals (``Dame``, ``Font-Claire``)."""
    return word[:1].isupper() and any(c.islower() for c in word)


def _type(decision: Decision) -> str:
    """The type a decision is counted under (never asked of ``None``)."""
    if isinstance(decision, EntitySlot):
        return decision.key[0]
    return decision.type if decision is not None else ""
