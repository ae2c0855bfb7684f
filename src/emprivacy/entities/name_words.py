"""What a word says of being a person's name, before any context: whether the public list
of person names holds it (the US Census 1990 lists of the ``names`` package), how frequent it
is as a word (``wordfreq``), and so its class (issue 40).  The evidence of the context and
the rules are :mod:`~emprivacy.entities.names`'s.

**How name-like a listed word is.**  A word's frequency in English text (``wordfreq``'s
Zipf scale, ``z(w) = log10(per-billion frequency)``) is compared with what its popularity
as a name (its census share ``s(w)``) predicts: for a word used mostly as a name the
*excess* ``z(w) - log10 s(w)`` is about the same as for ``john``; a word used mostly as an
ordinary word (``will``, ``hope``) sits far above.  ``m``, the median excess of the 2,000 most
popular names (:func:`name_class`):

* ``"name"`` — listed, excess below ``m + 1`` (``john``, ``mark``, ``grace``), or listed with
  no share and rare as a word (``z < 3``);
* ``"common"`` — listed, excess ``m + 1`` or more, or no share and not rare (``will``, ``hope``);
* ``"rare"`` — not listed, rare as a word (``adeyemi``, ``chaudhary``, ``ngozi``);
* ``"uncommon"`` — not listed, ``3 <= z < 4`` (``tariq``, ``objection``): a name only where
  the context names it (a speaker label, ``@``, a form's name field) or, as a ``"rare"``
  word, where its vector reads as a name (:mod:`~emprivacy.entities.name_vectors`);
* ``None`` — not listed and common: an ordinary word.

Names with an apostrophe or a hyphen are looked up without it (``obrien``; ``smith-jones``).

Needs the ``ner`` extra (``names``, ``wordfreq``).
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib.resources import files
from typing import Literal

from emprivacy._optional import import_optional
from emprivacy.entities.french_chat import folded
from emprivacy.entities.labels import ABBREVIATED_GIVEN, NAME_TITLES, chat_speakers
from emprivacy.text.language import get_language
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import Token
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS, marked_words, read_word_list

__all__ = ["CAPITALISED_EXCESS", "COMMON_EXCESS", "LANGUAGE_EXCESS", "LOWER_RARE", "RARE_ZIPF",
           "UNCOMMON_ZIPF", "VIETNAMESE_FAMILY_NAMES", "VIETNAMESE_GIVEN_SYLLABLES",
           "VIETNAMESE_MIDDLE_NAMES", "NameClass", "abbreviated_given",
           "capitalised_name", "census_shares", "given_names", "listed_given_name", "name_class",
           "name_in_language",
           "name_key", "named_chat", "ordinary_key_word", "word_zipf", "zipf_in"]

_EXTRA = "ner"
#: The commonest Vietnamese family names, with and without their marks (lower case).
#: Without their marks ``do``, ``ho``, ``le``, ``ly`` and ``dang`` are English or French words
#: (``we can do van deliveries``): only with them.
VIETNAMESE_FAMILY_NAMES: frozenset[str] = frozenset(
    "nguyen nguyễn tran trần lê pham phạm hoang hoàng huynh huỳnh phan vu vũ vo võ đặng bui "
    "bùi đỗ hồ ngo ngô duong dương lý trinh trịnh dinh đinh truong trương luong lương".split())
#: The middle names that mark a Vietnamese name's given name after them (``văn``, ``thị``):
#: ``nguyen van long`` is one person, ``long`` the given name, an ordinary English word.
VIETNAMESE_MIDDLE_NAMES: frozenset[str] = frozenset("van văn thi thị".split())
#: Common syllables of Vietnamese given names, without their marks as speech recognition
#: writes them: a second one after the given name is the name's too where it is no common
#: English word (``pham thi thu huong``; issue 40, the nineteenth English set, seen).
VIETNAMESE_GIVEN_SYLLABLES: frozenset[str] = frozenset(
    "an anh bao binh chau chi cuong dung duc giang ha hai han hang hanh hieu hoa hoang hong "
    "hue hung huong huy khanh khoa lam lan linh loan long mai minh nam nga ngoc nhung oanh "
    "phong phuong quan quang quynh tam tan thang thanh thao thu thuy tien trang trinh trung "
    "tuan tung uyen viet vinh vy xuan yen".split())
NameClass = Literal["name", "common", "rare", "uncommon"] | None
#: A word below this Zipf frequency is rare in English (about 1 in a million words).
RARE_ZIPF = 3.0
#: An unlisted word below this one may be a name where the context says so (``tariq:``).
UNCOMMON_ZIPF = 4.0
#: A listed word this much above the median excess is an ordinary word first.
COMMON_EXCESS = 1.0
#: A capitalised listed word this much above the median excess is no name even where a model
#: or the capitalisation calls it a proper noun (``High``, ``Court``; ``Bob``, ``June`` stay).
CAPITALISED_EXCESS = 2.0
#: In a lower-case text, a word outside the census list rarer than this (Zipf) is a name
#: (``aled``, ``teodor``, ``yusupova``): chats name people nobody capitalises.
LOWER_RARE = 2.3
_APOSTROPHES = re.compile(r"['’`]")


def name_key(word: str) -> str:
    """The form under which a word is looked up in the name list: lower case, without
    apostrophes.

    >>> name_key("O’Brien"), name_key("D'ANGELO")
    ('obrien', 'dangelo')
    """
    return _APOSTROPHES.sub("", normalise_word(word))


@cache
def _census() -> tuple[dict[str, float], frozenset[str], frozenset[str]]:
    """The census lists read once: each name's share, the given names, the family names."""
    import_optional("names", extra=_EXTRA, purpose="the public list of person names")
    root = files("names")
    share: dict[str, float] = {}
    given: set[str] = set()
    family: set[str] = set()
    for name in ("dist.female.first", "dist.male.first", "dist.all.last"):
        for line in root.joinpath(name).read_text(encoding="utf-8").splitlines():
            parts = line.split()
            if len(parts) < 2:
                continue
            word = parts[0].lower()
            share[word] = max(share.get(word, 0.0), float(parts[1]) / 100)
            (given if name.endswith("first") else family).add(word)
    return share, frozenset(given), frozenset(family)


