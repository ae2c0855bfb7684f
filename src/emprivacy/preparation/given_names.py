"""A given name left to the general ε right before a family name's slot, in text mode
(``ALAIN`` of ``NOTRE ÉQUIPIER ALAIN QUÉRÉ``, ``WILL`` of a roll's ``2015–23 WILL HOPE``): a
pass over the decisions of :func:`~emprivacy.preparation.entity_slots.entity_decisions`
(issue 40; French family names that are words beside a given name:
:mod:`emprivacy.preparation.family_names`).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence

from emprivacy.entities.french_cues import FAMILY_WORDS, TITLE_KINDS
from emprivacy.entities.initials import COMMON_ZIPF
from emprivacy.entities.labels import FORM_KEYS, NAME_TITLES
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.modal_names import MODAL_NAMES
from emprivacy.entities.name_pairs import GIVEN_WORD_ZIPF
from emprivacy.entities.name_words import french_given_words
from emprivacy.entities.naming import KIN_WORDS
from emprivacy.preparation.decisions import Decision, EntitySlot
from emprivacy.preparation.particles import NAME_PARTICLES, given_like, person_decision_at
from emprivacy.text.language import FRENCH, get_language
from emprivacy.text.tokens import Token

__all__ = ["given_after_commas", "given_before_names", "roll_names", "signed_off",
           "spoken_rolls"]


def given_before_names(marking: EntityMarking, decisions: list[Decision],
                       counted: Counter[str], text: str, tokens: Sequence[Token],
                       words: Sequence[str], titles: frozenset[str] = frozenset()) -> None:
    """A capitalised word left to the general ε right before a person's slot, one space
    apart, is the person's given name where the lists hold it or it reads as a name by its
    vector (:func:`~emprivacy.entities.name_vectors.name_like`; the census lists hold few
    French given names): ``ALAIN`` of ``NOTRE ÉQUIPIER ALAIN QUÉRÉ``, a run in capitals that
    only a capital-letter detector found, whose family name is rare (issue 42, the
    thirteenth French set).  A ``PERSON`` slot drawn independently of it (ε = 0); not a
    title, a form's key, a particle, a function word or a family word (``IN MEMORIAM``,
    ``Son Cliff``), nor a function word but ``will`` and ``may`` at a name's item
    (``2015–23 WILL HOPE``, ``HIS WIDOW MAY CHURCH``: a listed given name, not the verb) or,
    in lower case, before a person's slot of a family name after no subject or determiner
    (``and will mason is lying down`` of speech recognition),
    before a family name's slot of any type (``HOPE`` typed a place; not ``In London``)."""
    function_words = get_language(marking.lang).kept_function_words
    for i in range(len(tokens) - 1, 0, -1):
        after = decisions[i]
        if not isinstance(after, EntitySlot):
            continue
        k = i - 1
        tok = tokens[k]
        # a function word that is a listed given name only at an item's start, and there
        # before any slot of a family name (HOPE of "WILL HOPE" typed a place)
        verb = words[k] in function_words
        lower_modal = (tok.text.islower() and after.key[0] == "PERSON"
                       and words[i] not in MODAL_NAMES  # "will will will nguyen": attempts
                       and not (k and words[k - 1] in _NOT_BEFORE_MODAL_NAME))
        if verb and not (words[k] in MODAL_NAMES and marking.family_name(words[i])
                         and (lower_modal or _item_start(text, tokens, words, k, i))):
            continue
        if not verb and after.key[0] != "PERSON":
            continue
        lower_given = (not verb and tok.text.islower() and tokens[i].text.islower()
                       and after.key[0] == "PERSON"
                       and _lower_given(marking, decisions, text, tokens, words, k,
                                        function_words))
        if (decisions[k] is None and tok.kind == "word" and len(tok.text) > 1
                and (tok.text[:1].isupper() or (verb and lower_modal) or lower_given)
                and text[tok.end:tokens[i].start] == " "
                and words[k] not in titles and words[k] not in NAME_TITLES
                and words[k] not in FORM_KEYS and words[k] not in NAME_PARTICLES
                and words[k] not in KIN_WORDS
                and (lower_given or given_like(marking, words[k])
                     or _word_given(marking, decisions, text, tokens, words, k))):
            decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
            counted["PERSON"] += 1


