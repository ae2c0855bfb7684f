"""A given name and a family name side by side (``bill okoye``, ``OSKAR BRENNAN``, ``dev
malhotra``, ``faith mbeki``): each vouches for the other, for
:class:`~emprivacy.entities.names.NameListDetector` (issue 40).
"""

from __future__ import annotations

import re
from collections.abc import Container, Iterable, Sequence
from fractions import Fraction

from emprivacy.entities.acronyms import NOT_AN_ACRONYM
from emprivacy.entities.labels import LABELLED_LINE, NAME_TITLES, SPEAKER_ROLES, chat_speakers
from emprivacy.entities.name_vectors import name_like
from emprivacy.entities.name_words import (
    RARE_ZIPF,
    UNCOMMON_ZIPF,
    NameClass,
    family_names,
    french_family_names,
    french_given_names,
    given_names,
    name_key,
    word_zipf,
    zipf_in,
)
from emprivacy.entities.spans import EntitySpan
from emprivacy.text.language import get_language
from emprivacy.text.normalise import fold_to_ascii
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS, top_level_domains

__all__ = ["SHORT_FORM_LETTERS", "SHORT_FORM_MORE", "by_logins", "introduced_self", "name_pair",
           "numbered_initials", "numbered_initials_alone", "self_introductions", "short_forms"]

#: The commonest a word may be (Zipf) and be read as the given name before a rare family
#: name in lower case (``keen`` 4.1 of ``joe a keen ferreira`` is; ``book`` 5.4, ``ask``,
#: ``call``, ``tell`` are verbs).
_GIVEN_BEFORE_ZIPF = 5.0
#: A listed given name at least this common as a word (Zipf: ``see`` 6.1, ``long``, ``love``,
#: ``man``, ``many``; ``will`` and ``may`` are function words apart) is the given name of a
#: pair in :func:`name_pair` only by other evidence (``i can see kuba``: the fiftieth English
#: set's chat).
GIVEN_WORD_ZIPF = 5.5


def name_pair(i: int, words: list[Token], forms: list[str], classes: list[NameClass],
          text: str, lowers: Sequence[bool]) -> bool:
    """Whether word ``i`` is the given name before a listed or rare family name
    (``bill okoye``), a rare word capitalised as the listed family name after it (``OSKAR
    BRENNAN``), a word that may be a given name (``"common"``, ``"uncommon"`` or ``"rare"``, no
    function word, no title or role) in a paragraph in lower case before a listed family name
    rarer than :data:`RARE_ZIPF` (``dev malhotra``, ``kofi mensah``; not ``dev brown``, ``Trustee
    Wojcik``, nor ``informal carer``, an unlisted rare word after it), or a rare family name
    (``dana adeyemi``; in lower case any word rarer than :data:`UNCOMMON_ZIPF` that is listed or
    reads as a name by its vector, ``zane iqbal``, not an unlisted verb: ``jack borrowed it``,
    ``ray owes me``) after a listed given name, with only spaces between them."""
    given = given_names()

    def spaced(a: int, b: int) -> bool:
        return re.fullmatch(r"[ \t]+", text[words[a].end:words[b].start]) is not None

    if (i + 1 < len(words) and name_key(forms[i]) in given and classes[i + 1] in ("name", "rare")
            and forms[i + 1] not in given and spaced(i, i + 1)
            and (word_zipf(forms[i]) < GIVEN_WORD_ZIPF or forms[i] in ("will", "may"))
            # "i can see kuba": See is listed
            and words[i].text.islower() == words[i + 1].text.islower()):
        return True  # not "our son Kayode": a name's two words share their case
    if (i + 1 < len(words) and classes[i] == "rare" and classes[i + 1] == "name"
            and name_key(forms[i + 1]) not in given and spaced(i, i + 1)
            and not words[i].text.islower()
            and words[i].text.isupper() == words[i + 1].text.isupper()):
        return True  # an unlisted given name before a family name: "OSKAR BRENNAN"
    if (i + 1 < len(words) and classes[i] in ("common", "uncommon", "rare") and lowers[i]
            and forms[i] not in KEPT_FUNCTION_WORDS and forms[i] not in NAME_TITLES
            and forms[i] not in SPEAKER_ROLES and spaced(i, i + 1)
            and words[i].text.islower() and words[i + 1].text.islower()
            and classes[i + 1] == "name" and name_key(forms[i + 1]) not in given
            and word_zipf(forms[i + 1]) < RARE_ZIPF and word_zipf(forms[i]) < _GIVEN_BEFORE_ZIPF):
        return True  # a word before a rare family name is the given name: "dev malhotra",
        # a misheard one ("joe a keen ferreira"); not a verb as common as "book", "ask",
        # "call" ("we book saxby wyke village hall")
    return (i > 0 and classes[i - 1] == "name" and name_key(forms[i - 1]) in given
            and spaced(i - 1, i) and (classes[i] == "rare" or (word_zipf(forms[i]) < UNCOMMON_ZIPF
            and (classes[i] != "uncommon" or name_like(forms[i]))  # not "jack borrowed it"
            and words[i - 1].text.islower() and words[i].text.islower())))  # "zane iqbal"


