"""Readable text: Alg. 2 applied word by word, in place (text mode).

The paper releases a noisy *bag* of words and names readable output as its next
step (§8).  Text mode keeps the document's layout and replaces every
in-vocabulary content word, position by position, with the nearest word to its
noisy embedding (Alg. 2 on one word at a time); whitespace, punctuation and line
breaks stay where they were, and the capitalisation pattern of the original
token (``Title``, ``UPPER`` or ``lower``) is applied to its replacement.

What is released besides the noisy words — the *layout* — is, by allow-list:
whitespace and the punctuation of :data:`~emprivacy.text.normalise.LAYOUT_PUNCTUATION`
between tokens (of the text after :func:`~emprivacy.text.normalise.normalise_text`:
format characters removed, NFC), the function words of an allow-list in lower or
Title case and the clitics attached to a word
(:func:`~emprivacy.text.tokens.verbatim_function_words`; kept by default: they carry no topic,
but they do carry style; ``perturb_stopwords=True`` sends them through the mechanism
too), the capitalisation pattern and apostrophe style of each perturbed word, and a
placeholder where a number (digits or a number word), URL, e-mail address, file path,
run of symbols (anything else: emoji, Braille, private-use characters, stray
marks) or out-of-vocabulary word was.

Guarantee.  The M perturbed words are privatised independently, each by the
single-word mechanism, which is ``ε·d``-private with ``d`` the Euclidean distance
between embeddings (Thm. 2; decoding is post-processing).  The component-wise
lift ``K*`` of §3 (Eq. (2), ``K*(v){v'} = Πᵢ K(vᵢ){v'ᵢ}``) therefore satisfies the
Manhattan guarantee stated just after it: for two texts with the same layout
whose perturbed words are ``x₁…x_M`` and ``x'₁…x'_M``,

.. math::  P[K^\\star(x) \\in Z] \\le e^{\\varepsilon \\sum_{i=1}^{M} d(x_i, x'_i)}\\,
           P[K^\\star(x') \\in Z].

Forgetting the positions, the bag of the M output words is ``εM·E``-private
(Thm. 1 and Thm. 4, with N = M).

Out-of-vocabulary words (:data:`OOV_POLICIES`): ``"placeholder"`` (the default in
text mode) writes :data:`OOV_PLACEHOLDER`; ``"drop"`` removes the word (the
characters around it stay); ``"keep"`` releases it unchanged — outside the
guarantee, so a :class:`~emprivacy.exceptions.PrivacyLeakWarning` is raised;
``"subword"`` (a fastText ``.bin`` model) makes it a slot like any perturbed word,
its vector the mean of its character n-gram vectors
(:meth:`~emprivacy.embeddings.model.Embeddings.subword_vectors`): it is one of the M
perturbed words, ``x_i`` its subword vector, and the bound above holds as it is
(``d`` is the Euclidean distance on all of R^n; the output is a vocabulary word).
A word without any n-gram of the model becomes a placeholder.
Numbers, URLs, e-mail addresses, file paths and symbols are never released as they
are, whatever the policy: they always become :data:`PLACEHOLDERS` ``[NUM]``, ``[URL]``,
``[EMAIL]``, ``[PATH]``, ``[SYM]``.
"""

from __future__ import annotations

import warnings
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from emprivacy._validation import check_choice, check_positive_int
from emprivacy.embeddings.model import OOV_PLACEHOLDER, OOV_POLICIES, Embeddings, check_subword
from emprivacy.exceptions import PrivacyLeakWarning
from emprivacy.preparation.decisions import (
    INITIAL,
    DocumentPeople,
    Dropped,
    EntityKey,
    EntitySlot,
    Kept,
    Placeholder,
)
from emprivacy.preparation.entity_slots import entity_decisions
from emprivacy.preparation.writing import CasePattern, apply_case, case_pattern, write_elision
from emprivacy.text.function_classes import STYLE_CLOSE, STYLE_OPEN
from emprivacy.text.language import ENGLISH, Language, get_language
from emprivacy.text.normalise import normalise_surface, normalise_text, normalise_word
from emprivacy.text.tokens import tokenize, verbatim_function_words

