"""Long documents are streamed (issue 16): memory does not grow with a document's length.

A document is read in chunks, normalised and tokenised piece by piece, privatised in
blocks of ``block_words`` words and written in pieces.  Checked here: the pieces give
the whole text's normalisation and tokens; a document of one block is released byte for
byte as without blocks; with tiny blocks every count of a record is the unblocked one,
the layout is the same (and with a huge ε, where the mechanism returns every word, the
output is identical), and the released distribution is unchanged (a chi-square test);
the command line, the corpus runner and the JSONL reader stream; and the memory traced
while obfuscating a document 10 times longer is not 10 times larger.
"""

from __future__ import annotations

import hashlib
import io
import json
import pickle
import random
import tracemalloc
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chi2_contingency

import emprivacy.io.corpus
import emprivacy.io.documents
import emprivacy.io.jsonl_pieces
import emprivacy.io.parquet_output
import emprivacy.io.streaming
import emprivacy.obfuscation.config
import emprivacy.obfuscation.obfuscator
from emprivacy import EarthMoversPrivacy, Embeddings
from emprivacy.cli import main
from emprivacy.distributed import obfuscate_corpus
from emprivacy.exceptions import InputError
from emprivacy.io.corpus import read_text_file
from emprivacy.io.documents import Document, read_text_chunks
from emprivacy.io.jsonl_pieces import copy_jsonl_file, copy_jsonl_record, read_jsonl_records
from emprivacy.io.outputs import format_record
from emprivacy.io.parquet_output import read_parquet_records
from emprivacy.io.streaming import BagBody, TextBody, materialise, write_record
from emprivacy.math.randomness import document_generator
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator
from emprivacy.preparation.template import prepare_text
from emprivacy.text.normalise import normalise_pieces, normalise_text
from emprivacy.text.tokens import bag_of_words, tokenize

from .helpers import gaps

# A vocabulary of plain content words (no stopword, no number word), in 3-D.
WORDS = ("harbour", "ferry", "island", "river", "boat", "quiet", "morning", "storm", "light",
         "stone", "bridge", "market", "garden", "window", "letter", "winter", "summer",
         "forest", "valley", "mountain", "village", "engine", "signal", "anchor")
VECTORS = np.random.default_rng(0).normal(size=(len(WORDS), 3)).astype(np.float32) * 2
EMB = Embeddings(WORDS, VECTORS, name="stream-toy")
HUGE = 1e7  # ε at which the mechanism returns every word unchanged


def long_text(n_words: int, seed: int = 0) -> str:
    """A text of about ``n_words`` vocabulary words with every kind of layout around them."""
    rng = random.Random(seed)
    extras = ["the", "and", "The", "42", "3.5%", "qqxzv", "Zzyzx", "a@b.org",
              "https://x.org/p", "❤️", "—", ",", ".", "!", "(", ")", "’s", "n't"]
    seps = [" ", " ", " ", "  ", "\n", "\n\n", "\t", "\u00a0", "\u2003 "]
    out = []
    for i in range(n_words):
        word = rng.choice(WORDS)
        word = word.upper() if i % 13 == 0 else word.title() if i % 7 == 0 else word
        if i % 5 == 0:
            out.append(rng.choice(extras))
            out.append(rng.choice(seps))
        if i % 29 == 0:
            word = word[:2] + "\u200d" + word[2:]  # a format character inside a word
        if i % 31 == 30:
            word += "e\u0301"  # a decomposed accent: composed by NFC (an OOV word)
        out.append(word)
        out.append(rng.choice(seps))
    return "".join(out)


