"""Without the ``ner`` extra, ``entities="spacy"`` stops with one line naming it (issue 29), on
every path that takes the option: the obfuscator, ``privatize_texts``, the table paths
(Arrow, pandas, Parquet) and ``obfuscate`` on a Parquet table.  spaCy's absence is simulated
(``sys.modules["spacy"] = None`` makes ``import spacy`` fail, as if it were not installed)."""

import subprocess
import sys

import numpy as np
import pytest

from emprivacy.embeddings.model import Embeddings
from emprivacy.entities import registry, spacy_detector
from emprivacy.exceptions import MissingExtraError

WORDS = ["then", "ann", "met", "bob", "cat", "dog"]
ONE_LINE = (r"^entity detection with spaCy needs the optional dependency 'spacy'; install it "
            r"with: pip install 'emprivacy\[ner\]'$")


@pytest.fixture
def emb():
    rng = np.random.default_rng(0)
    return Embeddings(WORDS, rng.normal(size=(len(WORDS), 4)), name="toy")


@pytest.fixture
def no_spacy(monkeypatch):
    """spaCy cannot be imported, and no detector or pipeline is left from other tests."""
    monkeypatch.setitem(sys.modules, "spacy", None)
    monkeypatch.setattr(registry, "_BUILT", {})
    monkeypatch.setattr(spacy_detector, "_PIPELINES", {})


def run_obfuscator(emb):
    from emprivacy.io.corpus import Document
    from emprivacy.mechanisms import EarthMoversPrivacy
    from emprivacy.obfuscation import ObfuscationConfig, Obfuscator

    obf = Obfuscator(EarthMoversPrivacy(emb, epsilon=1.0),
                     ObfuscationConfig(mode="text", entities="spacy"), seed=1)
    return list(obf.obfuscate([Document("a", "then Ann met Bob")]))


def run_privatize_texts(emb):
    from emprivacy.tables import privatize_texts

    return list(privatize_texts(["then Ann met Bob"], epsilon=1.0, embeddings=emb, seed=1,
                                entities="spacy"))


def run_arrow(emb):
    pa = pytest.importorskip("pyarrow")
    from emprivacy.tables.arrow import privatize_table

    return privatize_table(pa.table({"note": ["then Ann met Bob"]}), column="note",
                           epsilon=1.0, embeddings=emb, seed=1, entities="spacy")


def run_pandas(emb):
    pd = pytest.importorskip("pandas")
    from emprivacy.tables.pandas import privatize_frame

    return privatize_frame(pd.DataFrame({"note": ["then Ann met Bob"]}), "note", epsilon=1.0,
                           embeddings=emb, seed=1, entities="spacy")


@pytest.mark.parametrize("run", [run_obfuscator, run_privatize_texts, run_arrow, run_pandas])
def test_the_library_paths_name_the_extra(emb, no_spacy, run):
    with pytest.raises(MissingExtraError, match=ONE_LINE):
        run(emb)


def test_a_parquet_file_names_the_extra_and_writes_nothing(emb, no_spacy, tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    from emprivacy.tables import privatize_parquet

    source, destination = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"text": ["then Ann met Bob"]}), source)
    with pytest.raises(MissingExtraError, match=ONE_LINE):
        privatize_parquet(source, destination, epsilon=1.0, embeddings=emb, seed=1,
                          entities="spacy")
    assert not destination.exists()


def test_obfuscate_on_a_parquet_table_names_the_extra(tmp_path):
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    source, destination = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"text": ["then Ann met Bob"]}), source)
    # a fresh interpreter in which spaCy cannot be imported, as if the extra were missing
    code = ("import sys; sys.modules['spacy'] = None; from emprivacy.cli import main; "
            f"sys.exit(main(['obfuscate', {str(source)!r}, '-o', {str(destination)!r}, "
            "'-e', '10', '--readable', '--entities', 'spacy', '-q']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: "), lines
    assert "pip install 'emprivacy[ner]'" in lines[0] and "'spacy'" in lines[0]
    assert not destination.exists()
