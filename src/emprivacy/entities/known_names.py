"""Names the user knows: a list of people, places and organisations protected at every
mention, in any case (``--entity-names FILE``; ``entity_names=`` in the API).

Detection is a guess (:mod:`emprivacy.entities.spans`); a data team often knows some of the
names its texts hold — its staff, its customers, its town's places — and a guess misses a
name said once in a lower-case chat (``meet at the corn exchange``, ``joy cross rang``),
where no capital, list or model shows it.  A known name is found wherever its words are
written, in any case, with only spaces between them (a line break too), on word
boundaries; its span has the name's type, and the rest of the pipeline treats it as any
detector's (a person's words become slots, a place's too, an organisation's a
placeholder).  Known names only add protection: they never release a word.

The file holds one name per line, ``TYPE<TAB>NAME`` (``TYPE`` one of :data:`KNOWN_TYPES`);
blank lines and lines starting with ``#`` are skipped:

.. code-block:: text

    # staff and places of the Mardlesey release
    PERSON	Joy Cross
    LOCATION	Corn Exchange
    LOCATION	the Washes
    ORG	Fen Edge Radio

A name written with ``the`` first (``the Washes``) is a common word that is a name only
after ``the``: it is found only there, and its span leaves ``the`` out (``she washes`` stays
a word).  A possessive ``'s`` after a name stays outside its span.

:func:`~emprivacy.entities.name_learning.learn_names` writes such a list from a corpus's own
cased texts (``emprivacy names``): the names its detectors find where capitals show them,
so that the same names are protected in the corpus's lower-case texts.  The list holds the
corpus's names: keep it as private as the corpus.

Detection is outside the guarantee (as any detector's); the names' words get the entity
budget ε_e like any detected name (docs/GUARANTEES.md).
"""

from __future__ import annotations

import hashlib
import hmac
import os
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from emprivacy.entities.spans import EntitySpan, check_texts

__all__ = [
    "KNOWN_TYPES",
    "MAX_NAME_WORDS",
    "NAME_LINKS",
    "KnownNameDetector",
    "KnownNames",
    "check_known_names",
    "names_as_lines",
    "read_known_names",
]

#: The types a known name may have.
KNOWN_TYPES: tuple[str, ...] = ("PERSON", "LOCATION", "ORG")

#: The most words one known name may have.
MAX_NAME_WORDS = 12

#: A word: letters and digits, with apostrophes or hyphens inside (``o'brien``, ``st-ives``).
_WORD = re.compile(r"[^\W_]+(?:['’\-][^\W_]+)*")

#: A possessive ending, left outside a name's span.
_POSSESSIVE = re.compile(r"['’]s$", re.IGNORECASE)

#: The linking words a name may hold (``Friends of the Engine``, ``Upton upon Severn``,
#: ``de la Cruz``): kept as written inside a person's or a place's known name
#: (:mod:`~emprivacy.preparation.known_words`), not capitalised in a learned one.
NAME_LINKS = frozenset("of the and & upon on in de la le du des von van der den da di y".split())

#: What may stand between two words of one name: spaces and tabs, one line break at most.
_GAP = re.compile(r"[ \t\u00a0]*(?:\r?\n)?[ \t\u00a0]*")


def _key(word: str) -> str:
    """A word as names are matched: NFC, case folded, curly apostrophes straight."""
    return unicodedata.normalize("NFC", word).replace("’", "'").casefold()


