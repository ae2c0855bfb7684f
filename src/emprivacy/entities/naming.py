"""What in a text names a person, beside the name lists (:mod:`emprivacy.entities.names`):
a phrase that names the word after it (``a lad called ravi``, ``everyone calls me paddy``,
``known as``, ``my name is``, ``my wife lan``), a nickname in quotes between names
(``Rhodri "Chopper" Evans``), and a named ``will`` beside names (``jack and will tank``).
Evidence for
:class:`~emprivacy.entities.names.NameListDetector` (issue 40).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Sequence

from emprivacy.entities.capitalised import CALENDAR_WORDS
from emprivacy.entities.text_shape import by_a_number
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = [
    "AGENT_VERBS",
    "CHAT_CLITICS",
    "DEPARTMENTS",
    "DETERMINERS",
    "FROM_COMMON",
    "KIN_WORDS",
    "NAMED_COMMON",
    "NAMING",
    "NICKNAME_OPENS",
    "ORDINARY_BEFORE",
    "ORDINARY_ZIPF",
    "YOUNG_RARE",
    "agent_after",
    "chat_named",
    "clause_start",
    "named_by",
    "named_outright",
    "nickname",
    "ordinary_mention",
    "person_function_words",
    "vocative",
]

#: A listed word that is mostly an ordinary word is a name after a naming phrase (``a lad
#: called ravi``) only if it is rarer than this (Zipf): not ``called home``.
NAMED_COMMON = 4.0
#: What names the word after it (``a lad called ravi``, ``everyone calls me paddy``,
#: ``everyone called him paddy``, ``known as kaz``), as the forms before the name; ``name
#: is`` and ``name's`` name any word (:func:`named_outright`).
NAMING: frozenset[tuple[str, ...]] = frozenset({
    ("called",), ("named",), ("call", "me"), ("calls", "me"), ("called", "him"),
    ("called", "her"), ("call", "him"), ("call", "her"), ("calls", "him"), ("calls", "her"),
    ("known", "as"),
    ("names",), ("nicknamed",), ("goes", "by")})
_QUOTES = "\"“”'‘’"
#: Where a nickname may begin: a quote after a space or a bracket (:func:`nickname`); a text
#: without one has no nickname.
NICKNAME_OPENS = re.compile(f"[ (][{_QUOTES}]")


_NAMING_LAST = frozenset(before[-1] for before in NAMING)


#: Family words that name the person after them, after a possessive (``my wife lan``, ``our
#: son jack``, ``his lad emre``): the family's word before a name, in any case; and the
#: people one names the same way (``my support worker shiv``, ``her landlord hussain``, ``my
#: best mate dev``).
#: Family words of a child (``his lad emre``) that a verb follows as often (``our kid rang``,
#: ``my boy adores``): a name after them only rarer than :data:`YOUNG_RARE`, not shaped like
#: a verb, and never in a log in capitals (``BOY SCOUTS``).
_YOUNG_KIN = frozenset("lad lass boy girl kid".split())
KIN_WORDS: frozenset[str] = frozenset(
    "wife husband son daughter mum mom mother dad father brother sister partner boyfriend "
    "girlfriend fiance fiancee fiancé fiancée nan nana nanna nanny gran granny grandma "
    "grandmother grandad aunty mam mammy mummy daddy "
    "granddad grandpa grandfather grandson granddaughter auntie aunt uncle cousin niece "
    "nephew stepson stepdaughter stepmum stepdad worker caseworker carer neighbour landlord "
    "landlady boss manager teacher therapist counsellor friend mate colleague flatmate "
    "housemate".split()) | _YOUNG_KIN
_POSSESSIVES = frozenset("my our his her their your".split())
YOUNG_RARE = 3.0
#: Words between a possessive and a family word (``my late husband paddy``, ``my support
#: worker shiv``).
_KIN_ADJECTIVES = frozenset("support social key case youth best old "
                            "late little big baby eldest oldest youngest older younger elder "
                            "twin lovely dear beloved new".split())
#: Teams a colleague is ``from`` (``will from marketing``, ``bill from accounts``).
DEPARTMENTS: frozenset[str] = frozenset(
    "accounts accounting marketing sales finance hr legal payroll procurement facilities "
    "reception compliance security admin billing support ops operations engineering it "
    "design product comms housing estates catering pharmacy".split())
#: Verb forms that never follow a modal: ``will`` or ``may`` before one is a name.
_NO_MODAL_AFTER = frozenset("has had is was says said took did does gets got knows thinks "
                            "wants went came".split())


#: A chat's contractions without their apostrophe (``ill pay``, ``dont mark``): never a name
#: in lower case, and no name follows one a space after it (``rose is off ill, mark can
#: you`` names mark).
CHAT_CLITICS: frozenset[str] = frozenset("ill youll theyll itll cant dont wont didnt doesnt "
                                         "isnt wasnt wouldnt couldnt shouldnt".split())
#: Determiners and possessives before a noun: no name follows them (``the Court``, ``my
#: faith``).
DETERMINERS: frozenset[str] = frozenset(
    "the a an this these those my your our their its his no every each".split())
#: Words after which a word that names someone elsewhere in the text is the ordinary word
#: (``the bill``, ``my faith``, ``i'll mark that``, ``didn't dawn on us``, ``last year's hall
#: bill``): a determiner, a possessive, a modal's or a negation's clitic; no name follows
#: them.
ORDINARY_BEFORE: frozenset[str] = DETERMINERS | {"some", "any", "'ll", "n't", "'s", "’s"}

#: A name this common as an English word (Zipf) may be the word after :data:`ORDINARY_BEFORE`
#: (``the bill``, ``my faith``); a rarer one is the name used as a noun's modifier (``the
#: mulvihill idea``).
ORDINARY_ZIPF = 3.5


def ordinary_mention(i: int, forms: Sequence[str], zipf: Callable[[str], float], *,
                     gap: str | None = None) -> bool:
    """Whether the lower-case word ``i`` is an ordinary word by the word before it
    (:data:`ORDINARY_BEFORE`: ``the bill`` where ``bill`` names a colleague elsewhere; a
    subject or a chat's contraction one space before it, ``i hope`` where ``hope`` does,
    ``ill mark that`` — ``gap``, the text between the two words, when the caller knows
    it), being common enough as a word (``zipf``, at least :data:`ORDINARY_ZIPF`).
    ``forms`` may skip punctuation and line breaks: without ``gap`` no subject or
    contraction counts (``so do i\nmark said`` names mark).  Never before ``family``: ``the
    style family`` is a family's name."""
    return (i > 0 and ((forms[i - 1] in ORDINARY_BEFORE
                        and not (forms[i - 1] in _APOSTROPHE_S and forms[i - 2:i - 1]
                                 and (forms[i - 2] in KEPT_FUNCTION_WORDS
                                      or forms[i - 2] in _IS_BEFORE)))
                       or ((forms[i - 1] in _SUBJECTS or forms[i - 1] in CHAT_CLITICS)
                           and gap == " "))
            and zipf(forms[i]) >= ORDINARY_ZIPF
            and forms[i + 1:i + 2] not in (["family"], ["families"]))  # "the style family"