if TYPE_CHECKING:
    from emprivacy.entities.marking import EntityMarking

__all__ = [
    "EUCLIDEAN_GUARANTEE",
    "PLACEHOLDERS",
    "TEXT_GUARANTEE",
    "TextTemplate",
    "prepare_text",
    "prepare_text_blocks",
    "text_guarantee",
    "warn_kept",
]

#: Tokens that are never released as they are, whatever the OOV policy.
PLACEHOLDERS: dict[str, str] = {"number": "[NUM]", "url": "[URL]", "email": "[EMAIL]",
                                "path": "[PATH]", "symbol": "[SYM]"}

#: The metric of an ε·d₂ guarantee, as output records state it
#: (:meth:`~emprivacy.mechanisms.WordMechanism.guarantee_metric`).
EUCLIDEAN_GUARANTEE = "the Euclidean distance between the words' embeddings"


def text_guarantee(metric: str = EUCLIDEAN_GUARANTEE) -> str:
    """The guarantee of text mode, as recorded in output metadata, for a mechanism's metric.

    ``metric`` completes "d …": the metric of the mechanism's per-word guarantee ``ε·d``
    (:meth:`~emprivacy.mechanisms.WordMechanism.guarantee_metric`), e.g. the Euclidean
    distance (Madlib, SanText, TEM, Vickrey with Euclidean noise) or d_RM (Mahalanobis
    noise).

    >>> text_guarantee() == TEXT_GUARANTEE
    True
    """
    over = "" if metric == EUCLIDEAN_GUARANTEE else ", E the Earth Mover's distance over this d"
    return (
        "Text mode: for two texts with the same layout (identical except for their M "
        "perturbed words x_1..x_M and x'_1..x'_M), the probability of any output differs by "
        f"at most exp(ε·Σ_i d(x_i, x'_i)), d {metric} (the component-wise Manhattan lift of "
        "§3, Eq. (2) of the paper); the bag of the M output words is εM·E-private"
        f"{over} (Thm. 1, Thm. 4). The layout — whitespace, allowed punctuation, kept "
        "function-word stopwords, placeholders, capitalisation patterns — is released as it "
        "is, and so are out-of-vocabulary words under oov='keep', which the guarantee does "
        "not cover."
    )


#: The guarantee of text mode with the Euclidean metric (Madlib, SanText, TEM, Vickrey
#: with Euclidean noise); see :func:`text_guarantee`.
TEXT_GUARANTEE = text_guarantee()