@pytest.fixture
def tiny_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Blocks of 5 words, chunks of 37 characters, text blocks of at most 120 characters."""
    monkeypatch.setattr(emprivacy.obfuscation.config, "DEFAULT_BLOCK_WORDS", 5)
    monkeypatch.setattr(emprivacy.obfuscation.obfuscator, "BLOCK_CHARS", 120)
    monkeypatch.setattr(emprivacy.io.documents, "CHUNK_CHARS", 37)
    monkeypatch.setattr(emprivacy.io.parquet_output, "TEXT_PIECE_CHARS", 50)
    monkeypatch.setattr(emprivacy.io.parquet_output, "BAG_PIECE_WORDS", 7)
    monkeypatch.setattr(emprivacy.io.parquet_output, "ROW_GROUP_CHARS", 60)


def body_key(record: dict) -> str:
    return "text" if "text" in record else "bag"


def metadata(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("text", "bag")}


# -- reading and normalising in pieces -----------------------------------------------------
ALPHABET = ["a", "b", "é", "e", "\u0301", "\u0308", " ", "\n", "\u00a0", "\u2000", "\u200d",
            "\u00ad", ".", "-", "'", "’", "1", "x", "\u1100", "\u1161", "\u0f73", "ﬁ", "\u3000",
            "!", "@", "http://a.b ", "www.x.y", "don't", "\U0001f600", "\u0bbe", "\t"]


@settings(max_examples=300, deadline=None)
@given(parts=st.lists(st.lists(st.sampled_from(ALPHABET), max_size=12).map("".join),
                      max_size=8))
def test_pieces_normalise_and_tokenise_as_the_whole_text(parts: list[str]) -> None:
    text = "".join(parts)
    pieces = list(normalise_pieces(parts))
    assert "".join(pieces) == normalise_text(text)
    got, offset = [], 0
    for piece in pieces:
        got += [(t.kind, t.text, t.start + offset, t.end + offset) for t in tokenize(piece)]
        offset += len(piece)
    assert got == [(t.kind, t.text, t.start, t.end) for t in tokenize(normalise_text(text))]


def test_a_text_without_a_safe_cut_is_carried_whole() -> None:
    # a space followed by a combining mark is not a cut: the mark may belong with it
    assert list(normalise_pieces(["ab \u0301", "cd ", "ef", "gh"])) == ["ab \u0301cd ", "efgh"]
    assert list(normalise_pieces(["x" * 10, "y" * 10, "z"])) == ["x" * 10 + "y" * 10 + "z"]
    assert list(normalise_pieces([])) == []


def test_text_file_chunks_read_as_the_whole_file(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "doc.txt"
    raw = ("Caf\u00e9 \r\n\r\nna\u00efve \U0001f600 end\r" * 40 + "\rlast\r").encode("utf-8")
    path.write_bytes(raw)
    for size in (1, 2, 3, 5, 7, 64):
        monkeypatch.setattr(emprivacy.io.documents, "CHUNK_CHARS", size)
        chunks = list(read_text_chunks(path))
        assert "".join(chunks) == read_text_file(path)
        assert all(len(c) <= size + 1 for c in chunks)
    bad = tmp_path / "bad.txt"
    bad.write_bytes(raw + b"caf\xe9 au lait")
    with pytest.raises(InputError) as whole:
        read_text_file(bad)
    with pytest.raises(InputError) as chunked:
        "".join(read_text_chunks(bad))
    assert str(chunked.value) == str(whole.value)
    assert f"(byte {len(raw) + 3})" in str(whole.value)


def test_document_sources(tmp_path: Path) -> None:
    path = tmp_path / "a.txt"
    path.write_text("Some text\r\nhere.", encoding="utf-8")
    in_memory = Document("a", "Some text\nhere.")
    from_file = Document.from_file("a", path)
    assert from_file.text == in_memory.text and from_file == in_memory == from_file
    assert from_file.path == path and in_memory.path is None
    assert Document.from_file("a", path) == from_file and Document("b", "x") != in_memory
    assert repr(in_memory) == "Document(id='a', text='Some text\\nhere.')"
    assert repr(from_file) == f"Document(id='a', path={str(path)!r})"
    assert pickle.loads(pickle.dumps(from_file)) == from_file
    assert pickle.loads(pickle.dumps(in_memory)) == in_memory
    assert len({in_memory, from_file}) == 1
    with pytest.raises(AttributeError):
        in_memory.id = "b"  # type: ignore[misc]
    stream = Document.from_stream("-", io.StringIO("read once"))
    assert list(stream.chunks()) == ["read once"] and stream.text == ""
    with pytest.raises(TypeError, match="cannot be pickled"):
        pickle.dumps(Document.from_stream("-", io.StringIO("x")))
    with pytest.raises(TypeError, match="text must be a str"):
        Document("a", b"bytes")  # type: ignore[arg-type]
    long = Document("l", "word " * 30_000)
    assert "".join(long.chunks()) == long.text and len(list(long.chunks())) > 1


# -- one block: exactly as without blocks ------------------------------------------------------
def unblocked(mech: EarthMoversPrivacy, doc: Document, mode: str, seed: int) -> str | list:
    """The release of the unblocked path: the whole text prepared, one privatising call."""
    gen = document_generator(Obfuscator(mech, seed=seed).run_key, doc.id)
    if mode == "text":
        template = prepare_text(doc.text, mech.embeddings)
        return template.render(mech.privatize_indices(template.indices, rng=gen), WORDS)
    rows = mech.embeddings.lookup(bag_of_words(doc.text)).indices
    return sorted(WORDS[i] for i in mech.privatize_indices(rows, rng=gen))


@pytest.mark.parametrize("mode", ["text", "bag"])
def test_a_document_of_one_block_is_released_as_without_blocks(mode: str) -> None:
    mech = EarthMoversPrivacy(EMB, epsilon=2.0)
    text = long_text(400, seed=3)
    n = (prepare_text(text, EMB).words_perturbed if mode == "text"
         else EMB.lookup(bag_of_words(text)).indices.size)
    doc = Document("doc", text)
    for block_words, one_block in ((n, True), (n + 1, True), (n - 1, False)):
        config = ObfuscationConfig(mode=mode, block_words=block_words)  # type: ignore[arg-type]
        (record,) = [materialise(r) for r in Obfuscator(mech, config, seed=11).stream([doc])
                     if isinstance(r[mode], str | list) == one_block]  # a body if not
        assert (record[mode] == unblocked(mech, doc, mode, seed=11)) == one_block
        (reference,) = Obfuscator(mech, ObfuscationConfig(mode=mode), seed=11  # type: ignore[arg-type]
                                  ).obfuscate([doc])
        assert metadata(record) == metadata(reference)


# -- tiny blocks: the same counts, the same layout, the same distribution --------------------
@pytest.mark.parametrize(("mode", "oov"), [("text", "placeholder"), ("text", "drop"),
                                           ("text", "keep"), ("bag", "drop"),
                                           ("bag", "placeholder"), ("bag", "keep")])
def test_tiny_blocks_change_nothing_but_the_order_of_the_draws(mode: str, oov: str,
                                                               tiny_blocks: None) -> None:
    docs = [Document(f"d{i}", long_text(n, seed=i)) for i, n in enumerate((3, 60, 1, 250))]
    docs.append(Document("stopwords", "the and of " * 60))  # text: a block without slots
    if mode == "bag":
        docs.pop()
    reference_config = ObfuscationConfig(mode=mode, oov=oov, block_words=10**9)  # type: ignore[arg-type]
    config = ObfuscationConfig(mode=mode, oov=oov)  # type: ignore[arg-type]
    assert config.block_words == 5
    with pytest.warns() if oov == "keep" else _nothing():
        for epsilon in (HUGE, 3.0):
            mech = EarthMoversPrivacy(EMB, epsilon=epsilon)
            reference = list(Obfuscator(mech, reference_config, seed=5).obfuscate(docs))
            blocked = list(Obfuscator(mech, config, seed=5).obfuscate(docs))
            assert [metadata(r) for r in blocked] == [metadata(r) for r in reference]
            if epsilon == HUGE:  # every word released as it is: the outputs are identical
                assert blocked == reference
            elif mode == "text":
                assert [gaps(r["text"]) for r in blocked] == [gaps(r["text"]) for r in reference]
                assert blocked[0]["text"] == reference[0]["text"]  # 3 words: one block
                assert blocked[3]["text"] != reference[3]["text"]  # 250 words: 50 blocks
            else:
                assert [len(r["bag"]) for r in blocked] == [len(r["bag"]) for r in reference]
                assert [Counter(w for w in r["bag"] if w not in WORDS) for r in blocked] == \
                       [Counter(w for w in r["bag"] if w not in WORDS) for r in reference]


class _nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        return None


@pytest.mark.parametrize("mode", ["bag", "text"])
def test_blocks_release_the_same_distribution(mode: str) -> None:
    """The per-word output distribution of a long repeated-word document: 6,000 draws in
    blocks of 50 words against 6,000 unblocked, other seeds; chi-square test of
    homogeneity on the output words, required p > 0.001 (deterministic: seeded)."""
    words = ("cat", "dog", "car", "bus", "sun", "rock")
    emb = Embeddings(words, [[0, 0], [1, 0], [2, 0], [3, 0], [0, 1.5], [1.5, 1.5]], name="line")
    mech = EarthMoversPrivacy(emb, epsilon=1.5)
    doc = Document("repeated", "dog " * 6000)
    counts = []
    for block_words, seed in ((50, 1), (10**6, 2)):
        config = ObfuscationConfig(mode=mode, block_words=block_words)  # type: ignore[arg-type]
        (record,) = Obfuscator(mech, config, seed=seed).obfuscate([doc])
        released = record["bag"] if mode == "bag" else record["text"].split()
        counts.append(Counter(w.lower() for w in released))
        assert sum(counts[-1].values()) == 6000
    table = [[c[w] for w in words] for c in counts]
    assert min(sum(col) for col in zip(*table, strict=True)) >= 20  # every cell well filled
    assert 0.2 < counts[0]["dog"] / 6000 < 0.8  # the noise does move words
    assert chi2_contingency(table).pvalue > 1e-3


def test_reading_stops_after_the_size_th_word() -> None:
    class CountingStream(io.StringIO):
        reads = 0

        def read(self, size: int | None = -1) -> str:
            CountingStream.reads += 1
            return super().read(size)

    stream = CountingStream("harbour ferry " * 200_000)
    mech = EarthMoversPrivacy(EMB, epsilon=HUGE)
    (record,) = Obfuscator(mech, ObfuscationConfig(size=3), seed=0).obfuscate(
        [Document.from_stream("-", stream)])
    assert record["bag"] == ["ferry", "harbour", "harbour"] and record["n_words"] == 3
    assert CountingStream.reads == 2  # two chunks of 65,536 characters, of 2.8 million


def test_a_long_bag_of_few_words_is_released_as_counts() -> None:
    mech = EarthMoversPrivacy(EMB, epsilon=HUGE)
    doc = Document("d", "qqq harbour " * 50 + "zzz " * 20)  # 50 words: one block, but
    config = ObfuscationConfig(oov="placeholder", block_words=60)  # 70 placeholders
    (record,) = Obfuscator(mech, config, seed=0).stream([doc])
    assert isinstance(record["bag"], BagBody) and len(record["bag"]) == 120
    assert record["bag"].value() == ["[UNK]"] * 70 + ["harbour"] * 50
    assert (record["n_words"], record["oov_placeholders"]) == (50, 70)
    with pytest.raises(InputError, match="no word in the vocabulary"):
        list(Obfuscator(mech, config, seed=0).stream([Document("o", "qqq " * 200)]))


# -- the command line and the corpus runner -------------------------------------------------
def write_embeddings(path: Path) -> Path:
    lines = [f"{len(WORDS)} 3"] + [f"{w} " + " ".join(f"{x:.6f}" for x in v)
                                   for w, v in zip(WORDS, VECTORS, strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def run_cli(args: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["text", "jsonl", "bag"])
def test_cli_streams_a_long_document(fmt: str, tmp_path: Path, capsys,
                                     monkeypatch: pytest.MonkeyPatch) -> None:
    vec = write_embeddings(tmp_path / "toy.vec")
    doc = tmp_path / "long.txt"
    doc.write_text(long_text(300, seed=7).replace("\n", "\r\n"), encoding="utf-8", newline="")
    readable = ["--readable"] if fmt == "jsonl" else []
    outputs = {}
    for blocks in ("whole", "tiny"):
        if blocks == "tiny":
            monkeypatch.setattr(emprivacy.obfuscation.config, "DEFAULT_BLOCK_WORDS", 4)
            monkeypatch.setattr(emprivacy.obfuscation.obfuscator, "BLOCK_CHARS", 100)
            monkeypatch.setattr(emprivacy.io.documents, "CHUNK_CHARS", 50)
            monkeypatch.setattr(emprivacy.io.streaming, "_PIECE", 7)
        for eps in (str(HUGE), "3"):
            outputs[blocks, eps] = run_cli(
                ["obfuscate", str(doc), "-e", eps, "--seed", "2", "--embeddings", str(vec),
                 "--format", fmt, "-q", *readable], capsys)
    assert outputs["tiny", str(HUGE)] == outputs["whole", str(HUGE)]
    tiny, whole = outputs["tiny", "3"], outputs["whole", "3"]
    assert tiny != whole
    if fmt == "text":
        assert gaps(tiny) == gaps(whole) and "\r" not in tiny
    elif fmt == "jsonl":
        assert metadata(json.loads(tiny)) == metadata(json.loads(whole))
        assert gaps(json.loads(tiny)["text"]) == gaps(json.loads(whole)["text"])
    else:
        assert len(tiny.split()) == len(whole.split()) and tiny.split() == sorted(tiny.split())
    # standard input is read in chunks too
    monkeypatch.setattr("sys.stdin", io.StringIO(doc.read_text(encoding="utf-8")))
    from_stdin = run_cli(["obfuscate", "-", "-e", "3", "--seed", "2", "--embeddings", str(vec),
                          "--format", fmt, "-q", *readable], capsys)
    if fmt == "jsonl":
        assert {**metadata(json.loads(from_stdin)), "id": "x"} == \
               {**metadata(json.loads(tiny)), "id": "x"}
    else:
        assert (len(from_stdin.split()) == len(tiny.split()) if fmt == "bag"
                else gaps(from_stdin) == gaps(tiny))


@pytest.mark.parametrize("mode", ["text", "bag"])
def test_corpus_runner_streams_long_documents(mode: str, tmp_path: Path, tiny_blocks: None
                                              ) -> None:
    texts = tmp_path / "texts"
    texts.mkdir()
    for i, n in enumerate((2, 90, 0, 40)):
        (texts / f"{i}.txt").write_text(long_text(n, seed=i) if n else "  \n",
                                        encoding="utf-8")
    jsonl = tmp_path / "docs.jsonl"
    jsonl.write_text("".join(json.dumps({"id": f"j{i}", "text": long_text(n, seed=10 + i)}) + "\n"
                             for i, n in enumerate((70, 1))), encoding="utf-8")
    mech = EarthMoversPrivacy(EMB, epsilon=3.0)
    config = ObfuscationConfig(mode=mode)  # type: ignore[arg-type]
    docs = [*emprivacy.io.corpus.iter_documents([texts, jsonl])]
    with pytest.warns(UserWarning, match="empty after normalisation"):
        reference = list(Obfuscator(mech, config, seed=4).obfuscate(docs))
    assert len(reference) == 5
    for fmt in ("jsonl", "bag", "parquet") if mode == "bag" else ("jsonl", "parquet"):
        out = tmp_path / f"out-{fmt}.{'parquet' if fmt == 'parquet' else 'txt'}"
        summary = obfuscate_corpus([texts, jsonl], out, mechanism=mech, config=config,
                                   seed=4, format=fmt, partition_documents=2)
        assert summary.documents_written == 5 and len(summary.skipped) == 1
        if fmt == "parquet":
            assert list(read_parquet_records(out)) == reference
            rows = pq.read_table(out).to_pylist()  # long records over several rows
            assert len(rows) > len(reference)
            assert [r["id"] for r in rows if r["part"] == 0] == [r["id"] for r in reference]
            assert sum(r["n_words"] or 0 for r in rows) == sum(r["n_words"] for r in reference)
            key = body_key(reference[0])
            assert max(len(r[key]) for r in rows) <= (50 if key == "text" else 7)
        else:
            expected = "".join(format_record(r, fmt) + "\n" for r in reference)
            assert out.read_text(encoding="utf-8") == expected


# -- writing and reading records in pieces ---------------------------------------------------
def test_bodies_write_as_whole_records(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(emprivacy.io.streaming, "_PIECE", 3)
    text = 'Line "one"\\\n\ttwo \u2028 é 😀 end\n'
    body = TextBody()
    for i in range(0, len(text), 4):
        body.write(text[i:i + 4])
    bag = BagBody(np.array([0, 7, 1]), ["b\"q", "a\\z", "é"], np.array([1, 0, 2]),
                  {"[UNK]": 2, "zz": 1})
    for key, value, whole in (("text", body, text), ("bag", bag, bag.value())):
        record = {"id": "x\"y", "n_words": 3, "epsilon": 0.5, "nested": {"a": [1, 2]},
                  key: value}
        plain = {**record, key: whole}
        for fmt in (("jsonl", "text") if key == "text" else ("jsonl", "bag")):
            out: list[str] = []
            write_record(record, fmt, out.append)
            line = format_record(plain, fmt)
            assert "".join(out) == line + ("" if line.endswith("\n") and fmt == "text" else "\n")
            assert max(len(piece) for piece in out) < 80  # written in pieces
    assert materialise({"id": "a", "text": body}) == {"id": "a", "text": text}
    body.close()


def test_jsonl_records_are_read_back_in_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(emprivacy.io.jsonl_pieces, "_PIECE", 5)
    records = [
        {"id": "a", "n_words": 2, "x": 1.5e-7, "bag": ["cat", 'd"og', "é\\"]},
        {"id": "b", "text": 'He said "hi"\\\\ 😀\u2028\n\tend' * 3},
        {"id": "c", "n_words": 0, "counts": {"k": [1, {"z": None}]}},
        {"id": "d", "bag": []},
        {"id": "e", "text": ""},
    ]
    for ensure_ascii in (False, True):  # also \uXXXX escapes and surrogate pairs, cut anywhere
        data = "".join(json.dumps(r, ensure_ascii=ensure_ascii, separators=(",", ":")) + "\n"
                       for r in records).encode("utf-8")
        for fmt in ("jsonl", "text", "bag"):
            out: list[str] = []
            for i, (head, key, pieces) in enumerate(read_jsonl_records(io.BytesIO(data))):
                assert head == metadata(records[i])
                if fmt == "jsonl" or key == fmt:
                    copy_jsonl_record(head, key, pieces, fmt, out.append)
            expected = []
            for r in records:
                if fmt == "jsonl" or fmt in r:
                    line = format_record(r, fmt)
                    expected.append(line + ("" if fmt == "text" and line.endswith("\n")
                                            else "\n"))
            assert "".join(out) == "".join(expected)


def test_a_jsonl_file_is_copied_and_hashed(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(emprivacy.io.jsonl_pieces, "_PIECE", 4)
    records = [{"id": "a", "n_words": 2, "bag": ["cat", "dog"]}, {"id": "b", "text": "x\ny"}]
    path = tmp_path / "part.jsonl"
    data = "".join(format_record(r, "jsonl") + "\n" for r in records).encode("utf-8")
    path.write_bytes(data)
    out: list[str] = []
    heads: list[dict] = []
    n, digest = copy_jsonl_file(path, "jsonl", out.append, on_record=heads.append)
    assert (n, digest) == (2, hashlib.sha256(data).hexdigest())
    assert "".join(out).encode("utf-8") == data and [h["id"] for h in heads] == ["a", "b"]


# -- bounded memory -----------------------------------------------------------------------------
def _peak(mech: EarthMoversPrivacy, config: ObfuscationConfig, path: Path, fmt: str) -> int:
    sink = Counter()
    tracemalloc.start()
    try:
        for record in Obfuscator(mech, config, seed=0).stream([Document.from_file("d", path)]):
            write_record(record, fmt, lambda s: sink.update(n=len(s)))
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("mode", ["bag", "text"])
def test_memory_does_not_grow_with_the_document(mode: str, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Peak traced memory while obfuscating (and writing) a document of 8,000 words and one
    of 80,000 (a file, read in chunks): the 10× longer document must stay under 1.5× the
    shorter's peak + 256 KiB (unblocked, it took about 10×: every token was held)."""
    monkeypatch.setattr(emprivacy.io.documents, "CHUNK_CHARS", 4096)
    mech = EarthMoversPrivacy(EMB, epsilon=3.0)
    config = ObfuscationConfig(mode=mode, block_words=512)  # type: ignore[arg-type]
    rng = np.random.default_rng(1)
    peaks = []
    for n in (8_000, 8_000, 80_000):  # the first run warms the caches (patterns, words)
        path = tmp_path / f"{n}.txt"
        path.write_text(" ".join(rng.choice(WORDS, n)), encoding="utf-8")
        peaks.append(_peak(mech, config, path, "text" if mode == "text" else "bag"))
    assert peaks[2] < 1.5 * peaks[1] + 256 * 1024, peaks