#: A possessive ``'s`` (:data:`ORDINARY_BEFORE`: ``last year's hall bill``)…
_APOSTROPHE_S = frozenset({"'s", "’s"})
#: …but the ``'s`` of ``is`` after a function word (``it's hope``, ``how's grace``,
#: ``when's mark back``) or these (``her name's will``, ``one's rose``): a name.
_IS_BEFORE = frozenset("name one let everyone everybody someone somebody".split())



#: Subjects right before a verb: one space after them, no name follows (``i hope``, ``we
#: mark``).
_SUBJECTS = frozenset("i we they".split())


#: Verbs whose subject is a person: a capitalised given name or rare word starting a sentence
#: before one of them is a name (``Summer went red.``, ``Grace said``, ``Adeyemi nodded``).
AGENT_VERBS: frozenset[str] = frozenset(
    "said says told tells asked asks went came looked smiled laughed nodded shook turned "
    "walked ran sat stood replied answered shouted whispered called rang phoned wrote texted "
    "emailed thought knew wanted cried died married moved left arrived agreed explained "
    "admitted denied insisted added noted recalled lives lived works worked blushed sighed "
    "frowned grinned winked shrugged screamed yelled muttered sobbed approved confirmed "
    "signed booked checked messaged promised mentioned suggested reckons reckoned".split())


