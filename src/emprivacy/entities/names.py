"""Person names in every shape of text: lower-case chat, ALL-CAPS transcripts, forms.

A model trained on edited text finds names by their capital letter; chats, tickets and
transcribed speech have none, and ALL-CAPS labels have nothing else.  This detector looks
names up in the public list of person names (the US Census 1990 lists of the ``names``
package) and decides, word by word, from how the text is written and from context.

**How name-like a listed word is**: the classes ``"name"``, ``"common"``,
``"rare"``, ``"uncommon"`` and ``None`` of :mod:`~emprivacy.entities.name_words`.

**The rules** (:class:`NameListDetector`).  A word is a name when its class and the evidence
around it say so:

* evidence that names any word but an ordinary one: a title or ``@`` before it, a speaker
  label (``dana:``, ``MS. ADEYEMI:``, ``faith [9:15 PM]``), a form's name field's value
  (``Patient:``, ``Cc:``), a greeting or an address before it (``hi``, ``thanks``, ``ask``),
  a name-class word right beside it (``bill okoye``), a quoted nickname after a name (``Rhodri
  "Chopper" Evans``) and the surname after that (``RICHARD "DICK" WILL``), a Vietnamese
  family name and ``van`` or ``thi`` before it (``nguyen van long``:
  :data:`~emprivacy.entities.name_words.VIETNAMESE_FAMILY_NAMES`);
* a ``"name"`` word is a name in a paragraph written in lower case, and wherever it is
  capitalised ("in lower case", "in ordinary case" below: the word's paragraph, by
  :func:`~emprivacy.entities.text_shape.lower_case_words`; a forum thread mixes both);
* a ``"rare"`` word in lower case is a name in a paragraph in lower case when it is very
  rare (Zipf below :data:`LOWER_RARE`, four letters or more) or reads as a name by its
  vector (:mod:`~emprivacy.entities.name_vectors`);
* a ``"rare"`` word is a name where it is capitalised in a text in ordinary case, not at a
  sentence's start unless a verb that takes a person follows
  (:data:`~emprivacy.entities.naming.AGENT_VERBS`: ``Adeyemi nodded.``);
* a ``"common"`` word that is a given name (``Will``, ``Hope``, ``June``) or reads as a name
  by its vector (``Yusuf``) is a name where it is capitalised in the middle of a sentence of
  a text in ordinary case, or at its start before a verb that takes a person (``Summer went
  red.``), unless a determiner or a calendar preposition stands before it (``the Court``);
* one decision per word form in a text: a form that is a name at one mention is a name at
  every mention (any case in a lower-case paragraph, capitalised ones elsewhere) — except the
  function words that text mode keeps (``will``, ``may``), which need evidence each time.

One-word :data:`PERSON` spans (the ``ner`` extra); pre-processing, outside the guarantee.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Sequence
from itertools import pairwise

from emprivacy.entities.capitalised import CALENDAR_WORDS, text_words
from emprivacy.entities.labels import (
    FORM_KEYS,
    GREETINGS,
    LABEL_START,
    NAME_FIELDS,
    NAME_TITLES,
    NO_NAME_VALUES,
    NOT_GREETED,
    QUOTING_VERBS,
    SPEAKER_ROLES,
    chat_speaker_word,
    filler_at,
    in_name_field,
    name_shaped_value,
    role_before_word,
    stamped_after,
    stamped_start,
    voice_tag_words,
)
from emprivacy.entities.listed_names import list_members
from emprivacy.entities.modal_names import MODAL_NAMES, modal_name_at, modal_named
from emprivacy.entities.name_pairs import introduced_self, name_pair, short_forms
from emprivacy.entities.name_vectors import name_like
from emprivacy.entities.name_words import (
    LOWER_RARE,
    NameClass,
    abbreviated_given,
    given_names,
    inflected_alone,
    name_class,
    name_key,
    named_chat,
    word_zipf,
)
from emprivacy.entities.naming import (
    DETERMINERS,
    KIN_WORDS,
    NAMED_COMMON,
    NICKNAME_OPENS,
    agent_after,
    chat_named,
    clause_start,
    named_by,
    named_outright,
    nickname,
    ordinary_mention,
    person_function_words,
    vocative,
)
from emprivacy.entities.spans import EntitySpan, check_texts, list_items
from emprivacy.entities.text_shape import (
    by_a_number,
    display_name_words,
    handle_names,
    line_start_words,
    lower_case_words,
    word_case,
)
from emprivacy.entities.vietnamese import vietnamese_names
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["NameListDetector", "ordinary_in_capitals"]

#: The kept function words that are never a name (``will`` and ``may`` can be).
_KEPT_NOT_NAMES = KEPT_FUNCTION_WORDS - MODAL_NAMES

#: Words after which a capitalised common word is not a name (``the Court``, ``in June``).
_NOT_BEFORE_NAME: frozenset[str] = DETERMINERS | frozenset(
    "that her in on of since until till by during early late mid last next".split())


#: A rare word in lower case (:data:`~emprivacy.entities.name_words.LOWER_RARE`) is a name
#: only where the learned model (:mod:`~emprivacy.entities.learned`) gives it at least this:
#: chats' rare ordinary words (``brassicas``, ``bindweed``, ``tuba``, ``shallots``,
#: ``minibus``) scored under it, their rare names (``cian``, ``emre``, ``wanjiru``) over 0.39
#: (issue 40, the twenty-third English set; 30 of 67 such words of the labelled lower-case
#: texts under 0.3, none of their 596 names, places and organisations); 0.3 since the
#: twenty-fourth (``tombola``; over every labelled lower-case text, 8 more ordinary words
#: under it and no name, place or organisation).
LOWER_RARE_SCORE = 0.3


class _LearnedScores:
    """The learned model's :math:`1 - P(\\mathrm{O})` of a text's words, computed at the
    first asking (a lower-case text with a rare word: chats)."""

    def __init__(self, text: str, words: Sequence[Token]) -> None:
        self.text, self.words = text, words
        self._scores: Sequence[float] | None = None

    def score(self, i: int) -> float:
        if self._scores is None:
            from emprivacy.entities.learned import load_model

            self._scores = (1 - load_model("en").scores(self.text, self.words)[:, 0]).tolist()
        return self._scores[i]


def ordinary_in_capitals(i: int, words: Sequence[Token], forms: Sequence[str], text: str,
                         zipf: Callable[[str], float],
                         given: Callable[[str], bool]) -> bool:
    """Whether word ``i``, in capitals one space after a word in capitals, is an ordinary word
    by it as in lower case (:func:`~emprivacy.entities.naming.ordinary_mention`; capitals tell
    no name from a word):
    after a subject (``I HOPE``), or after an indefinite determiner where it is no ``given``
    name (``A FARMER`` of a letter in capitals; not ``A LIAM OR LEE``, ``A PENNY``) nor a
    family's name (``SOME STONE FAMILY``); not after ``THE`` or a possessive (``THE CROWN``,
    ``YOUR JACK``), nor after an initial (``A. FARMER``, ``MR A SHAH``).  Issue 40, the
    twenty-ninth English set."""
    if i == 0 or not words[i].text.isupper() or not words[i - 1].text.isupper():
        return False
    gap = text[words[i - 1].end:words[i].start]
    if i >= 2 and forms[i - 2] in NAME_TITLES:
        return False  # "MR A SHAH": an initial
    if gap != " " or forms[i + 1:i + 2] == ["household"]:  # family: ordinary_mention's
        return False
    if forms[i - 1] in ("i", "we", "they"):
        return ordinary_mention(i, forms, zipf, gap=gap)
    return (forms[i - 1] in _INDEFINITE and not given(forms[i])
            and ordinary_mention(i, forms, zipf, gap=gap))


#: The determiners after which a word in capitals is the word (:func:`ordinary_in_capitals`):
#: not ``THE`` nor a possessive, before the names of pubs, places and families (``THE CROWN``,
#: ``IN THE UK``, ``THE OLD SCHOOL HOUSE``).
_INDEFINITE = frozenset({"a", "an", "some", "any"})


class NameListDetector:
    """Person names by the public list, the word's commonness and its context, in text of
    any case (see the module's description): :data:`PERSON` spans of one word each.

    >>> d = NameListDetector()
    >>> text = "talked to dana and rick yesterday. i will ask will about it\\nMS. ADEYEMI: Noted."
    >>> [text[s.start:s.end] for s in d.detect([text])[0]]
    ['dana', 'rick', 'will', 'ADEYEMI']
    """

    name = "names"
    types = frozenset({"PERSON"})

    def __init__(self, *, places: Container[str] = frozenset()) -> None:
        self.places = places  # towns a caller is "from" (the registry's place list)

    def __repr__(self) -> str:
        return "NameListDetector()"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return [self._spans(text) for text in check_texts(texts)]

    def _spans(self, text: str) -> list[EntitySpan]:
        words, forms, initial, _ = text_words(text)
        if not words:
            return []
        classes = [name_class(f) if f not in KEPT_FUNCTION_WORDS or f in ("will", "may")
                   else None for f in forms]
        cases = [word_case(t.text) for t in words]
        lowers = lower_case_words(words, cases, text)
        given = given_names()
        evidence = self._evidence(words, forms, classes, text, lowers, self.places)
        learned = _LearnedScores(text, words)
        gaps = [""] + [text[a.end:b.start] for a, b in pairwise(words)]
        name = [False] * len(words)
        for i, (form, cls, case) in enumerate(zip(forms, classes, cases, strict=True)):
            if form in NAME_TITLES or (form in GREETINGS and case == "lower" and evidence[i]
                                       in ("", "greeting", "naming", "pair")):
                continue  # "ty both": thanks, not Ty (but "Ty Wilson", "ty:", "@ty")
            if case == "lower" and filler_at(forms, i):
                continue  # "doctor um row rao": a filler, no name; "mr um" is Mr Um
            lower_text = lowers[i]  # its paragraph is in lower case
            if cls is None:  # an ordinary word: where the context names it, and a
                # capitalised one that a name's field holds ("Known as: Cat")
                name[i] = evidence[i] in ("title", "nickname", "stamped", "naming") or (
                    evidence[i] == "field" and case != "lower" and form not in KIN_WORDS
                    and form not in NO_NAME_VALUES)
            elif evidence[i] == "title" and case == "lower" and not lower_text \
                    and words[i - 1].text.islower():
                name[i] = cls in ("name", "rare") or name_key(form) in given  # "a lady walking"
            elif evidence[i]:
                name[i] = cls != "uncommon" or evidence[i] in (
                    "at", "label", "field", "title", "naming", "nickname", "pair") or (
                    evidence[i] == "greeting" and case != "lower")  # "Thanks Enzo!"
            elif cls == "uncommon":  # a name only by its vector (name_vectors), as "rare"
                name[i] = name_like(form) and (
                    (lower_text and case == "lower"
                     and not inflected_alone(form, forms[i - 1] if i else "", gaps[i]))
                    or (case == "title" and not lower_text and not initial[i]))
            elif cls == "name":
                name[i] = (lower_text and not ordinary_mention(
                    i, forms, word_zipf, gap=gaps[i])) or (
                    case != "lower" and not ordinary_in_capitals(
                        i, words, forms, text, word_zipf, lambda f: name_key(f) in given))
            elif cls == "rare":
                name[i] = (case == "title" and not lower_text and (
                    not initial[i] or agent_after(i, words, forms, text))) or (
                    lower_text and case == "lower"
                    and not inflected_alone(form, forms[i - 1] if i else "", gaps[i]) and ((
                        len(form) >= 4 and form.isalpha() and word_zipf(form) < LOWER_RARE
                        and learned.score(i) >= LOWER_RARE_SCORE) or name_like(form)))
            else:  # common: a capitalised given name in the middle of a sentence, or at
                # its start before a verb that takes a person (``Summer went red.``); in
                # lower case, one that reads as a name by its vector (``callum``, ``obi``)
                # or a given name at a clause's start before one (``ok, bill approved``)
                prev = forms[i - 1] if i else ""
                name[i] = (lower_text and case == "lower" and (name_like(form) or (
                    name_key(form) in given and agent_after(i, words, forms, text)
                    and clause_start(i, words, forms, text, initial)))) or (
                           case == "title" and not lower_text
                           and (not initial[i] or agent_after(i, words, forms, text))
                           and (name_key(form) in given or name_like(form))
                           and prev not in _NOT_BEFORE_NAME
                           and not ((form in CALENDAR_WORDS or form == "may")
                                    and by_a_number(words[i], text)))
        for i in vietnamese_names(words, forms, text, function_words=KEPT_FUNCTION_WORDS,
                                  zipf=word_zipf):  # "nguyen van long", "pham thi thu huong"
            name[i] = True
        for i in display_name_words(text, words):  # "dale 🚲 @dalewhitfield.bsky.social"
            name[i] = name[i] or (forms[i] not in KEPT_FUNCTION_WORDS and (
                name_key(forms[i]) in given or classes[i] == "rare"))
        # one decision per word form (function words need evidence at each mention); a form
        # named in lower case is a name in lower case too (in a text of ordinary case)
        decided = ({forms[i] for i in range(len(words)) if name[i]} | handle_names(
            text, lambda form: name_key(form) in given)) - KEPT_FUNCTION_WORDS
        lower = {forms[i] for i in range(len(words)) if name[i] and cases[i] == "lower"}
        for i, form in enumerate(forms):
            if not name[i] and form in decided and (
                    lowers[i] or cases[i] != "lower" or form in lower) and not (
                    cases[i] == "lower" and ordinary_mention(i, forms, word_zipf, gap=gaps[i])
            ) and not ordinary_in_capitals(i, words, forms, text, word_zipf,
                                           lambda f: name_key(f) in given):
                name[i] = True
        short_forms(name, forms, cases, decided, given)
        person_function_words(name, words, forms, text)
        list_members(name, words, forms, text, word_zipf, KEPT_FUNCTION_WORDS, classes,
                     lambda form: name_key(form) in given)
        for i in voice_tag_words(words, forms, text):  # "<v holly best>": that mention only
            name[i] = True
        for i in _never_named(forms, cases):  # after every rule (lists, one per form)
            name[i] = False
        return [EntitySpan(t.start, t.end, "PERSON") for t, n in zip(words, name, strict=True) if n]

    @staticmethod
    def _evidence(words: list[Token], forms: list[str], classes: list[NameClass],
                  text: str, lowers: Sequence[bool], places: Container[str]) -> list[str]:
        """Per word, the context that names it (``""``: none): ``"title"``, ``"at"``,
        ``"label"``, ``"field"``, ``"greeting"``, ``"pair"``, ``"naming"`` (``a lad called
        ravi``, ``everyone calls me paddy``: :func:`_named_by`), ``"nickname"`` (``Rhodri
        "Chopper" Evans``: :func:`_nickname`, and the surname after it: ``RICHARD "DICK"
        WILL``)."""
        out = [""] * len(words)
        line_starts = line_start_words(words, text)
        given = given_names()
        # what a whole text lacks, no word of it has (issue 40, cost): a nickname needs a
        # quote after a space or a bracket, "name is" the word name, a field a colon
        quoted = NICKNAME_OPENS.search(text) is not None
        named = "name" in forms
        colon = ":" in text
        speakers = colon and named_chat(text)
        for i, tok in enumerate(words):
            cls = classes[i]
            prev = words[i - 1] if i else None
            gap = text[prev.end:tok.start] if prev is not None else text[:tok.start]
            if quoted and (named_at := nickname(i, words, text)) >= 0 and (
                    name_key(forms[named_at]) in given or classes[named_at] in ("name", "rare")):
                if forms[i] not in KEPT_FUNCTION_WORDS:  # not THE of "THE VOICE"
                    out[i] = "nickname"
                continue
            if out[i - 1:i] == ["nickname"] and len(gap) == 2 and gap[0] in "\"'“”‘’" \
                    and gap[1] == " ":
                out[i] = "nickname"  # the surname after it: RICHARD "DICK" WILL
                continue
            if prev is not None and forms[i - 1] in NAME_TITLES and \
                    re.fullmatch(r"\.?[ \t]+", gap) and forms[i] not in NAME_TITLES and (
                    forms[i] not in KEPT_FUNCTION_WORDS or forms[i] in ("will", "may")) \
                    and not role_before_word(i, words, forms):
                out[i] = "title"  # not "OFFICER IN CASE", "Nurse in charge", "nurse said"
                continue
            if any(abbreviated_given(k, words, forms, text) for k in (i, i - 1)):
                out[i] = "title"  # "GEO. ROACH": a given name as records abbreviate it, and
                continue  # the family name after it
            if named and named_outright(i, words, forms, text, _KEPT_NOT_NAMES):
                out[i] = "naming"  # "her name's ah young cho": any word
                continue
            if cls is None:
                if (i - line_starts[i] <= 2 and forms[i] not in KEPT_FUNCTION_WORDS
                        and forms[i].isalpha() and len(forms[i]) > 1
                        and _in_label(i, words, forms, text, line_starts, stamped=not speakers,
                                      chat=speakers)):
                    out[i] = "stamped"  # "[07:59] sky:": a chat's speaker, any word
                elif (colon and tok.text[:1].isupper() and len(forms[i]) > 1
                      and forms[i] not in KEPT_FUNCTION_WORDS
                      and forms[i] not in SPEAKER_ROLES and forms[i] not in FORM_KEYS
                      and in_name_field(i, words, forms, text, line_starts)
                      and name_shaped_value(text, text.rfind(":", max(0, tok.start - 120),
                                                             tok.start) + 1)):
                    out[i] = "field"  # "Known as: Cat"; not "FROM: CONTROL", "Chair: Thanks
                    # everyone."
                continue
            if gap.endswith("@"):
                out[i] = "at"
            elif _in_label(i, words, forms, text, line_starts, chat=speakers):
                out[i] = "label"
            elif colon and in_name_field(i, words, forms, text, line_starts):
                out[i] = "field"
            elif (prev is not None and forms[i - 1] in GREETINGS and cls != "rare" and (  # not
                    name_key(forms[i]) in given or word_zipf(forms[i]) < 5.0)  # "hi good day"
                  and forms[i] not in NOT_GREETED  # "diolch bois"
                  and re.fullmatch(r"[ \t]+|,[ \t]*", gap)
                  and (forms[i] not in MODAL_NAMES or modal_named(text, tok.end))):
                out[i] = "greeting"  # "thanks, will!"; not "sorry, will you", "thanks, will do"
            elif (cls in ("name", "common") and lowers[i] and words[i].text.islower()
                  and name_key(forms[i]) in given and (chat := (
                      "vocative" if vocative(i, words, text)  # "grant, ask cliff", "done, sky"
                      else "naming" if chat_named(i, words, forms, text)  # "hope here,"
                      else ""))):
                out[i] = chat
            elif cls in ("name", "common") and name_key(forms[i]) in given \
                    and words[i].text.islower() and introduced_self(i, words, forms, text):
                out[i] = out[i + 1] = "naming"  # "hi i'm summer white and this is the"
            elif cls in ("common", "rare", "uncommon") and name_pair(i, words, forms, classes,
                                                                 text, lowers):
                out[i] = "pair"
            elif (forms[i] not in KEPT_FUNCTION_WORDS or forms[i] in ("will", "may")) and (
                    cls != "common" or name_key(forms[i]) in given
                    or word_zipf(forms[i]) < NAMED_COMMON) and named_by(
                        i, words, forms, text, given=given, places=places, zipf=word_zipf):
                out[i] = "naming"
            elif cls in ("uncommon", "rare") and (forms[i - 2:i] == ["me", "and"] or forms[
                    i + 1:i + 3] in (["and", "me"], ["and", "i"])):
                out[i] = "naming"  # "live with me and gareth", "gareth and i went"
            elif forms[i] in MODAL_NAMES and modal_name_at(i, forms, text, tok.end, gap):
                out[i] = "naming"
            elif (forms[i + 1:i + 2] == ["who"] and forms[i] not in KEPT_FUNCTION_WORDS
                  and name_key(forms[i]) in given and word_zipf(forms[i]) < _BEFORE_WHO_ZIPF
                  and _after_no_noun(i, forms, text, words)
                  and re.fullmatch(r"[ \t]+", text[tok.end:words[i + 1].start])):
                out[i] = "naming"  # "put you through to miles who does the skips"
            elif (m := _KIN_AFTER.match(text, tok.end)) is not None \
                    and m.group(1).lower() in KIN_WORDS and name_key(forms[i]) in given \
                    and _after_no_noun(i, forms, text, words):
                out[i] = "naming"  # "June (my mum) sends love"; not "the guy (my landlord)"
            elif (forms[i + 1:i + 2] in (["'s"], ["’s"]) and forms[i + 2:i + 3]
                  and forms[i + 2] in KIN_WORDS and (cls == "rare" or name_key(forms[i]) in given)
                  and (i == 0 or forms[i - 1] not in _NOT_BEFORE_OWNER)
                  and text[words[i + 1].end:words[i + 2].start] == " "):
                out[i] = "naming"  # "for emre's sister's wedding"; not "the band's manager",
                # "vicar's wife" (a common word)
        return out


#: Words after which a word and ``'s`` and a family word is no one named: ``the``, ``her``,
#: ``that bloke's wife``.
_NOT_BEFORE_OWNER = DETERMINERS | frozenset("her that some any which what whose".split())


#: The commonest a given name may be (Zipf) and be a name for ``who`` after it (``miles
#: who does the skips``; not ``a Cork man who``, ``ninety one years young who``).
_BEFORE_WHO_ZIPF = 5.3
def _after_no_noun(i: int, forms: Sequence[str], text: str, words: Sequence[Token]) -> bool:
    """Whether word ``i`` opens its clause or follows a kept function word that no noun
    does (``to miles who``, ``ask grace who``): not after a determiner (``the guy (my
    landlord)``, ``any christian who``) nor after a word that makes it a compound noun's
    (``a rock star who``)."""
    if i == 0 or re.search(r"[.!?:;\n]", text[words[i - 1].end:words[i].start]):
        return True
    return forms[i - 1] in KEPT_FUNCTION_WORDS and forms[i - 1] not in _NOUN_BEFORE


#: Function words after which a word is a noun (``the``, ``any``, ``some``, ``every``).
_NOUN_BEFORE = DETERMINERS | frozenset("any some every each no another".split())
#: A family word in brackets after a name: ``June (my mum)``, ``Frank (her brother)``.
_KIN_AFTER = re.compile(r"[ \t]*\((?:my|his|her|our|their|your)[ \t]+([^\W\d_]+)\)",
                        re.IGNORECASE)


def _people_after(text: str, at: int) -> bool:
    """Whether a list of two items or more starts at ``at``
    (:func:`~emprivacy.entities.spans.list_items`), two of them or more opening with a listed
    given name (``holly, drew, miles (till 7)``)."""
    given = given_names()
    items = list_items(text, at)
    return len(items) >= 2 and sum(name_key(w.lower()) in given for _, w in items) >= 2


def _in_label(i: int, words: list[Token], forms: list[str], text: str,
              line_starts: list[int], *, stamped: bool = False, chat: bool = False) -> bool:
    """Whether word ``i`` is in a speaker label: at most 3 words (titles included) at a
    line's start, after an optional time stamp (with ``stamped``, after a time stamp only),
    followed by ``:`` (``THE COURT:`` is no name) or by a time stamp that ends the line
    (``faith [9:15 PM]``: :func:`~emprivacy.entities.labels.stamped_after`); in a chat of
    speakers in lower case (``chat``: :func:`~emprivacy.entities.labels.chat_speakers`) a
    common word too (``river:``), but not a rota's key before a list of people (``gate:
    holly, drew, miles``)."""
    first = line_starts[i]
    if i - first > 2 or forms[first] in ("the", "q", "a") or forms[i] in FORM_KEYS \
            or forms[i] in NAME_FIELDS or forms[i] in NAME_TITLES \
            or forms[i] in SPEAKER_ROLES:
        return False
    line_begin = text.rfind("\n", 0, words[first].start) + 1
    start = text[line_begin:words[first].start]
    if LABEL_START.fullmatch(start) is None or (stamped and not stamped_start(start)):
        return False
    stamp = next((j for j in range(first, min(first + 3, len(words)))  # "faith [9:15 PM]"
                  if line_starts[j] == first and stamped_after(text, words[j].end)), None)
    if stamp is not None and not stamped:
        return i <= stamp
    if chat and not chat_speaker_word(forms[i]):
        return False  # "update:", "june:" of a chat: a key
    if (not chat and name_class(forms[i]) == "common" and name_key(forms[i]) not in given_names()
            and not any(c.isdigit() for c in start)) or (
            words[i].text.isupper() and len(forms[i]) > 2 and not stamped
            and not re.search("[aeiouy0-9]", forms[i] + start)
            and name_class(forms[i]) in ("rare", None)):  # "CHG: THEFT"; not "NG:", "JM:"
        return False  # a field's key (Plan:, Risk:), not a speaker (will:, june: are, and
        # so is any word after a chat's time stamp: "[07:55] ravi:")
    for j in range(first, min(first + 4, len(words))):
        if j > first and words[j].start != words[j - 1].end and \
                re.fullmatch(r"\.?[ \t]+", text[words[j - 1].end:words[j].start]) is None:
            return False
        after = text[words[j].end:words[j].end + 2]
        if after.startswith(":") and not after.startswith("://"):
            if forms[j] in FORM_KEYS or forms[j] in NAME_FIELDS or (
                    chat and _people_after(text, words[j].end + 1)):
                return False  # a field's key: "Booking ref:", "Emergency contact:", a
                # rota's "gate: holly, drew, miles" in a chat
            last = j - 1 if forms[j] in QUOTING_VERBS else j  # "jamal whitaker wrote:"
            return i <= last and (j - first <= 2 or forms[j] in QUOTING_VERBS)
    return False


#: Words after ``good`` that make it a greeting (``good morning``), no family name Good.
_TIMES_OF_DAY = frozenset("morning afternoon evening night day".split())


def _never_named(forms: Sequence[str], cases: Sequence[str]) -> list[int]:
    """The words in lower case that no rule makes a name: a filler but after a title (``and
    um gerry``: no Um, a surname of the census; ``mr um`` is Mr Um) and ``good`` of a
    greeting (``fermanagh and good morning``: no Good, a list's member).  Issue 40, the
    forty-ninth English set's tuning half: one decision per form then made every ``um`` and
    ``good`` of a radio phone-in's captions a person's slot (35 words).

    >>> _never_named(["and", "um", "gerry", "mr", "um"], ["lower"] * 5)
    [1]
    >>> _never_named(["good", "morning", "good", "gerry"], ["lower"] * 4)
    [0]
    """
    return [i for i, (form, case) in enumerate(zip(forms, cases, strict=True))
            if case == "lower" and (filler_at(forms, i) or (
                form == "good" and i + 1 < len(forms) and forms[i + 1] in _TIMES_OF_DAY))]
