"""What text mode needs to mark entity words: a detector, the policies, the sub-vocabularies.

:class:`EntityMarking` bundles them and decides, word by word, what an entity word becomes
(:meth:`EntityMarking.resolve`): a slot of the restricted mechanism, a placeholder, the word
as written, or an ordinary word (a capitalised word in no public list).  The template of text
mode (:mod:`emprivacy.preparation.template`) asks it; the obfuscator privatises the slots
(:mod:`emprivacy.obfuscation.entities`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Literal

import numpy as np

from emprivacy.embeddings.model import Embeddings
from emprivacy.entities.capitalised import TITLES, WEEKDAYS
from emprivacy.entities.designator_words import ORG_DESIGNATORS, STREET_DESIGNATORS
from emprivacy.entities.designators import widen_spans
from emprivacy.entities.french_chat import folded
from emprivacy.entities.handles import named_handles, widen_handles
from emprivacy.entities.initials import (
    bare_initials,
    initials_of_names,
    letters_of_names,
    particle_initials,
)
from emprivacy.entities.kinds import entity_words, widen_articles, widen_before
from emprivacy.entities.labels import (
    FORM_KEYS,
    FRENCH_SPEECH,
    MILITARY_RANKS,
    NAME_FIELDS,
    NAME_TITLES,
)
from emprivacy.entities.lands import land_word
from emprivacy.entities.local_places import kept_places
from emprivacy.entities.name_pairs import (
    by_logins,
    numbered_initials,
    numbered_initials_alone,
    self_introductions,
)
from emprivacy.entities.name_words import (
    capitalised_name,
    family_names,
    french_given_names,
    french_given_raw,
    given_names,
    listed_given_name,
    name_class,
    name_key,
    named_chat,
    ordinary_key_word,
    word_zipf,
    zipf_in,
)
from emprivacy.entities.ordinary_capitals import on_name_lists
from emprivacy.entities.patterns import drop_codes
from emprivacy.entities.policy import EntityPolicy
from emprivacy.entities.pubs import pub_spans
from emprivacy.entities.spans import (
    ENTITY_TYPES,
    PROPER_NOUN,
    SPAN_ORDER,
    EntityDetector,
    EntitySpan,
    drop_field_keys,
    drop_titles,
    drop_weekdays,
    split_at_gaps,
    streets_typed_people,
    type_of_overlap,
)
from emprivacy.entities.streets import lower_case_streets
from emprivacy.entities.table_names import drop_header_spans, people_columns
from emprivacy.entities.table_orgs import organisation_columns
from emprivacy.entities.table_roles import drop_role_cells
from emprivacy.entities.toponyms import linked_toponyms, toponym
from emprivacy.entities.ui_lines import drop_ui_lines
from emprivacy.entities.vocabulary import LISTED_TYPES, public_words, sub_vocabulary
from emprivacy.exceptions import MissingExtraError
from emprivacy.text.language import Language, get_language
from emprivacy.text.tokens import Token

__all__ = ["INNER_LINKS", "EntityMarking", "Resolution", "covering_spans"]

#: What an entity word becomes: ``("slot", TYPE)`` privatised within TYPE's sub-vocabulary,
#: ``("unlisted", TYPE)`` of a privatised type outside it (a placeholder, or a slot from its
#: vector: ``oov="subword"``), ``("placeholder", TYPE)``, ``("keep", TYPE)``, ``("word", None)``.
Resolution = tuple[Literal["slot", "unlisted", "placeholder", "keep", "word"], str | None]


def covering_spans(start: int, end: int, spans: Sequence[EntitySpan]) -> list[int]:
    """The indices of the spans of ``spans`` (sorted) that share a character with [start, end).

    >>> covering_spans(4, 9, [EntitySpan(0, 3, "ORG"), EntitySpan(3, 5, "PERSON")])
    [1]
    """
    return [i for i, s in enumerate(spans) if s.start < end and start < s.end]


@dataclass(frozen=True, eq=False)
class EntityMarking:
    """The detector, the policies and the sub-vocabularies of one run.

    Parameters
    ----------
    detector : EntityDetector
    policy : EntityPolicy
    rows : mapping
        Listed type → the rows of its public sub-vocabulary in the embeddings (sorted int64),
        for each type that can be privatised (:attr:`EntityPolicy.privatised`).
    lang : str, default "en"
        The language of the text (a code): a language with entity words
        (:func:`~emprivacy.entities.kinds.entity_words`, French) also widens spans over the
        kinds written before a name (:func:`~emprivacy.entities.kinds.widen_before`).
    known_names : KnownNames, optional
        The names the user knows, every word protected (:mod:`.preparation.known_words`)."""

    detector: EntityDetector
    policy: EntityPolicy
    rows: Mapping[str, np.ndarray]
    lang: str = "en"
    known_names: Any = None
    _members: dict[str, frozenset[int]] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not isinstance(self.policy, EntityPolicy):
            raise TypeError(f"policy must be an EntityPolicy; got {type(self.policy).__name__}")
        object.__setattr__(self, "_members", {t: frozenset(np.asarray(r).tolist())
                                              for t, r in self.rows.items()})

    @classmethod
    def build(cls, detector: EntityDetector, policy: EntityPolicy, embeddings: Embeddings, *,
              lists: Mapping[str, Iterable[str]] | None = None,
              lang: str = "en") -> EntityMarking:
        """The marking of a run on ``embeddings``: the sub-vocabulary of every privatised type
        from its public list (``lists`` overrides the packaged ones,
        :func:`~emprivacy.entities.vocabulary.public_words`)."""
        code = get_language(lang).code
        rows = {t: sub_vocabulary(embeddings, public_words(t, lists, lang=code))
                for t in policy.privatised}
        return cls(detector, policy, rows, lang)

    @property
    def types(self) -> tuple[str, ...]:
        """The types a record counts: what the detector emits (a capitalised word counts as
        the listed type it resolves to), in :data:`ENTITY_TYPES` order."""
        emitted = set(self.detector.types)
        if PROPER_NOUN in emitted:
            emitted |= set(LISTED_TYPES)
        return tuple(t for t in ENTITY_TYPES if t in emitted) + tuple(
            sorted(emitted - set(ENTITY_TYPES)))

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        """The detector's spans of each text, cut at a form's column gaps
        (:func:`~emprivacy.entities.spans.split_at_gaps`), a person's span that ends with a
        street's designator typed a place
        (:func:`~emprivacy.entities.spans.streets_typed_people`), less a form's keys in English
        (:func:`~emprivacy.entities.spans.drop_field_keys`) and spans of titles or codes alone
        (:func:`~emprivacy.entities.spans.drop_titles`: ``SGT``;
        :func:`~emprivacy.entities.spans.drop_weekdays`: ``MON 16:30`` in English;
        :func:`~emprivacy.entities.patterns.drop_codes`: ``R3/C30``), sorted, widened over the
        designators of organisations and streets
        (:func:`~emprivacy.entities.designators.widen_spans`), a person's span widened over
        the user name it is part of (``k.osei``:
        :func:`~emprivacy.entities.handles.widen_handles`),
        with the initials of the names found (``JM`` after ``Jordan Mensah``:
        :func:`~emprivacy.entities.initials.initials_of_names`; ``F`` after ``Farida
        Al-Mansouri``: :func:`~emprivacy.entities.initials.letters_of_names`), the cells of a
        table's column of people (:func:`~emprivacy.entities.table_names.people_columns`) or of
        organisations (:func:`~emprivacy.entities.table_orgs.organisation_columns`), pubs
        by their names in English (:func:`~emprivacy.entities.pubs.pub_spans`), streets
        named by a common word in lower case in English (``mill street``:
        :func:`~emprivacy.entities.streets.lower_case_streets`), local places named by
        common words in English (``the drill hall``, ``FROM SCOUT BOTTOM``:
        :func:`~emprivacy.entities.local_places.local_places`, kept for the decisions) and,
        in a language with entity words, over the kinds before a name
        (:func:`~emprivacy.entities.kinds.widen_before`: ``gendarmerie de Crest``) and over
        an article written as a name's first word
        (:func:`~emprivacy.entities.kinds.widen_articles`: ``LE MANS``, ``à La Flèche``),
        with the hyphenated places whose linking words are inside
        (:func:`~emprivacy.entities.toponyms.linked_toponyms`: ``Notre-Dame-de-la-Mer``)."""
        zipf = _zipf_or_none()
        code = get_language(self.lang).code
        english = code == "en"
        keys = zipf is not None and code in ("en", "fr")
        # spans of titles alone are dropped: abbreviations and ranks (a roll's SGT), not a
        # full word that may be a name or a brand (Justice, Coach)
        titles = _SPAN_TITLES if english else get_language(self.lang).titles
        own_zipf = None if zipf is None or english else _zipf_in(
            get_language(self.lang).wordfreq_code)
        found = []
        for text, spans in zip(texts, self.detector.detect(texts), strict=True):
            cut = streets_typed_people(text, split_at_gaps(text, spans), given=_person_word)
            if keys:  # "sky:" a chat's speaker, "gate:" before a list of people a key
                cut = drop_field_keys(text, cut, lists=named_chat(text, lang=code),
                                      ordinary=lambda w: ordinary_key_word(w, lang=code),
                                      speech=frozenset() if english else FRENCH_SPEECH)
            cut = drop_header_spans(text, drop_codes(text, drop_titles(
                text, drop_weekdays(text, cut) if english else cut, titles)))
            wide = widen_handles(text, widen_spans(text, sorted(cut, key=SPAN_ORDER), zipf=zipf))
            found.append(drop_ui_lines(text, drop_header_spans(text, drop_role_cells(text, sorted({
                                 *wide, *initials_of_names(text, wide, zipf=zipf,
                                                           own_zipf=own_zipf),
                                 *letters_of_names(text, wide), *named_handles(text, wide),
                                 *particle_initials(text), *bare_initials(text),
                                 *self_introductions(text, code), *by_logins(text),
                                 *numbered_initials(text, code),
                                 *numbered_initials_alone(text),
                                 *people_columns(text, wide, name_word=_name_like),
                                 *organisation_columns(text, wide),
                                 *(pub_spans(text) if english else ()),
                                 *(lower_case_streets(text) if english else ()),
                                 *(kept_places(text) if english else ())},
                                key=SPAN_ORDER)))))  # a header's cell, "Like · Reply": no one's
        kinds = entity_words(self.lang)
        if kinds is None:
            return found
        language = get_language(self.lang)
        in_language = _zipf_in(language.wordfreq_code) if zipf is not None else None
        out = []
        for text, spans in zip(texts, found, strict=True):
            wide = sorted({*spans, *widen_before(text, spans, kinds,
                                                 function_words=language.kept_function_words,
                                                 titles=language.titles, zipf=in_language,
                                                 given=_listed_given),
                           *linked_toponyms(text, links=kinds.link | INNER_LINKS,
                                            zipf=in_language)})
            out.append(sorted({*wide, *widen_articles(text, wide)}))
        return out

    def gaps(self, text: str) -> list[EntitySpan]:
        """The spans of the detectors that fill the others' gaps (the ``learned`` one:
        :meth:`~emprivacy.entities.spans.UnionDetector.gap_spans`); none without one, none
        in a table's column of roles (:func:`~emprivacy.entities.table_roles.drop_role_cells`)."""
        gap_spans = getattr(self.detector, "gap_spans", None)
        return (drop_ui_lines(text, drop_header_spans(text, drop_role_cells(
            text, gap_spans([text])[0]))) if gap_spans is not None else [])

    def span_type(self, spans: Sequence[EntitySpan], covering: Sequence[int]) -> tuple[str, int]:
        """The winning type among the spans ``covering`` a word, and the index of its first
        span (:func:`~emprivacy.entities.spans.type_of_overlap`); a type whose policy is
        ``keep`` wins only where no covering span's type protects the word."""
        winner = type_of_overlap(spans[i].type for i in covering)
        if winner is None:
            raise ValueError("covering must name at least one span")
        if self.policy.policy(winner) == "keep":
            # detectors disagree: the most protective decision wins (a name in a widened
            # organisation's span under ORG=keep stays a name)
            guarded = type_of_overlap(spans[i].type for i in covering
                                      if self.policy.policy(spans[i].type) != "keep")
            winner = guarded if guarded is not None else winner
        return winner, next(i for i in covering if spans[i].type == winner)

    def name_like(self, word: str) -> bool:
        """Whether ``word``, capitalised, looks like a person's name
        (:func:`~emprivacy.entities.name_words.capitalised_name`: on the public list and not
        mostly an ordinary word, or rare as an English word); in another language, a name
        there (:func:`_name_like_in`: not ``DÉCÈS`` nor ``ENFANTS`` of a French notice in
        capitals, rare as English words; ``THIERRY``, common in English); ``False`` without
        the ``ner`` extra (no list to ask)."""
        return _name_like(word) if self.english else _name_like_in(word, self.lang)

    def listed_or_rare(self, word: str) -> bool:
        """Whether ``word`` may be a name at all (any class of
        :func:`~emprivacy.entities.name_words.name_class` but ``None``, and no title or form key):
        a word inside a person's span that is not one (``says`` of ``Thompson says``, ``Cllr``)
        is an ordinary word; in another language, one rarer than Zipf 3.5 in it too (``hour``
        of ``capucine l'hour``: stage 49); ``True`` without the ``ner`` extra."""
        return _listed_or_rare(word) or (not self.english and word not in _LABEL_WORDS and bool(
            _zipf_or_none()) and _zipf_in(get_language(self.lang).wordfreq_code)(word) < 3.5)

    @property
    def english(self) -> bool:
        """Whether the marking's language is English (the name lists' frequencies are)."""
        return get_language(self.lang).code == "en"

    def given_or_unlisted(self, word: str) -> bool:
        """Whether ``word`` reads as a name beside a person's name in one capitalised run
        (``CONOR`` of ``BRENNAN, CONOR PATRICK``): a name of the public lists, or a word no
        list holds that is not common in English (:func:`~emprivacy.entities.name_words.name_class`
        ``"name"``, ``"rare"`` or ``"uncommon"``; not ``AGE``, ``COURT``, ``SWELL``);
        ``False`` without the ``ner`` extra, and in a language other than English (its
        frequencies are English)."""
        return self.english and _given_or_unlisted(word)

    def given_or_rare(self, word: str) -> bool:
        """Whether ``word`` is a name of the public lists or a rare word (``manon``; not
        ``pizza``, a census name far more common as a word); ``False`` without the ``ner``
        extra."""
        return _name_class(word) in ("name", "rare")

    def listed_given(self, word: str) -> bool:
        """Whether ``word`` is a given name of the public lists (``alain``; apostrophes,
        hyphens and case aside); ``False`` without the ``ner`` extra."""
        return _listed_given(word)

    def given_name(self, word: str) -> bool:
        """Whether ``word`` is a given name of the lists in the marking's language: of the
        public ones (:meth:`listed_given`) or, in French, of ``data/given-names-fr.txt`` as
        written (:func:`~emprivacy.entities.name_words.listed_given_name`); the French list
        alone without the ``ner`` extra."""
        try:
            return listed_given_name(word, lang=self.lang)
        except MissingExtraError:
            return get_language(self.lang).code == "fr" and word in french_given_raw()

    def family_name(self, word: str) -> bool:
        """Whether ``word`` is a family name of the census lists (``hope``, ``church``);
        ``False`` without the ``ner`` extra."""
        return _family_name(word)

    def toponym(self, word: str) -> bool:
        """Whether ``word`` is a hyphenated place's name by its form in the marking's language
        (:func:`~emprivacy.entities.toponyms.toponym`: ``notre-dame-de-la-mer``) or, in
        English, a land's name (:func:`~emprivacy.entities.places.land_word`: ``australia``)."""
        if self.english and _zipf_or_none() and land_word(word.lower()):
            return True
        kinds = entity_words(self.lang)
        zipf = _zipf_in(get_language(self.lang).wordfreq_code) if _zipf_or_none() else None
        return kinds is not None and toponym(word, links=kinds.link | INNER_LINKS, zipf=zipf)

    def designator(self, word: str) -> bool:
        """Whether ``word`` is a designator of an organisation or a street (``road``,
        ``pharmacy``, ``inc``: :mod:`emprivacy.entities.designators`): inside an
        organisation's or a place's span it is part of the name, in any case."""
        if word in ORG_DESIGNATORS or word in STREET_DESIGNATORS:
            return True
        kinds = entity_words(self.lang)
        return kinds is not None and word in kinds.kind_words

    def tokens_of(self, text: str, lang: Language) -> list[Token] | None:
        """The tokens of ``text`` in ``lang`` if the detector read them already (a
        prefetching detector of a run keeps them: ``tokens_of``), else ``None``."""
        known = getattr(self.detector, "tokens_of", None)
        return None if known is None else known(text, lang)

    def linking_words(self) -> frozenset[str]:
        """The words that link a kind to its name in the marking's language (French ``de``,
        ``des``, ``l'``; none in English): inside a place's span they go with the name
        (:func:`~emprivacy.preparation.entity_slots.entity_decisions`)."""
        kinds = entity_words(self.lang)
        return frozenset() if kinds is None else kinds.link

    def english_zipf(self, word: str) -> float:
        """How common ``word`` is as an English word (Zipf): after a determiner a common
        one may be the word, not the name found elsewhere (``the bill``; not ``the mulvihill
        idea``: :func:`~emprivacy.entities.naming.ordinary_mention`); 0 in another language
        or without the ``ner`` extra."""
        zipf = _zipf_or_none()
        return zipf(word) if zipf is not None and get_language(self.lang).code == "en" else 0.0

    def label_word(self, word: str) -> bool:
        """Whether ``word`` is a title, a form's key or a weekday (``mr``, ``dr``, ``cllr``,
        ``dob``, ``patient``, ``client``, ``monday``): a word of address or a label, never part
        of a name, whatever span a model put it in."""
        return word in _LABEL_WORDS

    def resolve(self, entity_type: str, row: int, word: str | None = None) -> Resolution:
        """What a word of ``entity_type`` at vocabulary row ``row`` (``-1``: out of the
        vocabulary) becomes under the policies."""
        policy = self.policy.policy(entity_type)
        if entity_type == PROPER_NOUN and policy == "privatise":
            # a capitalised word on the person list that is mostly an ordinary word (High,
            # Drive, Court) is no person (issue 40, item 9)
            listed = next((t for t in LISTED_TYPES if row in self._members.get(t, ())
                           and (t != "PERSON" or word is None or _name_like(word))), None)
            if listed is None:
                return ("word", None)
            entity_type, policy = listed, self.policy.policy(listed)
        if policy == "keep":
            return ("keep", entity_type)
        if policy == "placeholder":
            return ("placeholder", entity_type)
        if row in self._members.get(entity_type, ()):
            return ("slot", entity_type)
        return ("unlisted", entity_type)