#: Particles before a family name in a self-introduction (``myrtille da silva``, ``nuno
#: d'oliveira``).
_INTRO_PARTICLES = (r"(?:(?:da|de|du|des|dos|das|di|del|van|von|le|la|ben|bin|ap|mac)[ \t]+"
                    r"|[dDnN]['’])")
#: Where a self-introduction starts: a line's start, or a sign (and a space) before it.
_AFTER_SIGN = r"(?:^|(?<=[^\w\s'’-])|(?<=[^\w\s'’-][ \t]))"
#: A self-introduction: a word (the label's) at a line's start or after a sign, a particle
#: or none, a family name (no possessive), then the clause's end.
_INTRODUCED = re.compile(rf"{_AFTER_SIGN}([^\W\d_][\w'’-]*)[ \t]+({_INTRO_PARTICLES})?"
                         r"([^\W\d_]+(?:-[^\W\d_]+)*)(?=[ \t]*(?:[.,;!?]|\r?$))")
#: After a self-introduction, the speaker's part: a comma and a word (``art fell, course``;
#: no kept function word: not ``will weed, then``).
_ROLE_AFTER = re.compile(r"[ \t]*,[ \t]*([^\W\d_]+)")
#: A round of introductions: at least this many speakers give a common family name in
#: their first line (``heather: heather young, treasurer``, ``art: art fell, course``, ``glen:
#: glen little, judge``; two were casual replies: ``mark: mark down, boss``, ``rose: rose
#: early, sorry``).
_INTRODUCTIONS = 3
#: A long round of introductions: where at least this many speakers gave a family name by
#: the rules above, a speaker's first line that reads as theirs gives a family name that is
#: on no list however common a word (``rain: rain tidy, tidy tiles``, ``sky: sky fairlie,
#: lifeguard``; issue 40, the thirty-eighth English set's tuning half, where most of the
#: chat's members introduced themselves so).
_LOOSE_ROUND = 6
#: Such a family name on no list is rarer than this in the text's language (Zipf): not
#: ``constant: constant côté, stationnement``, ``pierre: pierre paradis, cabane``, whose
#: words then read as the person's at every mention (``à côté de``, ``c'est le paradis``).
_LOOSE_ZIPF = 4.0
#: The commonest a word may be (Zipf, in English and in the text's language) and be read as
#: an unlisted family name after a speaker's own given name.
_INTRO_RARE_ZIPF = 3.0
#: After a particle, a word on no list is a family name where it is rarer than this (Zipf)
#: in the text's language (``bihan``, ``verney``; not ``façade`` of ``blanche la façade``).
_PARTICLE_ZIPF = 3.5
#: A family name at least this common in English is a word there (``honey``, ``weed``,
#: ``cook`` of ``may: may cook.``).
_INTRO_ZIPF = 4.0