def agent_after(i: int, words: Sequence[Token], forms: Sequence[str], text: str) -> bool:
    """Whether word ``i`` is followed, after a space, by a verb that takes a person as its
    subject (:data:`AGENT_VERBS`): a sentence-initial ``Summer went red.`` or ``Hope said``
    names someone; ``Summer is hot`` does not say so."""
    if i + 1 >= len(words):
        return False
    gap = text[words[i].end:words[i + 1].start]
    return forms[i + 1] in AGENT_VERBS and re.fullmatch(r"[ \t]+", gap) is not None


def vocative(i: int, words: Sequence[Token], text: str) -> bool:
    """Whether word ``i`` is said to someone in a chat's message: its first word, right
    after the speaker's label and its colon, followed by ``,`` or ``!`` (``rosie_k: grant,
    ask cliff``, ``bob!``; not a full stop or ``?``: ``summer. definitely summer``,
    ``chance? not likely``) or by a subject pronoun (``bill you found it``, not ``hope you
    are``: :data:`_BEFORE_PRONOUNS`), or its last word after a comma, ``you`` or itself
    (``cliffnotes: done, frank``, ``coming from you rich``, ``have some faith faith``);
    not a word of endearment or address the given-name list holds (``night, love``, ``no
    worries, bud``).  The names detector asks it of a listed given name written in lower
    case in a lower-case paragraph (issue 40, twelfth stage).  It reads at most 64
    characters back: linear in a line without breaks."""
    start, end = words[i].start, words[i].end
    newline = text.rfind("\n", max(0, start - 65), start)
    if (newline < 0 and start > 64) or words[i].text.lower() in _NOT_ADDRESSED:
        return False
    line = text[newline + 1:start]
    if ":" not in line:
        return False
    form = words[i].text.lower()
    if _MESSAGE_START.fullmatch(line) and (_ADDRESS_END.match(text, end) or (
            _PRONOUN_AFTER.match(text, end) and form not in _BEFORE_PRONOUNS)):
        return True  # "bill, ask cliff"; "bill you found the bill", "chase i said"
    if _MESSAGE_END.match(text, end) is None:
        return False
    before = _WORD_BEFORE.search(line)
    return line.rstrip(" \t").endswith(",") or (before is not None and (
        before.group(1).lower() in _YOU or before.group(1).lower() == form))


def chat_named(i: int, words: Sequence[Token], forms: Sequence[str], text: str) -> bool:
    """Whether word ``i`` names its writer or someone in a chat, however common a word
    (the names detector asks it of a listed given name in lower case in a lower-case
    paragraph; issue 40, thirteenth stage): introducing oneself, ``hope here,`` at a
    message's or a sentence's start; cheering someone on, ``go hope!``, ``come on will!``;
    or owning, ``will's fault``, ``ring hope's manager`` — not after a determiner or a
    possessive (``the bill's``, ``a summer's day``, ``last june's``), nor a month's or a
    day's (``may's``), nor ``'s`` for ``is`` or ``has`` (``hope's a strong word``)."""
    n = len(words)
    after = text[words[i].end:words[i + 1].start] if i + 1 < n else ""
    if i + 1 < n and forms[i + 1] == "'s" and after == "":
        return (forms[i] not in _CALENDAR and (i == 0 or forms[i - 1] not in _NOT_OWNER)
                and i + 2 < n and forms[i + 2] not in _AFTER_IS  # "hope's a strong word"
                and not forms[i + 2].endswith("ing"))
    if i + 1 < n and forms[i + 1] == "here" and after == " " \
            and _INTRO_END.match(text, words[i + 1].end):  # not "new here", "same here"
        return (i == 0 or forms[i - 1] in ("its", "it's") or forms[i - 2:i] in _IT_IS
                or _SENTENCE_START.search(text, max(0, words[i].start - 8),
                                          words[i].start) is not None)
    return text[words[i].end:words[i].end + 1] == "!" and (
        forms[i - 1:i] == ["go"] or forms[i - 2:i] == ["come", "on"])


