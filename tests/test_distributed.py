"""Tests of emprivacy.distributed: partitioning, exactly-once output, resume, Dask clusters.

The reference for every output is the single-process path: the documents read by
:func:`emprivacy.io.corpus.iter_documents` (or built directly from the Parquet rows)
obfuscated by :class:`emprivacy.obfuscation.obfuscator.Obfuscator` with the same seed.  The
cluster tests start a ``LocalCluster`` of 2 worker processes (one per module).
Budget: about 40 s on 2 cores.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from emprivacy import EarthMoversPrivacy, Embeddings, PrivacyLeakWarning, load_embeddings
from emprivacy.cli import main
from emprivacy.distributed import (
    MechanismSettings,
    obfuscate_corpus,
    plan_partitions,
    read_partition,
)
from emprivacy.exceptions import CorpusRunError, InputError
from emprivacy.io.corpus import InputSurvey, iter_documents, survey_inputs
from emprivacy.io.documents import Document
from emprivacy.io.outputs import format_record
from emprivacy.io.parquet_output import read_parquet_records
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator

EPSILON = 10.0
SEED = 20190401
VOCAB = 20_000
PART_DOCS = 10  # documents per partition: a few dozen partitions


# -- fixtures ------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def emb20k() -> Embeddings:
    return load_embeddings(vocab_size=VOCAB)


@pytest.fixture(scope="module")
def mech20k(emb20k: Embeddings) -> EarthMoversPrivacy:
    return EarthMoversPrivacy(emb20k, epsilon=EPSILON)


def _random_text(rng: np.random.Generator, words: tuple[str, ...]) -> str:
    n = int(rng.integers(3, 40))
    tokens = list(rng.choice(words[:3000], n))
    if rng.random() < 0.3:  # some out-of-vocabulary words, dropped and counted
        tokens.insert(int(rng.integers(0, n)), "qzxvbnm")
    return " ".join(tokens).capitalize() + "."


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory, emb20k: Embeddings) -> dict:
    """330 documents: 80 text files (one empty), 150 JSONL lines, 100 Parquet rows."""
    root = tmp_path_factory.mktemp("corpus")
    rng = np.random.default_rng(7)
    texts = root / "texts"
    (texts / "sub").mkdir(parents=True)
    for i in range(80):
        where = texts / "sub" if i % 3 == 0 else texts
        body = "!!! 123 ..." if i == 41 else _random_text(rng, emb20k.words)
        (where / f"doc{i:03d}.txt").write_text(body, encoding="utf-8")
    lines = []
    for i in range(150):
        record: dict = {"text": _random_text(rng, emb20k.words)}
        if i % 7:  # every 7th line has no id: "<file name>:<line>"
            record["id"] = f"j{i}" if i % 2 else i + 10_000
        lines.append(json.dumps(record))
        if i % 37 == 0:
            lines.append("   ")  # blank lines are skipped but counted in line numbers
    jsonl = root / "docs.jsonl"
    jsonl.write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = [(20_000 + i, _random_text(rng, emb20k.words)) for i in range(100)]
    parquet = root / "docs.parquet"
    pq.write_table(pa.table({"id": [r[0] for r in rows], "text": [r[1] for r in rows]}),
                   parquet, row_group_size=30)
    docs = list(iter_documents([texts, jsonl])) + [Document(str(i), t) for i, t in rows]
    return {"inputs": [str(texts), str(jsonl), str(parquet)], "docs": docs,
            "empty_id": str(texts / "doc041.txt")}


def _reference(mech: EarthMoversPrivacy, docs: list[Document], seed: int = SEED) -> list[dict]:
    warned: list[str] = []
    records = list(Obfuscator(mech, seed=seed, on_warning=warned.append).obfuscate(docs))
    assert len(warned) == 1  # the one empty document
    return records


@pytest.fixture(scope="module")
def reference(mech20k: EarthMoversPrivacy, corpus: dict) -> list[str]:
    """The single-process output, one JSON line per document."""
    return [format_record(r, "jsonl") for r in _reference(mech20k, corpus["docs"])]


@pytest.fixture(scope="module")
def client():
    """A local Dask cluster of 2 worker processes, 1 thread each; closed after the module."""
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as c:
        yield c


def _settings() -> MechanismSettings:
    return MechanismSettings(epsilon=EPSILON, vocab_size=VOCAB)


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


# -- partitioning --------------------------------------------------------------------------
def test_partitions_cover_every_document_in_order(corpus: dict) -> None:
    parts = plan_partitions(corpus["inputs"], partition_documents=PART_DOCS)
    assert len(parts) > 10
    assert [p.index for p in parts] == list(range(len(parts)))
    got = [d for p in parts for d in read_partition(p)]
    assert got == corpus["docs"]
    assert sum(p.n_documents for p in parts) == len(corpus["docs"])
    assert {p.kind for p in parts} == {"text", "jsonl", "parquet"}


def test_one_partition_when_large(corpus: dict) -> None:
    parts = plan_partitions([corpus["inputs"][1]], partition_documents=10**6)
    assert len(parts) == 1
    assert read_partition(parts[0]) == list(iter_documents([corpus["inputs"][1]]))


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(st.one_of(
    st.builds(lambda i, t: json.dumps({"id": i, "text": t}), st.integers(0, 10**6),
              st.text(max_size=30)),
    st.builds(lambda t: json.dumps({"text": t}, ensure_ascii=False), st.text(max_size=30)),
    st.sampled_from(["", "  ", "\t", "\u00a0"])), max_size=30),
    part_docs=st.integers(1, 12), newline=st.sampled_from(["\n", "\r\n", "\r"]))
def test_jsonl_partitions_read_like_the_single_process_reader(tmp_path: Path, lines: list[str],
                                                              part_docs: int,
                                                              newline: str) -> None:
    path = tmp_path / "x.jsonl"
    path.write_bytes(newline.join(lines).encode("utf-8"))
    try:
        expected = list(iter_documents([path]))
    except InputError as exc:  # duplicate ids: refused by the planner too, with one message
        with pytest.raises(InputError) as planned:
            plan_partitions([path], partition_documents=part_docs)
        assert str(planned.value) == str(exc)
        return
    parts = plan_partitions([path], partition_documents=part_docs)
    assert [d for p in parts for d in read_partition(p)] == expected
    assert sum(p.n_documents for p in parts) == len(expected)
    # cut by document count only: every partition but the last holds exactly part_docs
    assert [p.n_documents for p in parts[:-1]] == [part_docs] * (len(parts) - 1)
    assert all(0 < p.n_documents <= part_docs for p in parts)


def test_default_partitions_are_cut_by_count_across_files(tmp_path: Path) -> None:
    """Enough documents for the planner's cut points to coarsen several times (16 → 64)."""
    from emprivacy.distributed import default_partition_documents

    sizes = [3001, 1, 0, 2500]  # documents per JSONL file (one has only blank lines)
    inputs = []
    for k, n in enumerate(sizes):
        path = tmp_path / f"f{k}.jsonl"
        lines = ["", *(json.dumps({"id": f"{k}-{i}", "text": "a cat " * (i % 7)})
                       for i in range(n)), "  "]
        path.write_text("\r\n".join(lines), encoding="utf-8")
        inputs.append(path)
    (tmp_path / "t").mkdir()
    for i in range(40):
        (tmp_path / "t" / f"{i:02d}.txt").write_text("a dog " * i, encoding="utf-8")
    inputs.append(tmp_path / "t")
    total = sum(sizes) + 40
    size = default_partition_documents(total)
    assert size == 64
    parts = plan_partitions(inputs)
    assert [d for p in parts for d in read_partition(p)] == list(iter_documents(inputs))
    expected = [min(size, n - first) for n in [*sizes, 40] for first in range(0, n, size)]
    assert [p.n_documents for p in parts] == expected


