"""A given name and a family name side by side (``bill okoye``, ``OSKAR BRENNAN``, ``dev
malhotra``, ``faith mbeki``): each vouches for the other, for
:class:`~emprivacy.entities.names.NameListDetector` (issue 40).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from fractions import Fraction

from emprivacy.entities.labels import NAME_TITLES, SPEAKER_ROLES, chat_speakers
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

__all__ = ["by_logins", "name_pair", "self_introductions"]

#: The commonest a word may be (Zipf) and be read as the given name before a rare family
#: name in lower case (``keen`` 4.1 of ``joe a keen ferreira`` is; ``book`` 5.4, ``ask``,
#: ``call``, ``tell`` are verbs).
_GIVEN_BEFORE_ZIPF = 5.0


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


#: A chat's line: its label (a stamp before it or not) and what it says.
_LABELLED_LINE = re.compile(
    r"(?m)^[ \t]*(?:\[[^\]\n]*\][ \t]*)?([^\W\d_][\w'’-]*)[ \t]*:[ \t]*(.*)$")
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
    ``bill: bill paid, thanks``.

    >>> text = ("gentiane: gentiane blanc, fleurs\\nnuno: ok. nuno d'oliveira, parking\\n"
    ...         "myrtille: myrtille da silva, buvette\\nbill: bill paid.\\nrose: ok\\nanne: oui")
    >>> [text[s.start:s.end] for s in self_introductions(text, "fr")]
    ['gentiane blanc', "nuno d'oliveira", 'myrtille da silva']
    """
    if ":" not in text:
        return []
    given, french = given_names(), french_given_names() if lang == "fr" else frozenset()
    if not chat_speakers(text, lambda w: name_key(w) in given or fold_to_ascii(w) in french,
                         given_share=Fraction(1, 3)):
        return []  # a chat of people: a third of its speakers listed given names
    family = french_family_names() if lang == "fr" else family_names()
    kept = get_language(lang).kept_function_words
    out = []
    for line in _LABELLED_LINE.finditer(text):
        label, body = line.group(1).lower(), line.group(2)
        if label not in body.lower():
            continue  # most lines: the speaker does not name themself
        for m in _INTRODUCED.finditer(body):
            word = m.group(3).lower()
            if m.group(1).lower() != label:
                continue
            if word in kept or len(word) < 2 or word_zipf(word) >= _INTRO_ZIPF:
                continue
            key = name_key(word)
            if not (key in family or (  # after a particle, any language's list ("silva")
                    m.group(2) and (key in family_names() or zipf_in(word, lang) < _PARTICLE_ZIPF))
                    or (word_zipf(word) < _INTRO_RARE_ZIPF
                        and (lang == "en" or zipf_in(word, lang) < _INTRO_RARE_ZIPF))):
                continue
            out.append(EntitySpan(line.start(2) + m.start(1), line.start(2) + m.end(3),
                                  "PERSON"))
    return out


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
