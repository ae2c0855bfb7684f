"""Person names in the body of a French chat, where no capital and no greeting shows them
(issue 42): ``oui suzanne !!``, ``gauthier dit ok``, ``léo et noé``, ``les bonnet``.

:class:`~emprivacy.entities.french.FrenchNameDetector` finds a chat's speakers, the given
names rare in French, a given name after a family word or a greeting.  A chat's body names
people with words that are common enough in French to be left alone on their own: a given
name of the public list (US census, the ``names`` package; accents aside) or a family name
of it, which French ``wordfreq`` puts above the rare-word limit (``suzanne`` 3.77, ``léo``
3.87, ``gauthier`` 3.75).  :func:`chat_names` takes such a word where the chat's grammar
says it is someone:

* **after a reply or a greeting** (:data:`REPLIES`: ``oui suzanne``, ``merci léo``), a given
  name below :data:`CALLED_ZIPF`;
* **as a subject** — at a clause's start (a message's first word, after a punctuation mark
  or a conjunction, :data:`CLAUSE_OPENERS`) and before an object pronoun, an auxiliary or
  a verb of speech or coming (:data:`SUBJECT_NEXT`: ``gauthier dit ok``, ``si gauthier me
  prête``) — a given name below :data:`CALLED_ZIPF`, a family name below
  :data:`FAMILY_ZIPF`, or an unlisted word below :data:`RARE_SUBJECT` (``nassim nous
  garde``);
* **alone in a question or a call** (``et zoé ?``), a given name below
  :data:`CALLED_ZIPF` at a clause's start before ``?`` or ``!``;
* **a given name and a family name** one space apart (``suzanne morel``), each below its
  limit;
* **a family after the plural article** (``les bonnet``): a family name below
  :data:`FAMILY_ZIPF` that is singular in form (no ``-s``, ``-x``, ``-z``) and not shaped
  like a verb (``les descendre``, ``les prête``: ``les`` is then a pronoun);
* **a family after the plural article and its particle** (``des d'almeida``, ``les
  n'guessan``): a family name below :data:`FAMILY_ZIPF`, or an unlisted word below
  :data:`RARE_SUBJECT`, joined to ``d'`` or ``n'`` after ``les`` or ``des``;
* **coordinated by ``et``** with a name already found (``kévin et thuy``), a given name
  below :data:`CALLED_ZIPF`, or two given names both below :data:`CALLED_ZIPF`, one of them
  below :data:`PAIR_ZIPF` (``léo et noé``, ``lina et adam``; not ``rose et blanche``,
  colours too common as words).

Beside a chat's body: :func:`stamped_speakers`, a speaker of several words after a time stamp
(``[07:27] sylvain da costa :``), and :func:`spoken_names`, in any French text, a caller's
name before ``à l'appareil`` and a word coordinated by ``et``/``ou`` with a name found.

A text is a chat when at least :data:`CHAT_LINES` of its lines start with a speaker
(``[18:43] claire :``); only its lower-case words are looked at, never a stopword, a month
or a family word (``mamie``, ``tonton``: the caller's ``stopwords``).  Like
every detector this is pre-processing, outside the guarantee (docs/LANGUAGES.md measures
it).
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Callable, Sequence

from emprivacy.entities.labels import STAMP_OPEN
from emprivacy.entities.spans import list_items
from emprivacy.text.normalise import fold_to_ascii, normalise_word
from emprivacy.text.tokens import Token

__all__ = ["CALLED_ZIPF", "CHAT_KEYS", "CHAT_LINES", "CHAT_SPEAKERS", "CLAUSE_OPENERS",
           "COORDINATED_ZIPF", "FAMILY_ZIPF", "LABEL_PARTICLES", "PAIR_ZIPF", "RARE_SUBJECT",
           "REPLIES", "SUBJECT_NEXT", "chat_names", "folded", "in_lower_case", "spoken_names",
           "stamped_speakers", "unstamped_speakers"]

#: A text with at least this many speaker lines is a chat.
CHAT_LINES = 2
#: A listed given name below this Zipf frequency (French) is a name where a chat's grammar
#: says so (``oui suzanne``); ``claire`` (4.62), ``rose`` (4.72), ``pierre`` (5.28) are
#: above it, too common as words.
CALLED_ZIPF = 4.5
#: Two given names joined by ``et`` are names when one is below this and the other below
#: :data:`CALLED_ZIPF` (``léo et noé``, ``lina et adam``).
PAIR_ZIPF = 4.0
#: A listed family name (no given name) below this is a name where the grammar says so.
FAMILY_ZIPF = 4.5
#: Replies and greetings before a name (``oui suzanne``, ``merci léo``).
REPLIES = frozenset("oui ouais non ok okay top bravo bisous merci salut coucou bonjour "
                    "bonsoir".split())
#: Words after which a clause starts (``si gauthier me prête``).
CLAUSE_OPENERS = frozenset("et mais si que qu' quand car donc ou puis alors comme".split())
#: What follows a person's name as a subject: an object pronoun or the negation, ``c'``
#: (``arthur c'est le copain de louise``), an auxiliary, or a verb of speech or of coming
#: (``gauthier dit ok``, ``léa m'a dit``, ``noé arrive``).  A French common noun at a
#: clause's start takes an article; a bare word there before one of these is a name.
SUBJECT_NEXT = frozenset(
    "me m' te t' nous vous lui leur se s' ne n' y en c' a est va fait était avait dit "
    "répond demande propose pense trouve veut sait arrive vient passe confirme écrit "
    "raconte explique appelle rappelle préfère".split())
#: A word outside the lists rarer than this, of at least four letters, is a name as a
#: subject (``nassim nous garde la salle``).
RARE_SUBJECT = 3.0
_CALL = re.compile(r"[ \t\u00a0\u202f]*[?!]")
_PUNCTUATION = re.compile(r"[.!?,;:…\n]")
#: Endings of a word that is plural in form, or shaped like a verb, after ``les``.
#: Elided particles of family names, normalised (``d'almeida``, ``n'guessan``).
_ELIDED = frozenset({"d'", "n'"})
_NOT_A_FAMILY = re.compile(r"(?:[sxz]|er|ir|re|ez|ons|ent|ait|é|ée)$")


def folded(word: str) -> str:
    """``word`` without its accents (``noé`` → ``noe``, ``paweł`` → ``pawel``): the census
    lists have none (:func:`~emprivacy.text.normalise.fold_to_ascii`).

    >>> folded("noé"), folded("kévin"), folded("małgorzata")
    ('noe', 'kevin', 'malgorzata')
    """
    return fold_to_ascii(word)


def chat_names(text: str, words: Sequence[Token], forms: Sequence[str], found: set[str], *,
               given: frozenset[str], listed: frozenset[str] | dict[str, float],
               stopwords: frozenset[str], zipf: Callable[[str], float]) -> set[str]:
    """The word forms of a chat's body that are names (see the module's description),
    beside those ``found`` already (the speakers and the other rules' names).

    ``words`` are the text's word tokens, ``forms`` their normalised forms; ``given`` the
    listed given names and ``listed`` every listed name (given or family), both without
    accents; ``zipf(form)`` a form's French Zipf frequency.

    >>> text = "[18:01] ana : oui suzanne !!\\n[18:02] léa : gauthier dit ok, léo et noé aussi"
    >>> from emprivacy.text.tokens import tokenize
    >>> words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    >>> z = {"suzanne": 3.8, "gauthier": 3.8, "léo": 3.9, "noé": 3.4}
    >>> sorted(chat_names(text, words, [w.text for w in words], {"ana", "léa"},
    ...        given=frozenset({"suzanne", "leo", "noe"}),
    ...        listed=frozenset({"suzanne", "leo", "noe", "gauthier"}),
    ...        stopwords=frozenset({"oui", "et", "aussi"}), zipf=lambda w: z.get(w, 6.0)))
    ['gauthier', 'léo', 'noé', 'suzanne']
    """
    names = set(found)
    n = len(words)

    def gap(i: int) -> str:
        return text[words[i - 1].end:words[i].start] if i else text[:words[0].start]

    def candidate(i: int) -> bool:
        return words[i].text.islower() and forms[i] not in stopwords and forms[i] not in names

    def given_name(i: int, limit: float = CALLED_ZIPF) -> bool:
        return folded(forms[i]) in given and zipf(forms[i]) < limit

    def family_name(i: int) -> bool:
        key = folded(forms[i])
        return key in listed and key not in given and zipf(forms[i]) < FAMILY_ZIPF

    def spaced(i: int) -> bool:
        return re.fullmatch(r"[ \t]+", gap(i)) is not None

    for i in range(n):
        if not candidate(i):
            continue
        prev = forms[i - 1] if i else ""
        clause = (i == 0 or _PUNCTUATION.search(gap(i)) is not None
                  or (prev in CLAUSE_OPENERS and spaced(i)))
        subject = clause and i + 1 < n and forms[i + 1] in SUBJECT_NEXT and spaced(i + 1)
        unlisted = (folded(forms[i]) not in listed and len(forms[i]) >= 4
                    and forms[i].isalpha() and zipf(forms[i]) < RARE_SUBJECT)
        called = clause and _CALL.match(text, words[i].end) is not None
        paired = (given_name(i) and i + 1 < n and spaced(i + 1) and family_name(i + 1)
                  and words[i + 1].text.islower())
        if ((prev in REPLIES and re.fullmatch(r"[ \t]+|,[ \t]*", gap(i)) and given_name(i))
                or (subject and (given_name(i) or family_name(i) or unlisted))
                or (called and given_name(i)) or paired
                or (prev == "les" and spaced(i) and family_name(i)
                    and _NOT_A_FAMILY.search(forms[i]) is None)
                or (prev in _ELIDED and i >= 2 and forms[i - 2] in ("les", "des")
                    and not gap(i) and spaced(i - 1) and (family_name(i) or unlisted))):
            # "les d'almeida", "des n'guessan": a family's particle joined to its name
            names.add(forms[i])
        if paired:
            names.add(forms[i + 1])  # "suzanne morel": the family name too
    changed = True
    while changed:  # "kévin et thuy", "léo et noé": names coordinated by "et"
        changed = False
        for i in range(2, n):
            if forms[i - 1] != "et" or not (spaced(i - 1) and spaced(i)):
                continue
            a, b = i - 2, i
            for x, y in ((a, b), (b, a)):
                if (candidate(y) and given_name(y) and (
                        forms[x] in names or (words[x].text.islower() and given_name(x) and (
                            given_name(x, PAIR_ZIPF) or given_name(y, PAIR_ZIPF))))):
                    names.add(forms[y])
                    changed = True
    return names - set(found)


#: A chat's speaker of several words after its time stamp (``[07:27] sylvain da costa :``,
#: ``[07:31] hélène de saint-aubin :``).
_STAMPED_LABEL = re.compile(rf"^[ \t]*(?:{STAMP_OPEN}|\[)?\d{{1,2}}[:h]\d\d(?::\d\d)?\]?"
                            r"[ \t]+(?P<label>[^\W\d_]"
                            r"[^\W_]*(?:['’\-][^\W_]+)*(?:(?:[ \t]+|[._])[^\W\d_][^\W_]*"
                            r"(?:['’\-][^\W_]+)*){1,3})[ \t\u00a0\u202f]?:", re.MULTILINE)
#: A word of a speaker's name below this Zipf frequency is a family name's
#: (``kouassi``): the label's other words are the name's if below :data:`_LABEL_COMMON`
#: (``aimé`` 4.75 of ``aimé kouassi``; not ``équipe technique``).
_LABEL_RARE = 3.0
_LABEL_COMMON = 5.0
#: Particles inside a speaker's name (``da costa``, ``de saint-aubin``, ``van der berg``,
#: the elided article of ``capucine l'hour``: stage 49).
LABEL_PARTICLES = frozenset("de du des da di do dos das del della le la van von der den ben "
                            "bin ibn l'".split())


#: The articles of a speaker's nickname (``[07:58] le grand :``, ``[08:01] la mamie :``).
_NICKNAME_ARTICLES = frozenset({"le", "la", "l'"})
#: What speaks in a chat under an article and is no one's nickname: an organisation's
#: account (``[09:00] la mairie :``, ``le comité :``).
ACCOUNT_WORDS = frozenset("mairie comité bureau club équipe team admin association école "
                          "orga organisation secrétariat direction rédaction modération "
                          "préfecture gendarmerie police caserne paroisse".split())


#: Elided particles inside a speaker's name (``n'`` of ``pierre n'diaye``), left to
#: :func:`~emprivacy.preparation.particles.elided_particles`.
_ELIDED = frozenset({"n'", "d'"})


def stamped_speakers(text: str, words: Sequence[Token], forms: Sequence[str], *,
                     stopwords: frozenset[str], roles: frozenset[str],
                     given: frozenset[str] = frozenset(),
                     family: Callable[[str], bool] = lambda w: False,
                     listed: Callable[[str], bool] = lambda w: False,
                     zipf: Callable[[str], float] = lambda w: 0.0
                     ) -> tuple[set[str], set[int]]:
    """The speakers of several words after a chat's time stamp: the forms of their words
    (one decision per form) and the positions of their particles (that mention only), the
    words one space, ``.`` or ``_`` apart (``franck.ben.salah``).  An article and a word
    that is no stopword, role or account (:data:`ACCOUNT_WORDS`) is a nickname, its word a
    name at that mention only (``[07:58] le grand :``; ``grand`` stays a word elsewhere:
    issue 42, the forty-ninth French set's tuning half).  Otherwise the first word is no
    stopword, no word is a role (``[10:02] le président :``), and each word but the
    particles is a listed given name or rarer than :data:`CALLED_ZIPF`, or one is rarer than
    :data:`_LABEL_RARE` and the others than :data:`_LABEL_COMMON` (``aimé kouassi``; not
    ``[08:00] équipe technique :``); or the first is a given name (``given`` or ``listed``:
    ``aimé``, a word too) and each other one
    that is no given name is a ``family`` name of the lists, however common a word
    (``[07:22] désiré blanc :``: issue 42, the forty-seventh French set's tuning half), its
    words then names at that mention only, as the particles are (``blanc`` of ``vin blanc``
    is a word).

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "[07:27] sylvain da costa : oui\\n[07:28] le président : non"
    >>> words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    >>> forms = [w.text for w in words]
    >>> names, particles = stamped_speakers(text, words, forms, stopwords=frozenset(
    ...     {"le", "da", "oui", "non"}), roles=frozenset({"président"}))
    >>> sorted(names), [forms[i] for i in sorted(particles)]
    (['costa', 'sylvain'], ['da'])
    """
    names: set[str] = set()
    particles: set[int] = set()
    starts = [w.start for w in words]
    for m in _STAMPED_LABEL.finditer(text):
        first = bisect_left(starts, m.start("label"))
        last = bisect_left(starts, m.end("label"), first)  # linear in all: no word past it
        inside = [i for i in range(first, last) if words[i].end <= m.end("label")]
        label = [forms[i] for i in inside]
        own = [f for f in label if f not in LABEL_PARTICLES and f not in _ELIDED]
        if len(label) == 2 and label[0] in _NICKNAME_ARTICLES and label[1].isalpha() and (
                label[1] not in stopwords and label[1] not in roles
                and label[1] not in ACCOUNT_WORDS):
            particles.add(inside[1])  # "[07:58] le grand :": a nickname, at that mention
            continue
        if not label or label[0] in stopwords or label[0] in LABEL_PARTICLES or any(
                f in roles for f in label):
            continue
        if not (all(folded(f) in given or zipf(f) < CALLED_ZIPF for f in own)
                or (any(zipf(f) < _LABEL_RARE for f in own)
                    and all(folded(f) in given or zipf(f) < _LABEL_COMMON for f in own))):
            if len(own) > 1 and (folded(own[0]) in given or listed(own[0])) and all(
                    folded(f) in given or family(f) for f in own[1:]):
                particles.update(i for i in inside if forms[i] not in _ELIDED)
            continue
        for i in inside:
            if forms[i] in _ELIDED:
                continue  # "n'" of "pierre n'diaye": particles.elided_particles
            if forms[i] in LABEL_PARTICLES:
                particles.add(i)
            elif forms[i] not in stopwords:
                names.add(forms[i])
    return names, particles


#: What a caller says after their name on the phone (``allô bonjour mehdi à l'appareil``).
_ON_THE_LINE = ("à", "l'", "appareil")
#: The limit (Zipf) under which a word coordinated with a name found is a name too.
COORDINATED_ZIPF = 4.0


def spoken_names(text: str, words: Sequence[Token], forms: Sequence[str], found: set[str], *,
                 given: frozenset[str], stopwords: frozenset[str],
                 zipf: Callable[[str], float]) -> set[str]:
    """Names a call or a message shows in any French text (issue 42, the sixth French
    held-out set), each no stopword and a listed given name or rarer than
    :data:`COORDINATED_ZIPF`: the word before ``à l'appareil`` (``bonjour mehdi à
    l'appareil``), the word after ``chez`` (``je pars de chez blanche``; not ``chez moi``,
    ``chez le médecin``: stopwords), and a word coordinated by ``et`` or ``ou`` with a name
    ``found`` (``c'est pascale ou jean-yves``, ``pour pascale et aurélie``), only spaces
    between.

    >>> from emprivacy.text.tokens import tokenize
    >>> text = "allô mehdi à l'appareil pour pascale ou jean-yves, du pain et fromage"
    >>> words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    >>> forms = [w.text for w in words]
    >>> rarity = {"mehdi": 3.0, "pascale": 3.5, "fromage": 4.3}
    >>> sorted(spoken_names(text, words, forms, {"jean-yves", "pain"}, given=frozenset(),
    ...     stopwords=frozenset({"à", "l'", "pour", "du", "ou", "et"}),
    ...     zipf=lambda w: rarity.get(w, 5.0)))
    ['mehdi', 'pascale']
    """
    out: set[str] = set()
    n = len(forms)

    def name_like(j: int, limit: float) -> bool:
        return forms[j] not in stopwords and (folded(forms[j]) in given or zipf(forms[j]) < limit)

    for i in range(n):
        if tuple(forms[i + 1:i + 4]) == _ON_THE_LINE and name_like(i, COORDINATED_ZIPF):
            out.add(forms[i])
        if (forms[i] == "chez" and i + 1 < n and name_like(i + 1, COORDINATED_ZIPF)
                and text[words[i].end:words[i + 1].start] == " "):
            out.add(forms[i + 1])  # "je pars de chez blanche"
        if forms[i] in ("et", "ou") and 0 < i < n - 1 and all(
                text[words[j - 1].end:words[j].start].strip(" ") == "" for j in (i, i + 1)):
            for a, b in ((i - 1, i + 1), (i + 1, i - 1)):
                if forms[a] in found and name_like(b, COORDINATED_ZIPF):
                    out.add(forms[b])
    return out - found


#: A line's first word before a colon, without a time stamp (``suzanne : coucou``).
_LABEL = re.compile(r"^[ \t]*(?P<name>[^\W\d_][\w'’\-]*)[ \t\u00a0\u202f]?:(?!//)",
                    re.MULTILINE)


#: A forum's or a messaging export's header line: a name, a dash, the message's date or day
#: (``claire — 15/03/2025 13h50``, ``marin – hier à 22:03``).
_HEADER = re.compile(r"^[ \t]*(?P<name>[^\W\d_][\w'’\-]*)[ \t\u00a0]+[—–-][ \t\u00a0]+"
                     r"(?:\d{1,2}/\d{1,2}/\d{2,4}|aujourd['’]hui|hier)", re.MULTILINE)


#: A text where at least this many lower-case labels each start two lines or more is a chat
#: whose every lower-case label is a speaker (``fidèle:``, who writes once).
CHAT_SPEAKERS = 3

#: Lower-case labels that a chat writes before a colon and that name no one.
CHAT_KEYS = frozenset("ps nb edit rappel note notes info infos objet re tr fw maj update "
                      "important urgent attention récap recap résumé bilan total adresse tel "
                      "tél horaires horaire lieu date heure menu liste question réponse rdv "
                      "http https www mail prix score code bref bonus vote sondage ingrédients "
                      "étape remarque correction résultat résultats lien photo photos "
                      "programme ordre conclusion exemple astuce indice solution".split())


def unstamped_speakers(text: str, given: frozenset[str], *,
                       stopwords: frozenset[str] = frozenset()) -> list[str]:
    r"""The speakers of a chat written without time stamps (``suzanne : coucou``,
    ``marc : super !``, a forum's header ``claire — 15/03/2025 13h50``): a line's first
    word before its colon or before a dash and a date, in lower case, that labels two lines
    or more or is a listed given name (accents aside); in a chat — :data:`CHAT_SPEAKERS`
    labels or more that each start two lines — every lower-case label but a chat's keys
    (:data:`CHAT_KEYS`: ``ps :``, ``rappel :``, ``code :``) and the ``stopwords``
    (``moi :``), so a speaker who writes once (``fidèle: fidèle au poste``) is one too.  A
    form's keys are capitalised (``Patient :``, ``Motif :``) and stay keys.

    >>> text = "olive : coucou\nmarc : oui\nolive : ok\nMotif : x\nnote : y"
    >>> unstamped_speakers(text, frozenset({"marc"}))
    ['olive', 'marc', 'olive']
    >>> unstamped_speakers("rose — 14/03/2025 21h12\nslt\nrose — hier à 9h\nok", frozenset())
    ['rose', 'rose']
    >>> chat = "léa: a\nmax: b\nzoé: c\nléa: d\nmax: e\nzoé: f\nfidèle: g\nps: h"
    >>> unstamped_speakers(chat, frozenset())[-1]
    'fidèle'
    """
    found = [m for pattern in (_LABEL, _HEADER) for m in pattern.finditer(text)
             if not _rota_key(text, m, given)]
    labels = [m.group("name") for m in sorted(found, key=lambda m: m.start())]
    lower = [w for w in labels if w.islower()]
    counts = Counter(lower)
    keys = CHAT_KEYS | stopwords if sum(c >= 2 for c in counts.values()) >= CHAT_SPEAKERS \
        else None  # a chat: every label but its keys
    return [normalise_word(w) for w in lower if counts[w] >= 2 or folded(w) in given
            or (keys is not None and normalise_word(w) not in keys)]


def _rota_key(text: str, label: re.Match[str], given: frozenset[str]) -> bool:
    """Whether ``label`` (``mairie :``) is a rota's key before a list of people
    (:func:`~emprivacy.entities.spans.list_items`: ``mairie : victoire, fleur, pierre``), two
    items or more opening with a listed given name (accents aside): a key, no speaker
    (issue 42, the twenty-eighth French set; English: ``gate: holly, drew, miles``)."""
    if not label.group(0).endswith(":"):
        return False
    items = list_items(text, label.end())
    return len(items) >= 2 and sum(folded(w.lower()) in given for _, w in items) >= 2


def in_lower_case(words: Sequence[Token]) -> bool:
    """Whether a text of at least 30 words has no capital letter (speech-to-text: ``on a reçu
    un message d'une auditrice claire vidal``): a chat's body's rules apply to it too."""
    return len(words) >= 30 and not any(not w.text.islower() for w in words
                                        if any(c.isalpha() for c in w.text))
