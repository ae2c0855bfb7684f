"""Text → tokens → bag of words (Def. 1 and the end of §2 of the paper).

A *document* is a finite bag over the set of words S (Def. 1).  To prepare a text
as the paper does (§2, App. B) we normalise it (:mod:`emprivacy.text.normalise`),
tokenise it, lowercase it, drop punctuation and stopwords
(:data:`~emprivacy.text.word_lists.STOPWORDS`), and optionally truncate it to a fixed
size N.  We keep the words in the order of their occurrence (repeats included: a bag
counts multiplicities), so that truncation to the first N words is reproducible.

Tokenisation follows the conventions of the common embedding vocabularies
(GloVe, word2vec): a word is a run of letters (with their combining marks),
possibly joined by inner hyphens or apostrophes (``e-mail``, ``o'clock``);
English clitics (``'s``, ``n't``, ``'ll``, …) are split off and treated as
stopwords; digits, number words (:data:`~emprivacy.text.word_lists.NUMBER_WORDS`), URLs
(any scheme, and bare domains), e-mail addresses and file paths are their own token
kinds and are never words.  Every other character that is neither whitespace nor
allowed punctuation (:data:`~emprivacy.text.normalise.LAYOUT_PUNCTUATION`) — symbols,
emoji, Braille, private-use characters, stray combining marks — is part of a
``"symbol"`` token.  So the characters *between* tokens are, by construction, only
layout: the allow-list that text mode releases.  Of the words, text mode keeps the
pure function words as they are (:func:`verbatim_function_words`).

A long text is normalised and tokenised in pieces
(:func:`~emprivacy.text.normalise.normalise_pieces`, :func:`piece_words`).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import islice, pairwise
from typing import Literal

from emprivacy._validation import check_positive_int
from emprivacy.text._unicode import word_pattern, word_regex
from emprivacy.text.language import ENGLISH, Language, get_language
from emprivacy.text.normalise import (
    LAYOUT_PUNCTUATION,
    LAYOUT_WHITESPACE,
    normalise_text,
    normalise_word,
)
from emprivacy.text.word_lists import (
    CLITIC_STEMS,
    CLITICS,
    KEPT_FUNCTION_WORDS,
    LOWERCASE_ONLY,
    STOPWORDS,
    is_number_word,
    top_level_domains,
)

__all__ = [
    "OPAQUE_SCHEMES",
    "Token",
    "bag_of_words",
    "is_word",
    "piece_words",
    "tokenize",
    "verbatim_function_words",
]

TokenKind = Literal["word", "number", "url", "email", "path", "symbol"]

_LAYOUT_CLASS = "".join(re.escape(c) for c in sorted(LAYOUT_WHITESPACE | LAYOUT_PUNCTUATION))

#: URI schemes recognised without ``//`` after the colon (``mailto:``, ``tel:``, …); any
#: scheme followed by ``://`` is a URL whatever its name.
OPAQUE_SCHEMES: tuple[str, ...] = (
    "mailto", "tel", "sms", "fax", "urn", "data", "news", "magnet", "javascript", "sip", "sips",
    "xmpp", "geo", "bitcoin", "callto", "skype", "about", "doi", "file")

#: The rest of a URL or path: up to whitespace, holding a letter or digit, the trailing
#: sentence punctuation left out (it is layout).
_LOCATOR_BODY = r"(?=[^\s<>\"']*?\w)[^\s<>\"']*[^\s<>\"'.,;:!?)\]]"


def _locator_patterns() -> str:
    """The URL, e-mail and path alternatives of the token pattern (named groups)."""
    by_first: dict[str, list[str]] = {}
    for tld in sorted(top_level_domains(), key=len, reverse=True):  # longest first
        by_first.setdefault(tld[0], []).append(re.escape(tld[1:]))
    # grouped by first letter: a label that is no TLD fails after one of ~40 branches
    tlds = "|".join(f"{re.escape(c)}(?:{'|'.join(rest)})" for c, rest in sorted(by_first.items()))
    # any run of word characters and hyphens: a chain tried from its start covers every later
    # label (so no later start is tried), whatever its labels look like (`_srv`, `a-`)
    label = r"[\w\-]+"
    opaque = "|".join(OPAQUE_SCHEMES)
    return (
        # a scheme and its URL: http://, FTP://, file:///, s3://, mailto:, www.
        # No alternative may rescan the rest of a long run at each of its characters
        # (`qx.qx.qx...`: quadratic, 24 KB in 32 s instead of 0.1 s).  So a scheme has at
        # most 32 characters, and the e-mail and backslashed alternatives start only where
        # their character run starts (an attempt there covers every later start in the
        # run: same class, same end); a domain starts only where its chain of labels starts
        # (not right after a label character, nor after one and a dot).
        rf"(?P<url>(?i:[a-z][a-z0-9+.\-]{{0,31}}://|(?:{opaque}):|www\.){_LOCATOR_BODY})"
        # user@host, any host (bob@localhost, a@b.org, root@10.0.0.1)
        r"|(?P<email>(?<![\w.+\-])[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)*)"
        # C:\Users\x, D:/data, \\server\share
        rf"|(?P<drive>(?<![^\W_\\])[A-Za-z]:[\\/](?:{_LOCATOR_BODY})?|\\\\{_LOCATOR_BODY})"
        # /home/x, ~/x, ~alice/x, ./x, ../x, -/x (not and/or, x-/y: a slash right after a word is
        # layout)
        # //server/share/x, $HOME/x, ${HOME}/x, %USERPROFILE%\x
        rf"|(?P<posix>(?<![^\W_])(?<![/.~])(?<![^\W_][\-_])"
        rf"(?:~[\w.\-]*|\.\.?|\$\{{?[^\W\d]\w*\}}?|%[^\W\d]\w*%)?(?:/{{1,2}}|(?<=%)\\)(?=[\w.$~\-])"
        rf"{_LOCATOR_BODY})"
        # Users\alice\secret: words joined by backslashes
        r"|(?P<backslashed>(?<![\w.$~\-])[\w.$~\-]+(?:\\[\w.$~\-]+)+\\?)"
        # a bare domain: alice.example.com, EXAMPLE.CO.UK:8080/x (the last label a known TLD)
        rf"|(?P<domain>(?<![\w\-])(?<![\w\-]\.)(?:{label}\.)+(?i:{tlds}|xn--[a-z0-9\-]+)(?![\w\-])"
        rf"(?::\d{{1,5}})?(?:[/?#](?:{_LOCATOR_BODY})?)?)"
    )


#: The token kind of each named group of the token pattern.
_GROUP_KINDS: dict[str, TokenKind] = {
    "url": "url", "domain": "url", "email": "email", "drive": "path", "posix": "path",
    "backslashed": "path", "number": "number", "word": "word", "word2": "word",
    "symbol": "symbol"}


@cache
def _token_pattern() -> re.Pattern[str]:
    """The token pattern (built once, on first use: ~30 ms)."""
    word = word_regex()
    return re.compile(
        # a word after which no locator character comes: no locator can start there (the fast
        # path of running text)
        rf"(?P<word>(?>{word}))(?![\w+\-$~@.:\\/])"
        # only a run that reaches one of @ . : \ / can start a locator, within 256 characters
        # (no scheme, e-mail local part, host label, user name or path segment is longer;
        # unbounded, this look-ahead would rescan a long run at each of its words)
        + rf"|(?=[\w+\-$~{{}}%]{{0,256}}+[@.:\\/])(?:{_locator_patterns()})"
        + r"|(?P<number>\d+(?:[.,:/\-⁄]\d+)*(?:st|nd|rd|th|ST|ND|RD|TH|s|%)?)"
        + rf"|(?P<word2>{word})"
        + rf"|(?P<symbol>[^{_LAYOUT_CLASS}\w]+)"
    )


#: English clitics split from the end of a word, as the GloVe and word2vec
#: vocabularies tokenise them ("don't" → "do" + "n't").
_CLITIC_RE = re.compile(r"^(?P<stem>.+?)(?P<clitic>n['’]t|['’](?:s|d|ll|m|re|ve))$", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a text: its kind, its surface form and its span ``[start, end)``."""

    kind: TokenKind
    text: str
    start: int
    end: int


