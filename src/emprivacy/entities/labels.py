"""The words of a text's labels: a form's field keys, the titles before a name, the roles
that speak in a transcript, and whether a word is in the value of a field that names a
person (``Patient: …``, ``Cc: …``) or starts a line after a chat's time stamp.  Evidence for
:class:`~emprivacy.entities.names.NameListDetector` and the marking (issue 40).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Sequence
from fractions import Fraction
from functools import lru_cache

from emprivacy.entities.capitalised import TITLES
from emprivacy.text.tokens import Token

__all__ = [
    "ABBREVIATED_GIVEN",
    "CHAT_KEYS",
    "FILLERS",
    "FORM_KEYS",
    "FRENCH_SPEECH",
    "GREETINGS",
    "HONORIFICS",
    "LABELLED_LINE",
    "LABEL_START",
    "NAME_FIELDS",
    "NAME_TITLES",
    "NOT_GREETED",
    "PERSONAL_PRONOUNS",
    "QUOTING_VERBS",
    "ROLE_VERBS",
    "SPEAKER_ROLES",
    "STAMP_OPEN",
    "chat_labels",
    "chat_speaker_word",
    "chat_speakers",
    "filler_at",
    "in_name_field",
    "role_before_word",
    "stamped_after",
    "stamped_start",
    "voice_tag_words",
]

#: The keys of a form's fields whose value is a person's name.
NAME_FIELDS: frozenset[str] = frozenset(
    "name patient client employee contact from to cc bcc attendee attendees present "
    "witness witnesses referred signed countersigned author reporter complainant officer "
    "nurse doctor physician manager supervisor parent guardian student tenant applicant by "
    "requester requestor assignee agent owner caller customer user submitter approver surname "
    "surnames forename forenames firstname lastname kin spouse partner relative claimant "
    "insured policyholder beneficiary landlord landlady occupant resident victim suspect "
    "interpreter interviewer interviewee chair chairperson secretary treasurer "
    "clerk clinician plaintiff plaintiffs defendant defendants respondent petitioner "
    "appellant counsel head director coordinator administrator therapist trustee trustees "
    "superintendent carer carers cadet licensee licensees governor governors solicitor "
    "barrister coroner deputy principal headteacher teacher coach captain po "
    "transcriber typist dispatcher operator names nickname nicknames aka alias "
    # offices of a parish, a boat and a band that no name list holds (issue 40, stage 49:
    # every earlier English set made their mentions people's words, none of them a name's;
    # not steward, marshal, rector, skipper: the census' family names, Mrs Steward)
    "coxswain harbourmaster curate churchwarden archivist bandmaster".split())
#: Military ranks written before a name or in a roll's column (``CPL``, ``LCPL``, ``PTE``,
#: ``WO2``): abbreviations that are no English word (not ``brig``, ``adm``, ``cdr``, nor the
#: full ``lieutenant``, ``guardsman``: the word after a title is read as a name, ``the
#: lieutenant said no``).
MILITARY_RANKS: frozenset[str] = frozenset(
    "cpl lcpl lcp pte gnr spr rfn tpr ssgt csgt wo1 wo2 rsm cqms rqms maj bdr lbdr".split())
#: Words of address before a name, never names themselves (``Cllr Okafor``, ``Nurse Rao``;
#: Scotland's civic titles, ``Provost``, ``Bailie``, ``Convener``, and the Borders riding
#: towns' ``Cornet`` and ``Callant``: the fiftieth English set; not ``marshal``, more often a
#: noun: ``marshal points``).
NAME_TITLES: frozenset[str] = TITLES | frozenset(
    "cllr councillor officer detective det inspector insp sergeant constable pc pcso nurse "
    "doctor professor judge justice pastor father sister brother uncle aunt auntie miss sir "
    "dame lord lady reverend revd supt coach chief captain governor senator mayor president "
    "mister provost bailie convener cornet callant chairman chairwoman".split()) | MILITARY_RANKS
#: Given names as old records abbreviate them, before a stop and a family name (``GEO. ROACH``,
#: ``Jos. Stone``, ``Wm. Chubb``, ``Thos. Keel``: parish registers, toll books, censuses;
#: issue 40, the thirtieth English set; ``dd``, Dafydd, at stage 43): 30 forms, none a
#: common English word (``geo``, ``humph`` are words too: read as names only before a listed
#: family name).
ABBREVIATED_GIVEN: frozenset[str] = frozenset(
    "abm alexr andw archd benj chas danl dd edw edwd eliz elizth fras fredk geo gilbt humph jas "
    "jno jos margt nathl nichs richd robt saml thos wm willm xpr".split())
#: Roles that speak in a transcript or a log, no names after a time stamp either
#: (``22:41 CONTROL: ALL UNITS``, ``[09:12] admin: pinned``): an allow-list of what such a
#: label is known to be when it is not a person; the words still go through the mechanism.
SPEAKER_ROLES: frozenset[str] = frozenset(
    "control dispatch base ops operations moderator mod host admin system bot narrator "
    "speaker unknown unidentified announcer presenter audience crowd voice voices male "
    "female staff receptionist advisor adviser all everyone group team server call taker "
    "handler paramedic crew registrar caller".split())
#: Values of a name field that are no names (``Next of kin: SELF``, ``Cc: None``).
NO_NAME_VALUES: frozenset[str] = frozenset(
    "no yes none nil na unknown same self next tba tbc see as above below pending anonymous "
    "refused declined withheld various all everyone thanks thank".split())
def name_shaped_value(text: str, start: int, *, most_words: int = 4) -> bool:
    """Whether the field's value that starts at ``start`` (spaces before it aside) reads as a
    name: one to ``most_words`` words to the line's end or the field's gap (two spaces, a
    tab, the next key's colon), each capitalised (after an opening quote or bracket), no
    ``!``, ``?`` or ``;`` (``Known as: Cat``, ``First name(s): Catriona Mairead``; not
    ``Chair: Thanks everyone.``, ``Patient: Refused to give name``).  A bounded look.

    >>> [name_shaped_value(t, t.index(":") + 2) for t in (
    ...     "Known as: Cat", "Chair: Thanks everyone.", "Name: Mary O'Neill  Ward: 4")]
    [True, False, True]
    """
    value = re.split(r"\n|  |\t|:", text[start:start + 120], maxsplit=1)[0].strip()
    words = value.split()
    return 0 < len(words) <= most_words and not any(c in value for c in "!?;") and all(
        w.lstrip("\"'(“‘")[:1].isupper() for w in words)


#: Verbs that end a quoting line's label (``--- jamal whitaker wrote:``).
QUOTING_VERBS = frozenset({"wrote", "writes", "said", "says"})
#: Keys of a form's fields that are not names (``DOB:`` is no speaker label).
FORM_KEYS: frozenset[str] = frozenset(
    "dob mrn ssn re subj subject date time tel phone fax email mail addr address sex gender "
    "age id ref no dept room unit case ward bed note notes ps attn fwd apologies".split())
#: The opening of a chat's time stamp before its time, as a regular expression: a bracket,
#: with a weekday (English or French, in full or cut) or a date before the time where an
#: export writes one (``[mon 18:25]``,
#: ``[lun. 19:12]``, ``[12/03 09:02]``; issue 40, the seventeenth English set, and issue 42).
#: The time stamps of the speakers' patterns open with ``(?:STAMP_OPEN|\[)?``.
STAMP_OPEN = (r"\[(?:(?i:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|monday|tuesday|"
              r"wednesday|thursday|friday|saturday|sunday|lun|mar|mer|jeu|ven|sam|dim|lundi|"
              r"mardi|mercredi|jeudi|vendredi|samedi|dimanche)\.?,?"
              r"|\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?,?)"
              r"(?:[ \t]+\d{1,4}[/.-]\d{1,2}(?:[/.-]\d{2,4})?,?)?[ \t]+")
#: A line's start before a speaker's label: a quote's marks, a bullet, a time stamp.
LABEL_START = re.compile(r"[ \t>\-*]*(?:\[[^\]\n]{0,20}\][ \t]*|\d{1,2}:\d{2}(?::\d{2})?"
                         r"[ \t]*(?:[ap]m[ \t]*)?)?")


def stamped_start(before: str) -> bool:
    """Whether ``before``, the start of a line up to its first word, is a chat's time stamp
    (``[07:59] ``, ``19:09 ``): what makes the next word a speaker whatever the word."""
    return any(c.isdigit() for c in before) and LABEL_START.fullmatch(before) is not None


#: A chat's time stamp after its speaker, to the line's end (``faith [9:15 PM]``, ``rose —
#: 14/03/2025 21:12``, ``mark — Today at 21:15``): a messaging app's export.
_STAMP_AFTER = re.compile(
    r"[ \t]+(?:\[\d{1,2}[:.]\d\d(?:[ \t]?[AaPp]\.?[Mm]\.?)?\]|[—–-][ \t]+(?:\d{1,2}/\d{1,2}/\d{2,4}"
    r"|today|yesterday)\b[^\n]*)[ \t]*(?=\n|\Z)", re.IGNORECASE)


def stamped_after(text: str, pos: int) -> bool:
    r"""Whether a chat's time stamp follows ``pos`` to the end of its line: the words before
    it on the line are a speaker's, whatever the words.

    >>> text = "faith [9:15 PM]\nhey\nrose — 14/03/2025 21:12\nnotes [draft]"
    >>> [stamped_after(text, text.index(w) + len(w)) for w in ("faith", "rose", "notes")]
    [True, True, False]
    """
    return _STAMP_AFTER.match(text, pos) is not None


#: Personal pronouns, which no name holds; not ``her``, ``his``, ``our`` (``HER MAJESTY'S
#: PRISON``, ``OUR LADY OF LOURDES``).
PERSONAL_PRONOUNS: frozenset[str] = frozenset(
    "i me myself you yourself yourselves we us ourselves he him himself she herself they them "
    "themselves it itself".split())
#: A speaker's fillers, which no name in lower case is (``next caller is um olena``: ``Um``
#: is a census family name, and one ``um`` taken after ``doctor`` made every ``um`` of a
#: phone-in a person's slot; issue 40, stage 44).
FILLERS: frozenset[str] = frozenset("um umm uh uhm er erm hmm".split())


def filler_at(forms: Sequence[str], i: int) -> bool:
    """Whether ``forms[i]`` (lower case) is a speaker's filler, not after a title (``and um
    gerry``; ``mr um`` is Mr Um, a surname of the census).

    >>> [filler_at(["and", "um", "mr", "um"], i) for i in (1, 3)]
    [True, False]
    """
    return forms[i] in FILLERS and not (i and forms[i - 1] in HONORIFICS)

#: The first words of a French speaker's line, never a form's value (``Loup : moi aussi``:
#: a speaker's label, no key; issue 42, stage 44).
FRENCH_SPEECH: frozenset[str] = frozenset(
    "je j' moi tu toi nous vous on il elle ils elles c'est ça merci salut coucou bonjour ah "
    "oh bah ben euh".split())  # not a form's "oui", "non", "ok"
#: Words before a name that address or greet a person.
GREETINGS: frozenset[str] = frozenset(
    "hi hey hello dear thanks thank thx ty cc bye congrats ask tell ping cheers morning "
    "welcome sorry hiya".split()
    # the time of day's greetings (``evening will``: stage 49, the fifty-first English set's
    # tuning half; not ``this evening will be``)
    + "evening afternoon".split()
    # Welsh in an English chat: thanks, hello, bye (``diolch will bach``: issue 40, the
    # forty-eighth English set's tuning half)
    + "diolch shwmae hwyl".split())
#: Words of address after a greeting that are no name: Welsh ``bois`` (lads), ``bach``
#: (dear), ``pawb`` (everyone), ``cariad`` (love), ``chi``, ``ti`` (you), ``yn`` of ``diolch yn
#: fawr`` (``Diolch bois``: the stage's per-token comparison), and English ``folks``,
#: ``guys``, ``everyone`` (``diolch folks``: the stage's review).
NOT_GREETED = frozenset("bois bach pawb cariad chi ti yn fawr folks guys lads gang everyone "
                        "everybody".split())
#: Words no name holds: a field's value with one is speech (``customer: my husband will
#: call you``), a chat's message after its speaker.
_SPEECH_WORDS = PERSONAL_PRONOUNS | {"i'm", "it's", "my", "our", "your", "his", "her"} | set(
    # a speaker's words that no name is (``caller: yeah thursday's fine``)
    "yeah yep yup nope erm uhm hmm okay".split())
#: A value's first word that makes it speech (``agent: and a phone number``, ``caller: um
#: its about``); elsewhere in a value such a word may be a name's or join names (``CLIENT:
#: JUNE OH``, ``Cc: rose and will``).
_SPEECH_FIRST = frozenset("and but so oh well no yes um er uh ok the an".split())


#: The keys of a name field in two words: the first is no name before the second and its
#: colon (``Surname: O'DONOGHUE Given names: Aoife``).
_TWO_WORD_KEYS = frozenset((first, second) for first in (
    "given", "first", "middle", "last", "family", "maiden", "full", "christian", "previous",
    "other") for second in ("name", "names")) | {("known", "as")}


def in_name_field(i: int, words: list[Token], forms: list[str], text: str,
                   line_starts: list[int]) -> bool:
    """Whether word ``i`` is in the value of a name field (``Patient: …``, ``Cc: …``) on its
    line: among the value's first four words, before a sentence ends (``THE WITNESS: Yes.
    Thanh was running …`` is a speaker, not a field), in a value of at most seven words up
    to the line's end or the next key, none of them a pronoun (``caller: hiya yeah its about
    …``, ``customer: my husband will call`` are speech).  A form
    may set fields side by side, apart by two spaces or a tab (``ACCOUNTANT: MOSS & LAIDLAW
    CONTACT: RAJ MISTRY``): the key is the one before the word's colon; the first word of a
    two-word key is none of the value before it (``Surname: O'DONOGHUE Given names: Aoife``;
    but ``Patient: rose baker Doctor: …`` keeps ``baker``).  ``Known as:`` is a name's key
    too (a nickname: ``Known as: Cat``), and so is a key's plural in brackets (``First
    name(s):``)."""
    if (i + 1 < len(words) and (forms[i], forms[i + 1]) in _TWO_WORD_KEYS  # the next key:
            and text[words[i].end:words[i + 1].start] == " "  # "O'DONOGHUE Given names:"
            and text.startswith(":", words[i + 1].end)):
        return False
    line_begin = words[line_starts[i]].start  # a bounded look back: 80 characters
    low = max(text.rfind("\n", 0, line_begin) + 1, words[i].start - 80)
    colon = text.rfind(":", low, words[i].start)
    if colon < 0:
        return False
    key_begin = max(text.rfind("  ", low, colon), text.rfind("\t", low, colon), low)
    first = i
    while first > line_starts[i] and words[first - 1].start >= key_begin:
        first -= 1
    between = text[colon + 1:words[i].start].lstrip(" \t")
    if "  " in between or "\t" in between:
        return False  # past the value's gap: the next field ("Name: Hope Smith  Ward: …")
    key = [forms[j] for j in range(first, i) if words[j].end <= colon]
    value = [j for j in range(first, i + 1) if words[j].start > colon]
    # the value's first words, before any sentence (a transcript's "THE WITNESS: Yes. …")
    if key[-1:] == ["s"] and text[colon - 3:colon] == "(s)":
        key = key[:-1]  # "First name(s):"
    if not (key and len(key) <= 3 and (key[-1] in NAME_FIELDS or key[-2:] == ["known", "as"])
            and key[0] != "the"
            and len(value) <= 4
            and re.search(r"[!?;]|\.\s+\S{3}|,\s*$", text[colon + 1:words[i].start]) is None):
        return False
    # at most seven words to the line's end or the next key ("caller: hiya yeah its about
    # the bill" is speech, no field); a bounded look, whatever the line's length
    rest = re.split(r"\n|:|  |\t", text[colon + 1:colon + 200].lstrip(" \t"),
                    maxsplit=1)[0]
    said = rest.lower().split()
    return len(said) <= 7 and not _SPEECH_WORDS.intersection(said) \
        and not (said and said[0] in _SPEECH_FIRST)


#: A lower-case speaker label at a line's start, after an optional time stamp: ``river:``.
_LOWER_LABEL = re.compile(r"^[ \t>\-*]*(?:\[[^\]\n]{0,20}\][ \t]*)?([a-zà-ÿ][\w'’-]*)"
                          "[ \t\u00a0\u202f]*:"
                          r"(?!//)", re.MULTILINE)
#: The fewest labelled lines, and distinct speakers, of a chat (:func:`chat_speakers`).
CHAT_LINES, CHAT_SPEAKERS = 6, 4


#: A note's keys in lower case, no speakers however many given names a chat's labels are
#: (``update:``, ``plan:``, ``risk:``); not the months (a chat's ``may:`` and ``june:`` speak).
CHAT_KEYS = frozenset(
    "update updates plan plans risk risks review summary agenda action actions todo reminder "
    "reminders info fyi edit edited admin bot system minutes decision decisions outcome next "
    "status note notes ps nb re tip tips warning alert question answer reply quote ref total "
    "today tomorrow yesterday".split())


def chat_speaker_word(form: str) -> bool:
    """Whether a chat's label ``form`` may be a speaker's name: no key of a note
    (:data:`CHAT_KEYS`, :data:`FORM_KEYS`)."""
    return form not in CHAT_KEYS and form not in FORM_KEYS


def chat_speakers(text: str, given: Callable[[str], bool], *,
                  given_share: Fraction = Fraction(2, 3)) -> bool:
    """Whether ``text`` is a chat of speakers named in lower case: at least
    :data:`CHAT_LINES` lines start with a one-word label in lower case (``dawn:``), half its
    lines at least, of :data:`CHAT_SPEAKERS` distinct words or more, ``given_share`` of them
    (two thirds unless told) ``given`` names.  There every label is a speaker's name, however
    common a word (``river:``, ``sky:``; issue 40, the twenty-fifth English set's street
    chat), but a
    note's keys (:func:`chat_speaker_word`: ``plan:``, ``update:``), which count for nothing.

    >>> chat = "\\n".join(["dawn: hi", "will: ok", "river: yes", "mark: no", "dawn: fine",
    ...                     "grace: ta"])
    >>> names = {"dawn", "will", "mark", "grace"}.__contains__
    >>> chat_speakers(chat, names), chat_speakers("plan: rest\\nrisk: low", names)
    (True, False)
    """
    labels = [m.group(1) for m in _LOWER_LABEL.finditer(text) if chat_speaker_word(m.group(1))]
    if len(labels) < CHAT_LINES or 2 * len(labels) < text.count("\n") + 1 - text.count(
            "\n\n"):
        return False
    distinct = set(labels)
    return (len(distinct) >= CHAT_SPEAKERS
            and sum(map(given, distinct)) * given_share.denominator
            >= given_share.numerator * len(distinct))


#: Words of address only before a name, unlike a role's noun (``inspector gave it``).
HONORIFICS = frozenset("mr mrs ms mx miss mister dr sir dame lady lord prof rev revd".split())
#: Finite verbs that follow a role's noun as its verb (``inspector gave it``, ``nurse said``):
#: no name after a role's noun in lower case.
ROLE_VERBS = frozenset(
    "is was are were has had have does did do says said gave gives told tells asked asks came "
    "comes went goes got gets took takes made makes left leaves rang rings called calls "
    "checked checks saw sees found finds thinks thought wants wanted needs needed knows knew "
    "wrote writes sent sends put puts let lets kept keeps signed signs agreed agrees "
    "arrived arrives reckons reckoned would could should might must won't wont can't cant "
    "didn't doesn't isn't wasn't".split())  # not "will", "may": "sister may she asked"


def role_before_word(i: int, words: Sequence[Token], forms: Sequence[str]) -> bool:
    """Whether word ``i`` is the verb of a role's noun of :data:`NAME_TITLES` before it: both
    in lower case, the role no honorific (:data:`HONORIFICS`), the word one of
    :data:`ROLE_VERBS` (``inspector gave it``: issue 40, the thirty-first English set); not
    ``mr gave``, ``staff nurse gift``, ``inspector morse``.

    >>> from emprivacy.text.tokens import tokenize
    >>> toks = [t for t in tokenize("inspector gave it") if t.kind == "word"]
    >>> role_before_word(1, toks, ["inspector", "gave", "it"])
    True
    """
    return (i > 0 and words[i - 1].text.islower() and words[i].text.islower()
            and forms[i - 1] not in HONORIFICS and forms[i] in ROLE_VERBS)


#: A chat's line: its label, in any case (a stamp before it or not), and what it says.
LABELLED_LINE = re.compile(
    r"(?m)^[ \t]*(?:\[[^\]\n]*\][ \t]*)?([^\W\d_][\w'’-]*)[ \t]*:[ \t]*(.*)$")


@lru_cache(maxsize=16)
def chat_labels(text: str) -> frozenset[str]:
    """The labels of ``text``'s chat lines (:data:`LABELLED_LINE`), in lower case, read once
    per text (``will:``, ``[09:12] MAY:``).

    >>> sorted(chat_labels("will: ok\\n[09:12] MAY: yes\\nnote the time: 9"))
    ['may', 'will']
    """
    return frozenset(m.group(1).lower() for m in LABELLED_LINE.finditer(text))


#: A WebVTT cue's voice tag, who speaks the cue: ``<v Holly Best>``, ``<v.loud Esme>``.
_VOICE_TAG = re.compile(r"<v(?:\.[\w.-]+)?[ \t]+([^<>\n]{1,80})>")


def voice_tag_words(words: Sequence[Token], forms: Sequence[str], text: str) -> list[int]:
    """The positions of the words that name the speaker in a WebVTT voice tag
    (``<v holly best>``): a speaker's name, however common a word (``best``), as a chat's
    stamped speaker is (issue 40, stage 49: the fifty-first English set's tuning half);
    not a role (:data:`SPEAKER_ROLES`: ``<v caller>``), a title (``<v mrs trewin>``) or a
    word of no letters.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "<v holly best>penny steered\\n<v caller>hello\\n<v Mrs Joy Hill>yes"
    >>> words = [t for t in tokenize(text) if t.kind == "word"]
    >>> [words[i].text for i in voice_tag_words(words, [w.text.lower() for w in words], text)]
    ['holly', 'best', 'Joy', 'Hill']
    """
    if "<v" not in text:
        return []
    starts = [w.start for w in words]
    out = []
    for m in _VOICE_TAG.finditer(text):
        k = bisect_left(starts, m.start(1))
        while k < len(words) and words[k].end <= m.end(1):
            if any(c.isalpha() for c in forms[k]) and forms[k] not in SPEAKER_ROLES \
                    and forms[k] not in NAME_TITLES:
                out.append(k)
            k += 1
    return out