def self_introductions(text: str, lang: str = "en") -> list[EntitySpan]:
    """``PERSON`` spans of the speakers of a chat who give their full name in their own line:
    the label's word at the line's start or after a sign (not ``the drive is a sandy
    mess``), then a family name (a particle before it or not), then the clause's end
    (``gentiane: gentiane blanc, fleurs``, ``will: … will thatcher.``, ``myrtille: myrtille
    da silva, buvette``; issue 40, the thirty-first English set, issue 42, the thirtieth
    French set): a family name of the language's list (``blanc``, ``thatcher``) or a word
    rare in English and in the language, after a particle a listed or rare one (``da
    silva``, ``d'oliveira``; not ``blanche: blanche la façade``); no kept function word,
    nothing as common as :data:`_INTRO_ZIPF` in English; in a chat of people
    (:func:`~emprivacy.entities.labels.chat_speakers`, a third of its speakers listed given
    names: not ``Plat: plat du jour``).  Not
    ``bill: bill paid, thanks``.  In a round of introductions (:data:`_INTRODUCTIONS`
    speakers or more doing so), a family name of the language's list may be as common as
    any word where a speaker gives it in their first line, before a comma and a word that
    is no kept function word: ``heather: heather young, treasurer``, ``art: art fell,
    course`` (issue 40, the thirty-second English set), and in a long round
    (:data:`_LOOSE_ROUND` speakers or more giving a family name so) one on no list, rarer
    than :data:`_LOOSE_ZIPF` (``rain: rain tidy, tidy tiles``); not the first line of a label that
    is a function word (``will: will call, later``), nor ``will weed, then``, nor two
    speakers alone (``mark: mark down, boss``, ``rose: rose early, sorry``).

    >>> text = ("gentiane: gentiane blanc, fleurs\\nnuno: ok. nuno d'oliveira, parking\\n"
    ...         "myrtille: myrtille da silva, buvette\\nbill: bill paid.\\nrose: ok\\nanne: oui")
    >>> [text[s.start:s.end] for s in self_introductions(text, "fr")]
    ['gentiane blanc', "nuno d'oliveira", 'myrtille da silva']
    >>> text = ("art: art fell, course\\nwill: will call, later\\nglen: glen little, judge\\n"
    ...         "rose: ok\\nanne: anne young, vet\\nmark: fine\\nart: art fell, sorry")
    >>> [text[s.start:s.end] for s in self_introductions(text)]
    ['art fell', 'glen little', 'anne young']
    >>> self_introductions(text.replace("glen little", "glen is late"))
    []
    """
    if ":" not in text:
        return []
    given, french = given_names(), french_given_names() if lang == "fr" else frozenset()
    if not chat_speakers(text, lambda w: name_key(w) in given or fold_to_ascii(w) in french,
                         given_share=Fraction(1, 3)):
        return []  # a chat of people: a third of its speakers listed given names
    family = french_family_names() if lang == "fr" else family_names()
    kept = get_language(lang).kept_function_words
    out, common, loose = [], [], []
    spoken: set[str] = set()  # the labels of the lines read so far
    for line in LABELLED_LINE.finditer(text):
        label, body = line.group(1).lower(), line.group(2)
        first = label not in spoken
        spoken.add(label)
        if label not in body.lower():
            continue  # most lines: the speaker does not name themself
        for m in _INTRODUCED.finditer(body):
            word = m.group(3).lower()
            if m.group(1).lower() != label or word in kept or len(word) < 2:
                continue
            key = name_key(word)
            span = EntitySpan(line.start(2) + m.start(1), line.start(2) + m.end(3), "PERSON")
            if word_zipf(word) >= _INTRO_ZIPF or not (key in family or (  # after a particle,
                    m.group(2) and (key in family_names()  # any language's list ("silva")
                                    or zipf_in(word, lang) < _PARTICLE_ZIPF))
                    or (word_zipf(word) < _INTRO_RARE_ZIPF
                        and (lang == "en" or zipf_in(word, lang) < _INTRO_RARE_ZIPF))):
                # a speaker's first line, a common family name of the language's list and
                # their part: "heather: heather young, treasurer" (not "will: will call, …")
                role = _ROLE_AFTER.match(body, m.end())
                if (first and not m.group(2) and label not in kept
                        and role and role.group(1).lower() not in kept):
                    if key in family:
                        common.append(span)
                    elif zipf_in(word, lang) < _LOOSE_ZIPF:
                        loose.append(span)
                continue
            out.append(span)
    round_ = len(common) >= _INTRODUCTIONS
    return (out + (common if round_ else [])
            + (loose if len(out) + round_ * len(common) >= _LOOSE_ROUND else []))


