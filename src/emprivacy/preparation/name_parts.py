"""The parts of a person's name around its slots that detection leaves out, in text mode
(particles: :mod:`emprivacy.preparation.particles`; a given name before the family name's
slot, ``ALAIN`` of ``ALAIN QUÉRÉ``: :mod:`emprivacy.preparation.given_names`): initials
before the name (``O.`` of ``Dr. O. BAKARE``, ``d.`` of ``d. yusupova``), and a chat's
speaker after a time stamp (``[07:59] sky:``), which is a name whatever the word.  Passes
over the decisions of :func:`~emprivacy.preparation.entity_slots.entity_decisions` (issue
40).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache

from emprivacy.entities.initials import COMMON_ZIPF
from emprivacy.entities.labels import GREETINGS, NAME_TITLES
from emprivacy.entities.marking import EntityMarking
from emprivacy.entities.name_pairs import numbered_initials
from emprivacy.entities.name_words import french_family_names
from emprivacy.entities.naming import DETERMINERS
from emprivacy.exceptions import MissingExtraError
from emprivacy.preparation.corrections import corrected_names, corrected_next_line
from emprivacy.preparation.decisions import (
    Decision,
    EntitySlot,
    Placeholder,
    decision_type,
    person_decision,
    take_initial,
)
from emprivacy.preparation.particles import NAME_PARTICLES, given_like, person_decision_at
from emprivacy.preparation.put_right_below import names_put_right_below
from emprivacy.preparation.spelling import spelled_words
from emprivacy.text.language import Language, get_language
from emprivacy.text.tokens import Token

__all__ = [
    "SIGN_OFFS",
    "capital_initials",
    "handle_initials",
    "initials_everywhere",
    "initials_in_names",
    "join_initials",
    "login_names",
    "surnames_before_brackets",
    "surnames_before_commas",
    "transcript_marker",
]

def join_initials(decisions: list[Decision], counted: Counter[str], text: str,
              tokens: Sequence[Token], titles: frozenset[str] = frozenset(), *,
              function_words: frozenset[str] = frozenset()) -> None:
    """An initial before a person's slot (``O.`` of ``Dr. O. BAKARE``, ``J. R.`` of
    ``J. R. Tolkien``) is part of the name: a ``PERSON`` slot of its own, keyed by the letter,
    drawn independently of it (ε = 0) and written as the surrogate's initial
    (:data:`INITIAL`), where it was released at the general ε (``O`` verbatim); before a
    person's placeholder it joins the placeholder.  Text mode only (a bag has no initials to
    write); ``Q.`` and ``A.`` at a line's start are a transcript's markers, and an initial
    after the name (``BAKARE, O.``) is not looked for.  Without its full stop a letter is an
    initial too (``W Pawlak``, ``J K Ferreira``), but ``A`` and ``I`` only before a name in
    capitals (a form's ``SIGNED A KOWALCZYK-BRENNAN``; ``A Smith came`` is an article) or
    in an entry of a list of results
    (:func:`~emprivacy.entities.name_pairs.numbered_initials`: ``; 3 A Fell``, ``10. I
    Qureshi``; not ``12 March 2021 I Margaret``, ``1 A Bird in the Hand`` of a contents
    page), where before an organisation's placeholder too (``2 A Sandhu`` typed a firm), or
    right after a bracket or after another initial and ``&`` before a person's slot that ends
    the bracket's entry (``(I Savchuk)``, ``(B & A Froggatt)`` of a results page; not ``(A
    Jane Austen adaptation)``: issue 40, stage 33).  In
    lower case too (``d. yusupova``, ``p j o'donnell`` of a chat or a call's notes), but
    ``a`` and ``i`` only with their full stop or after a title (``i`` is a pronoun; ``mr a
    rahman``, before a slot of any type there: ``mr d street``), ``v`` and ``x`` only
    with it (``1st XI v Penarth``), an accented letter only with it (French ``à théo``; and
    ``À`` in capitals, ``À MARCEL``: the preposition), and no letter of an abbreviation (``p.m.``,
    ``e.g.``).  A capital particle between an initial and a person's slot is the name's,
    whatever a model typed it
    (``DE`` of ``R. DE SOUZA``, a place's code; issue 40, the seventeenth English set, seen).
    Then a name said wrong and put right
    (:func:`~emprivacy.preparation.corrections.corrected_names`; no one of the
    ``function_words`` alone is a misheard name)."""
    _particles_after_initials(decisions, counted, text, tokens)
    entries = cache(lambda: numbered_initials(text))  # a list of results' entries, if asked
    for i in range(len(tokens) - 2, -1, -1):
        tok, d = tokens[i], decisions[i]
        after = decisions[i + 1]
        if (isinstance(d, Placeholder) and isinstance(after, Placeholder) and d.type == after.type
                == "PERSON" and d.span != after.span and len(tok.text) == 1
                and text[tok.end:tokens[i + 1].start].strip(" \t") == "."):
            decisions[i] = after  # "O" and "O. BAKARE" found apart: one placeholder
            continue
        if (d is not None or tok.kind != "word" or len(tok.text) != 1 or tok.text.lower() in titles
                or not tok.text.isalpha()):
            continue
        stopped = (text[tok.end:tok.end + 1] == "."
                   and text[tok.end + 1:tokens[i + 1].start].strip(" \t") == "")
        if tok.text.islower() and (  # not "p.m.", "e.g.", nor "1st XI v Penarth"
                text[tok.start - 1:tok.start] == "." or text[tok.end + 1:tok.end + 2] == "."
                or (stopped and text[tok.end + 1:tok.end + 2] not in (" ", "\t"))
                or (not stopped and tok.text in "vx")):
            continue
        if not stopped and ((tok.text.islower() and not tok.text.isascii())
                            or tok.text == "À"):
            continue  # French "demande à théo", "À MARCEL LEGRAND": a preposition, no
            # initial without its stop (É of "É LAMBERT" is one)
        # after a title ("mr a rahman", "mr d street" of a call): a letter is an initial
        after_title = (i > 0 and tokens[i - 1].kind == "word"
                       and (tokens[i - 1].text.lower() in titles
                            or tokens[i - 1].text.lower() in NAME_TITLES)
                       and text[tokens[i - 1].end:tok.start] in (" ", ". "))
        # in an entry of a list of results ("3 A Fell", "10 I Qureshi")
        placed = tok.text.isupper() and any(e.start <= tok.start < e.end for e in entries())
        # right after a bracket or after another initial and "&", before a person's slot
        # that ends the bracket's entry ("(I Savchuk)", "(B & A Froggatt)" of a results
        # page; not "(A Jane Austen adaptation)", "Q & A Sarah Jones led")
        paired = tok.text.isupper() and (text[tok.start - 1:tok.start] == "(" or (
            i > 0 and len(tokens[i - 1].text) == 1 and tokens[i - 1].text.isupper()
            and text[tokens[i - 1].end:tok.start] == " & ")) and _entry_end(
                text, tokens, i + 1)
        if (tok.text.isupper() and not stopped and text[tok.end:tokens[i + 1].start] == " & "
                and len(tokens[i + 1].text) == 1
                and isinstance(after, EntitySlot) and after.key[0] == "PERSON"
                and i + 2 < len(tokens) and len(tokens[i + 2].text) > 1
                and text[tokens[i + 1].end:tokens[i + 2].start] == " "
                and person_decision_at(decisions, i + 2) and _entry_end(text, tokens, i + 2)
                and tokens[i + 2].text.lower() not in _places()):
            take_initial(decisions, counted, i, tok)  # "B" of "B & A Froggatt" (not "B &
            continue  # Q Warrington", a shop and a town)
        if not stopped and not (  # "A KOWALCZYK", "W Pawlak", "p j o'donnell": no full stop
                text[tok.end:tokens[i + 1].start] == " "
                and (tok.text.upper() not in "AI" or after_title or placed or paired
                     or (tok.text.isupper() and tokens[i + 1].text.isupper()
                         and len(tokens[i + 1].text) > 1))):
            continue
        if transcript_marker(text, tok):
            continue  # a transcript's question or answer marker at a line's start
        if isinstance(after, EntitySlot) and (after.key[0] == "PERSON" or after_title):
            take_initial(decisions, counted, i, tok)
        elif isinstance(after, Placeholder) and (
                after.type == "PERSON" or (placed and after.type == "ORG")
                or (i and tokens[i - 1].text.lower() in titles)):
            # under PERSON=placeholder: one placeholder for both; after a title, whatever
            # the type a model gave the name ("MR A SHAH" read as an organisation), after a
            # place's number an organisation's ("2 A Sandhu" of a list of results)
            decisions[i] = after
    _initials_after(decisions, counted, text, tokens, titles)
    handle_initials(decisions, counted, text, tokens)
    _signature_initials(decisions, counted, text, tokens)
    _sign_off_initials(decisions, counted, text, tokens)
    spelled_words(decisions, counted, text, tokens)
    corrected_names(decisions, counted, text, tokens, function_words=function_words)
    corrected_next_line(decisions, counted, text, tokens, function_words=function_words)
    names_put_right_below(decisions, counted, text, tokens, function_words=function_words)


def _entry_end(text: str, tokens: Sequence[Token], k: int) -> bool:
    """Whether token ``k`` ends a bracket's entry: a closing bracket, a comma or a
    semicolon right after it."""
    return k < len(tokens) and text[tokens[k].end:tokens[k].end + 1] in (")", ",", ";")


def _places() -> frozenset[str]:
    """The place list's words (empty without the ``ner`` extra)."""
    from emprivacy.entities.vocabulary import place_words

    try:
        return frozenset(place_words())
    except MissingExtraError:
        return frozenset()


def _particles_after_initials(decisions: list[Decision], counted: Counter[str], text: str,
                              tokens: Sequence[Token]) -> None:
    """One or two capital particles (:data:`NAME_PARTICLES`) between a capital initial with
    its full stop and a person's slot become the person's slots, drawn independently of
    them (``DE`` of ``R. DE SOUZA``), where they were another type's or undecided."""
    for i in range(len(tokens) - 2):
        tok = tokens[i]
        if (decisions[i] is not None or tok.kind != "word" or len(tok.text) != 1
                or not tok.text.isupper() or text[tok.end:tok.end + 1] != "."):
            continue
        j = i + 1
        while (j < len(tokens) and j - i <= 2 and tokens[j].kind == "word"
               and tokens[j].text[:1].isupper() and tokens[j].text.lower() in NAME_PARTICLES
               and text[tokens[j - 1].end:tokens[j].start].strip(" .") == ""
               and not person_decision_at(decisions, j)):
            j += 1
        after = decisions[j] if j < len(tokens) else None
        if j == i + 1 or not (isinstance(after, EntitySlot) and after.key[0] == "PERSON") \
                or text[tokens[j - 1].end:tokens[j].start] != " ":
            continue
        for k in range(i + 1, j):
            replaced = decisions[k]
            if isinstance(replaced, EntitySlot | Placeholder):
                counted[decision_type(replaced)] -= 1
            decisions[k] = EntitySlot(("PERSON", tokens[k].text.lower()), -1, None,
                                      independent=True)
            counted["PERSON"] += 1


def transcript_marker(text: str, tok: Token) -> bool:
    """Whether ``tok`` is ``Q`` or ``A`` at a line's start: a transcript's question or answer
    marker (``A. Bakare said no.``), no initial."""
    return tok.text in ("Q", "A") and text[text.rfind("\n", 0, tok.start) + 1:
                                           tok.start].strip() == ""


def _initials_after(decisions: list[Decision], counted: Counter[str], text: str,
                    tokens: Sequence[Token], titles: frozenset[str]) -> None:
    """A capital letter with its full stop right after a person's slot, one space between,
    is the family name's initial (``Marek W.`` of a review, ``Kévin R., 24 ans`` of French
    news, ``Kenji W.:``), and so is one with no full stop that ends the name, nothing but a
    sign or an emoji after it on its line (a display name, ``Ania B 🌻 @ania-brz``; not
    ``A`` or ``I``): a slot of its own, as an initial before the name is; before a
    name that follows it, the loop above has already taken it (``John A. Smith``)."""
    for i in range(1, len(tokens)):
        tok, before = tokens[i], decisions[i - 1]
        if (decisions[i] is not None or tok.kind != "word" or len(tok.text) != 1
                or not tok.text.isupper() or tok.text.lower() in titles
                or (text[tok.end:tok.end + 1] != "." and (
                    tok.text in "AI" or _NAME_ENDS.match(text, tok.end) is None))
                or text[tokens[i - 1].end:tok.start] != " "
                or not isinstance(before, EntitySlot | Placeholder)
                or not person_decision(before)):
            continue
        if isinstance(before, Placeholder):
            decisions[i] = before
            continue
        take_initial(decisions, counted, i, tok)


#: What may follow a name's last initial written with no full stop (``Ania B 🌻``): the
#: line's end, or signs and emoji, no letter or digit, before it or before ``@``; or a
#: label's colon right after it (``Chris B:``; not French ``Capitaine B :``, a key).
_NAME_ENDS = re.compile(r"[^\w\n@:]*(?:\n|\Z|@)|:")


def surnames_before_commas(decisions: list[Decision], counted: Counter[str], text: str,
                           tokens: Sequence[Token], words: Sequence[str],
                           marking: EntityMarking) -> None:
    """A list's ``SURNAME, GIVEN NAMES`` (``10 HUSSEIN, AMINA YASMIN``): the word that starts
    its line (after a number or a list's mark) right before ``, `` and a person's slot, in
    that slot's case and a word that may be a name (:meth:`EntityMarking.given_or_unlisted`;
    in capitals any of :meth:`EntityMarking.listed_or_rare`; English only), is
    the family name — a ``PERSON`` slot drawn independently of it (ε = 0), where a list in
    capitals left it to the general ε (issue 40, the eleventh held-out set)."""
    for i in range(len(tokens) - 1):
        tok, nxt, after = tokens[i], tokens[i + 1], decisions[i + 1]
        if (decisions[i] is not None or tok.kind != "word" or len(tok.text) < 2
                or text[tok.end:nxt.start] != ", " or not isinstance(after, EntitySlot)
                or after.key[0] != "PERSON"
                or tok.text.isupper() != nxt.text.isupper()
                or not (marking.given_or_unlisted(words[i]) or (
                    tok.text.isupper() and marking.english and marking.listed_or_rare(words[i])))):
            continue  # not "Hier, Marie" of French, "Well, John"
        before = text[max(0, tok.start - 12):tok.start]  # a bounded look back
        line = before[before.rfind("\n") + 1:]
        if (("\n" in before or tok.start <= 12) and line.strip(" \t0123456789.)-–•*#") == ""
                and words[i] not in GREETINGS):  # not "Hiya, Dana"
            decisions[i] = EntitySlot(("PERSON", words[i]), -1, None, independent=True)
            counted["PERSON"] += 1


def surnames_before_brackets(decisions: list[Decision], counted: Counter[str], text: str,
                             tokens: Sequence[Token], words: Sequence[str],
                             marking: EntityMarking) -> None:
    """A register's ``SURNAME (Given names)`` (``TRAORÉ (Fatoumata Binta)``, ``DE SOUSA
    (Marie-Thérèse)``, ``« DU CHATELET (Jean-Marc) »``: a decree's list of names; issue 42,
    the fifteenth French set): the words in capitals right before `` (`` and a bracket of
    words in Title case (a log in capitals is no register: ``CONTROL (OP BEV DEVINE)``)
    that are all slots or placeholders, one a person's or a given name
    (:func:`~emprivacy.preparation.particles.given_like`: ``Khadija`` typed a place), at
    most four, none a title or a form's key, are the family name, particles included —
    ``PERSON`` slots drawn independently of them (ε = 0), where the model left them to
    the general ε (not ``PROCHAINE SÉANCE (Bron)``)."""
    for j in range(1, len(tokens)):
        if text[tokens[j - 1].end:tokens[j].start] != " (" or not tokens[j].text[:1].isupper():
            continue
        close = text.find(")", tokens[j].start, tokens[j].start + 80)
        inside = []  # the bracket's tokens: a bounded walk, not a scan to the text's end
        k = j
        while close >= 0 and k < len(tokens) and tokens[k].end <= close:
            inside.append(k)
            k += 1
        if not inside or not all(isinstance(decisions[k], EntitySlot | Placeholder)
                                 and tokens[k].text[:1].isupper()
                                 and not tokens[k].text.isupper() for k in inside):
            continue  # "(OP BEV DEVINE)", "(EXTRAIT)": a log in capitals, no register
        i = j - 1
        taken: list[int] = []
        while (i >= 0 and len(taken) < 4 and tokens[i].kind == "word" and tokens[i].text.isupper()
               and not marking.label_word(words[i])
               and (i == j - 1 or text[tokens[i].end:tokens[i + 1].start] in (" ", ""))):
            taken.append(i)
            i -= 1
        if not any(person_decision_at(decisions, k) or given_like(marking, words[k])
                   for k in inside):
            continue  # "PROCHAINE SÉANCE (Bron)": a place in the bracket, no given name
        for k in taken:
            if decisions[k] is None:
                decisions[k] = EntitySlot(("PERSON", words[k]), -1, None, independent=True)
                counted["PERSON"] += 1


def handle_initials(decisions: list[Decision], counted: Counter[str], text: str,
                     tokens: Sequence[Token]) -> None:
    """A letter joined by ``.`` or ``_`` to a person's slot with no space between, in a user
    name (``k.osei``, ``m_lindqvist``, ``osei.k``), is that person's initial: a slot of its
    own, as an initial before a name is; beside a person's placeholder it joins it.  Run
    again after the passes that decide a name late (``h.ashworth`` of an export's header,
    the surname a person's by the ``Heather Ashworth`` of the next line)."""
    for i, tok in enumerate(tokens):
        if decisions[i] is not None or tok.kind != "word" or len(tok.text) != 1 \
                or not tok.text.isalpha():
            continue
        for j, gap in ((i + 1, text[tok.end:tok.end + 1]), (i - 1, text[tok.start - 1:tok.start])):
            if not 0 <= j < len(tokens) or gap not in (".", "_"):
                continue
            other = decisions[j]
            near = tokens[j].start == tok.end + 1 if j > i else tokens[j].end == tok.start - 1
            if near and isinstance(other, EntitySlot | Placeholder) and person_decision(other):
                if isinstance(other, Placeholder):
                    decisions[i] = other
                else:
                    take_initial(decisions, counted, i, tok)
                break


def login_names(marking: EntityMarking, decisions: list[Decision], counted: Counter[str],
                text: str, tokens: Sequence[Token], words: Sequence[str]) -> None:
    """A log-in in lower case, a letter, ``.`` and a listed family name with nothing between
    — the census' in English (``exported by r.noble``: issue 40, the twenty-seventh set, where
    ``noble``, a common word, was released with its initial), the French list's in French
    (``par n.mercier``, the twenty-fourth French set) —: both a person's slots, drawn
    independently of them (ε = 0), where nothing decided them; not before another ``.``
    and a letter (``r.noble.example``: a host, which the patterns decide).  Without the
    ``ner`` extra (no lists) nothing changes."""
    family: Callable[[str], bool]
    if marking.english:
        family = marking.family_name
    elif marking.lang == "fr":
        try:
            family = french_family_names().__contains__
        except MissingExtraError:
            return
    else:
        return
    for i in range(len(tokens) - 1):
        tok, nxt = tokens[i], tokens[i + 1]
        if (decisions[i] is None and decisions[i + 1] is None and tok.kind == "word"
                and len(tok.text) == 1 and tok.text.islower() and tok.text.isalpha()
                and nxt.kind == "word" and nxt.start == tok.end + 1
                and text[tok.end] == "." and nxt.text.islower() and len(nxt.text) > 2
                and family(words[i + 1])
                and not re.match(r"\.\w", text[nxt.end:nxt.end + 2])
                and not re.match(r"[\w.]", text[tok.start - 1:tok.start])):
            take_initial(decisions, counted, i, tok)
            decisions[i + 1] = EntitySlot(("PERSON", words[i + 1]), -1, None, independent=True)
            counted["PERSON"] += 1


#: A line of initials only (``L.``, ``P. T.``, ``– J.``): a signature.
_INITIALS_LINE = re.compile(r"[ \t]*(?:[-–—~][ \t]*)?(?:[A-Z]\.[ \t]*){1,3}")


def _signature_initials(decisions: list[Decision], counted: Counter[str], text: str,
                        tokens: Sequence[Token]) -> None:
    """A line of initials only, after a blank line or a line that ends with a comma (a
    sign-off: ``Thanks,``), is a signature (``L.`` at an e-mail's end): each letter a slot
    of its own, drawn independently of it and written as a surrogate's initial, where it was
    released at the general ε."""
    for i, tok in enumerate(tokens):
        if (decisions[i] is not None or tok.kind != "word" or len(tok.text) != 1
                or not tok.text.isupper()):
            continue
        # a line of initials is short: look at most 16 characters either way
        start = text.rfind("\n", max(0, tok.start - 16), tok.start) + 1
        end = text.find("\n", tok.end, tok.end + 16)
        end = len(text) if end < 0 and len(text) - tok.end <= 16 else end
        if start == 0 or end < 0 or _INITIALS_LINE.fullmatch(text, start, end) is None:
            continue
        before = text[text.rfind("\n", 0, start - 1) + 1:start - 1].rstrip()
        if before and not before.endswith(","):
            continue
        take_initial(decisions, counted, i, tok)


#: Words that close a message before its writer's initial (``bisous, s.``, ``thanks, j.``).
SIGN_OFFS: frozenset[str] = frozenset(
    "thanks thank thx ta cheers love regards best bye x xx xxx bisous bisou bises biz "
    "embrasse amitiés amities cordialement merci salut".split())
_SIGN_OFF_END = re.compile(r"(?:[-–—][ \t]*|(\w+)[ \t]*[,.!][ \t]*)\Z")


def _sign_off_initials(decisions: list[Decision], counted: Counter[str], text: str,
                       tokens: Sequence[Token]) -> None:
    """A letter with its full stop that ends a line, after a dash or a sign-off and its
    comma or full stop (:data:`SIGN_OFFS`), is the writer's initial, in either case: ``merci
    à tous, bisous, s.``, ``je vous embrasse. y.``, ``— p.`` of a family chat (issue 42, the
    fifth French held-out set), ``thanks, j.``; each a slot of its own, drawn independently
    of it, where it was released at the general ε."""
    for i, tok in enumerate(tokens):
        if (decisions[i] is not None or tok.kind != "word" or len(tok.text) != 1
                or not tok.text.isalpha() or text[tok.end:tok.end + 1] != "."):
            continue
        end = text.find("\n", tok.end)
        if text[tok.end + 1:len(text) if end < 0 else end].strip():
            continue
        start = max(text.rfind("\n", 0, tok.start) + 1, tok.start - 40)
        found = _SIGN_OFF_END.search(text, start, tok.start)
        if found is None or (found.group(1) is not None
                             and found.group(1).lower() not in SIGN_OFFS):
            continue
        take_initial(decisions, counted, i, tok)


def initials_in_names(decisions: list[Decision], counted: Counter[str], text: str,
                      tokens: Sequence[Token], in_person: Sequence[bool],
                      titles: frozenset[str] = frozenset()) -> None:
    """A capital letter with its full stop inside a person's span that no pass has taken
    (``in_person``: per token, whether a ``PERSON`` span covers it) is an initial of the
    name, even with no name beside it (a signature ``P. T. et H. B.-L.``): a ``PERSON``
    slot keyed by its letter, drawn independently of it (ε = 0) and written as the
    surrogate's initial, where it was released at the general ε (``P`` verbatim, a single
    letter being in no list).  Not one of the language's ``titles`` (``M.``).  Text mode,
    French only (English's release is kept as it was)."""
    for i, tok in enumerate(tokens):
        if (decisions[i] is None and in_person[i] and tok.kind == "word" and len(tok.text) == 1
                and tok.text.isupper() and tok.text.isalpha()
                and tok.text.lower() not in titles and text[tok.end:tok.end + 1] == "."):
            take_initial(decisions, counted, i, tok)


def initials_everywhere(marking: EntityMarking, decisions: list[Decision],
                        counted: Counter[str], text: str, tokens: Sequence[Token],
                        words: Sequence[str], verbatim: Sequence[bool]) -> None:
    """Initials that stand for someone (two or three capitals, not a common word: ``RK``,
    not ``DO``) and that a detector typed a person or an organisation at one mention are
    protected the same way at every mention (``JK's cousin RK`` typed an organisation,
    ``linking RK to the estate`` found by no model): one person, one decision (issue 40,
    the fifteenth set's probation notes, seen).  A slot is the same slot; a placeholder is
    a placeholder of the same type, written where the mention is.  Not a function word of
    the language (``DE``, ``IL`` of French capitals), a label, a mention after a determiner
    (``THE CAB``) or one that labels a value (:func:`_labels_a_value`: ``DOB:``, ``CH
    14``)."""
    language = get_language(marking.lang)
    named: dict[str, EntitySlot | Placeholder] = {}
    for i, d in enumerate(decisions):
        if (isinstance(d, EntitySlot | Placeholder) and len(tokens[i].text) > 1
                and capital_initials(tokens[i].text) and decision_type(d) in ("PERSON", "ORG")):
            named.setdefault(words[i], d)
    for i, tok in enumerate(tokens):
        d = named.get(words[i]) if decisions[i] is None and not verbatim[i] else None
        if d is None or not capital_initials(tok.text) or len(tok.text) < 2 \
                or marking.english_zipf(words[i]) >= COMMON_ZIPF \
                or words[i] in language.kept_function_words or marking.label_word(words[i]) \
                or (i and words[i - 1] in DETERMINERS) \
                or _labels_a_value(text, tokens, words, i, language):
            continue
        decisions[i] = d if isinstance(d, EntitySlot) else Placeholder(-2 - i, d.text, d.type,
                                                                       tok.start)
        counted[decision_type(d)] += 1


def _labels_a_value(text: str, tokens: Sequence[Token], words: Sequence[str], i: int,
                    language: Language) -> bool:
    """Whether token ``i`` labels what follows it, a key or a unit (``DOB: …``, ``CH 14``,
    ``ETA SIX``, ``NHS No 943…``): a colon, a number, a number word or ``No`` after it."""
    if text[tokens[i].end:tokens[i].end + 3].lstrip(" \u00a0\u202f").startswith(":"):
        return True
    return i + 1 < len(tokens) and (tokens[i + 1].kind == "number"
                                    or language.is_number_word(words[i + 1])
                                    or words[i + 1] in ("no", "number"))


def capital_initials(surface: str) -> bool:
    """One to three capital letters and nothing else (``J``, ``JM``, ``JKR``).

    >>> [capital_initials(w) for w in ("J", "JM", "JKRW", "Jm", "J2")]
    [True, True, False, False, False]
    """
    return 1 <= len(surface) <= 3 and surface.isalpha() and surface.isupper()