@dataclass(frozen=True, slots=True)
class TextTemplate:
    """A text cut into its fixed layout and the M slots of its perturbed words.

    ``render(rows)`` writes ``pieces[0] w₁ pieces[1] w₂ … w_M pieces[M]``, each
    ``wᵢ`` the vocabulary word of ``rows[i]`` in the capitalisation of slot i.

    Attributes
    ----------
    pieces : tuple of str, length M + 1
        The released layout between the slots.
    indices : (M,) int64 array
        Vocabulary rows of the perturbed words ``x₁…x_M``, in text order.
    cases : tuple of {"lower", "title", "upper"}, length M
        Capitalisation pattern of each slot.
    curly : tuple of bool, length M
        Whether the original word used the typographic apostrophe ``’``.
    counts : dict
        ``stopwords_kept``, ``oov_placeholders``, ``oov_dropped``, ``oov_kept``,
        ``numbers``, ``urls``, ``emails``, ``paths``, ``symbols`` (the last five became
        placeholders); under ``oov="subword"`` also ``oov_subword``.
    points : (K, n) float32 array or None
        Under ``oov="subword"``: the subword vectors of the slots whose row in
        ``indices`` is ``-1``, in order (``None`` when there is none).
    entities : tuple, empty or of length ``len(cases)``
        With entity detection (:mod:`emprivacy.preparation.entity_slots`): per slot, the
        key ``(type, word)`` of an entity slot, or ``None`` for a slot of ``indices``.
        Empty without detection: every slot is one of ``indices``.
    entity_inputs : dict
        Each entity key's input: its vocabulary row, or ``-1`` and its vector.
    entity_counts : dict
        Per entity type, the words (and placeholders) the detection took.
    lang : Language
        The text's language: an elision before a slot is written in full before a released
        word that does not take it (:func:`~emprivacy.preparation.writing.write_elision`).
    """

    pieces: tuple[str, ...]
    indices: np.ndarray
    cases: tuple[CasePattern, ...]
    curly: tuple[bool, ...]
    counts: dict[str, int]
    points: np.ndarray | None = None
    entities: tuple[EntityKey | None, ...] = ()
    entity_inputs: Mapping[EntityKey, tuple[int, np.ndarray | None]] = field(
        default_factory=dict)
    entity_counts: Mapping[str, int] = field(default_factory=dict)
    lang: Language = ENGLISH

    @property
    def words_perturbed(self) -> int:
        """M, the number of words that go through the mechanism."""
        return int(self.indices.size)

    def render(self, rows: Sequence[int] | np.ndarray, vocabulary: Sequence[str],
               surrogates: Mapping[EntityKey, str] | None = None) -> str:
        """The text with slot i filled by ``vocabulary[rows[i]]`` in slot i's capitalisation
        (an entity slot by ``surrogates[key]``, the word drawn for its key)."""
        if len(rows) != self.words_perturbed:
            raise ValueError(f"rows must hold one word per slot ({self.words_perturbed}); got "
                             f"{len(rows)}")
        general = iter(rows)
        out = [self.pieces[0]]
        for i in range(len(self.cases)):
            key = self.entities[i] if self.entities else None
            if key is None:
                word = apply_case(vocabulary[int(next(general))], self.cases[i])
            else:
                if surrogates is None or key not in surrogates:
                    raise ValueError(f"no surrogate for the entity slot {key[0]}")
                word = apply_case(surrogates[key], self.cases[i])
                if key[1].startswith(INITIAL):  # an initial: the surrogate's first letter,
                    word = word[:1]  # in the initial's case (apply_case: "d." → "s.")
            if self.curly[i]:
                word = word.replace("'", "’")
            if self.lang.elisions:  # l’ before a released consonant: le (post-processing)
                out[-1] = write_elision(out[-1], word, self.lang)
            out.append(word)
            out.append(self.pieces[i + 1])
        return "".join(out)