#: What follows ``NAME here`` of a writer introducing themself.
_INTRO_END = re.compile(r"[ \t]*(?:[,.!:-]|\n|\Z)")
#: A message's or a sentence's start right before a word (what ends the text searched).
_SENTENCE_START = re.compile(r"(?:^|[.!?:,\n])[ \t]*\Z")
_IT_IS = (["it", "'s"], ["this", "is"], ["it", "is"])
#: Before a possessive ``'s``, words after which the owner is no name.
_NOT_OWNER = ORDINARY_BEFORE | frozenset("last next this that one other for".split())
#: Words after ``'s`` that make it ``is`` or ``has``, not a possessive (``hope's a strong word``,
#: ``will's not here``, ``mark's been told``).
_AFTER_IS = DETERMINERS | frozenset(
    "not been got gone going so very just really here there right fine ok okay on in off up "
    "out back over always never still all also too such quite about like gonna".split())
_CALENDAR = CALENDAR_WORDS | {"may"}


#: A line up to a message's first word: a speaker's label (time stamp, user name) and ``:``.
_MESSAGE_START = re.compile(r"[^\n]{1,48}?:[ \t]+")
#: What follows a name said to someone at a message's start.
_ADDRESS_END = re.compile(r"[,!]")
#: Words of a chat's replies and of endearment that the given-name list holds: no one's name
#: when said to someone.
_NOT_ADDRESSED = frozenset(
    "ok ta soon love honey hun hon bud buddy babe baby darling dear sweetie sweetheart mate "
    "pal bro sis dude man boss king queen chief champ doll sugar".split())
#: A subject pronoun after a name said to someone at a message's start (``bill you found
#: it``, ``rose you're a saint``, ``chase i said``).
_PRONOUN_AFTER = re.compile(r"[ \t]+(?:i|you|u|we)(?:['’][a-z]+)?(?![\w'’])")
#: Verbs and modals that open a message before a pronoun (``hope you're well``, ``mind you``,
#: ``will you``): no one said to.
_BEFORE_PRONOUNS = frozenset(
    "hope thank thanks bless love miss mind mark see trust bet guess wish will may can did do "
    "does have has had told tell let help got get make made give gave call ring text ask "
    "asked heard hear pay paid owe want need guy".split()) | _CALENDAR | {
        "spring", "summer", "autumn", "fall", "winter"}  # "summer we went to crete"
#: The word right before a message's last word, and the words after which that last word is
#: said to someone (``coming from you rich``; ``have some faith faith``: the same word).
_WORD_BEFORE = re.compile(r"([^\W\d_]+)[ \t]+\Z")
_YOU = frozenset({"you", "u", "ya"})
#: What follows a message's last word.
_MESSAGE_END = re.compile(r"[ \t]*+(?:[.!?]+[ \t]*+)?(?:\n|\Z)")


def clause_start(i: int, words: Sequence[Token], forms: Sequence[str], text: str,
                 initial: Sequence[bool]) -> bool:
    """Whether word ``i`` starts a sentence, a chat line's message (after a colon) or a
    clause after a comma (``ok, bill approved``, ``i'll chase the group, cliff said``)."""
    if initial[i] or i == 0:
        return True
    gap = text[words[i - 1].end:words[i].start]
    return ":" in gap or "\n" in gap or gap.strip(" ") == ","


#: A given name this common as a word (Zipf) before ``from`` and a town is the word: ``a man
#: from Leeds`` (``man`` 5.8), not ``mark from leeds`` (5.05).
FROM_COMMON = 5.5