@cache
def british_given_names() -> frozenset[str]:
    """Given names of Britain and Ireland that the census lacks (``data/given-names-en.txt``,
    compiled by hand for emprivacy: ``gareth``, ``rhys``, ``niamh``, ``iain``), as
    :func:`name_key` writes them: given names (:func:`given_names`) and, where uncommon as a
    word, of class ``"name"`` (:func:`name_class`)."""
    return frozenset(name_key(w) for w in read_word_list("given-names-en.txt"))


def census_shares() -> tuple[dict[str, float], frozenset[str]]:
    """Each listed name's census share (the larger of its shares as a female or male given
    name and as a family name, a fraction), and the given names."""
    share, given, _ = _census()
    return share, given


@cache
def given_names() -> frozenset[str]:
    """The given names (lower case): the census' and the British ones it lacks
    (:func:`british_given_names`)."""
    return census_shares()[1] | british_given_names()


def census_given_names() -> frozenset[str]:
    """The census' given names alone (lower case): what the learned model was fitted on
    (:mod:`~emprivacy.entities.learned`)."""
    return census_shares()[1]


def family_names() -> frozenset[str]:
    """The census' family names (lower case)."""
    return _census()[2]


@cache
def french_given_names(*, with_family_names: bool = False) -> frozenset[str]:
    """Given names of people in France (``data/given-names-fr.txt``: 1,034 names, compiled by
    hand for emprivacy) with the census' given names, all lower case and without accents
    (``gwenaël`` → ``gwenael``): what the French name detector
    (:class:`~emprivacy.entities.french.FrenchNameDetector`) calls a given name.  The census
    lists lack most French given names (``maëlys``, ``soizic``, ``mehdi``).  Left out: a
    name the census lists as a family name (``laurent``, ``olivier``, ``germain``: the
    detector's rules read a given name as no family name, ``madame sandrine olivier``)
    unless ``with_family_names`` (where a given name is only looked for: each part of
    ``jean-baptiste``), one whose form without accents is a common French word (``aimé``,
    ``aime``: a verb), and those marked ``before-family`` (:func:`french_given_words`)."""
    family = family_names()
    out = set(census_given_names())
    for name in _french_given_file()[0]:
        plain = folded(name)
        if (plain in family and not with_family_names) or (
                plain != name and zipf_in(plain, "fr") >= 3.0):
            continue
        out.add(plain)
    return frozenset(out)