@dataclass(frozen=True)
class KnownNames:
    """A checked list of known names: ``(type, name)`` pairs, duplicates removed.

    Parameters
    ----------
    names : iterable of (str, str)
        ``(type, name)``: ``type`` one of :data:`KNOWN_TYPES`, ``name`` one to
        :data:`MAX_NAME_WORDS` words (``the`` first: found only after ``the``).

    >>> KnownNames([("PERSON", "Joy Cross"), ("LOCATION", "the Washes")]).names
    (('LOCATION', 'the washes'), ('PERSON', 'joy cross'))
    >>> KnownNames([("CITY", "Ely")])
    Traceback (most recent call last):
    ...
    ValueError: a known name's type must be one of 'PERSON', 'LOCATION', 'ORG'

    No message shows a name: a list holds the corpus's names.
    """

    names: tuple[tuple[str, str], ...]
    _index: dict[str, list[tuple[tuple[str, ...], bool, str]]] = field(
        init=False, repr=False, compare=False, hash=False)

    def __init__(self, names: Iterable[tuple[str, str]]) -> None:
        if isinstance(names, str | bytes) or not isinstance(names, Iterable):
            raise TypeError(f"names must be an iterable of (type, name) pairs; got "
                            f"{type(names).__name__}")
        seen: dict[str, str] = {}
        for item in names:
            if not (isinstance(item, tuple | list) and len(item) == 2
                    and all(isinstance(x, str) for x in item)):
                raise TypeError("each known name must be a (type, name) pair of strings; "
                                f"got a {type(item).__name__}")
            kind, name = item[0].strip().upper(), item[1]
            if kind not in KNOWN_TYPES:
                raise ValueError("a known name's type must be one of "
                                 f"{', '.join(repr(t) for t in KNOWN_TYPES)}")
            words = [_key(w) for w in _WORD.findall(unicodedata.normalize("NFC", name))]
            if not words or (words[0] == "the" and len(words) == 1):
                raise ValueError("a known name must hold a word")
            if len(words) > MAX_NAME_WORDS:
                raise ValueError(f"a known name must have at most {MAX_NAME_WORDS} words; got "
                                 f"{len(words)}")
            phrase = " ".join(words)
            # one type per name: the most protective (an organisation's placeholder first)
            if phrase not in seen or _RANK[kind] < _RANK[seen[phrase]]:
                seen[phrase] = kind
        object.__setattr__(self, "names", tuple(sorted((k, p) for p, k in seen.items())))
        index: dict[str, list[tuple[tuple[str, ...], bool, str]]] = {}
        for kind, phrase in self.names:
            parts = tuple(phrase.split())
            after_the = parts[0] == "the"
            body = parts[1:] if after_the else parts
            index.setdefault(body[0], []).append((body, after_the, kind))
        for options in index.values():  # the longest name first
            options.sort(key=lambda o: -len(o[0]))
        object.__setattr__(self, "_index", index)

    def __len__(self) -> int:
        return len(self.names)

    def __reduce__(self) -> tuple[Any, ...]:  # pickled as its pairs (Dask, Spark)
        return (KnownNames, (self.names,))

    def digest(self, key: bytes) -> str:
        """A short identifier of the list under a secret ``key`` (HMAC-SHA-256): without the
        key nobody can test a guessed list against it, so it is only ever made with one (a
        resumed run with an entity key checks it).

        >>> k = b"k" * 16
        >>> KnownNames([("ORG", "IDB")]).digest(k) == KnownNames([("ORG", "idb")]).digest(k)
        True
        """
        text = "\n".join(f"{k}\t{p}" for k, p in self.names)
        return hmac.new(bytes(key), b"emprivacy-known-names\x00" + text.encode(),
                        hashlib.sha256).hexdigest()[:16]

    def spans(self, text: str) -> list[EntitySpan]:
        """The spans of the known names in ``text``: at each word, the longest name that
        starts there (its words separated by spaces, one line break at most), scanning on
        after it.

        >>> names = KnownNames([("LOCATION", "corn exchange"), ("LOCATION", "the washes")])
        >>> [("meet at the Corn\\nExchange's door"[s.start:s.end], s.type)
        ...  for s in names.spans("meet at the Corn\\nExchange's door")]
        [('Corn\\nExchange', 'LOCATION')]
        >>> [s.start for s in names.spans("she washes it; by the washes")]
        [22]
        """
        words = list(_WORD.finditer(text))
        keys = [_key(m.group()) for m in words]
        index = self._index
        out: list[EntitySpan] = []
        i = 0
        while i < len(words):
            options = index.get(keys[i]) or index.get(_POSSESSIVE.sub("", keys[i]))
            found = None
            for body, after_the, kind in options or ():
                end = _match(text, words, keys, i, body)
                if end is None:
                    continue
                if after_the and not (i and keys[i - 1] == "the"
                                      and _joined(text, words[i - 1].end(), words[i].start())):
                    continue
                found = (end, kind, len(body))
                break
            if found is None:
                i += 1
                continue
            end, kind, n = found
            out.append(EntitySpan(words[i].start(), end, kind))
            i += n
        return out