def _lower_given(marking: EntityMarking, decisions: Sequence[Decision], text: str,
                 tokens: Sequence[Token], words: Sequence[str], k: int,
                 function_words: frozenset[str]) -> bool:
    """Whether the lower-case word at ``k``, right before a person's slot in lower case, is
    the person's given name: a listed given name (French: of ``data/given-names-fr.txt``
    too, accents kept) after no subject, determiner or possessive (``the treasurer is bill
    piper``, ``le doyen désiré faucher``, ``la petite perle tanguy`` of speech recognition;
    not ``i hope piper comes``, ``the bill piper sent``: issue 40, the thirty-seventh
    stage, seen).  The words before are one list for both languages (French ``son``, a
    possessive, also stops the English ``his son bill piper``)."""
    word = words[k]
    before = words[k - 1] if k else ""
    if before in _NOT_BEFORE_LOWER_GIVEN or word in FAMILY_WORDS or word in _NO_GIVEN or (
            marking.lang == "en" and marking.english_zipf(word) >= GIVEN_WORD_ZIPF):
        return False  # "i hope piper", "mamie blanche" (a family word, "Mamie" listed), "i
        # can see kuba" (See listed, name_pairs.GIVEN_WORD_ZIPF; will and may: above)
    if marking.lang == "en" and before and before not in KIN_WORDS \
            and before not in function_words and not (
                _person_before(decisions, k) and marking.english_zipf(word) < COMMON_ZIPF):
        return False  # "the new guy dean", "best dale handler": after a function word
        # ("the treasurer is bill piper"), a family word, no word ("01:31 mark dresser") or
        # a person's one-word slot ("dawn con maguire": issue 40, the forty-ninth English
        # set's tuning half), but a word as common as "sun" ("rose sun rose at last")
    return marking.given_name(word) or _word_given(marking, decisions, text, tokens, words, k)


def _person_before(decisions: Sequence[Decision], k: int) -> bool:
    """Whether the word before ``k`` is a person's slot of its own, not a run's last word
    (``dawn`` of ``dawn con maguire``; not ``bill`` of ``will bill piper``)."""
    before = decisions[k - 1] if k else None
    return (isinstance(before, EntitySlot) and before.key[0] == "PERSON"
            and not (k > 1 and isinstance(decisions[k - 2], EntitySlot)))


def _word_given(marking: EntityMarking, decisions: Sequence[Decision], text: str,
                tokens: Sequence[Token], words: Sequence[str], k: int) -> bool:
    """Whether the word at ``k`` is a French given name that is above all a word (marked
    ``before-family`` in ``data/given-names-fr.txt``: ``juste``, ``parfait``, ``fidèle``)
    before a family name, in any case: the person's slot after it holds no given name, and
    what comes before it is what comes before a name (:data:`_BEFORE_WORD_GIVEN`: a title, a
    role or a family word, ``le lieutenant juste roux``, ``LE CURÉ FIDÈLE ROUMIEU``; a
    greeting, ``bonsoir juste nsimba``; ``et``, ``avec``, ``chez``, ``de``; a protected
    word, a list's previous name; or no word, a line's or a clause's start).  Not after a
    verb or an adverb (``c'est juste lefebvre``, ``on attend juste moreau``, ``il est resté
    innocent durand``); not ``c'est juste marie`` (issue 42, stage 43, and its second
    reading)."""
    if marking.lang != "fr" or k + 1 >= len(words) or words[k] not in french_given_words():
        return False
    after = words[k + 1]
    if marking.given_name(after) or after in french_given_words():
        return False
    if k == 0 or tokens[k - 1].kind != "word" or decisions[k - 1] is not None:
        return True
    gap = text[tokens[k - 1].end:tokens[k].start]
    return gap.strip(" \t") != "" or words[k - 1] in _BEFORE_WORD_GIVEN


