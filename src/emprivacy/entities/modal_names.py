"""``will`` and ``may``: modal verbs that text mode keeps, and given names (issue 40, the
twenty-seventh and twenty-eighth English sets) — where no modal verb can stand, for
:class:`~emprivacy.entities.names.NameListDetector`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from emprivacy.entities.labels import chat_labels
from emprivacy.entities.name_words import family_names, given_names, name_key, word_zipf
from emprivacy.entities.naming import KIN_WORDS
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["MODAL_NAMES", "modal_name_at", "modal_named"]

#: The kept function words that can be given names (a modal verb elsewhere).
MODAL_NAMES = frozenset({"will", "may"})


def modal_named(text: str, end: int) -> bool:
    """Whether a greeting's ``will`` or ``may`` ending at ``end`` is the name (``thanks,
    will!``, ``thanks may very reassuring``, ``morning will church``) rather than the verb:
    not before a subject or a verb's helper (``sorry, will you``, ``thanks, will do``)."""
    after = re.match(r"[ \t]*([^\W\d_]+(?:['’][^\W\d_]+)?)", text[end:end + 40])
    return after is None or after.group(1).lower() not in _AFTER_MODAL_VERB


def modal_name_at(i: int, forms: Sequence[str], text: str, end: int, gap: str) -> bool:
    """Whether ``will`` or ``may`` at word ``i`` (ending at ``end``, ``gap`` before it) is where
    no modal verb is: at a clause's start before a listed family name and the clause's end
    where the word labels a chat's line (``will thatcher.`` signing a line of ``will:``;
    issue 40, the thirty-first English set; not ``will do.``); before a possessive ``'s``
    where the word labels one (``may's aunties`` where ``may:`` speaks; not ``may's rent``)
    or after ``it's`` (``it's may the
    bride``: issue 40, the twenty-ninth English set); after a kinship word before ``and`` and
    children (``his wife may and two boys``: the thirtieth) or after a pronoun's ``is`` or ``was``
    before a listed given name (``she was may elizabeth``); after no subject, before ``and
    i`` or after ``me and`` (``may and i are running the bar``); ``will`` also after ``and``
    before a dash (``and will – buttons``), between signs (``buttons – will |``, a rota's
    ``4pm–8pm: will (unlock)``) or after a comma before a cell's end, a quote or a
    bracket (``wolf (beams), will (plate)``, ``| GOOD, Will |``, ``"STILL NO FLYING CARS,
    WILL"``; not ``YES, WILL``),
    after ``is`` or ``was`` before ``a`` or the clause's end (``is will a
    fairweather-jones?``, ``where is will?``; not ``is will he``, ``was will the council``), at
    a clause's start before ``please`` (``ok. will please pin it``) or after a comma at a
    clause's end where the word labels a chat's line (``along every line, will.``: issue 40,
    stage 33; not ``yes, will.``, nor after a function word: ``those who can, will.``).
    Not ``it may – or may not –``, ``Prices may – and often do –``, ``| May |``."""
    if (forms[i + 1:i + 2] and (i == 0 or re.search(r"[.!?\n]", gap))
            and name_key(forms[i + 1]) in family_names() and word_zipf(forms[i + 1]) < 3.6
            and re.match(r"[ \t]+[^\W\d_]+[ \t]*(?:[.!?\r\n]|\Z)", text[end:end + 40])
            and forms[i] in chat_labels(text)):
        return True  # "will: ... the other end. will thatcher." where will speaks: a name
        # signed, no verb (not "will do.", "will weed, then.": a family name rarer than 3.6)
    if (re.match(r"['’]s(?![^\W\d_])", text[end:end + 3]) and forms[i] in chat_labels(text)) or (
            forms[i - 1:i] in (["it's"], ["it’s"], ["its"])
            or (i >= 2 and forms[i - 2] == "it" and forms[i - 1] in ("'s", "’s"))):
        return True  # "may's aunties" where may speaks (not "may's rent", the month's), "it's
        # may the bride": no verb is possessive or named
    if i and forms[i - 1] in KIN_WORDS and _AND_CHILDREN.match(text, end):
        return True  # "WITH HIS WIFE MAY AND TWO BOYS" (not "my mum may and probably will")
    if i >= 2 and forms[i - 1] in ("is", "was") and forms[i - 2] in _PRONOUNS and forms[
            i + 1:i + 2] and name_key(forms[i + 1]) in given_names():
        return True  # "SHE WAS MAY ELIZABETH CHUBB" (not "the question is will Rose Court")
    if i and (forms[i - 1] in _SUBJECTS or forms[i - 1] in _DETERMINERS):
        return False
    if forms[i + 1:i + 2] and forms[i + 1] in _FINITE_AFTER and re.match(r"[ \t]+[^\W\d_]",
                                                                          text[end:]):
        return True  # "early will has a good start": no modal verb takes a finite verb (the
        # word right after it: not "May 3 were busy")
    if (i >= 2 and forms[i - 2:i] == ["me", "and"]) or forms[i + 1:i + 3] in (
            ["and", "me"], ["and", "i"]):
        return True
    if forms[i] != "will":
        return False
    if (i and re.match(r"[)\]]?,[ \t]*\Z", gap) and forms[i - 1] not in _ANSWERS
            and forms[i - 1] not in KEPT_FUNCTION_WORDS
            and re.match(r"[ \t]*(?:[.!?]+(?:\s|\Z)|\n|\Z)", text[end:end + 4])
            and forms[i] in chat_labels(text)):
        return True  # "run the wheel along every line, will." where will speaks: the one
        # addressed at the clause's end (not "yes, will.", "those who can, will.")
    if (i and forms[i - 1] in ("is", "was") and (forms[i + 1:i + 2] in (["a"], ["an"])
                                                  or re.match(r"[ \t]*(?:[?!.,]|\n|\Z)",
                                                              text[end:end + 3]))) or (
            forms[i + 1:i + 2] == ["please"] and (i == 0 or re.search(r"[.!?\n]", gap))):
        return True
    after = text[end:end + 8]
    return bool((i and forms[i - 1] == "and" and re.match(r"[ \t]*[–—]", after))
                or (re.search(r"[–—|:][ \t]*\Z", gap)
                    and re.match(r"[ \t]*(?:[–—|(]|\n|\Z)", after))
                or (re.match(r"[)\]]?,", gap) and re.match(r"[ \t]*[|\"”)]", after))
                or (i and re.match(r"[)\]]?,", gap) and forms[i - 1] not in _ANSWERS
                    and _ROTA_BRACKET.match(text, end) is not None))