#: The order of protection among the types: an organisation's placeholder first.
_RANK = {"ORG": 0, "PERSON": 1, "LOCATION": 2}


def _joined(text: str, a: int, b: int) -> bool:
    """Whether only a name's gap (:data:`_GAP`) stands between offsets ``a`` and ``b``."""
    gap = _GAP.match(text, a)
    return gap is not None and gap.end() == b


def _match(text: str, words: Sequence[re.Match[str]], keys: Sequence[str], i: int,
           body: Sequence[str]) -> int | None:
    """The end offset of ``body`` matched at word ``i`` (a possessive ``'s`` of its last
    word left out), or ``None``."""
    if i + len(body) > len(words):
        return None
    for j, want in enumerate(body):
        got = keys[i + j]
        last = j == len(body) - 1
        if got != want and not (last and _POSSESSIVE.sub("", got) == want):
            return None
        if j and not _joined(text, words[i + j - 1].end(), words[i + j].start()):
            return None
    end = words[i + len(body) - 1].end()
    if keys[i + len(body) - 1] != body[-1]:
        end -= 2  # the possessive 's
    return end


class KnownNameDetector:
    """The known names of a :class:`KnownNames` as a detector (the
    :class:`~emprivacy.entities.spans.EntityDetector` protocol).

    >>> d = KnownNameDetector(KnownNames([("PERSON", "joy cross")]))
    >>> d.detect(["JOY CROSS rang"])
    [[EntitySpan(start=0, end=9, type='PERSON')]]
    """

    name = "known names"

    def __init__(self, names: KnownNames) -> None:
        if not isinstance(names, KnownNames):
            raise TypeError(f"names must be KnownNames; got {type(names).__name__}")
        self.names = names
        self.types = frozenset(k for k, _ in names.names) or frozenset(KNOWN_TYPES)

    def __repr__(self) -> str:
        return f"KnownNameDetector({len(self.names)} names)"

    def detect(self, texts: Sequence[str]) -> list[list[EntitySpan]]:
        return [self.names.spans(t) for t in check_texts(texts)]


def read_known_names(path: str | os.PathLike[str]) -> KnownNames:
    """The known names of a file (``TYPE<TAB>NAME`` per line; module docstring).

    Raises
    ------
    ValueError
        A line that is not ``TYPE<TAB>NAME`` or an unknown type (the file's name and the
        line's number, never its text).  A file of comments and blank lines alone is an
        empty list (``emprivacy names`` that found no name writes one).
    OSError
        The file cannot be read.
    """
    p = Path(path)
    pairs: list[tuple[str, str]] = []
    with p.open(encoding="utf-8-sig") as handle:
        for number, line in enumerate(handle, 1):
            line = line.rstrip("\r\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            kind, tab, name = line.partition("\t")
            if not tab or not name.strip():
                raise ValueError(f"{p.name}, line {number}: expected TYPE<TAB>NAME (TYPE one "
                                 f"of {', '.join(KNOWN_TYPES)})")
            try:
                pairs.append(KnownNames([(kind, name)]).names[0])
            except (TypeError, ValueError) as err:
                raise ValueError(f"{p.name}, line {number}: {err}") from None
    return KnownNames(pairs)


def names_as_lines(names: KnownNames) -> str:
    """``names`` as the file :func:`read_known_names` reads (``TYPE<TAB>name`` per line)."""
    return "".join(f"{k}\t{p}\n" for k, p in names.names)


def check_known_names(names: Any) -> KnownNames | None:
    """``entity_names`` as given to a config: ``None``, :class:`KnownNames`, a path to a file
    (:func:`read_known_names`), or ``(type, name)`` pairs / a type → names mapping."""
    if names is None or isinstance(names, KnownNames):
        return names
    if isinstance(names, str | os.PathLike):
        if not Path(names).is_file():  # the path may be a name given by mistake: not shown
            raise ValueError("entity_names is read as the path of a TYPE<TAB>NAME file, and "
                             "no such file exists")
        return read_known_names(names)
    if isinstance(names, Mapping):
        pairs: list[tuple[str, str]] = []
        for kind, members in names.items():
            if isinstance(members, str):
                members = [members]
            pairs.extend((kind, m) for m in members)
        return KnownNames(pairs)
    return KnownNames(names)