#: Words before a lower-case word that make it a verb, a noun or an adjective, not a given
#: name before a family name (``i hope``, ``the bill``, ``la perle``).
_NOT_BEFORE_LOWER_GIVEN = frozenset(
    "i you we they he she it who that which there the a an my your his her our their this "
    "these those its to not je tu il elle on nous vous ils elles le la les un une des du ce "
    "cet cette ces mon ma mes ton ta tes son sa ses notre nos votre vos leur leurs qui que "
    "ne pas très si trop plus".split())

#: Words after which a French given name that is above all a word (``juste``, ``fidèle``) may
#: be one, before a family name: titles, roles and family words (``le lieutenant juste
#: roux``), greetings, and the words that join names (``et parfait ngoma``, ``chez fidèle
#: rivière``, ``c'est moi léger roux``).
_BEFORE_WORD_GIVEN = (FRENCH.titles | TITLE_KINDS | FAMILY_WORDS | frozenset(
    "lieutenant capitaine commandant adjudant sergent brigadier trésorier trésorière "
    "secrétaire doyen doyenne diacre abbé recteur pasteur frère sœur conseiller conseillère "
    "intervenant intervenante bonjour bonsoir salut coucou merci bravo allô allo et avec "
    "chez de d' à pour par moi toi lui ça voici voilà puis ou".split()))

#: Listed given names that are interjections or family words of a chat (``customer ok
#: mark``, ``will pa sue``, ``ok olive``).
_NO_GIVEN = frozenset("ok okay ha ah oh eh pa ma bon merci bravo salut coucou oui".split())

#: Words before ``will`` or ``may`` that make it the verb or the noun (``we will mason``
#: nothing; ``the will``).
_NOT_BEFORE_MODAL_NAME = frozenset("i you we they he she it who that which there the a an my "
                                   "your his her our their this".split())


def _item_start(text: str, tokens: Sequence[Token], words: Sequence[str], k: int,
                i: int) -> bool:
    """Whether the word at ``k`` starts a name's item ending with the word at ``i``: right
    after a family word (``HIS WIDOW MAY CHURCH``), first on its line after numbers or
    signs with the line's end or a sign after ``i`` (``2015–23 WILL HOPE``; not ``Will Davies
    come``), or, in capitals, after a comma or a semicolon with a sign after ``i`` (``FRANK
    STYLE, WILL MASON, ROSE FIELD``: issue 40, the twenty-ninth English set): a modal there
    that is a listed given name is the name, not the verb."""
    if k and tokens[k - 1].kind == "word" and (words[k - 1] in KIN_WORDS
                                                or words[k - 1] in _WIDOWED):
        return True
    rest = text[tokens[i].end:tokens[i].end + 3]
    ends = rest.strip(" \t")[:1] in _ITEM_ENDS  # the line's end or a sign after the name
    if k and text[tokens[k - 1].end:tokens[k].start] in (", ", "; ") and ends \
            and tokens[i].text.isupper():
        return True  # an item of a list in capitals: "FRANK STYLE, WILL MASON, ROSE FIELD"
    line = text[text.rfind("\n", 0, tokens[k].start) + 1:tokens[k].start]
    if any(c.isalpha() for c in line):  # not "…gov.uk. My nan", "ONE IN YELLOW"
        return False
    # and the item ends with the name (not "Will Davies come")
    return ends


def given_after_commas(marking: EntityMarking, decisions: list[Decision],
                       counted: Counter[str], text: str, tokens: Sequence[Token],
                       words: Sequence[str]) -> None:
    """``will`` or ``may`` as the given name of a roll's ``SURNAME, GIVEN`` item (``CHURCH,
    MAY (DECEASED)``, ``HOPE, WILL – HOPE, FAITH``; issue 40, the twenty-sixth set): right
    after a family name's slot (a person's, or any slot of a listed family name) and
    ``, ``, in its case, and closing the item — the line's end, a sign or a bracket after
    it, not a word (``HOPE, WILL YOU``, ``Sorry, will you``, ``Yes, may I``).  So is a
    month's name of the language in Title case after a family name in capitals, ``, `` or a
    space between (``LE BIHAN, Avril``, ``TRAN Mai``: stage 49, the fiftieth French set's
    tuning half; French writes ``NOM Prénom``).  A ``PERSON`` slot drawn independently of
    it (ε = 0), where the kept function word or the month left it verbatim."""
    months = get_language(marking.lang).months
    for k in range(1, len(tokens)):
        month = words[k] in months and tokens[k].text.istitle()
        if (words[k] not in MODAL_NAMES and not month) or decisions[k] is not None:
            continue
        i, before = k - 1, decisions[k - 1]
        gap, family = text[tokens[i].end:tokens[k].start], tokens[i].text
        paired = (gap in (", ", " ") and family.isupper() and len(family) > 1 if month
                  else gap == ", " and family.isupper() == tokens[k].text.isupper())
        if not (paired and isinstance(before, EntitySlot)
                and (before.key[0] == "PERSON" or marking.family_name(words[i]))):
            continue
        rest = text[tokens[k].end:tokens[k].end + 3]
        if rest[:1] == "\t" or rest.lstrip(" \t")[:1] in _ITEM_ENDS:  # a tab ends a cell
            decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
            counted["PERSON"] += 1


