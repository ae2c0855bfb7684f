"""The kind of place or organisation written around a protected name where case shows nothing:
``roadguard recovery``, ``harlshire archives``, ``larch ward``, ``CORVENSHIRE ARCHIVES``,
``friends of brinmouth lido``, French ``la boulangerie fournier``, ``GAEC du Bois de la Dame``
(issues 40 and 42, the thirty-eighth stage: places and organisations).

Where a detector or a rule protected a word as a person's, a place's or an organisation's,
the kind beside it names the same thing: a firm, a body, a ward, a farm.  In mixed case the
capitalised run does it (:func:`~emprivacy.preparation.organisations.organisation_runs`); in
lower case and in capitals the kind was released at the general ε, and at a large ε it comes
back as written (``[surrogate] archives``, ``la salle [surrogate]``): it tells the reader
which kind of body or place was named, and with the town's surrogate often which one.  The
passes, in turn (:func:`kinds_around_names`), each giving the kind the name's protection (an
organisation's placeholder, the name's where that is one; a place's slot):

* :func:`heads_after_names` (English): a kind of business or body
  (:data:`~emprivacy.entities.designator_words.ORG_HEADS`, a local paper's last word among
  them: ``the cadleshire gazette``) or of farm, field or coast
  (:data:`~emprivacy.entities.designator_words.PLACE_HEADS`) right after the name, or after
  its possessive (then a business's only: ``flower's bakery``, not ``nguyen's house``; or a
  village's place named after a person, said twice, once after a preposition: ``at wade's
  slip``, the possessive dropped with it), one space between, in the same case; not after a
  listed given name's slot (``tell grace school is shut``), a word as common as
  :data:`NAME_ZIPF` (``the church hall``), nor before a post's word (``ward member``, ``ward
  round``); a street's designator stays (text mode keeps ``Road`` of ``Fenwick Road`` too);
* :func:`kinds_of_names` (English): a kind before ``of`` and a place's or an organisation's
  name (``the university of esselbury``; not ``two friends of okafor came``);
* :func:`kinds_before_names` (a language whose entity words have a ``[before-name]``
  section: French), again while a round takes a kind: a kind before the name, at most two
  linking words between (with the name) and then not a person's name unless the kind is a
  coast's or a country's (``les amis de la clède``, ``la pointe de kerbrat``; not ``le
  journal de marie``);
* :func:`names_after_links` (French): a capitalised word after ``de la``, ``du`` once a place's
  or an organisation's name has begun (``GAEC du Bois de la Dame``);
* :func:`~emprivacy.preparation.place_joins.links_between_names` (French): the linking words
  between a kind and a name that two rules protected (``le phare [de la] roquette``);
* :func:`prefixes_of_places` (English): ``upper``, ``top``, ``great`` … before a place's
  protected name (``at top wharf``, ``Upper Tessing``; the thirty-ninth stage).

Pre-processing of the release (:func:`~emprivacy.preparation.entity_slots.entity_decisions`),
outside the guarantee.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from emprivacy.entities.designator_words import (
    ARTICLE_HEADS,
    OF_PLACES,
    ORG_HEADS,
    ORG_KINDS_OF,
    PLACE_HEADS,
    PLACE_KINDS_OF,
    PLACE_PREFIXES,
    PLACE_PREPOSITIONS,
    POSSESSIVE_PLACE_HEADS,
    ROLE_WORDS,
)
from emprivacy.entities.kinds import entity_words
from emprivacy.entities.name_words import zipf_in
from emprivacy.entities.policy import placeholder
from emprivacy.entities.toponyms import plural_place, saints_compound
from emprivacy.preparation.decisions import (
    GENERAL,
    Decision,
    Dropped,
    EntitySlot,
    Kept,
    Placeholder,
    decision_type,
)
from emprivacy.preparation.place_joins import POSSESSIVES, links_between_names, protected_name
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

if TYPE_CHECKING:
    from emprivacy.entities.marking import EntityMarking

__all__ = ["NAME_ZIPF", "heads_after_names", "kinds_around_names", "kinds_before_names",
           "kinds_of_names", "names_after_links", "prefixes_of_places"]

#: Names this common (Zipf, English) are mostly words that a rule took for a name beside
#: another (``school choir``, ``the church hall``, ``THE NEW RING``): no designator after them
#: is taken.
NAME_ZIPF = 4.9


def kinds_around_names(marking: EntityMarking, decisions: list[Decision],
                       counted: Counter[str], text: str, tokens: Sequence[Token],
                       words: Sequence[str], rows: Sequence[int], verbatim: Sequence[bool], *,
                       slot: Callable[[str, str, str, int], EntitySlot],
                       covered: Sequence[bool]) -> None:
    """Every pass of this module in turn, in place: :func:`heads_after_names`,
    :func:`kinds_of_names`, :func:`kinds_before_names`, :func:`names_after_links`; then
    :func:`~emprivacy.preparation.place_joins.links_between_names`,
    :func:`prefixes_of_places`."""
    heads_after_names(marking, decisions, counted, text, tokens, words, rows, verbatim,
                      slot=slot, covered=covered)
    kinds_of_names(marking, decisions, counted, text, tokens, words, rows, slot=slot,
                   covered=covered)
    # again where a round took a kind: a kind before it (``la ferme de la cour désiré``:
    # ``cour`` before the person's name, then ``ferme`` before ``cour``)
    while kinds_before_names(marking, decisions, counted, text, tokens, words, rows,
                             slot=slot, covered=covered):
        pass
    for step in (names_after_links, links_between_names, prefixes_of_places):
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
    pairs = Counter((words[i - 2], words[i]) for i in range(2, len(tokens))
                    if words[i] in POSSESSIVE_PLACE_HEADS and words[i - 1] in POSSESSIVES)
    placed = {(words[i - 2], words[i]) for i in range(3, len(tokens))
              if (words[i - 2], words[i]) in pairs and words[i - 3] in PLACE_PREPOSITIONS}
    function_words = get_language("en").kept_function_words
    for i in range(1, len(tokens)):
        tok = tokens[i]
        word = words[i]
        if decisions[i] is not None or tok.kind != "word" or verbatim[i] \
                or not (word in ORG_HEADS or word in PLACE_HEADS
                        or word in POSSESSIVE_PLACE_HEADS) \
                or not (tok.text.islower() or tok.text.isupper()):
            continue
        j = i - 1
        possessive = words[j] in POSSESSIVES and j > 0 and tokens[j].start == tokens[j - 1].end
        if possessive:
            j -= 1
        name = protected_name(decisions[j])
        if text[tokens[j + possessive].end:tok.start] != " " or tokens[j].kind != "word" \
                or name is None \
                or tokens[j].text.islower() != tok.text.islower() \
                or (tok.text.isupper() and not tokens[j].text.isupper()):
            continue
        following = words[i + 1] if i + 1 < len(tokens) and tokens[i + 1].kind == "word" \
            and not text[tok.end:tokens[i + 1].start].strip() else ""  # not after a sign
        named_place = possessive and word in POSSESSIVE_PLACE_HEADS \
            and pairs[words[j], word] >= 2 and (words[j], word) in placed \
            and (not following or (following in function_words and following != "of"))
        if word in ARTICLE_HEADS and (following == "of" or j == 0 or words[j - 1] != "the"):
            continue  # "okafor herald the plan", "the okafor chronicle of events"
        if marking is not None and (
                (decision_type(name) == "PERSON" and marking.listed_given(words[j])
                 and not named_place) or zipf_in(words[j], "en") >= NAME_ZIPF):
            continue  # "tell grace school is shut", "hoa's shop", "the church hall"
        if (i + 1 < len(tokens) and words[i + 1] in ROLE_WORDS) \
                or (possessive and word not in ORG_HEADS and not named_place) \
                or (not possessive and word not in ORG_HEADS and word not in PLACE_HEADS):
            continue  # "ward member"; "nguyen's house", "okafor's room", "okafor's point"
        decision = _kind(marking, slot, name, tok, i, rows[i], word,
                         organisation=word in ORG_HEADS)
        if decision is None:
            continue
        _take(decisions, counted, covered, i, decision)
        if named_place and word not in ORG_HEADS:  # "wade's slip": the name's possessive
            decisions[i - 1] = Dropped(_type(decision), spaces=True)  # (place_joins)


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
    came``, ``the society of kowalski descendants``, ``the house of mr jones``) or after a
    kind of :data:`OF_PLACES` (``university of cadlebury``: the thirty-ninth stage).  English
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
        name = protected_name(decisions[k])
        if name is None \
                or tokens[k].text.islower() != tok.text.islower() \
                or (decision_type(name) == "PERSON" and (
                    marking.listed_given(words[k]) or (
                        word not in OF_PLACES and (
                            k + 1 >= len(tokens)
                            or not isinstance(decisions[k + 1], EntitySlot | Placeholder))))):
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
                       covered: Sequence[bool]) -> bool:
    """Give a kind of place or organisation written right before a protected name the name's
    protection, in place: French ``le gaec du bois``, ``la crêperie de la calade``, ``les
    amis de la clède``, ``Radio Plateau`` (issue 42, the thirty-eighth stage).

    The kinds are the ``[before-name]`` section's of the language's entity words
    (:func:`~emprivacy.entities.kinds.entity_words`; none in English: :func:`heads_after_names`).
    Between kind and name at most two linking words (``du``, ``de la``, ``d'``), spaces or
    an elision between; none before a person's name (``le journal de marie``: a person's
    thing) unless the kind is marked ``before-person`` (``la pointe du loup``: stage 39), the
    name is a place's plural after ``des`` (:func:`~emprivacy.entities.toponyms.plural_place`:
    ``le plan des sagnes``, not ``la ferme des legrand``, ``des dumas``), a mas's compound or,
    after a place's kind, a saint's (:func:`~emprivacy.entities.toponyms.saints_compound`;
    not ``le journal de Saint-Exupéry``: stage 40); nor before a listed given name whatever
    its type (``la ferme de marie``), nor an organisation's kind before another
    organisation's kind (``le comptoir de la mairie``).  The kind and the name in one case
    (not ``le plan de Marseille``, a map); before it an article, a preposition or no word of
    the line (not ``journal radio du comité``).  An organisation's
    kind becomes the name's placeholder where that is an organisation's (its linking words
    too: one ``la [ORG]``), else a placeholder of its own; a place's kind a slot of the place
    sub-vocabulary per word, its linking words
    :class:`~emprivacy.preparation.decisions.Dropped`.  Returns whether it took a kind (then
    :func:`kinds_around_names` runs it again, for a kind before that one).
    """
    if marking is None:
        return False
    entity = entity_words(marking.lang)
    if entity is None or not entity.before_name:
        return False
    took = False
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
        name = protected_name(decisions[k])
        any_type = tuple(words[i:i + n]) in entity.before_person or (k > i + n and (
            (saints_compound(words[k])  # "le mas de Saint-Désiré", "la manade du Mas-Constant"
             and (not organisation or words[k].startswith("mas-")))
            or (words[k - 1] == "des" and plural_place(words[k]))))  # "le plan des sagnes"
        if name is None \
                or (decision_type(name) == "PERSON" and k > i + n and not any_type) \
                or (k > i + n and not any_type and marking.listed_given(words[k])) \
                or (organisation and k > i + n and marking.designator(words[k])) \
                or tokens[i].text.islower() != tokens[k].text.islower() \
                or (k == i + n and tuple(words[i:i + n]) in _LINKED_ONLY):
            i += 1  # "le journal de marie", "la radio de paul": a person's things; "la ferme
            continue  # de dupont" typed a place; "le comptoir de la mairie": another body's
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
            taken = None
            for m in range(i, i + n):
                decision = _place(marking, slot, tokens[m], m, rows[m], words[m])
                if decision is None:
                    continue
                _take(decisions, counted, covered, m, decision)
                taken = decision
            if taken is not None:  # the linking words go with the name, as inside one
                for m in range(i + n, k):  # place's span (place_joins)
                    decisions[m] = Dropped(_type(taken))
        took = took or decisions[i] is not None
        i = k
    return took


#: Kinds that make a place only with a linking word before the name (``le plan des sagnes``;
#: not ``le plan B``, ``AU PLAN CADASTRAL``: the fortieth stage).
_LINKED_ONLY = frozenset({("plan",)})
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
        name = protected_name(decisions[j])
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


def prefixes_of_places(marking: EntityMarking, decisions: list[Decision],
                       counted: Counter[str], text: str, tokens: Sequence[Token],
                       words: Sequence[str], rows: Sequence[int], *,
                       slot: Callable[[str, str, str, int], EntitySlot],
                       covered: Sequence[bool]) -> None:
    """A word of :data:`~emprivacy.entities.designator_words.PLACE_PREFIXES` right before a
    place's protected name (a place's slot, or a person's of no listed given name: a town a
    rule typed a person's), one space apart and in its case, is the name's, a place's slot
    (``at top wharf``, ``in great hobley``, ``Upper Tessing`` of a table's cell; issue 40, the
    thirty-ninth stage).  In lower case and in capitals only after a preposition of place
    (not ``and little yusuf``, ``the new rota``).  English only."""
    if marking is None or marking.lang != "en":
        return
    for i in range(len(tokens) - 1):
        tok, after = tokens[i], tokens[i + 1]
        name = protected_name(decisions[i + 1])
        if decisions[i] is not None or words[i] not in PLACE_PREFIXES or name is None \
                or text[tok.end:after.start] != " " or decision_type(name) == "ORG" \
                or (decision_type(name) == "PERSON" and marking.listed_given(words[i + 1])):
            continue
        if i + 2 < len(tokens) and words[i + 2] in POSSESSIVES:
            continue  # "in lower okafor's case"
        led = i > 0 and words[i - 1] in _PREFIX_LEADS and text[tokens[i - 1].end:tok.start] == " "
        if tok.text.islower() or tok.text.isupper():
            if tok.text.islower() != after.text.islower() or not led:
                continue
        elif not (_title(tok.text) and _title(after.text)) or not (
                led or _CELL.search(text[max(tok.start - 4, 0):tok.start])):
            continue  # "Top Manchester restaurants", "Great Manchester turnout"
        decision = _place(marking, slot, tok, i, rows[i], words[i])
        if decision is not None:
            _take(decisions, counted, covered, i, decision)


#: A table's or a form's separator before a Title-case prefix (``| Upper Tessing |``).
_CELL = re.compile(r"[|;\t][ \t]*\Z")

#: The prepositions of place before a prefix (``at top wharf``; Title case: or a cell).
_PREFIX_LEADS = frozenset("in at from to into past via near towards toward".split())


def _title(word: str) -> bool:
    """Whether a word is capitalised and not in capitals (``Dame``, ``Font-Claire``)."""
    return word[:1].isupper() and any(c.islower() for c in word)


def _type(decision: Decision) -> str:
    """The type a decision is counted under (never asked of ``None``)."""
    if isinstance(decision, EntitySlot):
        return decision.key[0]
    return decision.type if decision is not None else ""