def named_by(i: int, words: Sequence[Token], forms: Sequence[str], text: str, *,
             given: Container[str] = frozenset(), places: Container[str] = frozenset(),
             zipf: Callable[[str], float] | None = None) -> bool:
    """Whether word ``i`` follows, on its line with only spaces between, words that name it
    (:data:`NAMING`), or a possessive and a family word (:data:`KIN_WORDS`: ``my wife lan``,
    ``my late husband paddy``; not a modal, ``my husband will call``, but ``my husband will
    has`` and ``her son will`` at the end of its clause; in capitals the family word alone,
    ``MOTHER JUNE KING``, not ``MOTHER MAY CALL``), or is followed by ``from`` and a
    team (:data:`DEPARTMENTS`: ``will from marketing``; not after a determiner, ``the bill
    from accounts``) or, being one of the ``given`` names rarer than :data:`FROM_COMMON`
    by ``zipf``, one of the ``places`` (a phone-in's ``rob from redditch``; not ``CTRL FROM
    HOPE``, ``paramedics from``, ``a man from Leeds``) or work, school, church…
    (:data:`_EVERYDAY_PLACES`: ``bringing guy from work``), or says who calls: ``it's may from
    the league``, ``this is grace from the surgery``, ``it's gary calling``."""
    first = i - 2 if i >= 3 and forms[i - 2] in _KIN_ADJECTIVES else i - 1
    if (first >= 1 and forms[i - 1] in KIN_WORDS and forms[first - 1] in _POSSESSIVES
            and (forms[i - 1] not in _YOUNG_KIN or (
                zipf is not None and zipf(forms[i]) < YOUNG_RARE
                and not forms[i].endswith(("s", "ed", "ing"))))
            and (forms[i] not in ("will", "may")
                 or (i + 1 < len(forms) and forms[i + 1] in _NO_MODAL_AFTER)
                 or _clause_end(i, words, text))
            and all(re.fullmatch(r"[ \t]+", text[words[j - 1].end:words[j].start])
                    for j in range(first, i + 1))):
        return True  # "my husband will has been reading the meter": will, the person
    if (i >= 1 and forms[i - 1] in KIN_WORDS and forms[i - 1] not in _YOUNG_KIN
            and words[i - 1].text.isupper()
            and words[i].text.isupper() and len(words[i].text) > 1
            and (forms[i] not in ("will", "may")
                 or (i + 1 < len(forms) and forms[i + 1] in _NO_MODAL_AFTER))
            and re.fullmatch(r"[ \t]+", text[words[i - 1].end:words[i].start])):
        return True  # a log in capitals: "CALLER STATES MOTHER JUNE KING AT WORK"
    if (i + 2 < len(forms) and forms[i + 1] == "from"
            and (forms[i + 2] in DEPARTMENTS
                 or (forms[i] in given
                     and (forms[i + 2] in places or forms[i + 2] in _EVERYDAY_PLACES)
                     and (zipf is None or zipf(forms[i]) < FROM_COMMON)))
            and (i == 0 or forms[i - 1] not in ORDINARY_BEFORE)
            and all(re.fullmatch(r"[ \t]+", text[words[j - 1].end:words[j].start])
                    for j in (i + 1, i + 2))):
        return True  # "will from marketing asks", a phone-in's "rob from redditch says";
        # not "the bill from accounts"
    if (i + 1 < len(forms) and forms[i + 1] in _CALLER_NEXT
            and (forms[i - 1:i] in (["it's"], ["its"])
                 or forms[i - 2:i] in (["this", "is"], ["it", "'s"], ["it", "is"]))
            and forms[i] not in ("me", "him", "her", "us", "them")):
        return True  # a call's or a chat's opening: "hi all its may from the league",
        # "it's sunny from the practice" (the tokenizer splits "'s"), "it's gary calling"
    if i == 0 or forms[i - 1] not in _NAMING_LAST:
        return False
    for before in NAMING:
        n = len(before)
        if i < n or tuple(forms[i - n:i]) != before:
            continue
        if all(re.fullmatch(r"[ \t]+", text[words[j - 1].end:words[j].start])
               for j in range(i - n + 1, i + 1)):
            return True
    return False


#: Where people know each other from: a given name before ``from`` and one of them is the
#: person's (``bringing guy from work``; not ``a guy from work``).
_EVERYDAY_PLACES = frozenset("work school uni college church gym nursery club".split())
#: Words after a caller's name that say who calls (``it's gary calling``, ``this is dawn
#: from the surgery``); not ``here`` (``it's sunny here``).
_CALLER_NEXT = frozenset("from calling ringing speaking".split())