@cache
def french_given_raw() -> frozenset[str]:
    """The given names of ``data/given-names-fr.txt`` as written (lower case, accents kept:
    ``aimé``, ``honoré``, which :func:`french_given_names` leaves out), but those marked
    ``before-family`` (:func:`french_given_words`)."""
    return _french_given_file()[0]


@lru_cache(maxsize=1 << 16)
def listed_given_name(word: str, *, lang: str, public_below: float | None = None) -> bool:
    """Whether ``word`` (lower case) is a given name of the lists: of the public ones
    (:func:`given_names`, apostrophes and hyphens aside: :func:`name_key`) or, in French, of
    ``data/given-names-fr.txt`` as written (:func:`french_given_raw`: accents kept, the names
    marked ``before-family`` left out).  With ``public_below``, a name of the public lists
    counts only where it is rarer than that in the language as a word (Zipf): ``ami`` is a
    census name, no French one (``un ami de roumanie``).

    >>> [listed_given_name(w, lang=lang) for w, lang in (("john", "en"), ("soizic", "en"),
    ...                                                  ("soizic", "fr"), ("ami", "fr"))]
    [True, False, True, True]
    >>> listed_given_name("ami", lang="fr", public_below=4.0)
    False
    """
    language = get_language(lang)
    if language.code == "fr" and word in french_given_raw():
        return True
    return name_key(word) in given_names() and (
        public_below is None or zipf_in(word, language.wordfreq_code) < public_below)


@cache
def french_given_words() -> frozenset[str]:
    """The given names of ``data/given-names-fr.txt`` marked ``before-family``: names that
    are above all common French words (``juste``, ``parfait``, ``fidèle``, ``innocent``,
    ``léger``) and on no public list, read as a given name only right before a person's
    family name, in any case (``le lieutenant juste roux``, ``LE CURÉ FIDÈLE ROUMIEU``;
    :func:`~emprivacy.preparation.given_names.given_before_names`) and by no other rule
    (issue 42, stage 43).

    >>> "juste" in french_given_words(), "juste" in french_given_raw()
    (True, False)
    """
    return _french_given_file()[1]


@cache
def _french_given_file() -> tuple[frozenset[str], frozenset[str]]:
    """``data/given-names-fr.txt``: its given names, and those marked ``before-family``
    apart (:func:`~emprivacy.text.word_lists.marked_words`)."""
    return marked_words(
        files("emprivacy").joinpath("data", "given-names-fr.txt").read_text(encoding="utf-8"),
        mark="before-family", source="given-names-fr.txt")


@cache
def french_family_names() -> frozenset[str]:
    """Family names frequent in France, Québec and Acadia (``data/family-names-fr.txt``: 500
    names, compiled by hand for emprivacy), lower case, accents as written and without them
    (``lefèvre``, ``lefevre``).  Many are French words (``bois``, ``berger``, ``petit``); the
    census' family names hold French words that are none (``bonjour``, ``fait``)."""
    names = read_word_list("family-names-fr.txt")
    return frozenset(names) | frozenset(folded(name) for name in names)


@cache
def _zipf() -> object:
    wordfreq = import_optional("wordfreq", extra=_EXTRA,
                               purpose="telling names from ordinary words")
    return wordfreq.zipf_frequency


@lru_cache(maxsize=1 << 16)
def word_zipf(word: str) -> float:
    """How common ``word`` is in English text: ``wordfreq``'s Zipf frequency of its lookup
    form (:func:`name_key`); 0 for a word it has never seen.  Needs the ``ner`` extra."""
    return _zipf_of(name_key(word))


@lru_cache(maxsize=1 << 16)
def zipf_in(word: str, lang: str) -> float:
    """How common ``word`` (lower-cased) is in the language ``lang`` (a ``wordfreq`` code:
    ``"fr"``); 0 for a word it has never seen.  Needs the ``ner`` extra."""
    if lang == "en":
        return _zipf_of(word.lower())
    return float(_zipf()(word.lower(), lang))  # type: ignore[operator]


