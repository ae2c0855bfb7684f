"""Text → tokens → bag of words (Def. 1 and the end of §2 of the paper).

A *document* is a finite bag over the set of words S (Def. 1).  To prepare a text
as the paper does (§2, App. B) we normalise it, tokenise it, lowercase it, drop
punctuation and stopwords, and optionally truncate it to a fixed size N.  We keep
the words in the order of their occurrence (repeats included: a bag counts
multiplicities), so that truncation to the first N words is reproducible.

Normalisation (:func:`normalise_text`) removes format characters (Unicode
category Cf: zero-width joiners and spaces, soft hyphens, bidi controls, tag
characters), so that ``Jo\u200dhn`` is one word, and composes accents (NFC).
Words are matched against the vocabulary in NFKC (:func:`normalise_word`), so
that full-width ``Ｊｏｈｎ`` and ligatures such as ``ﬁ`` find their word.

Tokenisation follows the conventions of the common embedding vocabularies
(GloVe, word2vec): a word is a run of letters (with their combining marks),
possibly joined by inner hyphens or apostrophes (``e-mail``, ``o'clock``);
English clitics (``'s``, ``n't``, ``'ll``, …) are split off and treated as
stopwords; digits, number words (:data:`NUMBER_WORDS`), URLs (any scheme, and bare
domains), e-mail addresses and file paths are their own token kinds and are never
words.  Every other
character that is neither whitespace nor allowed punctuation
(:data:`LAYOUT_PUNCTUATION`) — symbols, emoji, Braille, private-use characters,
stray combining marks — is part of a ``"symbol"`` token.  So the characters
*between* tokens are, by construction, only layout: the allow-list that text
mode releases.

A long text is normalised and tokenised in pieces (:func:`normalise_pieces`), cut
only where the pieces give exactly the whole text's normalisation and tokens.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from itertools import islice
from typing import Literal

from emprivacy._validation import check_positive_int

__all__ = [
    "CLITICS",
    "CLITIC_STEMS",
    "KEPT_FUNCTION_WORDS",
    "LAYOUT_PUNCTUATION",
    "LAYOUT_WHITESPACE",
    "LOWERCASE_ONLY",
    "NUMBER_WORDS",
    "OPAQUE_SCHEMES",
    "STOPWORDS",
    "Token",
    "bag_of_words",
    "is_layout",
    "is_number_word",
    "is_word",
    "normalise_pieces",
    "normalise_surface",
    "normalise_text",
    "normalise_word",
    "piece_words",
    "tokenize",
    "top_level_domains",
    "verbatim_function_words",
]


def _read_word_list(name: str) -> frozenset[str]:
    """The words of a data file of the package (one per line, ``#`` comments)."""
    text = files("emprivacy").joinpath("data", name).read_text(encoding="utf-8")
    return frozenset(w for line in text.splitlines()
                     if (w := line.partition("#")[0].strip()))


#: English clitics split off the end of a word (``n't`` of ``don't``, ``'s`` of ``she's``):
#: function words only there, never as words of their own.
CLITICS: frozenset[str] = frozenset({"n't", "'s", "'d", "'ll", "'m", "'re", "'ve"})

#: The stems that the GloVe/PTB tokenisation leaves of ``can't``, ``won't``, ``shan't``:
#: function words only before ``n't``.
CLITIC_STEMS: frozenset[str] = frozenset({"ca", "wo", "sha"})

#: The stopwords that bags drop (the paper's preprocessing; a bag never releases them): the
#: function words of the package data file ``stopwords-en.txt`` (articles, pronouns,
#: prepositions, conjunctions, auxiliaries, function adverbs; its header gives its provenance
#: and why no noun or number word is in it), plus the clitics and the fragments that the
#: GloVe/PTB tokenisation makes of them (``ca`` of ``can't``, a bare ``s``, …).  Text mode
#: does not release these as they are: it keeps only :func:`verbatim_function_words`.
STOPWORDS: frozenset[str] = _read_word_list("stopwords-en.txt") | CLITICS | CLITIC_STEMS | (
    frozenset({"s", "t", "d", "ll", "m", "re", "ve"}))


def _read_kept_list(name: str) -> tuple[frozenset[str], frozenset[str]]:
    """The words of text mode's allow-list file, and those of them marked ``lowercase-only``."""
    text = files("emprivacy").joinpath("data", name).read_text(encoding="utf-8")
    words: set[str] = set()
    lower_only: set[str] = set()
    for line in text.splitlines():
        fields = line.partition("#")[0].split()
        if fields:
            words.add(fields[0])
            if fields[1:] == ["lowercase-only"]:
                lower_only.add(fields[0])
    return frozenset(words), frozenset(lower_only)


#: Text mode's allow-list (package data file ``kept-function-words-en.txt``): the pure
#: function words that text mode releases as they are, and of them those kept only in
#: lower case, whose Title form is also a name, an acronym or a content word (``May``,
#: ``Will``, ``Us``, ``Who``).  See :func:`verbatim_function_words`.
KEPT_FUNCTION_WORDS, LOWERCASE_ONLY = _read_kept_list("kept-function-words-en.txt")

#: Number words (``one`` … ``trillion``, ordinals, ``dozen``; the package data file
#: ``number-words-en.txt``): numbers, never words.
NUMBER_WORDS: frozenset[str] = _read_word_list("number-words-en.txt")

#: Whitespace released as layout: the ASCII controls ``\t \n \v \f \r`` and the
#: Unicode space, line and paragraph separators (Zs, Zl, Zp).
LAYOUT_WHITESPACE: frozenset[str] = frozenset(
    "\t\n\x0b\x0c\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008"
    "\u2009\u200a\u2028\u2029\u202f\u205f\u3000")

#: Punctuation released as layout: ASCII punctuation and its full-width forms, the
#: common typographic quotes, dashes and ellipsis, and the CJK full stop, comma and
#: brackets.  Nothing else between words is ever released.
LAYOUT_PUNCTUATION: frozenset[str] = frozenset(
    string.punctuation + "".join(chr(ord(c) + 0xFEE0) for c in string.punctuation)
    + "‘’‚‛“”„‟«»‹›‐‑‒–—―…、。「」『』〈〉《》【】〔〕・")

TokenKind = Literal["word", "number", "url", "email", "path", "symbol"]

_LETTERS = r"[^\W\d_]"
_LAYOUT_CLASS = "".join(re.escape(c) for c in sorted(LAYOUT_WHITESPACE | LAYOUT_PUNCTUATION))


@cache
def _category_classes() -> dict[str, str]:
    """Regex character-class bodies of the combining marks (``"M"``: Mn, Mc, Me) and of
    the format characters (``"Cf"``), from one pass over the code points.

    Format characters and combining marks exist only in planes 0, 1 and 14.
    """
    points: dict[str, list[int]] = {"M": [], "Cf": []}
    for block in (range(0x20000), range(0xE0000, 0xE1000)):
        for cp in block:
            cat = unicodedata.category(chr(cp))
            if cat == "Cf":
                points["Cf"].append(cp)
            elif cat[0] == "M":
                points["M"].append(cp)
    return {kind: _ranges(cps) for kind, cps in points.items()}


def _ranges(points: list[int]) -> str:
    parts: list[str] = []
    start = prev = points[0]
    for cp in [*points[1:], -1]:
        if cp == prev + 1:
            prev = cp
            continue
        parts.append(re.escape(chr(start)) if start == prev
                     else f"{re.escape(chr(start))}-{re.escape(chr(prev))}")
        start = prev = cp
    return "".join(parts)


#: URI schemes recognised without ``//`` after the colon (``mailto:``, ``tel:``, …); any
#: scheme followed by ``://`` is a URL whatever its name.
OPAQUE_SCHEMES: tuple[str, ...] = (
    "mailto", "tel", "sms", "fax", "urn", "data", "news", "magnet", "javascript", "sip", "sips",
    "xmpp", "geo", "bitcoin", "callto", "skype", "about", "doi", "file")

#: The rest of a URL or path: up to whitespace, holding a letter or digit, the trailing
#: sentence punctuation left out (it is layout).
_LOCATOR_BODY = r"(?=[^\s<>\"']*?\w)[^\s<>\"']*[^\s<>\"'.,;:!?)\]]"


@cache
def top_level_domains() -> frozenset[str]:
    """The top-level domains of the package data file ``tlds.txt`` (lower case): a dot-joined
    run of labels ending in one of them is a domain name, a ``"url"`` token."""
    return _read_word_list("tlds.txt")


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
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str]]:
    """The format-character, token and word patterns (built once, on first use: ~30 ms)."""
    marks = _category_classes()["M"]
    letters = rf"(?:{_LETTERS}[{marks}]*)+"
    word = rf"{letters}(?:['’\-]{letters})*"
    token = re.compile(
        # a word after which no locator character comes: no locator can start there (the fast
        # path of running text)
        rf"(?P<word>(?>{word}))(?![\w+\-$~@.:\\/])"
        # only a run that reaches one of @ . : \ / can start a locator, within 256 characters
        # (no scheme, e-mail local part, host label, user name or path segment is longer;
        # unbounded, this look-ahead would rescan a long run at each of its words)
        + rf"|(?=[\w+\-$~{{}}%]{{0,256}}+[@.:\\/])(?:{_locator_patterns()})"
        + r"|(?P<number>\d+(?:[.,:/\-⁄]\d+)*(?:st|nd|rd|th|s|%)?)"
        + rf"|(?P<word2>{word})"
        + rf"|(?P<symbol>[^{_LAYOUT_CLASS}\w]+)"
    )
    return re.compile(f"[{_category_classes()['Cf']}]+"), token, re.compile(word)