#: A log-in of an initial and a name after ``by``, ``par``: who exported or logged a record.
_BY_LOGIN = re.compile(r"(?<![\w'’-])(?:[Bb]y|BY|[Pp]ar|PAR)[ \t]+"
                       r"([^\W\d_]\.([^\W\d_]{2,}(?:-[^\W\d_]{2,})*))(?![\w@-]|\.\w)")


def by_logins(text: str) -> list[EntitySpan]:
    """``PERSON`` spans of the log-ins of an initial and a family name after ``by`` or ``par``
    (``exportée … par p.mbemba``: issue 42, the thirtieth French set; ``exported by
    j.okafor.``): the name listed, or rarer than Zipf 2 in English (``mbemba``,
    ``lindqvist``); not ``caused by e.coli``, ``sorted by p.value``, ``by x.com``.

    >>> text = "exported by p.mbemba (v2), caused by c.diff, hosted by x.com"
    >>> [text[s.start:s.end] for s in by_logins(text)]
    ['p.mbemba']
    """
    if "." not in text:
        return []
    return [EntitySpan(m.start(1), m.end(1), "PERSON") for m in _BY_LOGIN.finditer(text)
            if (part := m.group(2).lower()) not in top_level_domains()
            and (name_key(part) in family_names() or word_zipf(part) < 2.0)]


#: A results list's entry: at a line's start or after ``;``, ``,``, ``:``, ``(``, ``|`` or a
#: tab (not ``10:30 A``, ``2,500 A``; from a run of tabs only its first: linear), a place's
#: number or none, one to three capital initials (``&`` or ``and`` between two: ``R & M
#: Shepherd``), then a word (a family name in capital and lower case: checked after).
_NUMBERED = re.compile(
    r"(?m)(?:^|(?<=[;(|\t])(?<![ \t]\t)|(?<=[,:])(?!\d))[ \t]*"
    r"(?:(\d{1,3})(?:st|nd|rd|th|=|\.|\))?[ \t]+)?"
    r"([A-Z]\.?(?:[ \t]+(?:(?:&|and)[ \t]+)?[A-Z]\.?){0,2})[ \t]+"
    r"([^\W\d_][\w'’]*(?:-[^\W\d_][\w'’]*)?)(?![\w'’-]|\.\w)")
#: A list of results: at least this many entries with a place's number, each at most
#: :data:`_ENTRY_GAP` characters after the one before.
_NUMBERED_ENTRIES = 2
_ENTRY_GAP = 120


def numbered_initials(text: str, lang: str = "en") -> list[EntitySpan]:
    """``PERSON`` spans of the entries of a list of results that give a person by initials
    and family name, with full stops or without: ``1 G Little, Cap, 81; 2 M Ciobanu``, ``3 A
    Fell``, ``2 R & M Shepherd`` (issue 40, the thirty-second English set, where the
    initials were released and ``Fell`` and ``Little`` read as words), ``9 J. Close
    2:01:15`` (the forty-seventh English set's tuning half).  An entry opens a
    line or follows ``;``, ``,``, ``:``, ``(``, ``|`` or a tab, its place's number first or
    not; its word is a family name of the census' list or rare (under Zipf 3), in capital
    and lower case, no kept function word of ``lang``.  Entries count in runs, each within
    :data:`_ENTRY_GAP` characters of the one before, and only a run of at least
    :data:`_NUMBERED_ENTRIES` entries with a place's number, one word of it at least rare
    (a list of people has names that are no words), is a list: not ``Prices: 1 A Grade, 2
    B Grade``, ``Answers: 1. B Paris, 2. C Madrid``, ``Contents: 1 A New Beginning``,
    ``Room 5 A Block``, a list's ``A Lot of rain`` far after it.

    >>> text = "Nursery: 1 G Little, Cap, 81; 2 M Ciobanu; 3 R & M Shepherd. Plan B Options"
    >>> [text[s.start:s.end] for s in numbered_initials(text)]
    ['G Little', 'M Ciobanu', 'R & M Shepherd']
    >>> numbered_initials("Prices: 1 A Grade, 2 B Grade; Tracks: 1 A Hard Day, 2 I Feel Fine")
    []
    """
    kept = get_language(lang).kept_function_words
    entries = [m for m in _NUMBERED.finditer(text)
               if (word := m.group(3))[0].isupper() and not word.isupper()
               and word.lower() not in kept
               and (name_key(word) in family_names() or word_zipf(word) < RARE_ZIPF)]
    return [EntitySpan(e.start(2), e.end(3), "PERSON") for run in _entry_runs(entries)
            if sum(e.group(1) is not None for e in run) >= _NUMBERED_ENTRIES
            and any(word_zipf(e.group(3)) < RARE_ZIPF for e in run) for e in run]


