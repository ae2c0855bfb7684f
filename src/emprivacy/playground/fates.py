"""Every word's fate in a release: changed, kept, function word, placeholder, entity slot, OOV.

A text-mode release is its template (:class:`~emprivacy.preparation.TextTemplate`) rendered:
the layout pieces, fixed, with the M slots in between filled by the mechanism's words.  The
page shows the release the library wrote (:func:`~emprivacy.privatize_texts`) and reads the
template of the same text, prepared with the same settings
(:func:`~emprivacy.preparation.prepare_text`), to say what each part of it is: a slot's
released word against the vocabulary word it replaced (``changed`` or ``kept``), an entity
slot's surrogate and type, and inside the layout the placeholders (``[NUM]``, an entity's
``[DATE]``, an out-of-vocabulary ``[UNK]``) and the function words kept as they are.
Nothing here draws noise or decides what is released: it only labels what was.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # pragma: no cover
    from emprivacy.preparation import TextTemplate

__all__ = ["FATES", "Fate", "Segment", "release_segments"]

Fate = Literal["changed", "kept", "function", "placeholder", "entity", "entity-placeholder",
               "entity-kept", "oov", "layout"]

#: Every fate, with what the page's legend says of it.
FATES: dict[str, str] = {
    "changed": "changed: the mechanism released another word",
    "kept": "kept: the mechanism released the word itself",
    "function": "function word: kept as it is (layout, outside the mechanism)",
    "placeholder": "placeholder: a number, URL, e-mail address, path or symbol",
    "entity": "entity slot: a surrogate drawn within its type's public words at ε_e",
    "entity-placeholder": "entity placeholder: a detected entity replaced by its type",
    "entity-kept": "entity kept: released as written (policy 'keep', outside the guarantee)",
    "oov": "out of vocabulary: replaced by [UNK], nothing of it released",
}

_LAYOUT = re.compile(r"(\[[A-Z_]+\])|(['’]?[^\W\d_][\w'’-]*)")
_SIMPLE = {"[NUM]", "[URL]", "[EMAIL]", "[PATH]", "[SYM]"}


@dataclass(frozen=True, slots=True)
class Segment:
    """A piece of a release and what it is.

    Attributes
    ----------
    text : str
        The piece as released.
    fate : str
        One of :data:`FATES`, or ``"layout"`` (whitespace, punctuation).
    original : str or None
        A slot's input: the vocabulary word it replaced, or the entity word.
    entity_type : str or None
        The type of an entity slot or placeholder.
    """

    text: str
    fate: Fate
    original: str | None = None
    entity_type: str | None = None


def release_segments(template: TextTemplate, release: str, vocabulary: Sequence[str], *,
                     function_words: frozenset[str]) -> list[Segment] | None:
    """Cut ``release`` into labelled segments, by the template it was rendered from.

    Returns ``None`` where the release does not read as the template's layout with one
    word in each slot (then the page shows the release without labels).

    Examples
    --------
    >>> from emprivacy import Embeddings
    >>> from emprivacy.preparation import prepare_text
    >>> emb = Embeddings(["cat", "dog", "met"], [[0, 0], [1, 0], [5, 5]], name="toy")
    >>> t = prepare_text("The Cat met Snape at 10.", emb)
    >>> [(s.text, s.fate) for s in release_segments(t, "The Dog met [UNK] at [NUM].",
    ...                                             emb.words, function_words=frozenset(
    ...                                                 {"the", "at"}))]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('The', 'function'), (' ', 'layout'), ('Dog', 'changed'), (' ', 'layout'),
     ('met', 'kept'), (' ', 'layout'), ('[UNK]', 'oov'), (' ', 'layout'),
     ('at', 'function'), (' ', 'layout'), ('[NUM]', 'placeholder'), ('.', 'layout')]
    """
    pattern = r"(\S+?)".join(re.escape(p) for p in template.pieces)
    found = re.fullmatch(pattern, release, flags=re.DOTALL)
    if found is None:
        return None
    keys = template.entities or (None,) * len(template.cases)
    general = iter(template.indices.tolist())
    # a word of the layout is a kept function word, unless an entity policy kept words
    kept = function_words if template.counts.get("entities_kept", 0) else None
    out = _layout(template.pieces[0], kept)
    for i, word in enumerate(found.groups()):
        key = keys[i]
        if key is None:
            row = next(general)
            original = vocabulary[row] if row >= 0 else None
            same = original is not None and _plain(word) == _plain(original)
            out.append(Segment(word, "kept" if same else "changed", original))
        else:
            out.append(Segment(word, "entity", key[1], key[0]))
        out.extend(_layout(template.pieces[i + 1], kept))
    return out


def _plain(word: str) -> str:
    return word.replace("’", "'").lower()


def _layout(piece: str, function_words: frozenset[str] | None) -> list[Segment]:
    """A layout piece cut into placeholders, kept words and the rest (``function_words``:
    where entity words were kept too, the words that are function words; ``None``: all)."""
    out: list[Segment] = []
    pos = 0
    for match in _LAYOUT.finditer(piece):
        if match.start() > pos:
            out.append(Segment(piece[pos:match.start()], "layout"))
        token = match.group()
        if match.group(1):
            if token == "[UNK]":
                out.append(Segment(token, "oov"))
            elif token in _SIMPLE:
                out.append(Segment(token, "placeholder"))
            else:
                out.append(Segment(token, "entity-placeholder", entity_type=token[1:-1]))
        else:
            plain = _plain(token)
            function = function_words is None or plain in function_words or any(
                part in function_words for part in plain.split("'"))
            out.append(Segment(token, "function" if function else "entity-kept"))
        pos = match.end()
    if pos < len(piece):
        out.append(Segment(piece[pos:], "layout"))
    return out