def test_parquet_input_needs_id_and_text_columns(tmp_path: Path) -> None:
    pq.write_table(pa.table({"id": [1], "body": ["a"]}), tmp_path / "a.parquet")
    with pytest.raises(InputError, match="has no 'text' column"):
        plan_partitions([tmp_path / "a.parquet"])
    pq.write_table(pa.table({"id": [1.5], "text": ["a"]}), tmp_path / "b.parquet")
    with pytest.raises(InputError, match="'id' must hold strings or integers"):
        plan_partitions([tmp_path / "b.parquet"])
    pq.write_table(pa.table({"id": ["x", None], "text": ["a", "b"]}), tmp_path / "c.parquet")
    with pytest.raises(InputError, match=r"row 1: 'id' is null"):  # ids are read to plan
        plan_partitions([tmp_path / "c.parquet"])
    pq.write_table(pa.table({"id": ["x", "y"], "text": ["a", None]}), tmp_path / "d.parquet")
    with pytest.raises(InputError, match=r"row 1: 'text' is null; a record needs a text"):
        plan_partitions([tmp_path / "d.parquet"])  # its statistics say so, before any work
    pq.write_table(pa.table({"id": ["x", "y"], "text": ["a", None]}), tmp_path / "e.parquet",
                   write_statistics=False)
    (part,) = plan_partitions([tmp_path / "e.parquet"])
    with pytest.raises(InputError, match=r"row 1: 'text' is null"):
        read_partition(part)  # without statistics, when its row is read


def test_directory_of_parquet_files(tmp_path: Path) -> None:
    for k in range(2):
        pq.write_table(pa.table({"id": [f"{k}a", f"{k}b"], "text": ["cat", "dog"]}),
                       tmp_path / f"p{k}.parquet")
    parts = plan_partitions([tmp_path])
    assert [d.id for p in parts for d in read_partition(p)] == ["0a", "0b", "1a", "1b"]


def test_bad_inputs_rejected(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="standard input cannot be partitioned"):
        plan_partitions(["-"])
    with pytest.raises(InputError, match="does not exist"):
        plan_partitions([tmp_path / "nope.jsonl"])
    with pytest.raises(InputError, match=r"holds no \*\.txt or \*\.parquet file"):
        plan_partitions([tmp_path])
    with pytest.raises(ValueError, match="partition_documents must be"):
        plan_partitions([tmp_path], partition_documents=0)