def _entry_runs(entries: list[re.Match[str]]) -> list[list[re.Match[str]]]:
    """``entries`` (in order) in runs, each entry at most :data:`_ENTRY_GAP` characters after
    the one before."""
    runs: list[list[re.Match[str]]] = []
    for m in entries:
        if runs and m.start() - runs[-1][-1].end() <= _ENTRY_GAP:
            runs[-1].append(m)
        else:
            runs.append([m])
    return runs


#: One initial with its full stop, a hyphened name's two letters too (``A-K.``, ``R.-A.``).
_DOTTED = r"[A-Z](?:\.?-[A-Z])?\."
#: A results list's entry of initials alone: its place's number (at a line's start or after
#: ``;``, ``,``, ``:``, ``(``, ``|`` or a tab), two to four initials each with its full
#: stop, a Welsh ``ap``/``ab`` between them or not (``G. ap D.``), then a comma, a
#: semicolon, a bracket, an ``&``, the line's end or a capitalised word.
_NUMBERED_ALONE = re.compile(
    r"(?m)(?:^|(?<=[;(|\t,:]))[ \t]*\d{1,3}(?:st|nd|rd|th|=|\.|\))?[ \t]+"
    rf"((?:{_DOTTED}[ \t]?){{1,2}}(?:[Aa][pb][ \t]+)?{_DOTTED}(?:[ \t]?{_DOTTED})?)"
    r"(?=[ \t]*(?:[,;()&|\t]|\r?$|[A-Z][a-z]))")


def numbered_initials_alone(text: str) -> list[EntitySpan]:
    """``PERSON`` spans of the entries of a list of results that give a person by initials
    alone, each with its full stop: ``1 M.H. (Ysgol), 2 A.D.C., 3 G. ap D.``, ``2 L.A-K.``
    (issue 40, the forty-eighth English set's tuning half: a newsletter's eisteddfod
    results, where ``L.A-K.``, ``G. ap D.`` and ``I.S.`` before ``Folk song`` were
    released).  Entries count in runs as :func:`numbered_initials`' do, each within
    :data:`_ENTRY_GAP` characters of the one before; a run of at least
    :data:`_NUMBERED_ENTRIES` is a list.  No abbreviation's letters (``10 A.M.``: the
    :data:`~emprivacy.entities.acronyms.NOT_AN_ACRONYM`).

    >>> text = "Under 12: 1 N.R., 2 L.A-K., 3 G. ap D. Piano: 1 Z.N., 2 I.S. Folk song"
    >>> [text[s.start:s.end] for s in numbered_initials_alone(text)]
    ['N.R.', 'L.A-K.', 'G. ap D.', 'Z.N.', 'I.S.']
    >>> numbered_initials_alone("Times: 1 A.M., 2 P.M.; 3 U.S. Army")
    []
    """
    if "." not in text:
        return []
    entries = [m for m in _NUMBERED_ALONE.finditer(text)
               if re.sub(r"[^A-Z]", "", m.group(1)) not in NOT_AN_ACRONYM]
    return [EntitySpan(e.start(1), e.end(1), "PERSON") for run in _entry_runs(entries)
            if len(run) >= _NUMBERED_ENTRIES for e in run]