#: Titles, the keys of a form's fields and weekdays: never part of a name.
#: The keys of a French form (``Prénom(s) :``, ``Nom d'usage :``), never a name's words.
_FRENCH_KEYS = frozenset("nom prénom prénoms adresse téléphone employeur signature profession"
                         .split())
_LABEL_WORDS = NAME_TITLES | NAME_FIELDS | FORM_KEYS | WEEKDAYS | _FRENCH_KEYS
#: The titles a span of which alone is dropped in English: abbreviations and ranks.
#: The linking words inside a hyphenated place's name besides a language's kinds' links
#: (:mod:`~emprivacy.entities.toponyms`: ``Châlons-sur-Marne``, ``Bourg-en-Bresse``).
INNER_LINKS = frozenset("sur sous en lès lez aux au".split())
_SPAN_TITLES = TITLES | MILITARY_RANKS | frozenset("cllr insp supt revd".split())


def _zipf_or_none() -> Callable[[str], float] | None:
    """:func:`~emprivacy.entities.name_words.word_zipf`, or ``None`` without ``ner``."""
    try:
        word_zipf("the")
    except MissingExtraError:
        return None
    return word_zipf


def _zipf_in(code: str) -> Callable[[str], float]:
    """A word's Zipf frequency in the language ``code`` (``wordfreq``, cached)."""
    from emprivacy.entities.name_words import zipf_in

    return lambda word: zipf_in(word, code)