def test_bad_jsonl_fails_with_one_message_in_both_readers(tmp_path: Path) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(b'{"id": "a", "text": "cat"}\n{"id": "b", "text": "caf\xe9"}\n')
    messages = []
    for read in (lambda: list(iter_documents([bad])),
                 lambda: [read_partition(p)
                          for p in plan_partitions([bad], partition_documents=1)]):
        with pytest.raises(InputError) as err:
            read()
        messages.append(str(err.value))
    assert messages == [f"input file {str(bad)!r} is not valid UTF-8 (byte 51)"] * 2


def test_survey_inputs(tmp_path: Path, corpus: dict) -> None:
    texts, jsonl, parquet = corpus["inputs"]
    survey = survey_inputs(corpus["inputs"])
    assert survey == InputSurvey(len(corpus["docs"]),
                                 sum(f.stat().st_size for f in Path(texts).rglob("*.txt"))
                                 + Path(jsonl).stat().st_size + Path(parquet).stat().st_size,
                                 structured=True, has_parquet=True)
    one = tmp_path / "one.txt"
    one.write_text("a cat")
    assert survey_inputs([one, "-"]) == InputSurvey(2, 5, structured=False, has_parquet=False)
    assert survey_inputs([texts]).structured and not survey_inputs([texts]).has_parquet
    with pytest.raises(InputError, match=r"nope\.txt' does not exist"):
        survey_inputs([tmp_path / "nope.txt"])


# -- in this process -----------------------------------------------------------------------
def test_in_process_jsonl_matches_single_process(tmp_path: Path, corpus: dict,
                                                  mech20k: EarthMoversPrivacy,
                                                  reference: list[str]) -> None:
    out = tmp_path / "out.jsonl"
    summary = obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED,
                               partition_documents=PART_DOCS)
    assert _lines(out) == reference
    assert summary.documents == len(corpus["docs"])
    assert summary.documents_written == len(reference)
    assert summary.skipped == (corpus["empty_id"],)
    assert summary.words == sum(json.loads(r)["n_words"] for r in reference)
    assert summary.partitions_computed == summary.partitions > 10
    assert not (tmp_path / "out.jsonl.parts").exists()  # merged, then removed
    # the seed matters: another seed gives another release
    other = obfuscate_corpus(corpus["inputs"], tmp_path / "other.jsonl", mechanism=mech20k,
                             seed=SEED + 1, partition_documents=PART_DOCS)
    assert other.documents_written == summary.documents_written
    assert _lines(tmp_path / "other.jsonl") != reference


def test_unseeded_run_is_consistent_and_not_reproducible(tmp_path: Path, corpus: dict,
                                                          mech20k: EarthMoversPrivacy) -> None:
    docs = corpus["inputs"][1:2]
    runs = []
    for k in range(2):
        obfuscate_corpus(docs, tmp_path / f"u{k}.jsonl", mechanism=mech20k,
                         partition_documents=PART_DOCS)
        runs.append([json.loads(line) for line in _lines(tmp_path / f"u{k}.jsonl")])
    assert [r["id"] for r in runs[0]] == [r["id"] for r in runs[1]]
    assert all(not r["seeded"] for r in runs[0])
    assert [r["bag"] for r in runs[0]] != [r["bag"] for r in runs[1]]


def test_bag_format_merges_like_the_command_line(tmp_path: Path, corpus: dict,
                                                 mech20k: EarthMoversPrivacy,
                                                 reference: list[str]) -> None:
    out = tmp_path / "out.txt"
    obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED, format="bag",
                     partition_documents=PART_DOCS)
    assert _lines(out) == [" ".join(json.loads(r)["bag"]) for r in reference]


def test_size_truncates_like_single_process(tmp_path: Path, corpus: dict,
                                            mech20k: EarthMoversPrivacy) -> None:
    docs = corpus["docs"][80:]
    expected = [format_record(r, "jsonl") for r in
                Obfuscator(mech20k, ObfuscationConfig(size=5), seed=SEED).obfuscate(docs)]
    obfuscate_corpus(corpus["inputs"][1:], tmp_path / "n5.jsonl", mechanism=mech20k,
                     config=ObfuscationConfig(size=5), seed=SEED, partition_documents=PART_DOCS)
    assert _lines(tmp_path / "n5.jsonl") == expected
    assert {json.loads(x)["n_words"] for x in expected} <= set(range(1, 6))


@pytest.mark.parametrize("options", [{"mode": "text"}, {"oov": "placeholder"},
                                     {"mode": "text", "oov": "drop", "perturb_stopwords": True}])
def test_config_as_single_process(tmp_path: Path, corpus: dict,
                                               mech20k: EarthMoversPrivacy,
                                               options: dict) -> None:
    docs = corpus["docs"][80:]
    expected = [format_record(r, "jsonl") for r in
                Obfuscator(mech20k, ObfuscationConfig(**options), seed=SEED).obfuscate(docs)]
    out = tmp_path / "out.parquet"
    obfuscate_corpus(corpus["inputs"][1:], out, mechanism=mech20k, seed=SEED,
                     partition_documents=PART_DOCS, config=ObfuscationConfig(**options))
    rows = list(read_parquet_records(out))
    assert [format_record(r, "jsonl") for r in rows] == expected
    assert {r["mode"] for r in rows} == {options.get("mode", "bag")}