#: What names any word after it, however common (``my name is will``, ``her name's ah young
#: cho``), as the forms before it (the tokenizer splits ``'s``).
_OUTRIGHT = (["name", "is"], ["name", "'s"])


def named_outright(i: int, words: Sequence[Token], forms: Sequence[str], text: str,
                   kept: frozenset[str]) -> bool:
    """Whether word ``i``, a word of letters and none of the ``kept`` function words,
    follows ``name is`` or ``name's`` after a space: the name, whatever the word (``ah`` of
    ``her name's ah young cho``); not ``her name's not known``."""
    return (i >= 2 and forms[i].isalpha() and forms[i] not in kept
            and list(forms[i - 2:i]) in _OUTRIGHT
            and re.fullmatch(r"[ \t]+", text[words[i - 1].end:words[i].start]) is not None)


def _clause_end(i: int, words: Sequence[Token], text: str) -> bool:
    """Whether nothing but punctuation follows word ``i`` before its line's end: a modal
    never ends a clause (``i'm her son will``)."""
    end = text.find("\n", words[i].end)
    rest = text[words[i].end:len(text) if end < 0 else end]
    return re.fullmatch(r"[ \t]*(?:[.,!?;:)]+.*)?", rest) is not None


def nickname(i: int, words: Sequence[Token], text: str) -> int:
    """Where word ``i`` is written as a nickname, the position of the word before its
    quotes (the caller asks whether that word is a name); ``-1`` where it is not one.  A
    nickname is capitalised and in quotes, one to :data:`NICKNAME_WORDS` words one space
    apart, between two words the second of which is capitalised (``Rhodri "Chopper"
    Evans``, ``WINSTON "BIG WIN" CAMPBELL``, ``FRANKIE "THE VOICE" GALLAGHER``), or one word
    in quotes and brackets after a word (``Patrick Joseph ("Paddy")``)."""
    if i == 0 or not words[i].text[:1].isupper():
        return -1
    before = text[words[i - 1].end:words[i].start]
    if before in _OPEN_BRACKETED and text[words[i].end:words[i].end + 2] in _CLOSE_BRACKETED:
        return i - 1  # 'Patrick Joseph ("Paddy")': in quotes and brackets after the name
    first = i  # the quoted words' first and last: one space between them, all capitalised
    while first > 0 and i - first < NICKNAME_WORDS - 1 and before == " " \
            and words[first - 1].text[:1].isupper():
        first -= 1
        before = text[words[first - 1].end:words[first].start] if first else ""
    last = i
    after = text[words[i].end:words[i + 1].start] if i + 1 < len(words) else ""
    while last + 1 < len(words) and last - first < NICKNAME_WORDS - 1 and after == " " \
            and words[last + 1].text[:1].isupper():
        last += 1
        after = text[words[last].end:words[last + 1].start] if last + 1 < len(words) else ""
    if (first > 0 and last + 1 < len(words)
            and len(before) == 2 and before[0] == " " and before[1] in _QUOTES
            and len(after) == 2 and after[0] in _QUOTES and after[1] == " "
            and words[last + 1].text[:1].isupper()):
        return first - 1
    return -1


#: The most words of a nickname in quotes (``"THE VOICE"``, ``"Big Win"``).
NICKNAME_WORDS = 3


_OPEN_BRACKETED = frozenset(f" ({q}" for q in _QUOTES)
_CLOSE_BRACKETED = frozenset(f"{q})" for q in _QUOTES)


#: Words after which a kept function word that names a person is the person (``job for
#: will``, ``tell may``): a modal verb never follows them.
_BEFORE_PERSON = frozenset("for to with from ask tell told call called thank thanks says said "
                           "asked".split())


