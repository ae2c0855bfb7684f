"""The paper's experiment on the readable release (issue 41, ``evaluate --format text``).

The bag channel (App. B) releases each snippet as a bag of N words with no function word
and no punctuation.  The text users release (``obfuscate --format text``) keeps the
layout: the function words of the allow-list and the punctuation stay as they are, every
other word is replaced in place.  In the text channel each unknown-author snippet — the
last part of the author's text (:func:`~emprivacy.evaluation.datasets.split_text`), whole —
is released exactly as ``obfuscate --format text`` releases a document
(:class:`~emprivacy.obfuscation.Obfuscator` with ``ObfuscationConfig(mode="text")`` and the
run's entity settings), and the attacks read the released text:

* the author attacks (DRauth and :class:`~emprivacy.evaluation.authorship.AuthorshipSuite`)
  read its tokens (:func:`text_tokens`), against the tokens of the known texts, on every
  view (all, function words, punctuation, unchanged);
* SRauth, SRtopic and DRtopic read the bag of the released text
  (:func:`~emprivacy.evaluation.datasets.normalised_bag`, its first N words), as in the bag
  channel: post-processing of the release (Lemma 3).

In a language with elisions (French, ``lang="fr"``) an elision is a token of its own
(``l’hôpital`` → ``l’``, ``hôpital``: a function word, as the tokeniser splits it), also
before a placeholder (``l’[UNK]``).  With ``known="truncated"`` the known texts are cut to
as many tokens as the shortest snippet has.  The word recovery is not measured in this
channel (the release is text, not the pairs of original and released rows it is computed
from).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from emprivacy.evaluation.datasets import Corpus, normalised_bag, split_text
from emprivacy.io.documents import Document
from emprivacy.mechanisms import WordMechanism
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.text.language import get_language
from emprivacy.text.normalise import normalise_text

__all__ = ["CHANNELS", "TextChannel", "bags_of", "release_texts", "text_tokens"]

#: What the experiment releases: the paper's bags of N words, or the readable text.
CHANNELS: tuple[str, ...] = ("bag", "text")


#: A token for the author attacks: a placeholder of the release (``[UNK]``, ``[PERSON]``:
#: one token, not punctuation), a run of letters and digits (with inner apostrophes), or one
#: character that is neither one nor a space (punctuation, symbols: style).
_TOKEN = re.compile(r"\[[A-Z_]+\]|\w+(?:['’]\w+)*|[^\w\s]")
#: The same, with a word ending in an apostrophe before a placeholder (``l’[UNK]``) one token.
_ELIDED_TOKEN = re.compile(r"\[[A-Z_]+\]|\w+['’](?=\[[A-Z_]+\])|\w+(?:['’]\w+)*|[^\w\s]")


def text_tokens(text: str, *, lang: str = "en") -> list[str]:
    """The tokens of a text as the author attacks read it: words and every punctuation
    character, in order, as written (the normalised text, :func:`emprivacy.text.
    normalise_text`; unlike :func:`emprivacy.text.tokenize`, punctuation is kept).  In a
    language with elisions, an elision is split off the word after it.

    >>> text_tokens("[PERSON] sailed; the storm, it didn't come!")
    ['[PERSON]', 'sailed', ';', 'the', 'storm', ',', 'it', "didn't", 'come', '!']
    >>> text_tokens("L’hôpital qu’il aime, aujourd’hui l’[UNK].", lang="fr")
    ['L’', 'hôpital', 'qu’', 'il', 'aime', ',', 'aujourd’hui', 'l’', '[UNK]', '.']
    """
    language = get_language(lang)
    if not language.elisions:
        return _TOKEN.findall(normalise_text(text))
    out: list[str] = []
    for token in _ELIDED_TOKEN.findall(normalise_text(text)):
        cut = language.word_parts(token)[0] if token[0].isalnum() else 0
        out.extend((token[:cut], token[cut:]) if 0 < cut < len(token) else (token,))
    return out


@dataclass(frozen=True)
class TextChannel:
    """One author set's texts for the text channel: the snippets as text, and the tokens of
    the snippets and of the known texts."""

    doc_ids: tuple[str, ...]
    snippet_texts: tuple[str, ...]
    snippet_tokens: tuple[tuple[str, ...], ...]
    whole_known: tuple[tuple[str, ...], ...]

    @classmethod
    def build(cls, corpus_set: Corpus, *, known_fraction: float, lang: str = "en"
              ) -> TextChannel:
        """Split every author's text into its known text and snippet, as the bag channel
        does (in ``lang``)."""
        known, snippets = [], []
        for d in corpus_set:
            first, last = split_text(d.text, known_fraction=known_fraction, lang=lang)
            known.append(tuple(text_tokens(first, lang=lang)))
            snippets.append(last)
        return cls(tuple(d.doc_id for d in corpus_set), tuple(snippets),
                   tuple(tuple(text_tokens(s, lang=lang)) for s in snippets), tuple(known))

    def known(self, mode: str) -> tuple[tuple[str, ...], ...]:
        """The known texts' tokens, whole or cut to the shortest snippet's token count."""
        if mode == "whole":
            return self.whole_known
        n = min(len(s) for s in self.snippet_tokens)
        return tuple(t[:n] for t in self.whole_known)


def release_texts(channel: TextChannel, mechanism: WordMechanism, *, run_key: bytes,
                  name: str, entities: dict[str, Any] | None = None) -> list[str]:
    """Every snippet released as ``obfuscate --format text`` releases a document: one
    :class:`~emprivacy.obfuscation.Obfuscator` in text mode, keyed by a run key derived
    from ``run_key`` and ``name`` (each document its own noise stream), with the language,
    entity and style settings (``lang``, ``entities``, ``entity_epsilon``, ``entity_policy``,
    ``style_epsilon``) if given."""
    config = ObfuscationConfig(mode="text", **(entities or {}))
    key = hashlib.sha256(run_key + b"/" + name.encode("utf-8")).digest()
    run = Obfuscator(mechanism, config, run_key=key, on_warning=lambda _: None)
    records = list(run.obfuscate(Document(i, t) for i, t in
                                 zip(channel.doc_ids, channel.snippet_texts, strict=True)))
    out = {r["id"]: r["text"] for r in records}
    return [out.get(i, "") for i in channel.doc_ids]


def bags_of(texts: Sequence[str], embeddings: Any, n: int, *, lang: str = "en"
            ) -> list[tuple[str, ...]]:
    """The first ``n`` words of each text's bag in ``lang`` (in-vocabulary words only)."""
    return [tuple(normalised_bag(t, embeddings, oov="drop", lang=lang)[:n]) for t in texts]