def prepare_text(text: str, embeddings: Embeddings, *, oov: str = "placeholder",
                 perturb_stopwords: bool = False,
                 entities: EntityMarking | None = None,
                 lang: str | Language = "en") -> TextTemplate:
    """Split ``text`` into its released layout and the words to perturb.

    The text is normalised (:func:`emprivacy.text.normalise.normalise_text`), then tokens
    come from :func:`emprivacy.text.tokens.tokenize`; a word is looked up after
    :func:`~emprivacy.text.normalise.normalise_word` (as written first, after
    :func:`~emprivacy.text.normalise.normalise_surface`, in a cased vocabulary).  Numbers, URLs,
    e-mail addresses, paths and symbols become :data:`PLACEHOLDERS`; the function words
    of :func:`~emprivacy.text.tokens.verbatim_function_words` are kept unless ``perturb_stopwords``;
    in-vocabulary words become slots; out-of-vocabulary words follow ``oov``.

    Parameters
    ----------
    text : str
    embeddings : Embeddings
        The vocabulary that decides which words can be perturbed.
    oov : {"placeholder", "drop", "keep", "subword"}
    perturb_stopwords : bool
        Send the function words through the mechanism as well (those not in the
        vocabulary then follow ``oov`` like any other word).
    entities : EntityMarking, optional
        Mark entity words (:mod:`emprivacy.preparation.entity_slots`): their slots are
        keyed in :attr:`TextTemplate.entities`, placeholders and kept words are layout.
    lang : str or Language, default "en"
        The language of the tokenising and of the kept function words
        (:mod:`emprivacy.text.language`).

    Examples
    --------
    >>> emb = Embeddings(["cat", "dog", "met"], [[0, 0], [1, 0], [5, 5]], name="toy")
    >>> t = prepare_text("The Cat met Snape at 10.", emb)
    >>> t.pieces, t.indices.tolist(), t.cases
    (('The ', ' ', ' [UNK] at [NUM].'), [0, 2], ('title', 'lower'))
    >>> t.render([1, 2], emb.words)
    'The Dog met [UNK] at [NUM].'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    if not isinstance(embeddings, Embeddings):
        raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
    check_choice(oov, "oov", OOV_POLICIES)
    builder = _TemplateBuilder(embeddings, oov=oov, perturb_stopwords=perturb_stopwords,
                               entities=entities, lang=lang)
    for _ in builder.feed(normalise_text(text)):  # no block limit: nothing comes before the end
        pass
    return builder.finish()


def prepare_text_blocks(pieces: Iterable[str], embeddings: Embeddings, *,
                        oov: str = "placeholder", perturb_stopwords: bool = False,
                        block_words: int | None = None, block_chars: int | None = None,
                        entities: EntityMarking | None = None, lang: str | Language = "en",
                        style: frozenset[str] | None = None
                        ) -> Iterator[tuple[TextTemplate, bool]]:
    """:func:`prepare_text` of a long text, block by block: ``(template, is the last)``.

    ``pieces`` is the normalised text in pieces that tokenise on their own
    (:func:`emprivacy.text.normalise.normalise_pieces`).  A block holds at most ``block_words``
    slots and ends just before the next slot (its last piece is the layout up to
    there), or at the end of a piece once it holds ``block_chars`` characters or more.
    Rendering the blocks one after the other gives the text, and the blocks' slots
    and counts add up to those of the whole text's template: the template of a text
    of at most ``block_words`` slots and fewer than ``block_chars`` characters is the
    one block, :func:`prepare_text`'s.  Memory: one block and one piece.  ``style``: the kept
    function words between the marks of :mod:`emprivacy.text.function_classes` (style slots,
    counted in ``style_words``; :mod:`emprivacy.obfuscation.style`).

    >>> emb = Embeddings(["cat", "dog", "met"], [[0, 0], [1, 0], [5, 5]], name="toy")
    >>> [(t.pieces, t.indices.tolist(), last) for t, last in prepare_text_blocks(
    ...     ["The Cat met ", "a dog."], emb, block_words=2)]
    [(('The ', ' ', ' a '), [0, 2], False), (('', '.'), [1], True)]
    """
    if block_words is not None:
        block_words = check_positive_int(block_words, "block_words")
    if block_chars is not None:
        block_chars = check_positive_int(block_chars, "block_chars")
    builder = _TemplateBuilder(embeddings, oov=oov, perturb_stopwords=perturb_stopwords,
                               block_words=block_words, block_chars=block_chars,
                               entities=entities, lang=lang, style=style)
    for piece in pieces:
        for block in builder.feed(piece):
            yield block, False
    yield builder.finish(), True


class _TemplateBuilder:
    """Cuts a normalised text, fed piece by piece, into templates of bounded size."""

    def __init__(self, embeddings: Embeddings, *, oov: str, perturb_stopwords: bool,
                 block_words: int | None = None, block_chars: int | None = None,
                 entities: EntityMarking | None = None, lang: str | Language = "en",
                 style: frozenset[str] | None = None) -> None:
        if not isinstance(embeddings, Embeddings):
            raise TypeError(f"embeddings must be an Embeddings; got {type(embeddings).__name__}")
        check_choice(oov, "oov", OOV_POLICIES)
        if not isinstance(perturb_stopwords, bool):
            raise TypeError("perturb_stopwords must be a bool; got "
                            f"{type(perturb_stopwords).__name__}")
        if oov == "subword":
            check_subword(embeddings)
        self.embeddings = embeddings
        self.oov = oov
        self.perturb_stopwords = perturb_stopwords
        self.block_words = block_words
        self.block_chars = block_chars
        self.entities = entities
        self.lang = get_language(lang)
        self.style = style
        self.people = DocumentPeople()  # the document's, across its blocks and pieces
        self._reset()

    def _reset(self) -> None:
        self.counts = {"stopwords_kept": 0, "oov_placeholders": 0, "oov_dropped": 0,
                       "oov_kept": 0, "numbers": 0, "urls": 0, "emails": 0, "paths": 0,
                       "symbols": 0}
        if self.oov == "subword":  # only then: the records of the other policies are unchanged
            self.counts["oov_subword"] = 0
        if self.entities is not None:  # likewise: only with entity detection
            self.counts.update(entity_words=0, entity_placeholders=0, entities_kept=0)
        if self.style is not None:
            self.counts["style_words"] = 0
        self.keys: list[EntityKey | None] = []
        self.entity_inputs: dict[EntityKey, tuple[int, np.ndarray | None]] = {}
        self.entity_counts: Counter[str] = Counter()
        self.pieces: list[str] = []
        self.points: list[np.ndarray] = []
        self.rows: list[int] = []
        self.cases: list[CasePattern] = []
        self.curly: list[bool] = []
        self.fixed: list[str] = []  # the layout since the last slot
        self.chars = 0

    def _block(self) -> TextTemplate:
        """The block so far (ending with the layout since its last slot); start a new one."""
        template = TextTemplate((*self.pieces, "".join(self.fixed)),
                                np.asarray(self.rows, dtype=np.int64), tuple(self.cases),
                                tuple(self.curly), self.counts,
                                np.stack(self.points) if self.points else None,
                                tuple(self.keys) if self.entities is not None else (),
                                self.entity_inputs, dict(self.entity_counts), self.lang)
        self._reset()
        return template

    def finish(self) -> TextTemplate:
        """The last block."""
        return self._block()

    def feed(self, text: str) -> Iterator[TextTemplate]:
        """Add a normalised piece; yield the blocks it completes."""
        counts, fixed = self.counts, self.fixed
        pos = 0
        tokens = self.entities.tokens_of(text, self.lang) if self.entities is not None else None
        if tokens is None:
            tokens = list(tokenize(text, lang=self.lang))
        words = [normalise_word(tok.text) if tok.kind == "word" else "" for tok in tokens]
        # a cased vocabulary is searched for the word as written first (Embeddings.rows)
        rows_of = self.embeddings.rows(
            [normalise_surface(tok.text) if tok.kind == "word" else "" for tok in tokens]
            if self.embeddings.cased else words)
        verbatim = ([False] * len(tokens) if self.perturb_stopwords
                    else verbatim_function_words(tokens, text, lang=self.lang))
        vectors = self._subword_vectors(words, rows_of, verbatim)
        decisions: list[Placeholder | Kept | EntitySlot | Dropped | None] = [None] * len(tokens)
        if self.entities is not None:
            decisions, counted = entity_decisions(
                self.entities, text, tokens, words, rows_of.tolist(), verbatim,
                embeddings=self.embeddings, oov=self.oov, initials=True,
                titles=self.lang.titles, linking=self.entities.linking_words(),
                lone_initials=self.lang.code != "en", document=self.people)
            self.entity_counts.update(counted)
        open_span = -1  # the span whose placeholder was written last, with nothing after it
        for n, (tok, word, row, keep, decision) in enumerate(zip(
                tokens, words, rows_of.tolist(), verbatim, decisions, strict=True)):
            if isinstance(decision, Dropped):  # a place's linking word: with the spaces after
                fixed.append(text[pos:tok.start])  # (kept after a possessive: "Robin's Stone")
                pos = tok.end if decision.spaces or n + 1 == len(tokens) else tokens[n + 1].start
                continue
            if isinstance(decision, Placeholder) and decision.span == open_span \
                    and "\n" not in text[pos:tok.start]:
                pos = tok.end  # the rest of a span already written as its placeholder
                continue
            if isinstance(decision, Placeholder) and decision.span != open_span:
                # what the span covers before its first token goes with it: "([PHONE]"
                fixed.append(text[pos:min(tok.start, decision.start) if decision.start >= pos
                                  else tok.start])  # a span begun by a slot: its space
            else:  # a span across a line break: a placeholder on each line
                fixed.append(text[pos:tok.start])
            pos = tok.end
            open_span = -1
            if isinstance(decision, Placeholder):
                fixed.append(decision.text)
                counts["entity_placeholders"] += 1
                open_span = decision.span
                continue
            if isinstance(decision, Kept):
                fixed.append(tok.text)
                counts["entities_kept"] += 1
                continue
            if tok.kind != "word":
                fixed.append(PLACEHOLDERS[tok.kind])
                counts[tok.kind + "s"] += 1
                continue
            if keep and not isinstance(decision, EntitySlot):  # "will" the name: a slot
                # the list's word, in the token's case: never a character the list does not hold
                kept = apply_case(word, case_pattern(tok.text))
                if self.style is not None and word in self.style:  # a slot of its own
                    fixed.append(f"{STYLE_OPEN}{kept}{STYLE_CLOSE}")
                    counts["style_words"] += 1
                    continue
                fixed.append(kept.replace("'", "’") if "’" in tok.text else kept)
                counts["stopwords_kept"] += 1
                continue
            point = vectors.get(word) if row < 0 else None
            if row >= 0 or point is not None or isinstance(decision, EntitySlot):
                if len(self.cases) == self.block_words:  # full: the block ends here
                    yield self._block()
                    counts, fixed = self.counts, self.fixed
                self.pieces.append("".join(fixed))
                fixed.clear()
                self.cases.append(case_pattern(tok.text))
                self.curly.append("’" in tok.text)
                if isinstance(decision, EntitySlot):
                    self.keys.append(decision.key)
                    self.entity_inputs.setdefault(decision.key, (decision.row, decision.point))
                    counts["entity_words"] += 1
                    continue
                self.keys.append(None)
                self.rows.append(row)  # -1: the slot's word is its subword vector
                if point is not None:
                    self.points.append(point)
                    counts["oov_subword"] += 1
            elif self.oov in ("placeholder", "subword"):  # subword: no n-gram in the model
                fixed.append(OOV_PLACEHOLDER)
                counts["oov_placeholders"] += 1
            elif self.oov == "keep":
                fixed.append(tok.text)
                counts["oov_kept"] += 1
            else:
                counts["oov_dropped"] += 1
        fixed.append(text[pos:])
        self.chars += len(text)
        if self.block_chars is not None and self.chars >= self.block_chars:
            yield self._block()
    def _subword_vectors(self, words: list[str], rows: np.ndarray, kept: list[bool]
                         ) -> dict[str, np.ndarray]:
        """Under ``oov="subword"``: the subword vector of each distinct out-of-vocabulary
        word of a piece that would be perturbed, if it has one (not the zero vector)."""
        if self.oov != "subword":
            return {}
        wanted = sorted({w for w, r, keep in zip(words, rows.tolist(), kept, strict=True)
                         if r < 0 and w and not keep})
        vecs = self.embeddings.subword_vectors(wanted)
        return {w: v for w, v in zip(wanted, vecs, strict=True) if np.any(v != 0)}


def warn_kept(n_kept: int, *, stacklevel: int = 2) -> None:
    """Raise the :class:`PrivacyLeakWarning` for ``n_kept`` words released unchanged.

    The message gives the count only, never the words.
    """
    warnings.warn(f"{n_kept} out-of-vocabulary word(s) released unchanged (oov='keep'): the "
                  "privacy guarantee does not cover them", PrivacyLeakWarning,
                  stacklevel=stacklevel + 1)
