"""French dates, phone numbers, NIR and IBAN by pattern (``--lang fr``, issue 42): the
``patterns`` of :mod:`emprivacy.entities.french`, each span whole.

* dates with a French month (``14 mars 2024``, ``1er juillet``, ``mars 2022``), the day a
  number or a number word (``le quatorze mars``, ``le premier avril``, ``le vingt-trois
  décembre``: speech-to-text writes them so), a weekday before them in the span (``samedi 6
  juillet``); a month alone after ``en``, ``depuis``, ``dès``, ``avant``, ``après``,
  ``pendant``, ``jusqu’en``, ``début``, ``fin``, ``courant``,
  ``entre``, ``mi-``, ``mois de`` (``en juin``, ``au mois d’août``: the month word alone the
  span); two months joined by ``et``, ``à``, ``au`` or ``ou`` (``de mai à juillet``); a month
  elsewhere, ``Avril a dit``, is left to the person detectors;
* French phone numbers (``06 12 34 56 78``, ``+33 4 75 75 75 75``, ``01.45.67.89.12``), the
  NIR (the INSEE social-security number, ``1 84 12 75 108 042 36``: type ``SSN``) and French
  IBANs (``FR76 3000 …``: type ``IBAN``), each one placeholder;
* an e-mail address read aloud (``jardins bellevue arobase gmail point com``: type
  ``EMAIL``), up to two words before ``arobase`` that are no function word of the
  sentence around it (``c'est``, ``mon mail``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from emprivacy.entities.spans import EntitySpan, check_texts

__all__ = ["FrenchPatternDetector"]

_MONTH = (r"(?:janv(?:ier|\.)?|f[ée]vr(?:ier|\.)?|mars|avr(?:il|\.)?|mai|juin|juil(?:let|\.)?"
          r"|ao[ûu]t|sept(?:embre|\.)?|oct(?:obre|\.)?|nov(?:embre|\.)?|d[ée]c(?:embre|\.)?)")
#: A day as a number word (``quatorze``, ``premier``, ``vingt-trois``, ``trente et un``).
_DAY_WORD = (r"(?:premier|deux|trois|quatre|cinq|six|sept|huit|neuf|dix|onze|douze|treize"
             r"|quatorze|quinze|seize|dix-sept|dix-huit|dix-neuf|(?:vingt|trente)"
             r"(?:[- ]et[- ]un|-(?:deux|trois|quatre|cinq|six|sept|huit|neuf))?)")
_DAY = rf"(?:1er|[0-3]?\d|{_DAY_WORD})"
_YEAR = r"(?:19|20)\d\d"
#: A weekday before a day and a month joins the date (``samedi 6 juillet``, ``lun. 8
#: juillet``): the day of the week narrows it as the month does; an abbreviation only with
#: its full stop (``Sam 6 juillet`` may be Sam).
_WEEKDAY = (r"(?:(?:lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|(?:lun|mar|mer|jeu|ven"
            r"|sam|dim)\.),?[ \t\u00a0]+)")
_DATE = re.compile(
    rf"(?<!\w)(?:{_WEEKDAY}?{_DAY}(?:[ \t\u00a0]+au[ \t\u00a0]+{_DAY})?[ \t\u00a0]+{_MONTH}"
    rf"(?:[ \t\u00a0]+{_YEAR})?|{_MONTH}[ \t\u00a0]+{_YEAR})(?![\w-])", re.IGNORECASE)
_MONTH_NAME = (r"(?:janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre"
               r"|octobre|novembre|décembre|decembre)")
#: A month alone after a preposition of time (``en juin``, ``fin mars``, ``mois d’août``):
#: a date (group 1 is the month).
_LONE_MONTH = re.compile(
    r"(?<![\w'’-])(?:(?:en|depuis|dès|avant|après|pendant|jusqu['’]en|début|fin|courant"
    r"|entre)[ \t\u00a0]+|mi-|mois[ \t\u00a0]+(?:de[ \t\u00a0]+|d['’]))"
    rf"({_MONTH_NAME})(?![\w-])", re.IGNORECASE)
#: Two months joined by ``et``, ``à``, ``au`` or ``ou`` (``de mai à juillet 2025``, ``mai ou
#: juin``): dates (groups 1 and 2, the month words).
_MONTH_RANGE = re.compile(
    rf"(?<![\w'’-])({_MONTH_NAME})[ \t\u00a0]+(?:et|à|au|ou)[ \t\u00a0]+(?:{_DAY}"
    rf"[ \t\u00a0]+)?({_MONTH_NAME})(?![\w-])", re.IGNORECASE)
_SEP = r"[ \t\u00a0.\-]?"
_PHONE = re.compile(rf"(?<![\w+])(?:(?:\+|00)33{_SEP}\(?0?\)?{_SEP}[1-9]|0[1-9])"
                    rf"(?:{_SEP}\d\d){{4}}(?!\d)")
_GAP = r"[ \t\u00a0]?"
_NIR = re.compile(rf"(?<!\d)[123478]{_GAP}\d\d{_GAP}(?:0[1-9]|1[0-2]|[2-9]\d){_GAP}"
                  rf"(?:\d\d|2[AB]){_GAP}\d{{3}}{_GAP}\d{{3}}(?:{_GAP}\d\d)?(?!\d)")
_IBAN = re.compile(rf"(?<!\w)FR\d\d(?:{_GAP}[0-9A-Z]{{4}}){{5}}{_GAP}[0-9A-Z]{{3}}(?!\w)",
                   re.IGNORECASE)


_SPOKEN_EMAIL = re.compile(
    r"(?<![\w.'’-])((?:[\w.'’-]+[ \t]+){0,2})arobase[ \t]+(?:[\w-]+[ \t]+){0,2}?[\w-]+"
    r"(?:[ \t]+point[ \t]+(?:com|fr|net|org|eu|info|gouv|be|ch|ca)){1,3}(?![\w'’-])",
    re.IGNORECASE)
#: Words before ``arobase`` that say an address follows, not what it is.
_BEFORE_ADDRESS = frozenset(
    "c'est c’est est à a au le la mon ma son sa notre votre mail email e-mail courriel "
    "adresse sur par ou et alors donc écrire écrivez".split())


def _spoken_email(m: re.Match[str]) -> tuple[int, int]:
    """The span of an address read aloud, less the words before it that only say one
    follows (``c'est``, ``mon mail``)."""
    start = m.start()
    for word in m.group(1).split():
        if word.lower() not in _BEFORE_ADDRESS:
            break
        start = m.string.index(word, start) + len(word)
        while m.string[start] in " \t":
            start += 1
    return start, m.end()


class FrenchPatternDetector:
    """French dates (``DATE``), phone numbers (``PHONE``), NIR (``SSN``), IBAN (``IBAN``)
    and e-mail addresses read aloud (``EMAIL``) by pattern, each span whole.

    >>> text = "Né le 3 juillet 1951, NIR 1 51 07 26 362 148 55, tél. 06 12 34 56 78."
    >>> [(text[s.start:s.end], s.type) for s in FrenchPatternDetector().detect([text])[0]]
    [('3 juillet 1951', 'DATE'), ('1 51 07 26 362 148 55', 'SSN'), ('06 12 34 56 78', 'PHONE')]
    >>> text = "En juin, Avril viendra ; le 3 du mois de mars, et jusqu’en août."
    >>> [text[s.start:s.end] for s in FrenchPatternDetector().detect([text])[0]]
    ['juin', 'mars', 'août']
    >>> text = ("alors c'est jardins bellevue arobase gmail point com "
    ...         "ou mon mail arobase orange point fr")
    >>> [text[s.start:s.end] for s in FrenchPatternDetector().detect([text])[0]]
    ['jardins bellevue arobase gmail point com', 'arobase orange point fr']
    """

    name = "patterns"
    types = frozenset({"DATE", "PHONE", "SSN", "IBAN", "EMAIL"})

    def __repr__(self) -> str:
        return "FrenchPatternDetector()"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return [self._spans(text) for text in check_texts(texts)]

    @staticmethod
    def _spans(text: str) -> list[EntitySpan]:
        spans = [EntitySpan(*_spoken_email(m), "EMAIL") for m in _SPOKEN_EMAIL.finditer(text)]
        for pattern, kind in ((_IBAN, "IBAN"), (_NIR, "SSN"), (_PHONE, "PHONE"),
                              (_DATE, "DATE"), (_LONE_MONTH, "DATE"), (_MONTH_RANGE, "DATE")):
            for m in pattern.finditer(text):
                found = ([m.span(1)] if pattern is _LONE_MONTH
                         else [m.span(1), m.span(2)] if pattern is _MONTH_RANGE else [m.span()])
                for start, end in found:
                    if not any(s.overlaps(start, end) for s in spans):
                        spans.append(EntitySpan(start, end, kind))
        return sorted(spans)