#: English clitics split from the end of a word, as the GloVe and word2vec
#: vocabularies tokenise them ("don't" → "do" + "n't").
_CLITIC_RE = re.compile(r"^(?P<stem>.+?)(?P<clitic>n['’]t|['’](?:s|d|ll|m|re|ve))$", re.IGNORECASE)


def normalise_text(text: str) -> str:
    """Remove format characters (Cf), then compose (Unicode NFC).

    Invisible format characters (zero-width joiner and space, soft hyphen, bidi
    controls, the tag characters U+E0000–U+E007F) would otherwise split a word
    or hide content; NFC glues a decomposed accent to its letter.  Text mode
    releases the layout of the *normalised* text.

    >>> normalise_text("Jo\u200dhn Zoe\u0308 Ma\u00adry")
    'John Zoë Mary'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str; got {type(text).__name__}")
    return unicodedata.normalize("NFC", _patterns()[0].sub("", text))


@cache
def _cut_pattern() -> re.Pattern[str]:
    """The last layout whitespace followed by a character that is not a combining mark."""
    spaces = "".join(re.escape(c) for c in sorted(LAYOUT_WHITESPACE))
    return re.compile(rf"(?s:.*)[{spaces}](?=[^{_category_classes()['M']}])")


def _last_cut(text: str, start: int) -> int:
    """The last safe cut of ``text`` after ``start`` (0: none).

    A cut lies just after a layout whitespace character ``w`` (never part of a token,
    :func:`tokenize`) whose next character ``c`` is a starter that does not compose
    with it (not a combining mark, combining class 0, ``NFC(w c) = NFC(w) NFC(c)``):
    composition and canonical reordering never cross it, so the two sides normalise
    and tokenise on their own as they do within the whole text.
    """
    end = len(text)
    while True:
        match = _cut_pattern().match(text, start, end)
        if match is None:
            return 0
        cut = match.end()
        w, c = text[cut - 1], text[cut]
        if unicodedata.combining(c) == 0 and (
                (w.isascii() and c.isascii()) or unicodedata.normalize("NFC", w + c)
                == unicodedata.normalize("NFC", w) + unicodedata.normalize("NFC", c)):
            return cut
        end = cut  # look further back


def normalise_pieces(chunks: Iterable[str]) -> Iterator[str]:
    """:func:`normalise_text` of a text given in chunks, in pieces that tokenise on their own.

    The chunks may be cut anywhere; the pieces are cut only at a layout whitespace
    character followed by a character that composes with nothing before it (see
    :func:`_last_cut`), at most one cut per chunk.  So ``"".join(pieces)`` is
    ``normalise_text("".join(chunks))``, and tokenising the pieces one by one
    (:func:`tokenize`) gives the tokens of the whole text, in order.  A text without
    such a cut (a token longer than a chunk, a whitespace-free script) is carried
    until one comes: memory grows with the longest stretch between two cuts, not with
    the text.  Format characters are removed chunk by chunk (one by one, as in the
    whole text).

    >>> list(normalise_pieces(["Jo\u200dhn Zo", "e\u0308 ", "Mary"]))
    ['John ', 'Zoë Mary']
    """
    fmt = _patterns()[0]
    carry = ""
    it = iter(chunks)
    chunk = next(it, None)
    while chunk is not None:
        nxt = next(it, None)
        if not isinstance(chunk, str):
            raise TypeError(f"chunks must be str; got {type(chunk).__name__}")
        text = fmt.sub("", chunk)
        if nxt is None:  # the last chunk (often the only one): no cut needed
            carry += text
            break
        scanned = max(0, len(carry) - 1)
        carry += text
        cut = _last_cut(carry, scanned)
        if cut:
            yield unicodedata.normalize("NFC", carry[:cut])
            carry = carry[cut:]
        chunk = nxt
    if carry:
        yield unicodedata.normalize("NFC", carry)


def is_layout(char: str) -> bool:
    """Whether ``char`` may be released as layout: allowed whitespace or punctuation."""
    return char in LAYOUT_WHITESPACE or char in LAYOUT_PUNCTUATION


def is_number_word(word: str) -> bool:
    """Whether a lowercased word is a number word or a hyphenated compound of them.

    >>> is_number_word("forty-five"), is_number_word("twenty-first"), is_number_word("e-mail")
    (True, True, False)
    """
    return all(part in NUMBER_WORDS for part in word.split("-"))


@dataclass(frozen=True, slots=True)
class Token:
    """One token of a text: its kind, its surface form and its span ``[start, end)``."""

    kind: TokenKind
    text: str
    start: int
    end: int


def _is_number(surface: str) -> bool:
    return is_number_word(normalise_word(surface)) or any(c.isnumeric() for c in surface)


def tokenize(text: str) -> Iterator[Token]:
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
    for match in _patterns()[1].finditer(text):
        kind = _GROUP_KINDS[match.lastgroup]  # type: ignore[index]
        start, end = match.span()
        surface = match.group()
        if kind == "word":
            stem, kind = _word_token(surface)
            if stem:
                split = start + stem
                yield Token(kind, surface[:stem], start, split)
                yield Token("word", surface[stem:], split, end)
                continue
        yield Token(kind, surface, start, end)


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


@lru_cache(maxsize=1 << 16)
def normalise_word(word: str) -> str:
    """The vocabulary form of a word: NFKC, lowercase, ASCII apostrophe (``’`` → ``'``).

    >>> normalise_word("O’Clock"), normalise_word("Ｊｏｈｎ"), normalise_word("ﬁne")
    ("o'clock", 'john', 'fine')
    """
    return normalise_surface(word).lower()


@lru_cache(maxsize=1 << 16)
def normalise_surface(word: str) -> str:
    """:func:`normalise_word` without lowercasing: the form looked up first in a cased
    vocabulary (:attr:`emprivacy.embeddings.model.Embeddings.cased`).

    >>> normalise_surface("O’Clock"), normalise_surface("Ｊｏｈｎ")
    ("O'Clock", 'John')
    """
    if not word.isascii():
        compat = unicodedata.normalize("NFKC", word)
        # a compatibility form that is no longer a word (``ำ`` → mark + letter) is not used
        if _patterns()[2].fullmatch(compat.replace("’", "'")) is not None:
            word = compat
    return word.replace("’", "'")


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


def verbatim_function_words(tokens: Sequence[Token], text: str) -> list[bool]:
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

    >>> text = "The US can't say who Will is. D. Smith's down; A. Jones"
    >>> toks = list(tokenize(text))
    >>> [t.text for t, kept in zip(toks, verbatim_function_words(toks, text)) if kept]
    ['The', 'ca', "n't", 'who', 'is', "'s"]
    """
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


def is_word(token: str) -> bool:
    """Whether ``token`` is a real word: letters, with inner hyphens or apostrophes only.

    Used to keep punctuation and number tokens out of the decoding vocabulary.

    >>> is_word("e-mail"), is_word("1.3775"), is_word(","), is_word("'s")
    (True, False, False, False)
    """
    return _patterns()[2].fullmatch(token) is not None


def bag_of_words(text: str, *, size: int | None = None) -> list[str]:
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
    """
    if size is not None:
        size = check_positive_int(size, "size")
    return list(islice(_words(normalise_text(text)), size))


def piece_words(piece: str) -> list[str]:
    """The bag of words of a normalised text or piece (:func:`normalise_pieces`), in order.

    :func:`bag_of_words` without normalising: the words of a text given in pieces
    are the words of its pieces, one after the other.

    >>> piece_words("The cat sat on the mat.")
    ['cat', 'sat', 'mat']
    """
    return list(_words(piece))


def _words(text: str) -> Iterator[str]:
    for token in tokenize(text):
        if token.kind == "word":
            word = normalise_word(token.text)
            if word not in STOPWORDS:
                yield word