def test_in_process_parquet_matches_single_process(tmp_path: Path, corpus: dict,
                                                    mech20k: EarthMoversPrivacy,
                                                    reference: list[str]) -> None:
    out = tmp_path / "out.parquet"
    summary = obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED,
                               partition_documents=PART_DOCS)
    assert summary.format == "parquet"
    table = ds.dataset(out, format="parquet").to_table()  # a dataset: one table
    assert table.column("part").to_pylist() == [0] * len(reference)  # short: one row each
    rows = list(read_parquet_records(out))
    assert [format_record(r, "jsonl") for r in rows] == reference
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["documents_written"] == len(reference)
    assert manifest["skipped"] == [corpus["empty_id"]]
    assert manifest["metadata"]["seeded"] is True
    assert sum(p["records"] for p in manifest["partitions"]) == len(reference)
    umask = os.umask(0o022)
    os.umask(umask)
    assert {(out / name).stat().st_mode & 0o777 for name in os.listdir(out)} == \
        {0o666 & ~umask}  # not mkstemp's 0600: others may read the release
    names = sorted(os.listdir(out))
    files = sorted(p["file"] for p in manifest["partitions"] if p["file"])
    assert names == ["_manifest.json", *files]


def test_errors_match_the_single_process_path(tmp_path: Path, mech20k: EarthMoversPrivacy,
                                              ) -> None:
    # a document with no word in the vocabulary is skipped, as on one machine (issue 22, 13)
    oov = tmp_path / "oov.jsonl"
    oov.write_text('{"id": "a", "text": "cat"}\n{"id": "b", "text": "qzxvbnm qzxvbnm"}\n')
    warned: list[str] = []
    single_records = list(Obfuscator(mech20k, seed=1, on_warning=warned.append).obfuscate(
        iter_documents([oov])))
    assert warned == ["document 'b' has no word in the vocabulary of 'glove-6b-50d'; skipped"]
    summary = obfuscate_corpus([oov], tmp_path / "o.jsonl", mechanism=mech20k, seed=1)
    assert (summary.skipped, summary.skipped_out_of_vocabulary) == (("b",), ("b",))
    assert [json.loads(line) for line in (tmp_path / "o.jsonl").read_text().splitlines()] == \
        single_records
    only_oov = tmp_path / "only_oov.jsonl"
    only_oov.write_text('{"id": "b", "text": "qzxvbnm"}\n{"id": "c", "text": "!!"}\n')
    with pytest.raises(InputError) as single:
        list(Obfuscator(mech20k, seed=1).obfuscate(iter_documents([only_oov])))
    with pytest.raises(InputError) as dist:
        obfuscate_corpus([only_oov], tmp_path / "b.jsonl", mechanism=mech20k, seed=1,
                         partition_documents=1)
    assert str(dist.value) == str(single.value) == (
        "every input document is empty after normalisation or has no word in the vocabulary "
        "of 'glove-6b-50d' (2, first 'b'); nothing to release")
    assert not (tmp_path / "b.jsonl.parts").exists()
    empty = tmp_path / "empty.jsonl"
    empty.write_text('{"text": "!!"}\n{"text": "..."}\n')
    with pytest.raises(InputError, match="every input document is empty"):
        obfuscate_corpus([empty], tmp_path / "e.jsonl", mechanism=mech20k, partition_documents=1)
    # the same id in two partitions: found when planning, with the single-process message
    dup = tmp_path / "dup.jsonl"
    dup.write_text('{"id": "x", "text": "cat"}\n{"id": "x", "text": "dog"}\n')
    with pytest.raises(InputError) as single:
        list(Obfuscator(mech20k, seed=1).obfuscate(iter_documents([dup])))
    with pytest.raises(InputError) as dist:
        obfuscate_corpus([dup], tmp_path / "d.jsonl", mechanism=mech20k, partition_documents=1)
    assert str(dist.value) == str(single.value) == (
        f"duplicate document id 'x': documents 1 and 2 of the input (the second at {dup}:2); "
        "ids must be unique, since each document's noise stream is keyed by its id")
    assert not (tmp_path / "d.jsonl").exists() and not (tmp_path / "d.jsonl.parts").exists()
    assert not (tmp_path / "e.jsonl.parts").exists()  # nothing publishable: nothing left


def test_an_input_changed_during_the_run_fails_it(tmp_path: Path,
                                                  mech20k: EarthMoversPrivacy) -> None:
    texts = tmp_path / "texts"
    texts.mkdir()
    for k in range(4):
        (texts / f"{k}.txt").write_text("the cat sat on the mat " * 20)

    def edit(done: int, total: int) -> None:
        if done == 1:
            (texts / "3.txt").write_text("a dog")

    with pytest.raises(InputError, match=r"changed since the run was planned"):
        obfuscate_corpus([texts], tmp_path / "o.jsonl", mechanism=mech20k, partition_documents=1,
                         progress=edit)
    with pytest.raises(ValueError, match="was written with other inputs"):
        obfuscate_corpus([texts], tmp_path / "o.jsonl", mechanism=mech20k, partition_documents=1,
                         resume=True)

    def delete(done: int, total: int) -> None:
        if done == 1:
            (texts / "2.txt").unlink()

    with pytest.raises(InputError, match=r"2\.txt' does not exist"):
        obfuscate_corpus([texts], tmp_path / "o2.jsonl", mechanism=mech20k, partition_documents=1,
                         progress=delete)