@lru_cache(maxsize=1 << 16)
def _name_like(word: str) -> bool:
    try:
        return word not in NAME_TITLES and capitalised_name(word)
    except MissingExtraError:
        return False


#: In another language, a word at least this common there (Zipf) and on no list of names is
#: no name by its capital letter alone (French ``DÉCÈS``, ``ENFANTS``, ``FAMILLE`` of a notice
#: in capitals, rare as English words; issue 42).
LANGUAGE_ORDINARY_ZIPF = 4.0
#: A French given name rarer than this as a French word (Zipf) is name-like by its capital
#: letter in French though common as an English word (``THIERRY``).
FRENCH_GIVEN_ZIPF = 4.4


@lru_cache(maxsize=1 << 16)
def _name_like_in(word: str, lang: str) -> bool:
    """Whether ``word``, capitalised, looks like a person's name in the language ``lang``:
    name-like by the English lists and frequencies (:func:`_name_like`) unless it is an
    ordinary word of ``lang`` (Zipf at least :data:`LANGUAGE_ORDINARY_ZIPF` there) that no
    list of names holds (:func:`~emprivacy.entities.ordinary_capitals.on_name_lists`), or,
    in French, a given name of the French lists rarer than :data:`FRENCH_GIVEN_ZIPF` as a
    French word (issue 42).  What a word's rarity in English says of a French word is
    little: ``décès``, ``enfants`` and ``famille`` are rare in English, ``thierry`` common."""
    language = get_language(lang)
    try:
        common = zipf_in(word, language.wordfreq_code)
        if _name_like(word) and (common < LANGUAGE_ORDINARY_ZIPF or on_name_lists(word, lang)):
            return True
        return (language.code == "fr" and common < FRENCH_GIVEN_ZIPF
                and folded(word) in french_given_names(with_family_names=True)
                and word not in language.kept_function_words)
    except MissingExtraError:
        return False


