"""What a run releases for each document: the validated settings of an obfuscation
(:class:`ObfuscationConfig`) and their defaults.

The run itself, which applies them to a corpus, is
:class:`emprivacy.obfuscation.obfuscator.Obfuscator`.
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from emprivacy._validation import check_choice, check_positive_int, check_positive_number
from emprivacy.embeddings.model import OOV_POLICIES
from emprivacy.entities.known_names import check_known_names
from emprivacy.entities.policy import DEFAULT_ENTITY_EPSILON, parse_entity_policies
from emprivacy.entities.registry import check_entities
from emprivacy.text.language import get_language

__all__ = ["DEFAULT_BLOCK_WORDS", "DEFAULT_VOCAB_SIZE", "ID_SOURCES", "MIN_ENTITY_KEY_BYTES",
           "ObfuscationConfig", "check_entity_key", "entity_key_id"]

#: How many of the most frequent real words of an embeddings file are kept by default.
DEFAULT_VOCAB_SIZE = 100_000

#: Words privatised at a time from one long document (``ObfuscationConfig.block_words``).
DEFAULT_BLOCK_WORDS = 65536

#: Where a record's ``id`` comes from (``ObfuscationConfig.id_from``).
ID_SOURCES = ("path", "index", "hash")


@dataclass(frozen=True, kw_only=True)
class ObfuscationConfig:
    """What a run releases for each document; validated on construction.

    Parameters
    ----------
    mode : {"bag", "text"}, default "bag"
        ``"bag"``: records hold the noisy bag (``bag``).  ``"text"``: records hold
        the readable text (``text``) with every perturbed word replaced in place
        (:mod:`emprivacy.preparation.template`) and the text-mode guarantee (``guarantee``).
    oov : {"drop", "placeholder", "keep", "subword"}, optional
        Out-of-vocabulary words; default ``"drop"`` for bags, ``"placeholder"``
        for text.  ``"keep"`` releases them unchanged, outside the guarantee: a
        :class:`~emprivacy.exceptions.PrivacyLeakWarning` is raised (once, with a
        count, never the words) and each record counts them in ``oov_kept``.
        ``"subword"`` (fastText ``.bin`` embeddings, a mechanism with
        :meth:`~emprivacy.mechanisms.WordMechanism.privatize_points`) privatises
        them from their subword vectors, like in-vocabulary words (they count in
        ``n_words``, and in ``oov_subword``; docs/TEXT_MODE.md).
    size : int, optional
        The bag size N: every bag longer than N is truncated to its first N privatised
        words (in-vocabulary words; under ``oov="subword"`` also the out-of-vocabulary
        words embedded from their subwords).  A shorter bag is **not padded**: it keeps
        its own size n < N, and releases it (``n_words``; the records also say the
        requested ``size``).  The εN·E guarantee (Thm. 1, Thm. 4) compares bags of one
        size only, so it does not hide a document's length: ``size`` caps what a document
        releases, it does not make all documents alike.  ``None``: N is each document's
        own bag size.  Bags only.
    perturb_stopwords : bool, default False
        Text mode: send stopwords through the mechanism too (by default they
        are kept: they carry no topic, but they do carry style).
    batch_words : int, default 16384
        Documents are privatised together in batches of about this many words.
    block_words : int, default 65536
        A longer document is privatised in blocks of this many words, one after
        the other, and its output written block by block: memory does not grow
        with a document's length.  Documents of at most one block (text mode: and
        fewer than :data:`~emprivacy.obfuscation.obfuscator.BLOCK_CHARS` characters)
        are released exactly as without blocks; a longer one draws its noise block by
        block (the same distribution, in another order).  Not a privacy setting: records do not
        name it.
    count_changed : bool, default False
        Add ``words_changed`` to every record (text mode after ``words_perturbed``, bags
        after ``epsilon_total``): how many of its privatised words the mechanism released
        as another word.  It compares each output with its input word, so it is a function
        of the private text, **outside the guarantee**, like the other per-document counts
        (a record of ``words_changed`` 0 says that its privatised words are the originals):
        for the person running the release, not to be published with it.  The run counts
        the documents released unchanged either way (:attr:`Obfuscator.documents_unchanged`).
    id_from : {"path", "index", "hash"}, default "path"
        What a record's ``id`` (and a warning naming a document) says.  ``"path"``:
        the document's own identifier (a text file's path as given, standard
        input's ``-``, a JSONL or Parquet record's ``id``; :mod:`emprivacy.io.corpus`).
        ``"index"``: its position in the input, counted from 0 (``"0"``, ``"1"``,
        …; files as given, directories sorted, every document counted, skipped ones
        too).  ``"hash"``: a keyed hash of its identifier under the run's secret key
        (:func:`~emprivacy.math.randomness.hashed_document_id`; nobody without the key
        can test a guessed file name against it).  The noise does not depend on it:
        every document's noise stream stays keyed by its own identifier, so a
        seeded run releases the same words whatever ``id_from`` is.  Error messages
        still name input files (they are for the person running the release).
    entities : str, default "none"
        Entity detection (:mod:`emprivacy.entities`; docs/ENTITIES.md): ``"none"``,
        ``"auto"`` (with the ``ner`` extra spaCy, Presidio's patterns and capitalised
        words; without it capitalised words alone) or a comma list of ``"spacy"``
        (``"spacy=PIPELINE"``), ``"presidio"``, ``"capitalised"``.  In bag mode a
        document's text is detected before it becomes a bag
        (:mod:`emprivacy.preparation.entity_bags`; docs/ENTITIES.md).
    entity_epsilon : float, default 1.0
        ε_e of a privatised entity word (``ε_e·d`` within its type's public
        sub-vocabulary), spent once per distinct entity word of a document.
    entity_policy : mapping or iterable, optional
        Policies per type overriding the defaults, as a mapping or ``"TYPE=POLICY"``
        strings (:func:`~emprivacy.entities.policy.parse_entity_policies`): ``privatise``
        (default for ``PERSON``, ``LOCATION``), ``placeholder`` (default for ``ORG`` and the
        structured identifiers), ``keep``.  Stored as sorted ``(type, policy)`` pairs.
    entity_key : bytes, optional
        A secret of at least :data:`MIN_ENTITY_KEY_BYTES` bytes, generated once and kept
        by the user: each distinct entity word then draws its surrogate once for the whole
        corpus, keyed by the word and the key (the same person reads the same in every
        document, on every path), and its ε_e·d is spent once for the release, not once
        per document.  Without it a word is drawn afresh in every document (docs/ENTITIES.md,
        GUARANTEES.md).  Never in a record, a repr or a log.
    entity_names : KnownNames, path or (type, name) pairs, optional
        Names the user knows (:mod:`emprivacy.entities.known_names`; ``--entity-names``):
        each is protected at every mention, in any case, besides what the detectors find.
        A path is read as a ``TYPE<TAB>NAME`` file; stored as
        :class:`~emprivacy.entities.known_names.KnownNames`.  Records say how many there
        are and an identifier of the list (``entity_names``), never the names.
    style_epsilon : float, optional
        Text mode, the style option (off by default; :mod:`emprivacy.obfuscation.style`): each
        kept function word is released by the mechanism restricted to its grammatical class
        at this ε_f (``ε_f·d`` within the class, ``ε_f`` per word in ``epsilon_total``), and
        punctuation and spacing in one canonical form (:mod:`emprivacy.text.canonical`).
    lang : str, default "en"
        The language of the documents (:mod:`emprivacy.text.language`): its tokenising, the
        function words text mode keeps, the stopwords bags drop, the entity detectors of
        ``entities="auto"``.  Records name it (``lang``) unless it is ``"en"``, so an English
        record is what it was before languages existed (docs/LANGUAGES.md).

    Examples
    --------
    >>> ObfuscationConfig(mode="text").oov
    'placeholder'
    >>> ObfuscationConfig(mode="text", size=3)
    Traceback (most recent call last):
    ...
    ValueError: size applies to bags of words; text mode releases the whole text
    """

    mode: Literal["bag", "text"] = "bag"
    oov: str | None = None
    size: int | None = None
    perturb_stopwords: bool = False
    batch_words: int = 16384
    block_words: int = field(default_factory=lambda: DEFAULT_BLOCK_WORDS)
    id_from: str = "path"
    entities: str = "none"
    entity_epsilon: float = DEFAULT_ENTITY_EPSILON
    entity_policy: Any = ()
    count_changed: bool = False
    entity_key: bytes | None = field(default=None, repr=False)
    entity_names: Any = field(default=None, repr=False)
    style_epsilon: float | None = None
    lang: str = "en"

    def __post_init__(self) -> None:
        check_choice(self.mode, "mode", ("bag", "text"))
        default = "drop" if self.mode == "bag" else "placeholder"
        object.__setattr__(self, "oov", check_choice(
            default if self.oov is None else self.oov, "oov", OOV_POLICIES))
        if not isinstance(self.perturb_stopwords, bool):
            raise TypeError("perturb_stopwords must be a bool; got "
                            f"{type(self.perturb_stopwords).__name__}")
        if self.perturb_stopwords and self.mode == "bag":
            raise ValueError("perturb_stopwords applies to text mode; a bag of words has no "
                             "stopwords (Def. 1)")
        if self.size is not None:
            if self.mode == "text":
                raise ValueError("size applies to bags of words; text mode releases the "
                                 "whole text")
            object.__setattr__(self, "size", check_positive_int(self.size, "size"))
        object.__setattr__(self, "batch_words", check_positive_int(self.batch_words,
                                                                   "batch_words"))
        object.__setattr__(self, "block_words", check_positive_int(self.block_words,
                                                                   "block_words"))
        check_choice(self.id_from, "id_from", ID_SOURCES)
        object.__setattr__(self, "entities", check_entities(self.entities))
        object.__setattr__(self, "entity_epsilon",
                           check_positive_number(self.entity_epsilon, "entity_epsilon"))
        object.__setattr__(self, "entity_policy", _policy_pairs(self.entity_policy))
        if self.entity_key is not None:
            object.__setattr__(self, "entity_key", check_entity_key(self.entity_key))
            if self.entities == "none":
                raise ValueError("entity_key applies with entities (a detector); entities is "
                                 "'none'")
        if self.entity_names is not None:
            object.__setattr__(self, "entity_names", check_known_names(self.entity_names))
            if self.entities == "none":
                raise ValueError("entity_names applies with entities (a detector); entities "
                                 "is 'none'")
        object.__setattr__(self, "lang", get_language(self.lang).code)
        if self.style_epsilon is not None:
            object.__setattr__(self, "style_epsilon",
                               check_positive_number(self.style_epsilon, "style_epsilon"))
            if self.mode != "text":
                raise ValueError("style_epsilon applies to text mode; a bag of words has no "
                                 "function words")
            if self.perturb_stopwords:
                raise ValueError("style_epsilon and perturb_stopwords exclude each other: "
                                 "the function words are style slots or content words")
            if self.lang != "en":
                raise ValueError("style_epsilon applies to English text: the function-word "
                                 f"classes of lang={self.lang!r} are not written")
        if not isinstance(self.count_changed, bool):
            raise TypeError("count_changed must be a bool; got "
                            f"{type(self.count_changed).__name__}")

    def metadata(self) -> dict[str, Any]:
        """The fields of every record that describe this configuration (``size`` when
        one was requested: next to the record's ``n_words``, which may be smaller)."""
        return {"mode": self.mode, "oov": self.oov,
                **({"size": self.size} if self.size is not None else {}),
                **({"perturb_stopwords": self.perturb_stopwords} if self.mode == "text"
                   else {}),
                **({"style_epsilon": self.style_epsilon} if self.style_epsilon is not None
                   else {}),
                **({"lang": self.lang} if self.lang != "en" else {})}


#: The fewest bytes an entity key may have (128 bits).
MIN_ENTITY_KEY_BYTES = 16


def check_entity_key(key: Any) -> bytes:
    """An entity key, checked: bytes, at least :data:`MIN_ENTITY_KEY_BYTES` long.

    >>> len(check_entity_key(b"0123456789abcdef"))
    16
    >>> check_entity_key(b"short")
    Traceback (most recent call last):
    ...
    ValueError: entity_key must hold at least 16 bytes (openssl rand -hex 32 makes one); got 5
    """
    if not isinstance(key, bytes | bytearray):
        raise TypeError(f"entity_key must be bytes; got {type(key).__name__}")
    if len(key) < MIN_ENTITY_KEY_BYTES:
        raise ValueError(f"entity_key must hold at least {MIN_ENTITY_KEY_BYTES} bytes "
                         f"(openssl rand -hex 32 makes one); got {len(key)}")
    return bytes(key)


def entity_key_id(key: bytes) -> str:
    """A short identifier of an entity key, for telling a resumed run with another key from
    one with the same: a keyed hash of a constant (it reveals nothing of the key).

    >>> entity_key_id(b"k" * 16) == entity_key_id(b"k" * 16) != entity_key_id(b"j" * 16)
    True
    """
    return hmac.new(bytes(key), b"emprivacy-entity-key-id", hashlib.sha256).hexdigest()[:16]


def _policy_pairs(policy: Mapping[str, str] | Iterable[str] | Iterable[tuple[str, str]]
                  ) -> tuple[tuple[str, str], ...]:
    """``entity_policy`` as sorted ``(type, policy)`` pairs, each checked.

    >>> _policy_pairs({"org": "keep"}), _policy_pairs(["PERSON=placeholder"])
    ((('ORG', 'keep'),), (('PERSON', 'placeholder'),))
    """
    if isinstance(policy, str):
        raise TypeError("entity_policy must be a mapping or 'TYPE=POLICY' strings, not a "
                        "single str")
    items = policy.items() if isinstance(policy, Mapping) else policy
    pairs = [item if isinstance(item, str) else "=".join(map(str, item)) for item in items]
    return tuple(sorted(parse_entity_policies(pairs).items()))