def roll_names(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
               text: str, tokens: Sequence[Token], words: Sequence[str]) -> None:
    """A roll of office in capitals, a line of a year or years and a name alone (``2025–26
    HONEY MARCH – NO RELATION…``, ``BILL MAJOR (1962–90)``; issue 40, the twenty-seventh set,
    where word names and a month's name were left to the general ε): two or three words in
    capitals after the years (or before them in brackets), the first a listed given name
    and the last a listed family name, up to the line's end or a sign, are the holder's
    name where two lines of the same shape or more hold names the other rules found (a
    roll of people; not a programme's ``2019 WILL WRITING (FREE)``) — ``PERSON`` slots drawn
    independently of them (ε = 0) where nothing else decided them (a date's placeholder
    stays)."""
    if not marking.english or "\n" not in text:
        return
    starts = [t.start for t in tokens]
    holders, named = [], 0
    for m in (*_ROLL_LINE.finditer(text), *_ROLL_NAME_FIRST.finditer(text)):
        first = bisect_left(starts, m.start("name"))
        last = bisect_left(starts, m.end("name"))
        if first >= last:
            continue
        if all(person_decision_at(decisions, k) for k in range(first, last)):
            named += 1  # a holder the other rules found
        elif marking.listed_given(words[first]) and marking.family_name(words[last - 1]) \
                and not any(words[k] in NAME_TITLES or marking.label_word(words[k])
                            for k in range(first, last)):
            holders.append((first, last))
    if named < 2:  # a roll whose other holders are people: not "2022 MAJOR WORKS – ROOF"
        return
    for first, last in holders:
        for k in range(first, last):
            if decisions[k] is None and tokens[k].kind == "word":
                decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
                counted["PERSON"] += 1


def spoken_rolls(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                 text: str, tokens: Sequence[Token], words: Sequence[str]) -> None:
    """A roll of names read aloud in lower case (captions: ``so here goes skip keel rusty
    pound penny sterling chip bolt dave stone``; issue 40, the thirtieth English set, where
    the names that are words were left to the general ε between the names protected): in a
    run of :data:`_ROLL_WORDS` words or more in lower case with only spaces between them and
    no kept function word, of which three in five or more are people's already or listed
    names, a listed given or family name left between two people's words (``pound``, ``stone``;
    no title or family word: ``tomasz mister asante-boateng``), not common in English (Zipf
    below :data:`_ROLL_ZIPF`), is a ``PERSON`` slot drawn independently of it (ε = 0).  A
    chat's ``thanks rusty great work`` is no roll."""
    if not marking.english:
        return
    for run in _lower_runs(text, tokens, words, get_language(marking.lang).kept_function_words):
        if len(run) < _ROLL_WORDS:
            continue
        listed = [j for j in run if decisions[j] is None and (
            marking.listed_given(words[j]) or marking.family_name(words[j]))]
        if 5 * (len(listed) + sum(person_decision_at(decisions, j) for j in run)) < 3 * len(run):
            continue
        inner = set(run[1:-1])
        for j in listed:
            if j in inner and person_decision_at(decisions, j - 1) \
                    and person_decision_at(decisions, j + 1) and words[j] not in NAME_TITLES \
                    and words[j] not in KIN_WORDS and marking.english_zipf(words[j]) < _ROLL_ZIPF:
                decisions[j] = EntitySlot(("PERSON", words[j]), -1, None, independent=True)
                counted["PERSON"] += 1