@lru_cache(maxsize=1 << 16)
def _given_or_unlisted(word: str) -> bool:
    return word not in _LABEL_WORDS and word not in NAME_TITLES and _name_class(word) in (
        "name", "rare", "uncommon")


def _person_word(word: str) -> bool:
    """Whether ``word`` (lower case) is a listed given name, or a name or a rare word by
    :func:`~emprivacy.entities.name_words.name_class` (``oluwaseun``; not ``mill``)."""
    return _listed_given(word) or _name_class(word) in ("name", "rare")


@lru_cache(maxsize=1 << 16)
def _family_name(word: str) -> bool:
    try:
        return word in family_names()
    except MissingExtraError:
        return False


@lru_cache(maxsize=1 << 16)
def _listed_given(word: str) -> bool:
    try:
        return name_key(word) in given_names()
    except MissingExtraError:
        return False


def _name_class(word: str) -> str | None:
    """:func:`~emprivacy.entities.name_words.name_class`, ``None`` without the ``ner`` extra."""
    try:
        return name_class(word)
    except MissingExtraError:
        return None


@lru_cache(maxsize=1 << 16)
def _listed_or_rare(word: str) -> bool:
    if word in _LABEL_WORDS:
        return False
    try:
        if name_class(word) is not None:
            return True
        # inside a detected span, a hyphenated word each of whose parts may be a name is
        # one (Rees-Tudor, Al-Shami: a part that is also an ordinary word, tudor, al)
        parts = [part for part in word.split("-") if part]
        return len(parts) > 1 and all(len(part) > 1 and name_class(part) is not None
                                      for part in parts)
    except MissingExtraError:
        return True
