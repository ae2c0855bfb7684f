"""French names that the words before them show, in any French text (a voicemail
transcribed in lower case, a letter, a bulletin): after a title written out, a greeting and
``c'est``, a possessive and a family word or a relation, a particle after a name found —
:func:`cued_names`, one of the rules of
:class:`~emprivacy.entities.french.FrenchNameDetector` (issue 42).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from emprivacy.entities.french_chat import folded
from emprivacy.exceptions import MissingExtraError
from emprivacy.text.language import FRENCH
from emprivacy.text.tokens import Token

__all__ = ["BRETON_AFTER_LE", "FAMILY_WORDS", "NOT_FAMILY", "TITLE_KINDS", "cued_names",
           "given_parts"]

#: Breton family names are written with their article apart (Le Bras, Le Du, Le Goff): the
#: words after ``le`` that make one, whatever the word (``constant le bras``, ``ange le
#: du``; issue 42, stage 44), from general knowledge of the frequent ones; and those of
#: Brittany and Normandy whose word is a French adjective (Le Fort, Le Doux, Le Grand, Le
#: Brun: stage 49, the fiftieth French set's tuning half, ``constant le fort``).
BRETON_AFTER_LE = frozenset(
    "bras du meur guen corre bris floch floc'h moal cam borgne berre gac lay men dantec "
    "bihan goff bars fur naour coz hir gall roux "
    "fort doux grand brun bon gros noir blanc".split())
#: Titles written out, after which the next word is a name in any case (``monsieur
#: constant``, ``le dr benhamou``); not ``m`` nor ``me`` (a size, a pronoun) in lower case.
_TITLES_WRITTEN = FRENCH.titles - {"m", "me", "mm", "mmes", "mlles"}
#: Kinds after a title, no names (``monsieur le maire``, ``madame la directrice``).
TITLE_KINDS = frozenset("maire adjoint adjointe directeur directrice président présidente "
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
#: Every French family word: those after a possessive, and those before a given name
#: (``tonton pierre``, ``maman``).
FAMILY_WORDS = _FAMILY | frozenset(
    "grand-mère grand-père mamie mamy papi papy mémé mamé pépé tata tatie tati tonton maman "
    "papa".split())
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
NOT_FAMILY = _FAMILY | _RELATIONS | _ROLES_AFTER | TITLE_KINDS
#: What before ``m.`` makes it no title: a number (``200 m.``, metres) or a letter and its
#: full stop (``p.m.``, ``n. m.`` of a dictionary).
_NOT_TITLE_M = re.compile(r"(?:\d|(?<![^\W\d_])[^\W\d_]\.)[ \t\u00a0\u202f]*\Z")


def _accented_given() -> frozenset[str]:
    """The French given names as written with their accents (``aimé``, ``honoré``: without
    them a verb, so no listed given name): after a family word, the name."""
    try:
        from emprivacy.entities.name_words import french_given_raw

        return french_given_raw()
    except MissingExtraError:
        return frozenset()


def cued_names(text: str, words: Sequence[Token], forms: Sequence[str], found: set[str], *,
               given: frozenset[str], listed: dict[str, float], stopwords: frozenset[str],
               zipf: Callable[[str], float],
               kin_given: frozenset[str] | None = None) -> tuple[set[str], set[int]]:
    """Names the words before them show, in any French text (a voicemail transcribed in lower
    case: issue 42, the sixth French held-out set):

    * after a title written out (``monsieur constant``, ``madame germaine le floch``, ``le
      dr benhamou``, ``m.`` with its full stop: ``m. du plessis``), the next word that is
      no stopword nor a kind (``monsieur le maire``),
      a particle ``le``/``de`` … before a listed or rare word with it, and up to two more
      words rarer than Zipf 3.0 or listed family names (given names too if rarer than 3.5:
      ``madame prudence ngoma``; ``le docteur tessier signe`` takes ``tessier``);
    * after a greeting and ``c'est`` (``oui c'est jean-yves``, ``bonjour c'est victoire
      akakpo``), a listed name (or a given name written with its accents: ``c'est honoré``)
      or a word rarer than 3.5, or any word before a listed family
      name or a word rarer than 3.0 (then both);
    * after a possessive and a family word or a neighbour, a friend, a colleague
      (``sa fille rose``, ``mon mari bernard``, ``mon voisin jean-baptiste``: a compound's
      first part listed, or a word rarer than Zipf 4.0: ``son collègue fabrice``), or a
      family word written as a title, no article before it (``pour arrière-grand-mère
      blanche``, ``tante rose``), a listed given name (or one written with its accents,
      ``papi aimé``) — after a family word one of
      ``kin_given`` too (by default ``given``: the detector gives the given names the census
      also lists as family names, ``mon beau-frère didier``, ``son fils thomas``; not after a
      relation, ``mon ami romain``, nor ``cousin germain``);
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
    kin = given if kin_given is None else kin_given
    accented = _accented_given()

    def name_like(j: int, limit: float = 3.5) -> bool:
        key = folded(forms[j])
        parts = key.split("-")  # jean-yves: a given name, then listed or uncommon parts
        return (forms[j] not in stopwords and (
            key in listed or key in given or zipf(forms[j]) < limit
            or (forms[j] != key and forms[j] in accented)  # "c'est honoré"
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
                    and forms[last + 1] not in TITLE_KINDS:
                particles.update(range(j, last + 1))  # "madame le corre", "monsieur de la
                names.add(forms[last + 1])  # rochette"
                continue
            if forms[j] in stopwords or forms[j] in TITLE_KINDS or forms[j] in _TITLES_WRITTEN:
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
              and (folded(forms[i].split("-")[0]) in (kin if prev in _FAMILY else given)
                   or zipf(forms[i]) < _KIN_UNLISTED)
              and (prev not in ("cousin", "cousine") or not forms[i].startswith("germain"))):
            names.add(forms[i])  # "mon voisin jean-baptiste", "son collègue fabrice"
        elif (prev in _KIN_TITLES and (i < 2 or forms[i - 2] not in _ARTICLES_FR)
              and spaced(i) and forms[i] not in stopwords and (
                  folded(forms[i]) in kin or (forms[i] != folded(forms[i])
                                              and forms[i] in accented))):
            names.add(forms[i])  # "pour arrière-grand-mère blanche", "tante rose", "papi aimé"
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
                and forms[last + 1] not in stopwords and forms[last + 1] not in NOT_FAMILY
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


def given_parts(form: str, given: frozenset[str]) -> bool:
    """Whether ``form`` is hyphenated and each of its parts, accents aside, a listed given
    name (``jean-noël``, ``marie-claire``; not ``peut-être``, ``grand-mère``)."""
    parts = form.split("-")
    return len(parts) > 1 and all(folded(p) in given for p in parts)