def person_function_words(name: list[bool], words: Sequence[Token],
                          forms: Sequence[str], text: str) -> None:
    """A kept function word (``will``, ``may``) that is a person's name elsewhere in the
    text (named by the evidence at one mention) is the person where a word of
    :data:`_BEFORE_PERSON` stands before it, where it ends its clause after a word of
    :data:`_BEFORE_LAST` (``better than will``), before a verb in ``-s`` (``will tanks``:
    :func:`_third_person`) or one that never follows a modal (``will took it``,
    :data:`_NO_MODAL_AFTER`), after two names (``rose jack will``: a message's addressees),
    or where it is coordinated with a name (``jack
    and will``, ``will, rose and faith``, ``holly + will``), only spaces (or the comma)
    between; and where it ends its message after a word that is no function word nor a name
    (``bring them back this time will``: a modal there would have a subject, ``i will``,
    ``or sandy will``).  Where a Will
    is named, the modal after a name is taken too (``dana and will call back``): privacy
    first, the words alone cannot tell it from ``jack and will tank``.  A ``may`` by a
    number is the month (``from May 3``)."""
    named = {forms[i] for i in range(len(words)) if name[i]} & {"will", "may"}

    def joined(a: int, b: int, comma: bool = False) -> bool:  # only spaces (or a comma)
        gap = text[words[a].end:words[b].start]
        return gap.strip(" ") == "" or (comma and gap.strip(" ") == ",")

    for i, form in enumerate(forms):
        if form not in named or name[i]:
            continue
        if form == "may" and by_a_number(words[i], text):
            continue  # "from May 3": the month
        prev = forms[i - 1] if i else ""
        beside = (i > 1 and prev == "and" and name[i - 2] and joined(i - 2, i - 1)
                  and joined(i - 1, i))
        if i + 2 < len(words) and forms[i + 1] == "and":
            beside = beside or (name[i + 2] and joined(i, i + 1) and joined(i + 1, i + 2))
        elif i + 1 < len(words) and text[words[i].end:words[i + 1].start].strip(" ") == ",":
            beside = beside or name[i + 1]
        beside = bool(beside or (i and name[i - 1] and _SYMBOL_JOIN.fullmatch(  # "holly +
            text, words[i - 1].end, words[i].start)) or (i + 1 < len(words) and name[i + 1]
            and _SYMBOL_JOIN.fullmatch(text, words[i].end, words[i + 1].start)))  # will"
        run = (i > 1 and name[i - 1] and name[i - 2] and joined(i - 2, i - 1) and joined(i - 1, i)
               and words[i - 1].text.islower())  # "rose jack will", not "Dana Smith will"
        name[i] = (prev in _BEFORE_PERSON and i > 0 and joined(i - 1, i)) or bool(beside) or (
            prev in _BEFORE_LAST and _clause_end(i, words, text)) or bool(run) or (
            i > 0 and prev.isalpha() and prev not in KEPT_FUNCTION_WORDS and not name[i - 1]
            and prev not in _WILL_NOUN and form == "will" and joined(i - 1, i)
            and _MESSAGE_END.match(text, words[i].end) is not None) or (
            i + 1 < len(words) and joined(i, i + 1)
            and (_third_person(forms[i + 1]) or forms[i + 1] in _NO_MODAL_AFTER))


#: Words before ``will`` the noun (``free will``, ``good will``): no one called Will at a
#: message's end.
_WILL_NOUN = frozenset("free good ill own last living strong political god's popular general"
                       .split())

#: Words after which a kept function word that names a person and ends its clause is the
#: person (``i tank better than will``, ``me and will.``): a modal there has no subject.
_BEFORE_LAST = _BEFORE_PERSON | frozenset("than like and or but vs".split())
#: ``&`` or ``+`` between two names (``holly + will``).
_SYMBOL_JOIN = re.compile(r"[ \t]*[&+][ \t]*")
#: Words in ``-s`` that may follow a modal (adverbs): ``will always``.
_ADVERBS_IN_S = frozenset("always sometimes perhaps afterwards besides towards anyways "
                          "nowadays thus less unless yes".split())


def _third_person(form: str) -> bool:
    """Whether ``form`` reads as a verb's third person singular (``tanks``, ``heals``;
    not ``discuss``, ``focus``, ``always``): no modal comes before one (``will tanks``).

    >>> [_third_person(w) for w in ("tanks", "heals", "discuss", "focus", "always", "is")]
    [True, True, False, False, False, False]
    """
    return (len(form) >= 4 and form.isalpha() and form.endswith("s")
            and not form.endswith(("ss", "us", "is")) and form not in _ADVERBS_IN_S)