def test_bad_parameters_rejected(tmp_path: Path, corpus: dict,
                                 mech20k: EarthMoversPrivacy) -> None:
    inputs = corpus["inputs"][1:2]
    with pytest.raises(TypeError, match=r"mechanism must be a WordMechanism \(e\.g\. "
                                        r"EarthMoversPrivacy\) or a MechanismSettings; got str"):
        obfuscate_corpus(inputs, tmp_path / "o", mechanism="exact")
    with pytest.raises(ValueError, match="format must be one of"):
        obfuscate_corpus(inputs, tmp_path / "o", mechanism=mech20k, format="csv")
    with pytest.raises(TypeError, match=r"client must be a distributed\.Client"):
        obfuscate_corpus(inputs, tmp_path / "o", mechanism=mech20k, client="tcp://x:1")
    with pytest.raises(ValueError, match="is a directory; give a file name"):
        obfuscate_corpus(inputs, tmp_path, mechanism=mech20k)
    with pytest.raises(ValueError, match=r"epsilon must be a finite number > 0; got -1\.0"):
        MechanismSettings(epsilon=-1.0)
    with pytest.raises(ValueError, match="decoder must be one of"):
        MechanismSettings(epsilon=1.0, decoder="fast")
    with pytest.raises(InputError, match="no input documents"):
        obfuscate_corpus([], tmp_path / "o", mechanism=mech20k)
    mine = tmp_path / "mine.parquet"
    mine.mkdir()
    (mine / "notes.txt").write_text("someone else's file")
    with pytest.raises(ValueError, match="is not empty and holds no interrupted run"):
        obfuscate_corpus(inputs, mine, mechanism=mech20k, resume=True)
    assert os.listdir(mine) == ["notes.txt"]


# -- resume --------------------------------------------------------------------------------
class Interrupted(Exception):
    pass


def _interrupt_after(n_partitions: int):
    """A progress callback that stops the run once ``n_partitions`` are complete."""
    calls = []

    def progress(done: int, total: int) -> None:
        calls.append(done)  # the first call reports what was done before the run
        if len(calls) > n_partitions:
            raise Interrupted

    return progress


def _status_files(parts_dir: Path) -> dict[str, tuple[int, int]]:
    """name -> (inode, mtime_ns) of every completed partition's data file."""
    out = {}
    for f in sorted((parts_dir / "_status").glob("part-*.json")):
        status = json.loads(f.read_text())
        if status["file"]:
            st = (parts_dir / status["file"]).stat()
            out[status["file"]] = (st.st_ino, st.st_mtime_ns)
    return out


def test_resume_in_process_skips_completed_partitions(tmp_path: Path, corpus: dict,
                                                       mech20k: EarthMoversPrivacy,
                                                       reference: list[str]) -> None:
    out = tmp_path / "out.jsonl"
    parts_dir = tmp_path / "out.jsonl.parts"
    with pytest.raises(Interrupted):
        obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED,
                         partition_documents=PART_DOCS, progress=_interrupt_after(6))
    assert not out.exists()
    before = _status_files(parts_dir)
    assert len(before) == 6
    # a damaged partition file is not trusted: it is obfuscated again
    damaged = sorted(before)[0]
    (parts_dir / damaged).write_bytes(b"garbage\n")
    with pytest.raises(ValueError, match="already holds an interrupted run; pass resume=True"):
        obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED,
                         partition_documents=PART_DOCS)
    with pytest.raises(ValueError, match=r"cannot resume: .* was written with other settings"):
        obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED,
                         config=ObfuscationConfig(size=3), partition_documents=PART_DOCS,
                         resume=True)
    with pytest.raises(ValueError, match=r"cannot resume: .* was written with other inputs"):
        obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED,
                         partition_documents=PART_DOCS * 2, resume=True)
    after: dict[str, tuple[int, int]] = {}

    def snapshot(done: int, total: int) -> None:
        if not after:
            after.update(_status_files(parts_dir))

    summary = obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED,
                               partition_documents=PART_DOCS, resume=True, progress=snapshot)
    assert summary.partitions_reused == 5
    assert summary.partitions_computed == summary.partitions - 5
    kept = {k: v for k, v in before.items() if k != damaged}
    assert {k: after[k] for k in kept} == kept  # untouched: not written again
    assert _lines(out) == reference
    with pytest.raises(ValueError, match="nothing to resume"):
        obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, seed=SEED,
                         partition_documents=PART_DOCS, resume=True)


def test_resume_of_a_completed_parquet_run_does_nothing(tmp_path: Path, corpus: dict,
                                                        mech20k: EarthMoversPrivacy) -> None:
    out = tmp_path / "out.parquet"
    first = obfuscate_corpus(corpus["inputs"][1:], out, mechanism=mech20k, seed=SEED,
                             partition_documents=PART_DOCS)
    stamp = (out / "_manifest.json").stat().st_mtime_ns
    again = obfuscate_corpus(corpus["inputs"][1:], out, mechanism=mech20k, seed=SEED,
                             partition_documents=PART_DOCS, resume=True)
    assert again.partitions_computed == 0
    assert again.documents_written == first.documents_written
    assert (out / "_manifest.json").stat().st_mtime_ns == stamp
    with pytest.raises(ValueError, match="already holds a completed run"):
        obfuscate_corpus(corpus["inputs"][1:], out, mechanism=mech20k, seed=SEED,
                         partition_documents=PART_DOCS)