#: Finite verbs after which ``will`` or ``may`` before them is a name (``will has a good
#: start``, ``may says``, a caption's ``may are you with us``).
_FINITE_AFTER = frozenset("has is was are were does did had says said".split())
#: After a kinship word's ``may`` or ``will``: ``and`` before children, a number or a
#: possessive first (``HIS WIFE MAY AND TWO BOYS``; not ``the manager may and two staff``).
_AND_CHILDREN = re.compile(
    r"[ \t]*(?:&|and)[ \t]+(?:(?:\d+|two|three|four|five|six|seven|eight|nine|ten|a|an|her|his|"
    r"their)[ \t]+)?(?:sons?|daughters?|child(?:ren)?|boys?|girls?|bab(?:y|ies)|kids?|family|"
    r"twins)\b", re.IGNORECASE)
#: Subjects before ``is`` or ``was`` before a named ``may`` or ``will``.
_PRONOUNS = frozenset("she he it this that who which".split())
#: A rota's item: a bracket, then a comma, a sign or the line's end (``will (plate),``).
_ROTA_BRACKET = re.compile(r"[ \t]*\([^()\n]{1,40}\)[ \t]*(?:[,;|+&–—-]|$)", re.MULTILINE)
#: Answers before a comma: ``YES, WILL (IF I CAN)`` is the verb.
_ANSWERS = frozenset("yes yeah yep no nope ok okay sure fine and or but so".split())
#: Determiners: ``the will is`` is the testament.
_DETERMINERS = frozenset("the a an his her my your our their this that".split())
#: Subjects of a modal verb: ``it may – or may not –``.
_SUBJECTS = frozenset("i you u ya we they he she it this that there who which what".split())
#: Words after which a greeting's ``will`` or ``may`` is the verb: a subject, or a helper of
#: the verb (``sorry, will you``, ``thanks, will do``, ``ok may not``).
_AFTER_MODAL_VERB = _SUBJECTS | frozenset(
    "do be have not never also just definitely probably def prob".split())
