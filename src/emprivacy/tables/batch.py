"""A column of texts, privatised row by row: every row a document of one run.

:func:`privatize_texts` releases an iterable of strings (a table's column) through the
corpus path's own machinery: every row is a :class:`~emprivacy.io.documents.Document` given to
an :class:`~emprivacy.obfuscation.obfuscator.Obfuscator` (the same normalisation, out-of-vocabulary
policies, text mode, bag sizes and records), in blocks of rows
(:class:`~emprivacy.tables.privatizer.TextPrivatizer`), and the obfuscator decodes the noisy
vectors of many rows in one call
(:meth:`~emprivacy.mechanisms.WordMechanism.privatize_batches`).  There is no second
mechanism path.

Row ``i`` (counted from 0 over the whole input, or from ``first_index``) of text ``t`` is
the document of identifier ``f"{i}#{text_digest(t)}"``
(:func:`~emprivacy.tables.privatizer.text_digest`, BLAKE2b-128): its noise comes from its
own ChaCha20 stream keyed by the run's secret key and that identifier
(:func:`emprivacy.math.randomness.document_generator`), as in every table path.  So a
seeded run releases the same column whatever the block size or the record-batch
boundaries, exactly what ``emprivacy obfuscate --seed S`` releases for the JSONL file
whose line ``i`` is ``{"id": f"{i}#{text_digest(t)}", "text": t}``, and never uses one
stream on two different texts, whatever the calls.  Without a seed the run key is fresh
and secret (the secure default: nobody, the caller included, can reproduce the noise).

Per row (docs/TABLES.md):

* a null (``None``) stays null, and so does its metadata; it is counted;
* a value that is not a ``str`` raises one :class:`TypeError` naming the row's index and
  the value's type (never the value);
* a row with nothing left after normalisation (``""``, whitespace, in bag mode stopwords
  only) is released empty (``""``; in bag mode ``[]``), with 0 words, ε_total 0 and
  ``skipped = "empty"``;
* in bag mode, a row with no word in the vocabulary is skipped as ``emprivacy
  obfuscate`` skips such a document: its release is null, ``n_words`` 0, ``epsilon_total``
  0, its out-of-vocabulary counts null (nothing was released) and ``skipped =
  "out_of_vocabulary"``;
* every other row gets the per-document fields of its ``obfuscate`` record
  (:func:`~emprivacy.tables.privatizer.row_fields`: ``n_words``, ``epsilon_total``, the
  out-of-vocabulary counts, in text mode the ``guarantee`` …), its mechanism's name and
  ``skipped = None``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import islice
from typing import Any

from emprivacy._validation import check_positive_int
from emprivacy.embeddings.model import Embeddings
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.config import DEFAULT_VOCAB_SIZE
from emprivacy.tables.options import DEFAULT_BATCH_ROWS, RunOptions
from emprivacy.tables.privatizer import TextPrivatizer, check_texts

__all__ = ["PrivateText", "TextReleases", "privatize_texts"]


@dataclass(frozen=True, slots=True)
class PrivateText:
    """One row, released.

    Attributes
    ----------
    release : str, list of str or None
        The released text (text mode), the released bag, sorted (bag mode), or ``None``
        (a null row; in bag mode, a row with no word in the vocabulary).
    metadata : dict or None
        The row's metadata (:func:`~emprivacy.tables.privatizer.row_fields`); ``None`` for
        a null row.
    """

    release: str | list[str] | None
    metadata: dict[str, Any] | None

    @property
    def skipped(self) -> str | None:
        """Why nothing was privatised (``"empty"``, ``"out_of_vocabulary"``), or ``None``."""
        return None if self.metadata is None else self.metadata["skipped"]


class TextReleases(Iterator[PrivateText]):
    """The rows of :func:`privatize_texts`, released as they are read (an iterator).

    Its counters grow as rows are read: :attr:`rows`, :attr:`nulls`,
    :attr:`skipped_empty`, :attr:`skipped_out_of_vocabulary`, :attr:`words`,
    :attr:`with_words`, :attr:`unchanged`, :attr:`words_changed`;
    :attr:`metadata` holds the fields every row of the run shares.
    """

    def __init__(self, privatizer: TextPrivatizer, texts: Iterable[object],
                 batch_rows: int) -> None:
        self.privatizer = privatizer
        self._rows = self._release(iter(texts), batch_rows)

    def _release(self, texts: Iterator[object], batch_rows: int) -> Iterator[PrivateText]:
        names = list(self.privatizer.fields)
        while block := list(islice(texts, batch_rows)):
            out = self.privatizer.privatize(block)
            columns = [out.columns[name] for name in names]
            for k, release in enumerate(out.released):
                yield PrivateText(release, None if block[k] is None
                                  else {name: col[k] for name, col in zip(names, columns,
                                                                          strict=True)})

    def __iter__(self) -> TextReleases:
        return self

    def __next__(self) -> PrivateText:
        return next(self._rows)

    @property
    def metadata(self) -> dict[str, Any]:
        """The fields every row of the run shares (those of every ``obfuscate`` record)."""
        return self.privatizer.metadata

    @property
    def rows(self) -> int:
        """Rows released so far."""
        return self.privatizer.rows

    @property
    def nulls(self) -> int:
        """Null rows so far (released null)."""
        return self.privatizer.nulls

    @property
    def skipped_empty(self) -> int:
        """Rows with nothing left after normalisation so far (released empty)."""
        return self.privatizer.skipped_empty

    @property
    def skipped_out_of_vocabulary(self) -> int:
        """Bag mode: rows with no word in the vocabulary so far (released null)."""
        return self.privatizer.skipped_out_of_vocabulary

    @property
    def words(self) -> int:
        """Words privatised so far (the sum of ``n_words``)."""
        return self.privatizer.words

    @property
    def with_words(self) -> int:
        """Rows with at least one privatised word so far."""
        return self.privatizer.with_words

    @property
    def unchanged(self) -> int:
        """Of :attr:`with_words`, rows whose every privatised word came out as itself
        (released unchanged, placeholders apart) — a function of the private texts."""
        return self.privatizer.unchanged

    @property
    def words_changed(self) -> int:
        """Privatised words released as another word so far."""
        return self.privatizer.words_changed


def privatize_texts(texts: Iterable[str | None], *, epsilon: float | None = None,
                    mechanism: str | WordMechanism = "madlib",
                    params: Mapping[str, Any] | None = None, mode: str = "text",
                    oov: str | None = None, size: int | None = None,
                    perturb_stopwords: bool = False,
                    embeddings: Embeddings | str | os.PathLike[str] | None = None,
                    vocab_size: int | None = DEFAULT_VOCAB_SIZE, seed: int | None = None,
                    batch_rows: int = DEFAULT_BATCH_ROWS, entities: str = "none",
                    entity_epsilon: float = 1.0, entity_policy: Any = (),
                    first_index: int = 0, count_changed: bool = False,
                    entity_key: bytes | None = None, lang: str = "en",
                    style_epsilon: float | None = None, entity_names: Any = None
                    ) -> TextReleases:
    """Privatise strings, each a document: the released strings and each row's metadata.

    The rows are read and released block by block (``batch_rows`` at a time: memory does
    not grow with their number), each block through an
    :class:`~emprivacy.obfuscation.obfuscator.Obfuscator` — the machinery of ``emprivacy
    obfuscate``, which decodes the noisy vectors of many rows in one call.  Row ``i``
    (from 0, or from ``first_index``) of text ``t`` is released as ``obfuscate`` releases
    the document of id ``f"{i}#{text_digest(t)}"``: with a seed, exactly that; its noise is
    keyed by the run key, ``i`` and the text, so the release does not depend on
    ``batch_rows``, and no stream serves two different texts, whatever the calls.

    Parameters
    ----------
    texts : iterable of str or None
        The rows, in order (a list, a generator, a pandas Series …).  ``None`` stays null
        (its metadata too).  Any other value that is not a ``str`` raises
        :class:`TypeError` naming its row and type.  A ``str``, a mapping (it iterates its
        keys), a set (no order) or a table (it iterates its columns) raises
        :class:`TypeError` before anything is loaded (:func:`check_texts`).
    epsilon : float
        Per-word ε (required unless ``mechanism`` is a built mechanism).
    mechanism : str or WordMechanism, default "madlib"
        A registered mechanism (``"madlib"``, ``"mahalanobis"``, ``"vickrey"``, ``"tem"``,
        ``"santext"``) or a built one.
    params : mapping, optional
        The mechanism's own parameters (``emprivacy mechanisms``), e.g. ``{"lam": 0.5}``.
    mode : {"text", "bag"}, default "text"
        ``"text"``: each row's text with every perturbed word replaced in place
        (docs/TEXT_MODE.md).  ``"bag"``: each row's noisy bag of words, sorted (a list).
    oov : {"drop", "placeholder", "keep", "subword"}, optional
        Out-of-vocabulary words, as ``obfuscate --oov`` (default ``"placeholder"`` in
        text mode, ``"drop"`` for bags).
    size : int, optional
        Bag mode: truncate every bag to N words (never padded).
    perturb_stopwords : bool, default False
        Text mode: send the kept function words through the mechanism too.
    embeddings : Embeddings, path or None
        ``None``: the built-in GloVe 6B 50d; a path: an embeddings file
        (:func:`~emprivacy.embeddings.model.load_embeddings`, ``vocab_size`` words); or loaded
        :class:`~emprivacy.embeddings.model.Embeddings` (reuse them across calls).
    vocab_size : int or None, default 100_000
        Words kept from the default embeddings or a file.
    seed : int, optional
        Reproducible noise, **not for real releases** (anyone who knows the seed can remove
        the noise).  Default: a fresh secret key (the secure generator).
    batch_rows : int, default 8192
        Rows privatised at a time: memory, not the release (with a seed the release is the
        same whatever ``batch_rows``).
    entities, entity_epsilon, entity_policy
        Entity detection and the policy per type, as ``obfuscate --entities``,
        ``--entity-epsilon``, ``--entity-policy`` (text mode;
        :class:`~emprivacy.obfuscation.config.ObfuscationConfig`, docs/ENTITIES.md).
    first_index : int, default 0
        The index of the first row: for rows that continue an input released before
        (the rest of an interrupted run, with its seed), so that row ``i`` gets the key it
        would have had in one run.
    count_changed : bool, default False
        Add ``words_changed`` to each row's metadata: how many of its privatised words
        came out as another word.  It compares the release with the original, so it is a
        function of the private text, outside the guarantee (``words_changed`` 0 says the
        privatised words are the originals): for you, not for publication with the
        release.  The counters :attr:`TextReleases.unchanged` and
        :attr:`~TextReleases.words_changed` are kept either way.
    entity_key : bytes, optional
        As ``obfuscate --entity-key``: each distinct entity word draws its surrogate once for
        the whole corpus, keyed by the word and this secret (at least 16 bytes, made once
        and kept), the same in every call, table and process that has the key
        (:class:`~emprivacy.obfuscation.config.ObfuscationConfig`).
    entity_names : KnownNames, path or (type, name) pairs, optional
        As ``obfuscate --entity-names``: names you know, protected at every mention in any
        case besides what the detectors find (:mod:`emprivacy.entities.known_names`; a path
        is a ``TYPE<TAB>NAME`` file).  The rows' metadata give their number and an
        identifier of the list (``entity_names``), never the names.
    lang : str, default "en"
        The language of the texts (``"fr"``: French tokenising, function words and
        entities, and with ``embeddings=None`` the built-in French vectors;
        :mod:`emprivacy.text.language`, docs/LANGUAGES.md).  Rows' metadata name it unless
        it is ``"en"``.
    style_epsilon : float, optional
        Text mode, the style option, as ``obfuscate --style-epsilon``: each kept function
        word drawn within its grammatical class at this ε_f, punctuation and spacing
        canonical (:mod:`emprivacy.obfuscation.style`).  Off by default.

    Returns
    -------
    TextReleases
        An iterator of :class:`PrivateText` (``release``, ``metadata``), one per row, in
        order, with counters (``rows``, ``nulls``, ``skipped_empty``,
        ``skipped_out_of_vocabulary``, ``words``) and the run's shared ``metadata``.  The
        embeddings are loaded and every option is checked on the call; rows are read as
        the iterator is.

    Examples
    --------
    >>> from emprivacy import Embeddings
    >>> emb = Embeddings(["cat", "dog"], [[0.0, 0.0], [1.0, 0.0]], name="toy")
    >>> out = privatize_texts(["A cat.", None, ""], epsilon=50.0, embeddings=emb, seed=1)
    >>> [row.release for row in out]
    ['A cat.', None, '']
    >>> out.rows, out.nulls, out.skipped_empty, out.words
    (3, 1, 1, 1)
    """
    check_texts(texts)
    run = RunOptions.parse(epsilon=epsilon, mechanism=mechanism, params=params, mode=mode,
                           oov=oov, size=size, perturb_stopwords=perturb_stopwords,
                           embeddings=embeddings, vocab_size=vocab_size, seed=seed,
                           batch_rows=batch_rows, entities=entities,
                           entity_epsilon=entity_epsilon, entity_policy=entity_policy,
                           count_changed=count_changed, entity_key=entity_key, lang=lang,
                           style_epsilon=style_epsilon, entity_names=entity_names)
    start = check_positive_int(first_index, "first_index", minimum=0)
    privatizer = run.privatizer()
    privatizer.next_index = start
    return TextReleases(privatizer, texts, run.batch_rows)