def test_a_data_file_changed_after_its_task_fails_the_run(tmp_path: Path, corpus: dict,
                                                          mech20k: EarthMoversPrivacy) -> None:
    out = tmp_path / "out.parquet"

    def tamper(done: int, total: int) -> None:
        if done == total:  # every partition written, not yet verified
            victim = sorted(out.glob("part-*.parquet"))[1]
            victim.write_bytes(victim.read_bytes()[:-8] + b"tampered")

    with pytest.raises(CorpusRunError, match="does not match its status"):
        obfuscate_corpus(corpus["inputs"][1:], out, mechanism=mech20k, seed=SEED,
                         partition_documents=PART_DOCS, progress=tamper)
    assert not (out / "_manifest.json").exists()
    summary = obfuscate_corpus(corpus["inputs"][1:], out, mechanism=mech20k, seed=SEED,
                               partition_documents=PART_DOCS, resume=True)
    assert summary.partitions_computed == 1


# -- on a cluster of 2 worker processes ----------------------------------------------------
def test_cluster_output_identical_to_single_process(tmp_path: Path, client, corpus: dict,
                                                    reference: list[str]) -> None:
    from emprivacy.distributed import task

    out = tmp_path / "out.jsonl"
    threads: list[dict] = []

    def decoder_threads(done: int, total: int) -> None:
        if done and not threads:  # while running: each worker's cached decoder
            threads.append(client.run(lambda: [m.decoder.n_threads
                                               for m in task._CACHE.values()]))

    summary = obfuscate_corpus(corpus["inputs"], out, mechanism=_settings(), client=client,
                               seed=SEED, partition_documents=PART_DOCS, progress=decoder_threads)
    assert _lines(out) == reference
    assert summary.skipped == (corpus["empty_id"],)
    assert summary.metadata["embeddings"] == {"name": "glove-6b-50d", "vocab_size": VOCAB}
    # one decoder thread per single-threaded worker
    assert threads and all(v in ([], [1]) for v in threads[0].values())
    assert [1] in threads[0].values()
    # the embeddings were loaded on the workers, and their cache freed at the end
    assert client.run(lambda: len(task._CACHE)) == dict.fromkeys(
        client.scheduler_info()["workers"], 0)


def test_cluster_scattered_mechanism_to_parquet(tmp_path: Path, client, corpus: dict,
                                                mech20k: EarthMoversPrivacy,
                                                reference: list[str]) -> None:
    out = tmp_path / "out.parquet"
    summary = obfuscate_corpus(corpus["inputs"], out, mechanism=mech20k, client=client,
                               seed=SEED, partition_documents=PART_DOCS)
    assert summary.documents_written == len(reference)
    rows = list(read_parquet_records(out))
    assert [format_record(r, "jsonl") for r in rows] == reference


def test_cluster_oov_keep_warns_here_and_says_so_in_every_record(tmp_path: Path, client,
                                                                 corpus: dict,
                                                                 mech20k: EarthMoversPrivacy
                                                                 ) -> None:
    docs = corpus["docs"][80:230]
    with pytest.warns(PrivacyLeakWarning):
        expected = [format_record(r, "jsonl") for r in
                    Obfuscator(mech20k, ObfuscationConfig(oov="keep"), seed=SEED).obfuscate(docs)]
    out = tmp_path / "out.jsonl"
    with pytest.warns(PrivacyLeakWarning, match="released unchanged"):
        obfuscate_corpus(corpus["inputs"][1:2], out, mechanism=_settings(), client=client,
                         seed=SEED, partition_documents=PART_DOCS,
                         config=ObfuscationConfig(oov="keep"))
    assert _lines(out) == expected
    records = [json.loads(line) for line in expected]
    assert all(r["oov"] == "keep" for r in records)
    assert sum(r["oov_kept"] for r in records) > 0


def test_cluster_approximate_index_built_once_and_loaded_by_the_workers(
        tmp_path: Path, client) -> None:
    from emprivacy.decoding import ApproximateDecoder
    from emprivacy.distributed import task

    emb = load_embeddings(vocab_size=2500)  # the smallest vocabulary that gets an index
    cache = tmp_path / "index-cache"
    decoder = ApproximateDecoder(emb, cache_dir=cache)  # built here, cached on "shared" disk
    assert decoder.build_seconds > 0 and decoder.nlist > 0
    rng = np.random.default_rng(3)
    docs = [Document(f"a{i}", _random_text(rng, emb.words[:2000])) for i in range(60)]
    corpus = tmp_path / "a.jsonl"
    corpus.write_text("".join(json.dumps({"id": d.id, "text": d.text}) + "\n" for d in docs))
    expected = [format_record(r, "jsonl") for r in Obfuscator(
        EarthMoversPrivacy(emb, epsilon=EPSILON, decoder=decoder), seed=SEED).obfuscate(docs)]
    seen: list[dict] = []

    def decoders(done: int, total: int) -> None:
        if done:
            seen.append(client.run(lambda: [(m.decoder.name, m.decoder.build_seconds,
                                              m.decoder.load_seconds, m.decoder.n_threads)
                                             for m in task._CACHE.values()]))

    out = tmp_path / "out.jsonl"
    obfuscate_corpus([corpus], out, client=client, seed=SEED, partition_documents=10,
                     progress=decoders,
                     mechanism=MechanismSettings(epsilon=EPSILON, vocab_size=2500,
                                                 decoder="approximate",
                                                 index_cache_dir=str(cache)))
    assert _lines(out) == expected
    loaded = [d for snapshot in seen for ds in snapshot.values() for d in ds]
    assert loaded and all(name == "approximate" and built == 0 and load > 0 and threads == 1
                          for name, built, load, threads in loaded)
    assert len(list(cache.glob("ivf-*.npz"))) == 1