@lru_cache(maxsize=1 << 16)
def _zipf_of(key: str) -> float:
    z = float(_zipf()(key, "en"))  # type: ignore[operator]
    return max(z, DIALECT_ZIPF) if key in dialect_words() else z


#: The least Zipf frequency the detectors read for a word of :func:`dialect_words`: a common
#: word's (``aye``, 3.9; ``wee``, 3.9), so that only a name's context makes one a name.
DIALECT_ZIPF = 4.0


@cache
def dialect_words() -> frozenset[str]:
    """The ordinary words of English dialects and chat spelling that wordfreq counts rare
    (``data/dialect-words-en.txt``: ``cannae``, ``naebody``, ``fae``, ``bairns``): read at
    least as common as :data:`DIALECT_ZIPF` by :func:`word_zipf`, :func:`zipf_in` in English
    and :func:`name_class` (issue 40, the fiftieth English set).

    >>> "naebody" in dialect_words(), word_zipf("naebody") >= DIALECT_ZIPF
    (True, True)
    >>> name_class("naebody"), name_class("cannae")
    (None, None)
    """
    return read_word_list("dialect-words-en.txt")


@cache
def _median_excess() -> float:
    share, _ = census_shares()
    top = sorted((w for w in share if share[w] > 0), key=share.__getitem__, reverse=True)
    return statistics.median(_zipf_of(w) - math.log10(share[w]) for w in top[:2000])


@lru_cache(maxsize=1 << 16)
def name_class(word: str) -> NameClass:
    """How name-like ``word`` is: ``"name"``, ``"common"``, ``"rare"`` or ``None`` (see the
    module's description); a British given name (:func:`british_given_names`) uncommon as a
    word, Zipf below :data:`UNCOMMON_ZIPF`, is a ``"name"``: one the census lacks
    (``gareth``, ``rhys``) and one the census holds so rarely that its class is ``"common"``
    though no English word (``callum``, ``clive``, ``fergus``, ``yusuf``: issue 40, the
    fortieth stage, seen in its unseen captions).

    >>> [name_class(w) for w in ("john", "will", "adeyemi", "table", "O'Brien", "Lê", "uh")]
    ['name', 'common', 'rare', None, 'name', 'rare', None]
    >>> name_class("gareth"), census_name_class("gareth")
    ('name', 'uncommon')
    >>> name_class("callum"), census_name_class("callum")
    ('name', 'common')
    """
    cls = census_name_class(word)
    key = name_key(word)
    if cls in ("uncommon", "common") and key in british_given_names() and (
            cls == "uncommon" or _zipf_of(key) < UNCOMMON_ZIPF):
        return "name"
    return cls


@lru_cache(maxsize=1 << 16)
def census_name_class(word: str) -> NameClass:
    """:func:`name_class` by the census' lists alone: what the learned model was fitted on."""
    key = name_key(word)
    if not key or not key[0].isalpha():
        return None
    if "-" in key:  # smith-jones, pierre-yves: a name when each part may be one
        parts = [name_class(p) for p in key.split("-") if p]
        if parts and None not in parts and "name" in parts:  # Lomax-Grant too
            return "name"
        return None
    share = census_shares()[0].get(key)
    z = _zipf_of(key)
    if share is None:
        if len(key) <= 2:  # "le", "ok"; but a rare one with a letter beyond ASCII is a
            # name of another script's romanisation (Vietnamese Lê, Võ, Đỗ; issue 40)
            return "rare" if not key.isascii() and z < RARE_ZIPF else None
        return "rare" if z < RARE_ZIPF else "uncommon" if z < UNCOMMON_ZIPF else None
    if share <= 0:
        return "name" if z < RARE_ZIPF else "common"
    return "common" if z - math.log10(share) - _median_excess() >= COMMON_EXCESS else "name"