def _lower_runs(text: str, tokens: Sequence[Token], words: Sequence[str],
                function_words: frozenset[str]) -> Iterator[list[int]]:
    """The runs of words in lower case with only spaces or tabs between them and no
    ``function_words`` (:func:`spoken_rolls`), as token indices."""
    run: list[int] = []
    for k, tok in enumerate(tokens):
        if tok.kind == "word" and tok.text.islower() and words[k] not in function_words:
            if run and not re.fullmatch(r"[ \t]+", text[tokens[run[-1]].end:tok.start]):
                yield run
                run = []
            run.append(k)
        elif run:
            yield run
            run = []
    if run:
        yield run


def signed_off(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
               text: str, tokens: Sequence[Token], words: Sequence[str]) -> None:
    """A note's sign-off after its last sentence: a dash, then a listed given name or one
    capital alone to the line's end (``That's mine, thanks May! – Summer``, ``RING HER BACK.
    – G``; issue 40, the twenty-ninth and thirtieth English sets, where the word was left to
    the general ε) is a ``PERSON`` slot drawn independently of it (ε = 0); a letter after a
    question or an option's line is an answer (``Which planet is largest? – B``)."""
    if not marking.english or not any(dash in text for dash in "–—-"):
        return
    starts: list[int] = []
    for m in _SIGN_OFF.finditer(text):
        starts = starts or [t.start for t in tokens]  # only where a sign-off is
        k = bisect_left(starts, m.start("name"))
        line = text[text.rfind("\n", 0, m.start()) + 1:m.start()]
        if k < len(tokens) and decisions[k] is None and tokens[k].kind == "word" and ((
                len(tokens[k].text) == 1 and m.group()[0] != "?"
                and _ANSWER_KEY.search(line) is None) or marking.listed_given(words[k])):
            decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
            counted["PERSON"] += 1


#: Words of a line that a letter after a dash answers, no one's initial (``Choose one
#: option. – A``).
_ANSWER_KEY = re.compile(r"(?i)\b(?:options?|answers?|choose|choices?|grades?|bands?|tiers?"
                         r"|types?|plans?|groups?|sections?|class|categor(?:y|ies)|questions?"
                         r"|quiz|key)\b")
#: A sign-off: a sentence's end, a dash, one capitalised word to the line's end.
_SIGN_OFF = re.compile(r"[.!?][\"”]?[ \t]+[–—-][ \t]*(?P<name>[A-Z][a-z]*)[ \t]*$", re.M)
#: The fewest words of a roll read aloud (:func:`spoken_rolls`).
_ROLL_WORDS = 5
#: How common in English (Zipf) a listed name of a roll read aloud may be to be a name there.
_ROLL_ZIPF = 5.0

#: A roll's line: a year or a range of years, then two or three words in capitals up to the
#: line's end or a sign (``2025–26 HONEY MARCH –``, ``1962–90 BILL MAJOR (``).
_ROLL_LINE = re.compile(
    r"^[ \t]*(?:1[89]|20)\d\d(?:[–-]\d{2,4})?[ \t]+"
    r"(?P<name>[A-Z][A-Z'’-]+(?:[ \t]+[A-Z][A-Z'’-]+){1,2})[ \t]*(?=$|[–—(,;:|])", re.M)
#: The same with the years after the name, in brackets (``BILL MAJOR (1962–90)``).
_ROLL_NAME_FIRST = re.compile(
    r"^[ \t]*(?P<name>[A-Z][A-Z'’-]+(?:[ \t]+[A-Z][A-Z'’-]+){1,2})[ \t]*\((?:1[89]|20)\d\d",
    re.M)
#: What may close a roll's item after its given name: the text's or line's end, or a sign.
_ITEM_ENDS = frozenset({"", "\n", ",", ";", "(", "–", "-", "|", ":"})
#: Family words of a roll or an obituary that :data:`KIN_WORDS` lacks.
_WIDOWED = frozenset({"widow", "widower"})