def test_cluster_input_error_is_reported(tmp_path: Path, client,
                                         mech20k: EarthMoversPrivacy) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": "a", "text": "cat"}\nnot json\n')
    with pytest.raises(InputError, match=r"bad\.jsonl:2: not a valid JSON object"):
        obfuscate_corpus([bad], tmp_path / "o.jsonl", mechanism=_settings(), client=client)


def _wait_idle(client, timeout: float = 30.0) -> None:
    """Until no worker executes a task (cancelled tasks finish on their worker)."""
    deadline = time.monotonic() + timeout
    while any(client.run(lambda dask_worker: dask_worker.state.executing_count).values()):
        assert time.monotonic() < deadline
        time.sleep(0.05)


def test_cluster_resume_after_interrupted_run(tmp_path: Path, client, corpus: dict,
                                              reference: list[str]) -> None:
    out = tmp_path / "out.jsonl"
    parts_dir = tmp_path / "out.jsonl.parts"
    with pytest.raises(Interrupted):
        obfuscate_corpus(corpus["inputs"], out, mechanism=_settings(), client=client,
                         seed=SEED, partition_documents=PART_DOCS, progress=_interrupt_after(4))
    _wait_idle(client)
    before = _status_files(parts_dir)
    n_parts = len(plan_partitions(corpus["inputs"], partition_documents=PART_DOCS))
    assert 3 <= len(before) < n_parts
    summary = obfuscate_corpus(corpus["inputs"], out, mechanism=_settings(), client=client,
                               seed=SEED, partition_documents=PART_DOCS, resume=True)
    assert summary.partitions_reused >= len(before)
    assert summary.partitions_reused + summary.partitions_computed == n_parts
    assert summary.partitions_computed > 0
    assert _lines(out) == reference


def _task_transitions(client) -> list[tuple[str, str, str, float]]:
    """(key, from, to, time) of the scheduler's transitions of partition tasks."""
    return client.run_on_scheduler(lambda dask_scheduler: [
        (str(t[0]), t[1], t[2], t[-1]) for t in dask_scheduler.transition_log
        if str(t[0]).startswith("emprivacy-part")])


def test_cluster_exactly_once_after_a_worker_is_killed(tmp_path: Path, client, corpus: dict,
                                                       reference: list[str]) -> None:
    out = tmp_path / "out.jsonl"
    killed: list[int] = []

    def kill_a_busy_worker(done: int, total: int) -> None:
        if killed or done == 0:
            return
        busy = [w for w, keys in client.processing().items() if keys]
        pids = client.run(os.getpid)
        pid = pids[busy[0] if busy else next(iter(pids))]
        os.kill(pid, signal.SIGKILL)
        killed.append(pid)

    seen_before = set(_task_transitions(client))
    summary = obfuscate_corpus(corpus["inputs"], out, mechanism=_settings(), client=client,
                               seed=SEED, partition_documents=PART_DOCS,
                               progress=kill_a_busy_worker)
    assert killed
    lost = [t for t in _task_transitions(client) if t not in seen_before
            and t[1:3] == ("processing", "released")]
    assert lost  # at least one task died with its worker, and was run again
    client.wait_for_workers(2, timeout=60)
    assert killed[0] not in client.run(os.getpid).values()  # the nanny started a new one
    assert summary.partitions_computed == summary.partitions
    lines = _lines(out)
    ids = [json.loads(line)["id"] for line in lines]
    assert len(ids) == len(set(ids)) == len(reference)
    assert lines == reference


# -- command line --------------------------------------------------------------------------
def test_cli_workers_and_parquet(tmp_path: Path, corpus: dict, reference: list[str],
                                 capsys: pytest.CaptureFixture[str]) -> None:
    common = ["-e", str(EPSILON), "--vocab-size", str(VOCAB), "--seed", str(SEED), "-q"]
    out = tmp_path / "out.jsonl"
    assert main(["obfuscate", *corpus["inputs"], *common, "--workers", "2", "-o",
                 str(out)]) == 0
    assert _lines(out) == reference
    pout = tmp_path / "out.parquet"
    assert main(["obfuscate", *corpus["inputs"], *common, "-o", str(pout)]) == 0
    rows = list(read_parquet_records(pout))
    assert [format_record(r, "jsonl") for r in rows] == reference
    assert main(["obfuscate", *corpus["inputs"], *common, "-o", str(pout)]) == 2
    assert "already holds a completed run" in capsys.readouterr().err
    assert main(["obfuscate", *corpus["inputs"], *common, "-o", str(pout), "--resume"]) == 0
    assert main(["obfuscate", *corpus["inputs"], *common, "--workers", "2"]) == 2
    assert "--output" in capsys.readouterr().err