def _is_number(surface: str) -> bool:
    return is_number_word(normalise_word(surface)) or any(c.isnumeric() for c in surface)


def tokenize(text: str, *, lang: str | Language = "en") -> Iterator[Token]:
    """Split ``text`` into word, number, URL, e-mail, path and symbol tokens, with their spans.

    ``text`` should be normalised first (:func:`normalise_text`; spans refer to
    the text as given).  Characters between tokens are only allowed layout
    (:func:`is_layout`).  A word ending in an English clitic yields the stem and
    the clitic as two tokens; a number word (:func:`is_number_word`) is a
    ``"number"`` token, and so is a run of letters holding a numeric character
    (``½``, ``Ⅻ``, ``m²``); a run of characters that are neither layout, letters nor
    digits is one ``"symbol"`` token.

    Locators are matched before words, in any case: a ``"url"`` is a scheme with
    ``://`` (any scheme: ``http``, ``FTP``, ``file``, ``s3``, …), a scheme of
    :data:`OPAQUE_SCHEMES` with its ``:``, ``www.``, or a bare domain (labels joined by
    dots ending in a top-level domain of :func:`top_level_domains`), each with what
    follows up to whitespace (less trailing sentence punctuation); an ``"email"`` is
    ``user@host`` with any host (``bob@localhost``); a ``"path"`` is a Windows path
    (``C:\\x``, ``C:/x``, ``\\\\server\\share``, words joined by backslashes) or a POSIX
    one starting with ``/``, ``~/``, ``~user/``, ``./`` or ``../`` where no word comes
    right before the slash (``and/or`` is two words).

    ``lang`` (a code or :class:`~emprivacy.text.language.Language`) gives the splitting of
    words and the number words; English by default.  In French an elision is split off the
    word after it (``l'`` + ``hôpital``) and so is the pronoun of an inverted question
    (``pourriez`` + ``-vous``, ``a`` + ``-t-elle``); a hyphenated word stays whole
    (``peut-être``, ``Saint-Louis``); ``3,5`` is one number.

    >>> [t.text for t in tokenize("L’hôpital, peut-être ? A-t-elle 3,5 kg", lang="fr")]
    ['L’', 'hôpital', 'peut-être', 'A', '-t-elle', '3,5', 'kg']
    >>> [(t.kind, t.text) for t in tokenize("Don't e-mail a@b.org 2 times! ❤️ five")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('word', 'Do'), ('word', "n't"), ('word', 'e-mail'), ('email', 'a@b.org'),
     ('number', '2'), ('word', 'times'), ('symbol', '❤️'), ('number', 'five')]
    >>> [(t.kind, t.text) for t in tokenize("See WWW.X.ORG, bob@host and ~/notes or/and")]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('word', 'See'), ('url', 'WWW.X.ORG'), ('email', 'bob@host'), ('word', 'and'),
     ('path', '~/notes'), ('word', 'or'), ('word', 'and')]
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    language = get_language(lang)
    for match in _token_pattern().finditer(text):
        kind = _GROUP_KINDS[match.lastgroup]  # type: ignore[index]
        start, end = match.span()
        surface = match.group()
        if kind == "word" and language is not ENGLISH:
            yield from _language_words(surface, start, language)
            continue
        if kind == "word":
            stem, kind = _word_token(surface)
            if stem:
                split = start + stem
                yield Token(kind, surface[:stem], start, split)
                yield Token("word", surface[stem:], split, end)
                continue
        if kind == "number" and language is ENGLISH and "," in surface:
            yield from _list_commas(surface, start)
            continue
        yield Token(kind, surface, start, end)


#: An English comma inside digits that is no thousands separator (not before exactly three
#: digits): ``4,09:15`` of a CSV row is two fields, ``1,000`` one number.
_LIST_COMMA = re.compile(r",(?!\d{3}(?!\d))")


def _list_commas(surface: str, start: int) -> Iterator[Token]:
    """An English number token cut at its list commas, each comma layout between two numbers
    as after a word: ``Reading,4,09:15`` keeps its three fields (``Reading,[NUM],[NUM]``, not
    ``Reading,[NUM]``).

    >>> [t.text for t in _list_commas("4,09:15", 0)], [t.text for t in _list_commas("1,000", 0)]
    (['4', '09:15'], ['1,000'])
    """
    at = 0
    for comma in _LIST_COMMA.finditer(surface):
        yield Token("number", surface[at:comma.start()], start + at, start + comma.start())
        at = comma.end()
    yield Token("number", surface[at:], start + at, start + len(surface))


@lru_cache(maxsize=1 << 16)
def _word_token(surface: str) -> tuple[int, TokenKind]:
    """How :func:`tokenize` reads a match of the word pattern (cached: words repeat).

    ``(length of the stem, its kind)`` when an English clitic is split off (the
    clitic is a ``"word"``), else ``(0, kind of the whole)``.
    """
    clitic = _CLITIC_RE.match(surface)
    if clitic is not None:
        stem = clitic.end("stem")
        return stem, "number" if _is_number(surface[:stem]) else "word"
    return 0, "number" if _is_number(surface) else "word"


def _language_words(surface: str, start: int, language: Language) -> Iterator[Token]:
    """The tokens of a match of the word pattern in a language other than English: its
    elision, the word, its clitic endings (:meth:`Language.word_parts`)."""
    first, ends = language.word_parts(surface)
    if first:
        yield Token("word", surface[:first], start, start + first)
    cuts = (first, *ends, len(surface))
    stem = surface[first:cuts[1]]
    number = language.is_number_word(normalise_word(stem)) or any(c.isnumeric() for c in stem)
    yield Token("number" if number else "word", stem, start + first, start + cuts[1])
    for a, b in pairwise(cuts[1:]):
        yield Token("word", surface[a:b], start + a, start + b)


def _title_or_lower(surface: str) -> str:
    """``"lower"`` (no upper-case letter), ``"title"`` (the first cased letter upper case,
    every other lower case) or ``""`` (ALL CAPS of two or more letters, other mixed case)."""
    cased = [c for c in surface if c.lower() != c.upper()]
    if not any(c.isupper() for c in cased):
        return "lower"
    if cased[0].isupper() and not any(c.isupper() for c in cased[1:]):
        return "title"
    return ""


@lru_cache(maxsize=1 << 16)
def _function_form(surface: str) -> str:
    """What a word token is to text mode's allow-list (cached: words repeat): ``"clitic"``,
    ``"stem"`` (``ca``, ``wo``, ``sha``), ``"kept"`` (an allowed function word in an allowed
    case) or ``""`` (content)."""
    word = normalise_word(surface)
    if word in CLITICS:
        return "clitic"
    if word in CLITIC_STEMS:
        return "stem"
    if word in KEPT_FUNCTION_WORDS:
        case = _title_or_lower(surface)
        if case == "lower" or (case == "title" and word not in LOWERCASE_ONLY):
            return "kept"
    return ""


def _ends_in_letter(token: Token) -> bool:
    return token.kind in ("word", "number") and unicodedata.category(token.text[-1])[0] in "LM"


def verbatim_function_words(tokens: Sequence[Token], text: str, *,
                            lang: str | Language = "en") -> list[bool]:
    """For each token of ``text`` (:func:`tokenize`, in order), whether text mode releases
    it as it is: a pure function word of the allow-list :data:`KEPT_FUNCTION_WORDS`.

    A word is kept if it is on the list and written in lower case, or in Title case unless
    the list marks it lowercase-only (:data:`LOWERCASE_ONLY`: ``May``, ``Will``, ``Us``,
    ``Who`` are names or acronyms).  ALL-CAPS words of two or more letters (acronyms:
    ``US``, ``IT``, ``WHO``) and other mixed case are never kept, nor any single letter
    but ``a`` and ``I`` (initials), nor ``A`` or ``I`` with a full stop right after them
    (``A. Smith``).  A clitic (:data:`CLITICS`) is kept only where it is
    split off the word before it (``don't``, ``she's``), and ``ca``/``wo``/``sha`` only
    before ``n't`` (``can't``, ``won't``, ``shan't``), in any case; as words of their own
    they are not.  Every token not kept goes through the mechanism (or is a placeholder).

    In another ``lang`` the lists are that language's; an elision (French ``l'``) is kept
    only right before a word or number, a clitic ending (``-vous``) only right after one.

    >>> text = "L'avocate, Me Dubois, m'a dit : est-ce vrai ? Est"
    >>> toks = list(tokenize(text, lang="fr"))
    >>> [t.text for t, kept in zip(toks, verbatim_function_words(toks, text, lang="fr"))
    ...  if kept]
    ["L'", "m'", 'a', 'est', '-ce']

    >>> text = "The US can't say who Will is. D. Smith's down; A. Jones"
    >>> toks = list(tokenize(text))
    >>> [t.text for t, kept in zip(toks, verbatim_function_words(toks, text)) if kept]
    ['The', 'ca', "n't", 'who', 'is', "'s"]
    """
    language = get_language(lang)
    if language is not ENGLISH:
        return _verbatim_in(tokens, language)
    kept = [False] * len(tokens)
    for i, tok in enumerate(tokens):
        if tok.kind != "word":
            continue
        form = _function_form(tok.text)
        if form == "clitic":
            kept[i] = i > 0 and tokens[i - 1].end == tok.start and _ends_in_letter(tokens[i - 1])
        elif form == "stem":
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            kept[i] = (after is not None and after.start == tok.end and after.kind == "word"
                       and normalise_word(after.text) == "n't")
        else:
            # a capital A or I with a full stop right after it is an initial (A. Smith,
            # I. Jones; also "than I.", then perturbed too: the safe side)
            kept[i] = form == "kept" and not (
                tok.text in ("A", "I") and text[tok.end:tok.end + 1] == ".")
    return kept


def _verbatim_in(tokens: Sequence[Token], language: Language) -> list[bool]:
    """:func:`verbatim_function_words` in a language other than English."""
    kept = [False] * len(tokens)
    for i, tok in enumerate(tokens):
        if tok.kind != "word":
            continue
        word = normalise_word(tok.text)
        if word in language.elisions:
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            kept[i] = (after is not None and after.start == tok.end
                       and after.kind in ("word", "number"))
        elif word in language.clitics:
            kept[i] = i > 0 and tokens[i - 1].end == tok.start and _ends_in_letter(tokens[i - 1])
        elif word in language.kept_function_words:
            case = _title_or_lower(tok.text)
            kept[i] = case == "lower" or (case == "title" and word not in language.lowercase_only)
    return kept


def is_word(token: str) -> bool:
    """Whether ``token`` is a real word: letters, with inner hyphens or apostrophes only.

    Used to keep punctuation and number tokens out of the decoding vocabulary.

    >>> is_word("e-mail"), is_word("1.3775"), is_word(","), is_word("'s")
    (True, False, False, False)
    """
    return word_pattern().fullmatch(token) is not None


def bag_of_words(text: str, *, size: int | None = None,
                 lang: str | Language = "en") -> list[str]:
    """The bag of words of a text (Def. 1), in order of occurrence.

    Normalise (:func:`normalise_text`), tokenise, lowercase, drop punctuation,
    symbols, numbers (digits and number words), URLs, e-mail addresses and
    stopwords (:data:`STOPWORDS`), then keep the first ``size`` words
    (the paper's fixed bag size N, App. B).  Repeated words stay repeated: the
    bag ⟨x₁^{a₁}, …, x_k^{a_k}⟩ is returned as a list of length Σ aᵢ.

    Parameters
    ----------
    text : str
        The document.
    size : int, optional
        Truncate to the first ``size`` words (N ≥ 1).  ``None`` keeps them all.
    lang : str or Language, default "en"
        The language of the tokenising and of the stopwords
        (:mod:`emprivacy.text.language`).

    Returns
    -------
    list of str

    Examples
    --------
    The example of §2 of the paper:

    >>> bag_of_words("The President greets the press in Chicago.")
    ['president', 'greets', 'press', 'chicago']
    >>> bag_of_words("The President greets the press in Chicago.", size=2)
    ['president', 'greets']
    >>> bag_of_words("Le Président salue la presse à l'hôtel de ville.", lang="fr")
    ['président', 'salue', 'presse', 'hôtel', 'ville']
    """
    if size is not None:
        size = check_positive_int(size, "size")
    return list(islice(_words(normalise_text(text), get_language(lang)), size))


def piece_words(piece: str, *, lang: str | Language = "en") -> list[str]:
    """The bag of words of a normalised text or piece (:func:`normalise_pieces`), in order.

    :func:`bag_of_words` without normalising: the words of a text given in pieces
    are the words of its pieces, one after the other.

    >>> piece_words("The cat sat on the mat.")
    ['cat', 'sat', 'mat']
    """
    return list(_words(piece, get_language(lang)))


def _words(text: str, language: Language = ENGLISH) -> Iterator[str]:
    stopwords = STOPWORDS if language is ENGLISH else language.stopwords
    for token in tokenize(text, lang=language):
        if token.kind == "word":
            word = normalise_word(token.text)
            if word not in stopwords:
                yield word