#: What a speaker says before giving their own name: ``i'm``, ``i am``.
_I_AM = (["i", "'m"], ["i", "’m"], ["i", "am"])
#: A word after a given name rarer than this (Zipf) is read as its family name after ``i'm``.
_INTRO_FAMILY_ZIPF = 3.0
#: A census family name at least this common (Zipf) is one after ``i'm`` and a given name only
#: where the name's end shows: a sign, the line's end, or a word of :data:`_INTRO_NEXT` (``i'm
#: summer white and this is``; the stage's review: not ``i'm jade green with envy``, ``i'm
#: rusty long time since``, ``i'm sterling silver fan``, ``i am mark down as absent``).
_INTRO_COMMON_ZIPF = 4.5
_INTRO_NEXT = frozenset("and here from the this speaking".split())  # not "son of"
_INTRO_AFTER = re.compile(r"[ \t]*(?:[.,;:!?)\n]|\Z|\[|([^\W\d_]+))")


def introduced_self(i: int, words: Sequence[Token], forms: Sequence[str], text: str) -> bool:
    """Whether word ``i`` (a listed given name in lower case) is a speaker's own name given
    with the family name after it: after ``i'm`` or ``i am``, one space apart, before a
    family name of the census' list or a word rarer than :data:`_INTRO_FAMILY_ZIPF`, no kept
    function word (``hi i'm summer white and this is``, ``i'm poppy miller``: captions of a
    livestream; issue 40, the thirty-eighth stage, from the earlier sets' captions); not
    ``i'm frank about it``, ``i'm will be late``."""
    if i < 2 or i + 1 >= len(words) or list(forms[i - 2:i]) not in _I_AM:
        return False
    family = forms[i + 1]
    if not (text[words[i - 1].end:words[i].start] == " "
            and text[words[i].end:words[i + 1].start] == " " and family.isalpha()
            and family not in KEPT_FUNCTION_WORDS
            and (name_key(family) in family_names() or word_zipf(family) < _INTRO_FAMILY_ZIPF)):
        return False
    if word_zipf(family) < _INTRO_COMMON_ZIPF:
        return True
    after = _INTRO_AFTER.match(text, words[i + 1].end)  # a common word: the name's end shown
    return after is not None and (after.group(1) is None or after.group(1).lower() in _INTRO_NEXT)


#: The fewest letters of a short form of a name (``sid`` of ``siddharth``), and the fewest
#: more that the full name has.
SHORT_FORM_LETTERS = 3
SHORT_FORM_MORE = 2


def short_forms(name: list[bool], forms: Sequence[str], cases: Sequence[str],
                decided: Iterable[str], given: Container[str]) -> None:
    """Mark (in place) a listed given name that is uncommon as a word (Zipf below
    :data:`UNCOMMON_ZIPF`) and begins a name of the text at least :data:`SHORT_FORM_MORE`
    letters longer as a name: the short form of it (``yes sid can have them`` beside
    ``siddharth``; issue 40, the seventeenth English set).  Not a common word (``will`` of
    ``william``, ``pat`` of ``patrick``), not an ALL-CAPS word (``ANN`` of ``ANNUAL``).

    >>> name = [True, False, False, False]
    >>> short_forms(name, ["siddharth", "yes", "sid", "will"], ["lower"] * 4, {"siddharth"},
    ...             {"sid", "will"})
    >>> name
    [True, False, True, False]
    """
    full = sorted(f for f in decided if f.isalpha() and len(f) >= SHORT_FORM_LETTERS
                  + SHORT_FORM_MORE)
    if not full:
        return
    for i, form in enumerate(forms):
        if (not name[i] and len(form) >= SHORT_FORM_LETTERS and form.isalpha()
                and cases[i] != "upper" and name_key(form) in given
                and word_zipf(form) < UNCOMMON_ZIPF
                and any(f.startswith(form) and len(f) >= len(form) + SHORT_FORM_MORE
                        for f in full)):
            name[i] = True