@lru_cache(maxsize=1 << 16)
def capitalised_name(word: str) -> bool:
    """Whether ``word``, written with a capital where a proper noun was found, is a person's
    name: of class ``"name"`` or ``"rare"``, or listed with a census share and at most
    :data:`CAPITALISED_EXCESS` above the median excess (``Bob``, ``June``, ``King``), not an
    ordinary word that happens to be on the census list (``Court``, ``High``, ``Patient``:
    issue 40, item 9).

    >>> [capitalised_name(w) for w in ("Bob", "Court", "Patient", "Adeyemi", "Table")]
    [True, False, False, True, False]
    """
    cls = name_class(word)
    if cls in ("name", "rare"):
        return True
    share = census_shares()[0].get(name_key(word), 0.0)
    if cls != "common" or share <= 0:
        return False
    excess = _zipf_of(name_key(word)) - math.log10(share) - _median_excess()
    return excess < CAPITALISED_EXCESS


#: In another language, a listed name this much above the median excess (its Zipf there
#: against its census share) is an ordinary word of that language first (French ``petit``,
#: ``blanc``, ``le``, ``mais``; not ``pierre``, ``michel``, ``paradis``).
LANGUAGE_EXCESS = 2.5


@lru_cache(maxsize=1 << 16)
def name_in_language(word: str, lang: str) -> bool:
    """Whether the listed name ``word`` reads as a name in the language ``lang`` (a
    ``wordfreq`` code) as well: rarer there than Zipf :data:`RARE_ZIPF`, or common no more
    than :data:`LANGUAGE_EXCESS` above what its census share gives (issue 42: the census
    lists ``Le``, ``Ma``, ``Bien`` and ``Chez``, ordinary French words that made French
    surrogates).

    >>> [name_in_language(w, "fr") for w in ("pierre", "michel", "le", "mais", "petit")]
    [True, True, False, False, False]
    """
    z = zipf_in(word, lang)
    if z < RARE_ZIPF:
        return True
    share = census_shares()[0].get(name_key(word), 0.0)
    return share > 0 and z - math.log10(share) - _median_excess() < LANGUAGE_EXCESS


#: An inflected word's stem at least this common in English (Zipf), and no rarer than the
#: word, makes it the word's plural or past (:func:`inflected_word`).
INFLECTED_STEM_ZIPF = 2.5
#: Endings of English plurals and pasts, and what each stem may have lost with them.
_INFLECTIONS = (("ies", ("y",)), ("ied", ("y",)), ("ers", ("", "e")), ("es", ("", "e")),
                ("ed", ("", "e")), ("ing", ("", "e")), ("s", ("",)))


@lru_cache(maxsize=1 << 16)
def inflected_word(form: str) -> bool:
    """Whether the lower-case ``form`` is the plural, the past, the ``-ing`` form or the
    ``-er`` noun's plural of a common English word: its stem (``-s``, ``-es``, ``-ies``,
    ``-ed``, ``-ied``, ``-ing``, ``-ers`` taken off, an ``e`` or a ``y`` put back) is at
    least :data:`INFLECTED_STEM_ZIPF` as a word, no rarer than the form and no listed name —
    ``dahlias``, ``trestles``, ``sneezed`` of a chat in lower case, rare words no list holds,
    are no one's name (issue 40, the twenty-ninth English set; ``thatching``, ``pressers``:
    the thirty-first); ``lukas``, ``ahmed`` are not inflected, and a listed name never is
    (``jones``, ``banks``, ``fleming``).

    >>> [inflected_word(w) for w in ("trestles", "sneezed", "pedestals", "thatching",
    ...                              "pressers", "lukas", "ahmed", "jones", "fleming")]
    [True, True, True, True, True, False, False, False, False]
    """
    given, family = given_names(), family_names()
    if name_key(form) in given or name_key(form) in family:
        return False  # a listed name (``jones``, ``banks``, ``hughes``)
    common = word_zipf(form)
    for ending, restore in _INFLECTIONS:
        if form.endswith(ending) and len(form) > len(ending) + 2:
            for stem in (form[: -len(ending)] + r for r in restore):
                z = word_zipf(stem)
                if z >= INFLECTED_STEM_ZIPF and z >= common and name_key(stem) not in given \
                        and (ending in ("ing", "ers") or name_key(stem) not in family):
                    return True  # not dimitri's "dimitris"; "thatching" of "thatch" (Thatch
                    # a family name too: no family name ends with "ing" unless a list holds it)
    return False


