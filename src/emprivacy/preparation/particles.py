"""The particles of family names around a person's slots, in text mode: in lower case
(``de la`` of ``Dr de la Cruz``, ``bin`` of ``Hafiz bin Abdullah``), elided (``d'`` of ``Laure
d'Aubigny``), and a particle that is no English word (``ap`` of ``Siân ap Gwilym``).  Passes
over the decisions of :func:`~emprivacy.preparation.entity_slots.entity_decisions` (issue 40,
issue 42).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from emprivacy.entities.labels import FORM_KEYS, NAME_TITLES
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.name_vectors import name_like as reads_as_name
from emprivacy.entities.name_words import RARE_ZIPF, zipf_in
from emprivacy.exceptions import MissingExtraError
from emprivacy.preparation.decisions import (
    GENERAL,
    Decision,
    Dropped,
    EntitySlot,
    Placeholder,
    person_decision,
)
from emprivacy.text.language import get_language
from emprivacy.text.tokens import Token

__all__ = ["ELIDED_PARTICLES", "NAME_PARTICLES", "breton_articles", "elided_particles",
           "given_like", "lower_case_particles", "lower_letters_before_capitals"]


#: Particles of family names (``de la Cruz``, ``ap Rhys``, ``van Rensburg``, Gaelic ``Ní
#: Bhriain``, ``Mac Giolla``, Malay ``binti`` and its abbreviations: ``Halima bt. Ismail``, the
#: forty-seventh English set's tuning half, those with their full stop only:
#: :data:`_STOPPED_PARTICLES`), normalised.
NAME_PARTICLES: frozenset[str] = frozenset(
    "de del della dei di da das dos du des van von der den ter ten ap ab bin ibn al el le la "
    "lo ní ni nic mac ó ua ben binti binte".split())
#: Particles written short, with their full stop only (``Halima bt. Ismail``; not ``bt``,
#: a chat's ``but``: the stage's review).
_STOPPED_PARTICLES: frozenset[str] = frozenset({"bt", "bte"})
#: Particles only after a Gaelic one (``an`` of ``Siobhán Nic an tSaoi``).
_SECOND_PARTICLES: frozenset[str] = frozenset({"an"})
_GAELIC_PARTICLES: frozenset[str] = frozenset("ní ni nic mac ó ua".split())
#: Particles that are also English words (Portuguese ``do`` of ``Maria do Céu``; what
#: captions hear for a name's first vowel or ``O'``: ``kwabena a mensah``, ``cormac oh
#: flynn``; issue 40, stage 34, seen): a name's only between two of a person's slots, in
#: lower case, one space apart.
_BETWEEN_PARTICLES: frozenset[str] = frozenset({"do", "oh", "a"})
#: Of those, what captions hear, read only in English captions (:func:`lower_case_particles`).
_HEARD_PARTICLES: frozenset[str] = frozenset({"oh", "a"})
#: Particles that are no English or French word: in lower case, after a person's slot, the
#: word after one is the family name (``manon da silva``, ``jan van dijk``) where a name list
#: holds it or it is rare.
_FOREIGN_PARTICLES: frozenset[str] = frozenset(
    "da das dos di del della dei van von der den ter ten ap ab bin ibn nic mac ó ua".split())


def lower_case_particles(marking: EntityMarking, decisions: list[Decision],
                          counted: Counter[str], text: str, tokens: Sequence[Token],
                          words: Sequence[str], titles: frozenset[str] = frozenset()) -> None:
    """Particles between a person's slot, a title (or one of the language's ``titles``:
    French ``madame le corre``) or an initial and a person's slot are part of the name
    (``de la`` of ``Dr de la Cruz``, ``Marisa de la Cruz``, ``ap`` of ``Mrs Siân ap Rhys``),
    where they were kept as function words or released at the general ε: each a ``PERSON``
    slot drawn independently of it (ε = 0).  A particle in lower case may follow a title; one
    with a capital only stands between two of a person's slots (``SIOBHAN NÍ MHAOLÁIN`` of
    a log in capitals, ``Seán Mac Giolla``; issue 40, the eighth held-out set), or, one of
    :data:`_FOREIGN_PARTICLES`, stands before one (``DA SILVA`` of a court list; two of them
    after a person's slot make the next slot the person's, whatever its type: ``SOLÈNE DE LA
    ROCHEFOUCAULD``, typed a place), or starts a
    field's value before one (``Nom : DU PLESSIS``; issue 42, the fourteenth French set).  In
    lower case
    after a person's slot, a particle of :data:`_FOREIGN_PARTICLES` takes the word after it
    too where that may be a name (``manon da silva``: issue 42, the tenth French set).  A
    particle in lower case that a person's span gave a slot of its own (``ben`` of ``Karim
    ben Amar``) is drawn independently of it too: from its own vector a common word comes
    back as itself too often (issue 42, the thirteenth French set) — unless the same word is
    a name elsewhere in the text (``Ben Martin``): one key, one draw, from its first
    mention."""
    for k, decision in enumerate(decisions):
        if (isinstance(decision, EntitySlot) and decision.key[0] == "PERSON"
                and not decision.independent and words[k] in NAME_PARTICLES
                and tokens[k].text.islower()):
            decisions[k] = EntitySlot(decision.key, -1, None, independent=True)
    i = 0
    while i < len(tokens):
        j = i
        while (j + 1 < len(tokens) and decisions[j] is None and tokens[j].kind == "word"
               # one space after a particle; a full stop and a space after a stopped one only
               and text[tokens[j].end:tokens[j + 1].start] == (
                   ". " if words[j] in _STOPPED_PARTICLES else " ")
               and (words[j] in NAME_PARTICLES or words[j] in _STOPPED_PARTICLES or (
                   words[j] in _BETWEEN_PARTICLES and j == i and person_decision_at(
                       decisions, j - 1)) or (
                   j > 0 and words[j] in _SECOND_PARTICLES and words[j - 1] in _GAELIC_PARTICLES))):
            j += 1
        if j == i:
            i += 1
            continue
        after = decisions[j] if j < len(tokens) else None
        before = decisions[i - 1] if i else None
        gap = text[tokens[i - 1].end:tokens[i].start] if i else ""
        person = isinstance(after, EntitySlot) and after.key[0] == "PERSON"
        slot_before = isinstance(before, EntitySlot) and before.key[0] == "PERSON"
        signed = gap == ". " and _initial_slot(before, tokens[i - 1])  # "A.-S. Le Floc'h"
        lower = all(tokens[k].text.islower() for k in range(i, j))
        # "Nom : DU PLESSIS": a field's value starts with the particle
        keyed = gap.strip(" \t\u00a0\u202f") == ":" and tokens[i].text[:1].isupper()
        named = keyed or (slot_before and (lower or gap == " " or signed)) or (  # "DA SILVA":
            all(words[k] in _FOREIGN_PARTICLES and tokens[k].text[:1].isupper()
                for k in range(i, j))) or (
            lower and i > 0 and gap in (" ", ". ")
            and ((marking.label_word(words[i - 1]) and words[i - 1] != "nom")  # "au nom de"
                 or words[i - 1] in titles
                 or len(tokens[i - 1].text) == 1))
        if any(words[k] in _BETWEEN_PARTICLES for k in range(i, j)):
            named = named and person and slot_before and lower and gap == " "
        if named and any(words[k] in _HEARD_PARTICLES for k in range(i, j)):
            # captions only: English ("marie a jules": French "a" is "has"), both names in
            # lower case ("Sarah a Dickens novel"), two words ("grace oh grace"), and no
            # given name after ("anna oh hannah", a speaker putting one name right)
            named = (get_language(marking.lang).code == "en" and j < len(tokens)
                     and tokens[i - 1].text.islower() and tokens[j].text.islower()
                     and words[i - 1] != words[j] and not marking.listed_given(words[j]))
        if not person and lower and gap == " " and j < len(tokens) and after is None \
                and tokens[j].kind == "word" and tokens[j].text.islower() \
                and all(words[k] in _FOREIGN_PARTICLES for k in range(i, j)) \
                and marking.listed_or_rare(words[j]) and (slot_before or (
                    before is None and tokens[i - 1].kind == "word"
                    and tokens[i - 1].text.islower() and marking.given_or_rare(words[i - 1]))):
            # "manon da silva" of a chat: the names on both sides of the particle, found or
            # not, are the person's
            if not slot_before:
                i -= 1
            j += 1
            person = named = True
        if ((not person or not named) and lower and isinstance(after, Placeholder | EntitySlot)
                and (after.type if isinstance(after, Placeholder) else after.key[0])
                in ("PERSON", "ORG", "LOCATION")
                and all(words[k] in _NO_WORD_PARTICLES or (  # "an" of "Mac an tSionnaigh"
                    words[k] in _SECOND_PARTICLES and isinstance(before, Placeholder | EntitySlot)
                    and words[k - 1] in _GAELIC_PARTICLES) for k in range(i, j))):
            # "ap" of "Siân ap Gwilym", "Osei-Tutu and ap Gwilym": no English word, before a
            # name (a person's, or typed a place or an organisation and hidden as one): the
            # person's, and so is a capitalised word right before it that nothing protected
            # ("Siân", "Eifion" of "Eifion ab Ithel": the forty-eighth English set, stage 46);
            # Irish "an" after a protected "Mac", "Nic" typed so too (the forty-ninth's tables)
            person = named = True
            if before is None and gap == " " and _capitalised_name(
                    tokens[i - 1], words[i - 1], titles) and (
                    given_like(marking, words[i - 1]) or marking.given_or_rare(words[i - 1])):
                decisions[i - 1] = EntitySlot(("PERSON", words[i - 1]), -1, None,
                                              independent=True)
                counted["PERSON"] += 1
        if (not named and isinstance(after, EntitySlot)
                and _cell_start(text[tokens[i - 1].end if i else 0:tokens[i].start])
                and (person or (j + 1 < len(tokens) and person_decision_at(decisions, j + 1)
                                and text[tokens[j].end:tokens[j + 1].start] == " "))):
            # "| de Kerguelen Aymeric |", "| Le Cam Sylvain |", '7,"de Silva, Anushka"': a
            # table's cell that starts with the particle, then the family name and the given
            # name (issue 42, the eighteenth French set; a CSV's, issue 40, the twentieth
            # English set): the family name is the person's whatever its type ("Cam" typed a
            # place), the particle too (not a line's or a bracket's: "(de Marie et Paul)")
            if not person:
                _retype(decisions, counted, j)
            person = named = True
        titled = i > 0 and words[i - 1] in titles and gap in (" ", ". ")
        if (not person and named and isinstance(after, EntitySlot)
                and (lower or signed or (slot_before and j - i > 1))  # "SOLÈNE DE LA …"
                and (titled or (slot_before and (j - i > 1 or words[i] not in _PREPOSITIONS)))):
            # "monsieur de la rochette", "jean-eudes de la rochette", "ines ben salah": a model
            # or a list typed the family name a place; after a title or a given name and a
            # particle (not one "de", "pierre de lyon") it is the person's
            _retype(decisions, counted, j)
            person = True
        if person and named:
            for k in range(i, j):
                if decisions[k] is None:
                    decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
                    counted["PERSON"] += 1
        i = j
    _repeated_particles(decisions, counted, text, tokens, words)
    _capital_particles(decisions, counted, text, tokens, words)


def _capital_particles(decisions: list[Decision], counted: Counter[str], text: str,
                       tokens: Sequence[Token], words: Sequence[str]) -> None:
    """Particles in capitals before a person's slot that start a cell or a field's value, or
    follow a person's slot (``| DE LA ROUVIÈRE Claire |``, ``co-gérante : DE LA
    ROUVIÈRE``), are the person's — each a ``PERSON`` slot drawn independently of it, also
    where a model typed one of them an organisation (``LA ROUVIÈRE``) and the passes above
    left the particle before it alone (issue 42, the forty-ninth French set's forms)."""
    i = 0
    while i < len(tokens):
        j = i
        while (j < len(tokens) and tokens[j].kind == "word" and words[j] in NAME_PARTICLES
               and tokens[j].text.isupper() and (j == i or text[tokens[j - 1].end:
                                                                tokens[j].start] == " ")):
            j += 1
        if j == i or j >= len(tokens) or text[tokens[j - 1].end:tokens[j].start] != " " \
                or not person_decision_at(decisions, j) or all(
                    person_decision_at(decisions, k) for k in range(i, j)):
            i = j + 1
            continue
        before = text[tokens[i - 1].end if i else 0:tokens[i].start]
        if not (_cell_start(before) or before.strip(" \t\u00a0\u202f") == ":"
                or (before == " " and person_decision_at(decisions, i - 1))):
            i = j + 1
            continue
        for k in range(i, j):
            d = decisions[k]
            if isinstance(d, EntitySlot) and d.key[0] != "PERSON":
                _retype(decisions, counted, k)
            elif d is None or (isinstance(d, Placeholder) and d.type in ("ORG", "LOCATION")):
                if d is not None:
                    counted[d.type] -= 1
                decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
                counted["PERSON"] += 1
        i = j + 1


def _repeated_particles(decisions: list[Decision], counted: Counter[str], text: str,
                        tokens: Sequence[Token], words: Sequence[str]) -> None:
    """A particle left to the general ε before a person's slot is the person's where the same
    particle stands protected before the same name elsewhere in the text (``Subject: Your
    clients: bin Abdullah`` after ``To: Hafiz bin Abdullah``; not ``the bin`` before no name):
    one name, one decision."""
    def person_after(k: int) -> str | None:
        after = decisions[k + 1] if k + 1 < len(tokens) else None
        return after.key[1] if (isinstance(after, EntitySlot) and after.key[0] == "PERSON"
                                and after.key[1] not in NAME_PARTICLES  # "de la mer"
                                and text[tokens[k].end:tokens[k + 1].start] == " ") else None

    protected = {(words[k], person_after(k)) for k, d in enumerate(decisions)
                 if isinstance(d, EntitySlot) and d.key[0] == "PERSON"
                 and words[k] in NAME_PARTICLES}
    for k, d in enumerate(decisions):
        if (d is None and words[k] in NAME_PARTICLES and tokens[k].kind == "word"
                and (key := person_after(k)) is not None and (words[k], key) in protected):
            decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
            counted["PERSON"] += 1


#: Particles that are no word of English or French in lower case (``ap`` of ``Siân ap
#: Gwilym``, ``ab`` of ``Eifion ab Ithel``): a name's wherever they stand before one.
_NO_WORD_PARTICLES: frozenset[str] = frozenset("ap ab ibn nic ní".split())


def given_like(marking: EntityMarking, word: str) -> bool:
    """Whether ``word`` is a given name of the public lists or reads as a name by its vector
    (:func:`~emprivacy.entities.name_vectors.name_like`: the lists hold few French names)."""
    return marking.listed_given(word) or reads_as_name(word)


def _initial_slot(decision: Decision | None, tok: Token | None) -> bool:
    """Whether ``tok`` is a capital letter released as a person's initial."""
    return (isinstance(decision, EntitySlot) and decision.key[0] == "PERSON"
            and tok is not None and len(tok.text) == 1 and tok.text.isupper())


def _capitalised_name(tok: Token, word: str, titles: frozenset[str]) -> bool:
    """Whether ``tok`` is a word in Title case that may be a given name (no title, no
    function word of a form's key)."""
    return (tok.kind == "word" and tok.text[:1].isupper() and tok.text[1:].islower()
            and word not in titles and word not in NAME_TITLES and word not in FORM_KEYS)


#: Particles that are also a preposition of place (``pierre de lyon``).
_PREPOSITIONS = frozenset("de du des da di van von".split())
#: Elided particles of family names (``d'`` of ``Laure d'Aubigny``, ``N'`` of ``Baptiste
#: N'Diaye``), normalised.
ELIDED_PARTICLES: frozenset[str] = frozenset({"d'", "l'", "n'"})


def breton_articles(marking: EntityMarking, decisions: list[Decision], text: str,
                    tokens: Sequence[Token]) -> None:
    """Breton's article ``ar`` inside a name, in French text: right before a place's, an
    organisation's or a person's slot, one space apart, after a protected word, a kind of
    place or organisation or a Breton kind (:data:`_BRETON_KINDS`: ``le cercle ar vro
    gaden``, ``skol ar gwennili``, ``pen ar bed``; issue 42, stage 43, from the Breton set's
    tuning half), it goes with the name's surrogates (dropped, as ``des`` of ``allée des
    Tilleuls``): alone it is no French word, and it says the name is Breton.  Not after
    another word (``un billet AR Paris``, ``en recommandé avec ar dupont``: French
    abbreviations)."""
    if get_language(marking.lang).code != "fr":
        return
    for i in range(1, len(tokens) - 1):
        after, before = decisions[i + 1], tokens[i - 1]
        if (decisions[i] is None and tokens[i].text.lower() == "ar"
                and before.kind == "word" and isinstance(after, EntitySlot)
                and after.key[0] in _NAME_TYPES
                and (isinstance(decisions[i - 1], EntitySlot | Placeholder)
                     or before.text.lower() in _BRETON_KINDS
                     or marking.designator(before.text.lower()))
                and text[before.end:tokens[i].start] == " "
                and text[tokens[i].end:tokens[i + 1].start] == " "):
            decisions[i] = Dropped(after.key[0])


#: The types of the names whose Breton article goes with them.
_NAME_TYPES = frozenset({"PERSON", "LOCATION", "ORG"})
#: Kinds of Breton names before their article (``cercle ar vro``, ``skol ar``: a school,
#: ``ti ar``: a house, ``pen ar``: a headland, ``bagad``, ``kêr``: a hamlet).
_BRETON_KINDS = frozenset("cercle bagad skol ti ker kêr pen penn bar".split())


def elided_particles(marking: EntityMarking, decisions: list[Decision], text: str,
                      tokens: Sequence[Token], words: Sequence[str],
                      titles: frozenset[str] = frozenset(), *,
                      counted: Counter[str] | None = None) -> None:
    """An elided particle joined to a person's slot and after a person's slot or a title
    (``d'`` of ``Me Laure d'Aubigny``, ``N'`` of ``Baptiste N'Diaye``), where it was kept as
    a function word, goes with the name (``N'`` between slots of any type: a model may type
    ``DIAYE`` a place; after one of the language's ``titles``, ``monsieur n'dri``):
    :class:`Dropped`, the name released as its surrogates (``Laure Martin``) — a surrogate of
    its own would be glued to the next one; a capital ``N'`` before a slot, wherever it
    stands (``- N'DIAYE Aminata`` of a form's list), and so is a capital ``D'`` before a
    person's slot in capitals (``Nom : D'ALMEIDA``; ``D'ANGERS`` is a place's).  Before a
    person's placeholder it joins the placeholder, and a capital ``D'`` any placeholder
    (``AGENT D'ALMEIDA``, the name typed an organisation).  A lower-case ``n'`` joined to
    a slot goes with it wherever it stands (``de n'guessan``: ``ne`` elides before verbs),
    and ``d'`` or ``n'`` after ``les`` or ``des`` before a person's slot (``des
    d'almeida``; issue 42, the fifteenth French set).  After a person's slot, a lower-case
    ``n'`` joined to a word that is rare in English and in French, which nothing protected,
    makes it the person's too (``amadou n'diaye``; not ``paul n'est``: issue 42, the
    sixteenth French set), a slot drawn independently of it (ε = 0), counted in
    ``counted``."""
    for i in range(len(tokens) - 1):
        # "N'DIAYE" starting a list's line: a capital N' before a slot is a name's anywhere
        capital_n = words[i] in ("n'", "n’") and tokens[i].text[:1] == "N"
        capital_d = (words[i] in ("d'", "d’") and tokens[i].text[:1] == "D"  # "Nom : D'ALMEIDA"
                     and tokens[i + 1].text.isupper() and (person_decision_at(decisions, i + 1)
                                                           or isinstance(decisions[i + 1],
                                                                         Placeholder)))
        if (decisions[i] is not None or tokens[i].kind != "word"
                or words[i] not in ELIDED_PARTICLES or tokens[i + 1].start != tokens[i].end
                or (not (capital_n or capital_d) and (
                    i == 0 or text[tokens[i - 1].end:tokens[i].start] not in (" ", ". ")))):
            continue
        before, after = (decisions[i - 1] if i else None), decisions[i + 1]
        n_particle = words[i] == "n'"  # "N'Diaye", "N'Dri": a name's, whatever type a model
        # gave the slots around it (spaCy types DIAYE a place); "d'", "l'" before a place are
        # the preposition and the article ("venant d'Angers")
        # "de n'guessan": "ne" elides before a verb, never a name; "des d'almeida": no
        # preposition follows "des", the particle is a family's
        family = i > 0 and words[i - 1] in ("les", "des") and person_decision_at(decisions, i + 1)
        named = capital_n or capital_d or family or (
            n_particle and isinstance(after, EntitySlot | Placeholder)) or (
            (isinstance(before, EntitySlot | Placeholder)
             and (person_decision(before) or n_particle))
            or marking.label_word(words[i - 1]) or words[i - 1] in titles
            or len(tokens[i - 1].text) == 1)
        if (n_particle and after is None and isinstance(before, EntitySlot)
                and person_decision(before) and tokens[i + 1].kind == "word"
                and tokens[i + 1].text.isalpha() and tokens[i + 1].text.islower()
                and _rare_family_name(words[i + 1])):
            after = decisions[i + 1] = EntitySlot(("PERSON", words[i + 1]), -1, None,
                                                  independent=True)
            if counted is not None:
                counted["PERSON"] += 1
        if not named:
            continue
        if isinstance(after, EntitySlot) and (after.key[0] == "PERSON" or n_particle):
            decisions[i] = Dropped(after.key[0])
        elif isinstance(after, Placeholder) and (after.type == "PERSON" or capital_d):
            decisions[i] = after


def _rare_family_name(word: str) -> bool:
    """Whether ``word`` after ``n'`` is a family name's rest: rarer than Zipf 3 in English
    and in French (``diaye``, ``guessan``; not ``est``, ``importe``)."""
    try:
        return zipf_in(word, "en") < RARE_ZIPF and zipf_in(word, "fr") < RARE_ZIPF
    except MissingExtraError:
        return False


def _cell_start(before: str) -> bool:
    """Whether a token after ``before`` (the text since the token before it) starts a
    table's cell: after ``|`` or a tab, a CSV's quoted cell (``7,"de Silva, Anushka"``:
    after a comma and a quote, or a quote that starts a line) or its unquoted cell, right
    after a comma (``13,da Costa,Joaquim``; prose puts a space after its commas)."""
    stripped = before.strip(" \u00a0\u202f")
    return ("\t" in before or stripped.endswith(("|", ',"', '\n"')) or before == ","
            or (stripped == '"' and before.startswith('"')))


def _retype(decisions: list[Decision], counted: Counter[str], j: int) -> None:
    """Make the slot at ``j`` a person's (its count moved to ``PERSON``)."""
    slot = decisions[j]
    if not isinstance(slot, EntitySlot):
        raise TypeError(f"decision {j} must be an EntitySlot; got {type(slot).__name__}")
    counted[slot.key[0]] -= 1
    counted["PERSON"] += 1
    decisions[j] = EntitySlot(("PERSON", slot.key[1]), slot.row, slot.point, slot.independent)


def person_decision_at(decisions: list[Decision], k: int) -> bool:
    """Whether token ``k`` is a person's slot or placeholder."""
    d = decisions[k]
    return isinstance(d, EntitySlot | Placeholder) and person_decision(d)


#: The lower-case letters that are no initial between two capitalised words: consonants (not
#: a vowel nor ``y``: Portuguese ``Silva e Sousa``, Welsh ``Heol y Fferm``).
_NOT_INITIALS = frozenset("bcdfghjklmnpqrstvwxz")


def lower_letters_before_capitals(decisions: list[Decision], counted: Counter[str],
                                   text: str, tokens: Sequence[Token]) -> None:
    """A lower-case consonant alone after a word and before a capitalised word, one space
    apart, is no initial and no part of a name, whatever a pass made it: an initial is
    written in capitals before a capitalised name (``c Wood b Bowler`` of a cricket
    scorecard, caught and bowled; ``Imran Qureshi lbw b Hook``: issue 40, the fortieth
    English set's tuning half).  Its decision goes back to the general ε, counted
    under :data:`~emprivacy.preparation.decisions.GENERAL`."""
    for i in range(1, len(tokens) - 1):
        d, tok = decisions[i], tokens[i]
        if tok.text not in _NOT_INITIALS:  # one lower-case consonant (the cheap test first)
            continue
        before, after = tokens[i - 1], tokens[i + 1]
        if not (isinstance(d, EntitySlot | Placeholder) and before.kind in ("word", "number")
                and after.kind == "word" and after.text[:1].isupper()
                and text[before.end:tok.start] == " "
                and text[tok.end:after.start] == " "):
            continue
        counted[d.key[0] if isinstance(d, EntitySlot) else d.type] -= 1
        counted[GENERAL] += 1
        decisions[i] = None