def test_cli_scheduler_address(tmp_path: Path, client, corpus: dict, reference: list[str],
                               capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out.jsonl"
    address = client.scheduler.address
    assert main(["obfuscate", *corpus["inputs"], "-e", str(EPSILON), "--vocab-size",
                 str(VOCAB), "--seed", str(SEED), "--scheduler", address, "-o", str(out)]) == 0
    assert _lines(out) == reference
    err = capsys.readouterr().err
    assert "Dask dashboard: http" in err
    assert f"warning: document {corpus['empty_id']!r} is empty" in err
    assert f"wrote {len(reference)} document(s)" in err
    assert main(["obfuscate", *corpus["inputs"], "-e", "1", "--scheduler", address,
                 "--workers", "2", "-o", str(out)]) == 2
    assert "not both" in capsys.readouterr().err
    import dask

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        assert main(["obfuscate", *corpus["inputs"], "-e", "1", "--scheduler",
                     "tcp://127.0.0.1:1", "-o", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("emprivacy: error: cannot connect to the Dask scheduler at "
                              "'tcp://127.0.0.1:1'")


@pytest.mark.parametrize("mode", ["text", "bag"])
def test_cluster_entities_as_single_process(tmp_path: Path, client, mech20k: EarthMoversPrivacy,
                                            mode: str) -> None:
    """Entity detection travels with the job (issue 29): on 2 worker processes, the records
    of a run with ``entities="capitalised"`` are those of the single-process obfuscator —
    the entity words drawn in their sub-vocabulary at ε_e, one surrogate per entity word."""
    texts = [f"then {a} met {b} in {c} and later {a} left for {c}."
             for a, b, c in [("Margaret", "Thompson", "Paris"), ("John", "Lopez", "London"),
                             ("Mary", "Patel", "Boston"), ("David", "Bennett", "Chicago")] * 3]
    jsonl = tmp_path / "names.jsonl"
    jsonl.write_text("".join(json.dumps({"id": f"n{i}", "text": t}) + "\n"
                             for i, t in enumerate(texts)), encoding="utf-8")
    config = ObfuscationConfig(mode=mode, entities="capitalised", entity_epsilon=0.5)
    docs = [Document(f"n{i}", t) for i, t in enumerate(texts)]
    expected = [format_record(r, "jsonl")
                for r in Obfuscator(mech20k, config, seed=SEED).obfuscate(docs)]
    out = tmp_path / "out.jsonl"
    obfuscate_corpus([str(jsonl)], out, mechanism=_settings(), client=client, seed=SEED,
                     partition_documents=4, config=config)
    got = _lines(out)
    assert got == expected
    records = [json.loads(line) for line in got]
    assert all(r["entities_detected"] for r in records)  # detection ran on the workers
    if mode == "text":  # the two mentions of a person (and of a place) get one surrogate
        for r in records:
            words = r["text"].rstrip(".").split()
            assert words[1] == words[8] and words[5] == words[11]


def test_cluster_style_option_as_single_process(tmp_path: Path, client,
                                                mech20k: EarthMoversPrivacy) -> None:
    """The style option travels with the job (issue 41): on 2 worker processes, the records
    of a run with ``style_epsilon`` are the single-process obfuscator's — its function words
    drawn within their classes, the punctuation canonical, the style guarantee in each."""
    texts = [f"The {a} sat on the {b} ,  and she saw a {c} under this {b} !!"
             for a, b, c in [("cat", "mat", "dog"), ("man", "road", "car"),
                             ("girl", "hill", "tree")] * 3]
    jsonl = tmp_path / "style.jsonl"
    jsonl.write_text("".join(json.dumps({"id": f"s{i}", "text": t}) + "\n"
                             for i, t in enumerate(texts)), encoding="utf-8")
    config = ObfuscationConfig(mode="text", style_epsilon=1.0)
    docs = [Document(f"s{i}", t) for i, t in enumerate(texts)]
    expected = [format_record(r, "jsonl")
                for r in Obfuscator(mech20k, config, seed=SEED).obfuscate(docs)]
    plain = [format_record(r, "jsonl") for r in
             Obfuscator(mech20k, ObfuscationConfig(mode="text"), seed=SEED).obfuscate(docs)]
    out = tmp_path / "out.jsonl"
    obfuscate_corpus([str(jsonl)], out, mechanism=_settings(), client=client, seed=SEED,
                     partition_documents=4, config=config)
    got = _lines(out)
    assert got == expected != plain
    records = [json.loads(line) for line in got]
    assert all(r["style_words"] == 8 and r["style_epsilon"] == 1.0 for r in records)
    assert all("Style option (style_epsilon=1)" in r["guarantee"] for r in records)
    assert not any("  " in r["text"] or "!!" in r["text"] for r in records)