def inflected_alone(form: str, before: str, gap: str) -> bool:
    """Whether the lower-case ``form`` is an :func:`inflected_word` that no name's word
    precedes: a past or an ``-ing`` form (``cliff sneezed``, ``thatching's stopped``)
    anywhere; a plural only after a kept function word
    (``before``, the word before it, ``""`` at none) or a sign (``gap``, the text between):
    ``six pedestals``, ``dahlias, rose hips``; not ``o'hara fixings``, ``wade & son
    cycles``, a firm's last word."""
    if not inflected_word(form):
        return False
    if form.endswith(("ed", "ing")):  # a past or a participle: "thatching's stopped"
        return True
    return not before or before in KEPT_FUNCTION_WORDS or gap.strip(" \t") != ""


def named_chat(text: str, *, lang: str = "en") -> bool:
    """:func:`~emprivacy.entities.labels.chat_speakers` of ``text`` by the listed given names
    (:func:`given_names`; in French, :func:`listed_given_name`'s), once per text for the
    detector, the marking and the decisions that ask (``river:`` of a chat whose speakers
    are named is a speaker; ``prune :`` in French)."""
    return _named_chat(text, lang)


@lru_cache(maxsize=8)
def _named_chat(text: str, lang: str) -> bool:
    if lang == "fr":
        return ":" in text and chat_speakers(text, lambda f: listed_given_name(f, lang="fr"))
    given = given_names()
    return ":" in text and chat_speakers(text, lambda form: name_key(form) in given)


def abbreviated_given(i: int, words: Sequence[Token], forms: Sequence[str], text: str) -> bool:
    """Whether ``words[i]`` is a given name as old records abbreviate it
    (:data:`~emprivacy.entities.labels.ABBREVIATED_GIVEN`), capitalised, with its stop, before
    a capitalised listed name not common in English: ``GEO. ROACH``, ``Jos. Stone`` (not
    ``Geo. Survey``; the second reading of issue 40's thirtieth stage).

    >>> from emprivacy.entities.capitalised import text_words
    >>> text = "MASTER GEO. ROACH; the geo. data; Thos. and; Geo. Survey"
    >>> words, forms, _, _ = text_words(text)
    >>> [forms[i] for i in range(len(words)) if abbreviated_given(i, words, forms, text)]
    ['geo']
    """
    if not 0 <= i < len(words) - 1 or forms[i] not in ABBREVIATED_GIVEN or words[i].text.islower():
        return False
    after = words[i + 1]
    key = name_key(forms[i + 1])  # a listed name, not a common word ("Geo. Survey", "Geo. Team")
    return (re.fullmatch(r"\.[ \t]+", text[words[i].end:after.start]) is not None
            and after.text[:1].isupper() and forms[i + 1] not in KEPT_FUNCTION_WORDS
            and forms[i + 1] not in NAME_TITLES and (key in given_names() or key in family_names())
            and word_zipf(forms[i + 1]) < _ABBREVIATED_BEFORE_ZIPF)


#: How common in English the word after an abbreviated given name may be (Zipf) to be the
#: family name (``Jos. Stone``: 4.8; not ``Geo. Street``, ``Jas. Books``).
_ABBREVIATED_BEFORE_ZIPF = 5.0


@lru_cache(maxsize=8192)
def ordinary_key_word(form: str, *, lang: str = "en") -> bool:
    """Whether a word of a form's key (``form``, lower case) is no name: common in English
    (Zipf at least :data:`RARE_ZIPF`), neither mostly a name on the census lists nor a listed
    given name (``Allergies``, ``Walks``; not ``Grace``, ``Baker``); in French, common in
    French and neither a French given name, even one read only before a family name, nor a
    French family name (``Responsable légal :``, ``Tél. :``, ``Née le :``; not ``Rose :``,
    ``Constant :``, ``Berger :``; issue 42, stage 44).  Needs the ``ner`` extra.

    >>> [ordinary_key_word(w, lang="fr") for w in ("responsable", "rose", "constant")]
    [True, False, False]
    """
    if lang == "fr":
        return (zipf_in(form, "fr") >= RARE_ZIPF and not listed_given_name(form, lang="fr")
                and form not in french_given_words() and form not in french_family_names())
    return (word_zipf(form) >= RARE_ZIPF and name_class(form) not in ("name", "rare")
            and name_key(form) not in given_names())
