"""What a release with entity protection still shows: hand-labelled texts, aligned with their
release token by token (issue 40).

A labelled text marks its entities inline as ``{{TYPE|surface}}`` with TYPE one of ``PER``,
``LOC``, ``ORG``, ``DATE``, ``ID`` (tests/entities/labelled/README.md).  :func:`unmark` gives
the natural text and the labelled character spans; :func:`leak_tally` aligns the text's
tokens with a release of it (a longest common subsequence of the lower-cased tokens, line by
line where the release keeps the lines: a token of it is *verbatim*) and counts, per kind
of token, how many there are and how many came out verbatim:

* ``per`` — words of person names (titles such as ``Mr.`` are not names);
* ``locorg`` — words of places and organisations; ``locorg_names`` — those of them that
  are no function word that text mode keeps and no possessive ending (``of``, ``the``,
  ``'s`` of ``Sawyer's Lane``): the words of the name itself; ``locorg_rare`` — those of
  the names' words that ``rare`` says are rare as ordinary words (given ``rare``: the
  distinctive part of a name, ``Ystradgynlais`` rather than ``Green`` of ``the Green``);
* ``month`` — the month words of dates; ``idletters`` — the words of identifiers
  (``KD`` of ``KD-44718``);
* ``content`` — the other words that are in the vocabulary and are not function words that
  text mode keeps: the words whose change measures what protection costs.

The counts are what docs/ENTITIES.md reports and what ``benchmarks/entity_leaks.py``
prints.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable, Sequence

import numpy as np

from emprivacy.text.language import ENGLISH, Language, get_language
from emprivacy.text.normalise import normalise_word
from emprivacy.text.tokens import Token, tokenize
from emprivacy.text.word_lists import KEPT_FUNCTION_WORDS

__all__ = ["LABELS", "LabelledSpan", "labelled_tokens", "leak_tally", "unmark",
           "verbatim_tokens"]

#: The labels of a labelled text.
LABELS: tuple[str, ...] = ("PER", "LOC", "ORG", "DATE", "ID")
#: A labelled span: start, end (characters of the unmarked text) and label.
LabelledSpan = tuple[int, int, str]

_MARK = re.compile(r"\{\{(PER|LOC|ORG|DATE|ID)\|([^{}|]*)\}\}")
_TITLES = frozenset({"mr", "mrs", "ms", "mx", "dr", "miss", "prof", "professor", "sir",
                     "madam"})
_MONTHS = frozenset("january february march april may june july august september october "
                    "november december jan feb mar apr jun jul aug sep sept oct nov "
                    "dec".split())


def unmark(marked: str, *, pattern: re.Pattern[str] = _MARK, text_group: int = 2,
           label_group: int = 1) -> tuple[str, list[LabelledSpan]]:
    """The text without its marks, and its labelled spans.  ``pattern`` matches one mark,
    its ``text_group`` the text and its ``label_group`` the label (by default
    ``{{LABEL|text}}``).

    >>> unmark("Hi {{PER|Sean O'Brien}}, see {{ID|KD-1}}.")
    ("Hi Sean O'Brien, see KD-1.", [(3, 15, 'PER'), (21, 25, 'ID')])
    """
    out: list[str] = []
    spans: list[LabelledSpan] = []
    pos = length = 0
    for m in pattern.finditer(marked):
        out.append(marked[pos:m.start()])
        length += m.start() - pos
        found = m.group(text_group)
        spans.append((length, length + len(found), m.group(label_group)))
        out.append(found)
        length += len(found)
        pos = m.end()
    out.append(marked[pos:])
    return "".join(out), spans


def labelled_tokens(text: str, spans: Sequence[LabelledSpan], *,
                    lang: str | Language = "en") -> list[tuple[Token, str]]:
    """Every token of ``text`` with its label (``""``: none); a title inside a person's span
    is no name.

    >>> [(t.text, label) for t, label in labelled_tokens("Mr. Lee", [(0, 7, "PER")])]
    [('Mr', ''), ('Lee', 'PER')]
    """
    language = get_language(lang)
    titles = _TITLES if language is ENGLISH else language.titles
    out = []
    for tok in tokenize(text, lang=language):
        label = next((kind for start, end, kind in spans
                      if start <= tok.start and tok.end <= end), "")
        if label == "PER" and tok.kind == "word" and normalise_word(tok.text) in titles:
            label = ""
        out.append((tok, label))
    return out


_PLACEHOLDER = re.compile(r"\[[A-Z_]+\]")
_POSSESSIVES = frozenset({"'s", "’s", "'", "’", "s"})


def verbatim_tokens(text: str, release: str, *, lang: str | Language = "en") -> list[bool]:
    """Per token of ``text``: whether the alignment finds it unchanged in ``release``
    (case aside; an elision the release writes in full, ``l’`` as ``le`` before a released
    consonant, is the same word: :func:`emprivacy.preparation.writing.write_elision`).
    A placeholder of the release (``[UNK]``, ``[PERSON]``) is read as one word, so the
    elision before it, ``l’[UNK]``, is still found.  Where the release has as many lines as
    the text (text mode keeps the layout), each line is aligned with its own: a word is
    never matched with the same word lines away (``Le`` of ``Maître Pierre-Yves Le Bihan``
    with the ``le`` of a date four lines down, once the words around it had changed).

    >>> verbatim_tokens("talked to dana today", "Talked to Lucy today")
    [True, True, False, True]
    >>> verbatim_tokens("à l’hôpital", "à le palace", lang="fr")
    [True, True, False]
    >>> verbatim_tokens("par l'aide-soignante", "par l'[UNK]", lang="fr")
    [True, True, False]
    """
    elisions = get_language(lang).elisions
    # apart from a word it is written against: ``ce[NUM]`` of ``ce1`` keeps its ``ce``
    release = _PLACEHOLDER.sub(_placeholder_word, release)

    def key(token: str) -> str:
        word = token.lower().replace("’", "'")
        return word[:-1] + "e" if word in elisions else token.lower()

    if text.count("\n") == release.count("\n"):  # text mode keeps the lines: align each
        return [same for line, out in zip(text.split("\n"), release.split("\n"), strict=True)
                for same in _aligned(line, out, key, lang)]
    return _aligned(text, release, key, lang)


#: The most cells (tokens of a line × tokens of its release) aligned exactly; a longer line
#: (a whole document on one line) is aligned by :class:`difflib.SequenceMatcher`'s blocks.
EXACT_CELLS = 16_000_000


def _placeholder_word(m: re.Match[str]) -> str:
    """A placeholder as one word, apart from a letter or digit it is written against."""
    text, start, end = m.string, m.start(), m.end()
    before = " " if start and text[start - 1].isalnum() else ""
    after = " " if end < len(text) and text[end].isalnum() else ""
    return f"{before}placeholder{after}"


def _aligned(text: str, release: str, key: Callable[[str], str],
             lang: str | Language) -> list[bool]:
    """Per token of ``text``, whether a longest common subsequence of the two token lists
    holds it.  Not :class:`difflib.SequenceMatcher`'s blocks: it takes the earliest equal
    token first, so a word of a date (``Feb`` of ``11 Feb 2025``, released as ``[DATE]``)
    was matched with the same word released lines later for another (``until Nov`` →
    ``until Feb``), and the words between went unmatched (issue 40, stage 24)."""
    ta, tb = list(tokenize(text, lang=lang)), list(tokenize(release, lang=lang))
    a, b = [key(t.text) for t in ta], [key(t.text) for t in tb]
    same = [False] * len(a)
    if not a or not b:
        return same
    if len(a) * len(b) > EXACT_CELLS:
        for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
            for k in range(block.size):
                same[block.a + k] = True
        return same
    for i in _lcs(a, b, exact=([t.text for t in ta], [t.text for t in tb])):
        same[i] = True
    return same


def _lcs(a: Sequence[str], b: Sequence[str], *,
         exact: tuple[Sequence[str], Sequence[str]] | None = None) -> list[int]:
    """The positions in ``a`` of a longest common subsequence of ``a`` and ``b``: the table
    :math:`L_{i,j}` row by row (:math:`L_{i,j} = \\max_{k \\le j} T_k`, with :math:`T_k =
    \\max(L_{i-1,k}, L_{i-1,k-1} + w_{ik})`: a running maximum, one array operation per
    row), then traced back.  A match weighs :math:`n + 1` (:math:`n` the shorter length),
    and one more where the tokens of ``exact`` (the words as written) are equal too: of the
    longest subsequences, one with the most matches in the same case (the firm's ``Gin``
    released as ``[ORG]`` and the product's ``gin`` after it: the release's ``gin`` is the
    product's; issue 40, stage 25).

    >>> _lcs("y 11 feb 2025 tal checked in deal until nov".split(),
    ...      "y [date] [org] checked [date] in dano until feb".split())
    [0, 5, 6, 8]
    >>> _lcs(["hare", "gin", "lily", "gin"], ["[org]", "x", "gin"],
    ...      exact=(["Hare", "Gin", "Lily", "gin"], ["[ORG]", "X", "gin"]))
    [3]
    """
    codes: dict[str, int] = {}
    bb = np.array([codes.setdefault(w, len(codes)) for w in b], dtype=np.int64)
    weight = min(len(a), len(b)) + 1
    table = np.zeros((len(a) + 1, len(b) + 1), dtype=np.int64)
    for i, word in enumerate(a, 1):
        match = (bb == codes.get(word, -1)) * weight
        if exact is not None and match.any():
            match += match.astype(bool) & np.fromiter(
                (w == exact[0][i - 1] for w in exact[1]), dtype=bool, count=len(b))
        prev = table[i - 1]
        row = np.maximum(prev[1:], prev[:-1] + match)
        table[i, 1:] = np.maximum.accumulate(row)
    out = []
    i, j = len(a), len(b)
    while i and j:
        gain = 0 if a[i - 1] != b[j - 1] else weight + (
            exact is not None and exact[0][i - 1] == exact[1][j - 1])
        if gain and table[i, j] == table[i - 1, j - 1] + gain:
            out.append(i - 1)
            i, j = i - 1, j - 1
        elif table[i - 1, j] >= table[i, j - 1]:
            i -= 1
        else:
            j -= 1
    return out[::-1]


def leak_tally(text: str, spans: Sequence[LabelledSpan], release: str, *,
               in_vocabulary: Callable[[str], bool],
               lang: str | Language = "en",
               rare: Callable[[str], bool] | None = None) -> Counter[str]:
    """Per kind of token (see the module's description), how many there are (``kind``) and
    how many the release shows verbatim (``kind + "_kept"``).

    ``in_vocabulary(word)`` says whether a normalised word is in the embeddings' vocabulary
    (for ``content``).  ``lang``: the language of the tokens, months, titles and kept
    function words.  ``rare(word)``, if given, says whether a names' word of a place or an
    organisation is rare as an ordinary word (``locorg_rare``; ``benchmarks/entity_leaks.py``
    passes a ``wordfreq`` Zipf frequency below 3).

    >>> text, spans = unmark("{{PER|dana}} left on {{DATE|march 3}} with the tickets")
    >>> c = leak_tally(text, spans, "Lucy left on [DATE] with the banknotes",
    ...                in_vocabulary=lambda w: True)
    >>> c["per"], c["per_kept"], c["month"], c["month_kept"], c["content"], c["content_kept"]
    (1, 0, 1, 0, 2, 1)
    >>> text, spans = unmark("at {{LOC|Sawyer's Lane}} by {{ORG|the Bank of Oz}}")
    >>> c = leak_tally(text, spans, "at Nahl's Hills by the [ORG]", in_vocabulary=lambda w: True)
    >>> c["locorg"], c["locorg_kept"], c["locorg_names"], c["locorg_names_kept"]
    (7, 2, 4, 0)
    >>> c = leak_tally(text, spans, "at Sawyer's Hills by the [ORG]",
    ...                in_vocabulary=lambda w: True, rare=lambda w: w == "sawyer")
    >>> c["locorg_names_kept"], c["locorg_rare"], c["locorg_rare_kept"]
    (1, 1, 1)
    """
    language = get_language(lang)
    months, kept_words = ((_MONTHS, KEPT_FUNCTION_WORDS) if language is ENGLISH
                          else (language.months, language.kept_function_words))
    tally: Counter[str] = Counter()
    same = verbatim_tokens(text, release, lang=language)
    for (tok, label), kept in zip(labelled_tokens(text, spans, lang=language), same,
                                  strict=True):
        if tok.kind != "word":
            continue
        word = normalise_word(tok.text)
        if label == "PER":
            key = "per"
        elif label in ("LOC", "ORG"):
            key = "locorg"
        elif label == "DATE":
            key = "month" if word in months else ""
        elif label == "ID":
            key = "idletters"
        elif word not in kept_words and in_vocabulary(word):
            key = "content"
        else:
            key = ""
        if key:
            tally[key] += 1
            tally[key + "_kept"] += kept
        if key == "locorg" and word not in kept_words and word not in _POSSESSIVES:
            tally["locorg_names"] += 1
            tally["locorg_names_kept"] += kept
            if rare is not None and rare(word):
                tally["locorg_rare"] += 1
                tally["locorg_rare_kept"] += kept
    return tally
