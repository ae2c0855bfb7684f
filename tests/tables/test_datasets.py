"""emprivacy.tables.datasets: a column of a Hugging Face dataset through ``Dataset.map`` (issue 24,
item 4): the release of ``obfuscate`` (row ``i`` of text ``t`` the document
``f"{i}#{text_digest(t)}"``) whatever ``batch_size`` and ``num_proc``, one run key shared by
every process, no noise shared by two rows of one index when a mapper serves two datasets,
the embeddings loaded once per process and never pickled, nulls, empty strings, missing and
non-string columns, no rows, ``keep_original``, and the mistakes of the call.

Nothing here touches the network or the user's cache: the datasets are built in memory
(``Dataset.from_dict``), Hugging Face runs offline, and its cache is in ``tmp_path``.
"""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from scipy.stats import chi2_contingency

from emprivacy import Embeddings
from emprivacy.embeddings.model import load_embeddings
from emprivacy.exceptions import EmbeddingsFormatError, MissingExtraError
from emprivacy.mechanisms import EarthMoversPrivacy, make_mechanism
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.tables import datasets as module
from emprivacy.tables import options as options_module
from emprivacy.tables.batch import privatize_texts
from emprivacy.tables.privatizer import TextPrivatizer

from ..helpers import EMBEDDINGS_FILE
from .test_obfuscate_contract import TEXTS, cli_records, digest_id

if importlib.util.find_spec("datasets") is None:  # pragma: no cover
    pytest.skip("the datasets extra is not installed", allow_module_level=True)

from emprivacy.tables.datasets import DatasetMapper, counts, mapper

REVIEWS = ["The cat met a dog at the harbour.", None, "", "A bus and a car.", "sun sun sun",
           "Zebra!", "Dog.", "The car drifted past the quiet cat.", None, "   "]

#: A warning Python 3.12+ gives when a process with threads forks (datasets' workers).
FORK = "ignore:This process .* is multi-threaded, use of fork:DeprecationWarning"


@pytest.fixture(autouse=True)
def hf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """datasets offline, its caches in ``tmp_path`` (set before its first import, and on its
    config when an earlier test imported it), no progress bars."""
    cache = tmp_path / "hf"
    for name, value in {"HF_HOME": cache, "HF_DATASETS_CACHE": cache / "datasets",
                        "HF_HUB_CACHE": cache / "hub", "HF_DATASETS_OFFLINE": "1",
                        "HF_HUB_OFFLINE": "1"}.items():
        monkeypatch.setenv(name, str(value))
    import datasets

    for name, value in {"HF_CACHE_HOME": cache, "HF_DATASETS_CACHE": cache / "datasets",
                        "HF_MODULES_CACHE": cache / "modules", "HF_DATASETS_OFFLINE": True,
                        "HF_HUB_OFFLINE": True}.items():
        monkeypatch.setattr(datasets.config, name, value)
    shown = datasets.is_progress_bar_enabled()
    datasets.disable_progress_bars()
    yield datasets
    if shown:
        datasets.enable_progress_bars()


@pytest.fixture
def emb_file(tmp_path: Path) -> str:
    path = tmp_path / "emb.txt"
    path.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    return str(path)


@pytest.fixture
def ds(hf):
    return hf.Dataset.from_dict({"id": list(range(len(REVIEWS))), "review": REVIEWS,
                                 "stars": [float(i % 5) for i in range(len(REVIEWS))]})


def keyed_by_text(texts, *, epsilon: float, mode: str, embeddings: str, seed: int):
    """The rows as a run keyed by index and text releases them (what the mapper should do),
    built here from its parts: the file's embeddings, the paper's mechanism, the seed."""
    mech = make_mechanism("madlib", load_embeddings(embeddings), epsilon=epsilon)
    return TextPrivatizer(mech, ObfuscationConfig(mode=mode), seed=seed,
                          key_by_text=True).privatize(texts)


def run(ds, m: DatasetMapper, **kwargs):
    return ds.map(m, batched=True, with_indices=True, **kwargs)


def column(ds, name: str) -> list:
    return ds.with_format("arrow")[name].to_pylist()


@pytest.mark.filterwarnings(FORK)
@pytest.mark.parametrize("mode", ["text", "bag"])
def test_a_seeded_release_is_the_same_whatever_batch_size_and_num_proc(ds, emb_file, mode):
    expected = keyed_by_text(REVIEWS, epsilon=0.7, mode=mode, embeddings=emb_file, seed=3)
    rows = [type("Row", (), {"release": r, "metadata": m}) for r, m in zip(
        expected.released, [None if t is None else {"n_words": n} for t, n in zip(
            REVIEWS, expected.columns["n_words"], strict=True)], strict=True)]
    outs = [run(ds, mapper(column="review", epsilon=0.7, mode=mode, embeddings=emb_file,
                           seed=3), batch_size=b, num_proc=n)
            for b, n in ((1, None), (3, None), (1000, None), (2, 2), (1000, 2))]
    for out in outs:
        assert column(out, "review") == [r.release for r in rows]
        assert out.to_dict() == outs[0].to_dict()  # the metadata columns too
    assert column(outs[0], "emprivacy_n_words") == [
        None if r.metadata is None else r.metadata["n_words"] for r in rows]
    assert column(outs[0], "id") == list(range(len(REVIEWS)))  # the other columns as they were
    assert column(outs[0], "stars") == column(ds, "stars")


def test_row_i_is_released_as_obfuscate_releases_its_document(tmp_path, capsys, hf):
    """Text mode, seeded: the release and every record field of ``emprivacy obfuscate
    --readable --seed`` on the JSONL whose line ``i`` is row ``i`` with the id
    ``f"{i}#{text_digest(text)}"``; the shared fields are the records' own."""
    records = cli_records(tmp_path, capsys, TEXTS, ["--epsilon", "0.7", "--seed", "5",
                                                    "--readable", "--mechanism",
                                                    "mahalanobis"], id_of=digest_id)
    m = mapper(column="text", epsilon=0.7, mechanism="mahalanobis",
               embeddings=tmp_path / "emb.txt", seed=5)
    out = run(hf.Dataset.from_dict({"text": TEXTS}), m, batch_size=4).to_list()
    released = 0
    for i, row in enumerate(out):
        record = None if TEXTS[i] is None else records.get(digest_id(i, TEXTS[i]))
        if record is None:  # null or empty: obfuscate wrote no record
            assert TEXTS[i] is None or row["emprivacy_skipped"] == "empty"
            continue
        released += 1
        assert row["text"] == record["text"]
        assert {k: v for k, v in record.items() if k in m.metadata} == m.metadata
        fields = {k: v for k, v in record.items() if k not in m.metadata
                  and k not in ("id", "text")}
        assert {k: row["emprivacy_" + k] for k in fields} == fields  # the guarantee too
        assert row["emprivacy_mechanism"] == "mahalanobis"
    assert released == len(records) >= 6


def test_the_datasets_path_releases_the_command_lines_law(tmp_path, capsys, hf):
    """Two-sample test on a tiny vocabulary, as for ``privatize_texts``
    (test_obfuscate_contract.py): 1,500 rows of one sentence through ``Dataset.map`` (seed
    1, batches of 256) and through ``obfuscate`` (seed 2, its own noise): the released
    words' counts are homogeneous (chi-square, p > 0.001; seeded, so deterministic)."""
    n, text = 1500, "cat dog harbour"
    records = cli_records(tmp_path, capsys, [text] * n, ["--epsilon", "0.8", "--seed", "2"])
    out = run(hf.Dataset.from_dict({"text": [text] * n}),
              mapper(column="text", epsilon=0.8, mode="bag", embeddings=tmp_path / "emb.txt",
                     seed=1), batch_size=256)
    mapped = Counter(w for bag in column(out, "text") for w in bag)
    command = Counter(w for r in records.values() for w in r["bag"])
    assert sum(mapped.values()) == sum(command.values()) == 3 * n
    words = sorted(set(mapped) | set(command))
    table = np.array([[mapped[w] for w in words], [command[w] for w in words]])
    table = table[:, table.sum(axis=0) >= 10]  # the chi-square needs expected counts
    assert table.shape[1] >= 4  # several words released: a real comparison
    _, p, _, _ = chi2_contingency(table)
    assert p > 1e-3


@pytest.mark.filterwarnings(FORK)
def test_without_a_seed_every_process_shares_the_run_key_drawn_at_creation(ds, emb_file,
                                                                          monkeypatch):
    drawn = []
    real = module.run_key_from_seed
    monkeypatch.setattr(module, "run_key_from_seed",
                        lambda seed: drawn.append(seed) or real(seed))
    m = mapper(column="review", epsilon=0.5, embeddings=emb_file)
    assert drawn == [None]  # one key, from the secure generator, now
    assert m.metadata["seeded"] is False
    two = run(ds, m, batch_size=2, num_proc=2)  # in the worker processes, copies of m
    one = run(ds, m, batch_size=3)  # in this process
    assert two.to_dict() == one.to_dict()
    assert drawn == [None]
    other = run(ds, mapper(column="review", epsilon=0.5, embeddings=emb_file), batch_size=3)
    assert column(other, "review") != column(one, "review")  # another run, another key


def test_the_mapper_pickles_small_without_the_embeddings(ds, emb_file):
    dill = pytest.importorskip("dill")
    default = mapper(column="review", epsilon=1)  # the built-in 100k words: not loaded
    assert len(dill.dumps(default)) < 2048
    m = mapper(column="review", epsilon=1, embeddings=emb_file, seed=1)
    before = len(dill.dumps(m))
    out = run(ds, m)  # the mechanism is built in this process now
    assert m.privatizer().mechanism.embeddings.words[:2] == ("cat", "dog")
    assert len(dill.dumps(m)) == before < 2048
    copy = dill.loads(dill.dumps(m))
    assert copy._privatizer is None and copy._run_key == m._run_key
    assert column(run(ds, copy), "review") == column(out, "review")
    secret = mapper(column="review", epsilon=1, embeddings=emb_file)
    assert repr(secret) == ("DatasetMapper(column='review', mechanism='madlib', epsilon=1.0, "
                            "mode='text', seeded=False)")


@pytest.mark.filterwarnings(FORK)
def test_the_embeddings_are_loaded_once_per_process(ds, emb_file, monkeypatch, tmp_path):
    loads = tmp_path / "loads.txt"
    real = options_module.load_embeddings

    def counted(*args, **kwargs):
        with open(loads, "a", encoding="utf-8") as f:
            f.write(f"{os.getpid()}\n")
        return real(*args, **kwargs)

    monkeypatch.setattr(options_module, "load_embeddings", counted)
    monkeypatch.setattr(options_module, "_MECHANISMS", {})

    def pids() -> list[int]:
        return [int(p) for p in loads.read_text().split()] if loads.exists() else []

    for _ in range(2):  # two mappers of the same settings, three batches each
        run(ds, mapper(column="review", epsilon=1, embeddings=emb_file), batch_size=4)
    assert pids() == [os.getpid()]
    run(ds, mapper(column="review", epsilon=2, embeddings=emb_file))  # other settings
    assert pids() == [os.getpid()] * 2
    loads.unlink()
    monkeypatch.setattr(options_module, "_MECHANISMS", {})
    run(ds, mapper(column="review", epsilon=1, embeddings=emb_file), batch_size=1, num_proc=2)
    workers = pids()
    import multiprocess

    if multiprocess.get_start_method() == "fork":  # the patch is in the workers too
        assert 1 <= len(workers) <= 2 and len(set(workers)) == len(workers)
        assert os.getpid() not in workers


def test_nulls_stay_null_and_are_counted_and_all_null_batches_keep_their_types(hf, emb_file):
    texts = [None, None, "A cat.", None, ""]
    for mode, release in (("text", "string"), ("bag", "List(Value('string'))")):
        out = run(hf.Dataset.from_dict({"t": texts}),
                  mapper(column="t", epsilon=5, mode=mode, embeddings=emb_file, seed=1),
                  batch_size=2)  # the first batch is all null
        assert [v is None for v in column(out, "t")] == [True, True, False, True, False]
        assert column(out, "emprivacy_n_words") == [None, None, 1, None, 0]
        assert column(out, "emprivacy_skipped") == [None, None, None, None, "empty"]
        assert column(out, "emprivacy_mechanism")[:3] == [None, None, "madlib"]
        assert release in repr(out.features["t"])
        assert out.features["emprivacy_n_words"].dtype == "int64"
        assert out.features["emprivacy_epsilon_total"].dtype == "float64"
        assert counts(out) == {"rows": 5, "nulls": 3, "skipped_empty": 1,
                               "skipped_out_of_vocabulary": 0, "words": 1}


def test_empty_strings_are_released_empty(hf, emb_file):
    out = run(hf.Dataset.from_dict({"t": ["", "  ", "...", "A cat."]}),
              mapper(column="t", epsilon=5, embeddings=emb_file))
    assert column(out, "t")[:3] == ["", "", ""]  # nothing left after normalisation
    assert column(out, "emprivacy_skipped") == ["empty", "empty", "empty", None]
    assert column(out, "emprivacy_epsilon_total")[:3] == [0.0, 0.0, 0.0]
    assert column(out, "emprivacy_n_words") == [0, 0, 0, 1]
    assert counts(out)["skipped_empty"] == 3


def test_a_bag_of_no_vocabulary_word_is_skipped_and_counted(hf, emb_file):
    out = run(hf.Dataset.from_dict({"t": ["zebra yak", "cat"]}),
              mapper(column="t", epsilon=5, mode="bag", embeddings=emb_file, seed=1))
    assert column(out, "t")[0] is None
    assert column(out, "emprivacy_skipped") == ["out_of_vocabulary", None]
    assert counts(out)["skipped_out_of_vocabulary"] == 1


def test_keep_original_out_column_and_remove_columns(ds, emb_file):
    kept = run(ds, mapper(column="review", epsilon=5, embeddings=emb_file, seed=1,
                          keep_original=True))
    assert kept.column_names[:4] == ["id", "review", "stars", "review_private"]
    assert column(kept, "review") == REVIEWS
    replaced = run(ds, mapper(column="review", epsilon=5, embeddings=emb_file, seed=1))
    assert replaced.column_names[:3] == ["id", "review", "stars"]  # in place
    assert column(kept, "review_private") == column(replaced, "review")
    assert "Zebra!" not in column(replaced, "review")
    renamed = run(ds, mapper(column="review", epsilon=5, embeddings=emb_file, seed=1,
                             out_column="safe", metadata=False), remove_columns=["id"])
    assert renamed.column_names == ["stars", "safe"]  # the original does not ride along
    assert column(renamed, "safe") == column(replaced, "review")
    assert run(ds, mapper(column="review", epsilon=5, embeddings=emb_file, prefix="p_")
               ).column_names[3] == "p_n_words"


def test_string_types_and_a_column_of_nulls_only(hf, emb_file):
    import pyarrow as pa

    large = hf.Dataset(pa.table({"t": pa.array(["A cat.", None], type=pa.large_string())}))
    out = run(large, mapper(column="t", epsilon=5, embeddings=emb_file, seed=1))
    assert out.features["t"].dtype == "large_string"
    assert column(out, "t") == column(run(large.cast_column("t", hf.Value("string")),
                                          mapper(column="t", epsilon=5, embeddings=emb_file,
                                                 seed=1)), "t")
    nulls = run(hf.Dataset.from_dict({"t": [None, None]}),
                mapper(column="t", epsilon=5, embeddings=emb_file))
    assert column(nulls, "t") == [None, None] and nulls.features["t"].dtype == "string"


@pytest.mark.filterwarnings(FORK)
@pytest.mark.parametrize("num_proc", [None, 2])
def test_a_missing_column_names_the_columns_there_are(ds, emb_file, num_proc):
    with pytest.raises(KeyError, match=r"column 'text' is not in the dataset; its columns "
                       r"are 'id', 'review', 'stars'"):
        run(ds, mapper(column="text", epsilon=5, embeddings=emb_file), num_proc=num_proc)


def test_a_column_of_no_strings_is_a_type_error(ds, emb_file):
    with pytest.raises(TypeError, match=r"column 'stars' must hold strings; its type is "
                       r"double"):
        run(ds, mapper(column="stars", epsilon=5, embeddings=emb_file))


def test_a_non_string_row_of_a_direct_block_names_its_row(emb_file):
    m = mapper(column="t", epsilon=5, embeddings=emb_file, seed=1)
    with pytest.raises(TypeError, match=r"^every row must be a str or None; row 7 is a int$"):
        m.privatizer().privatize(["A cat.", 3], first_index=6)


def test_a_dataset_with_no_rows_is_returned_as_it_is(ds, emb_file, monkeypatch):
    monkeypatch.setattr(options_module, "load_embeddings", None)  # never called
    out = run(ds.select([]), mapper(column="review", epsilon=5, embeddings=emb_file))
    assert len(out) == 0 and out.column_names == ["id", "review", "stars"]


def test_names_taken_twice_are_refused_when_mapping(hf, ds, emb_file):
    with pytest.raises(ValueError, match="out_column 'id' is already a column of the dataset"):
        run(ds, mapper(column="review", epsilon=5, embeddings=emb_file, out_column="id"))
    twice = hf.Dataset.from_dict({"t": ["A cat."], "emprivacy_skipped": [1]})
    with pytest.raises(ValueError, match="metadata column 'emprivacy_skipped' is already a "
                       "column of the dataset; give another prefix"):
        run(twice, mapper(column="t", epsilon=5, embeddings=emb_file))


CALL = r"call ds\.map\(mapper, batched=True, with_indices=True\)"


@pytest.mark.parametrize("call, match", [
    (lambda ds, m: ds.map(m, batched=True), r"^the mapper was called without with_indices=True; "
     + CALL),
    (lambda ds, m: ds.map(m, batched=True, with_rank=True),
     r"^the mapper was called without with_indices=True; " + CALL),
    (lambda ds, m: ds.map(m, with_indices=True),
     r"^the mapper was called on one row \(map without batched=True\); " + CALL),
    (lambda ds, m: ds.map(m, batched=True, with_indices=True, input_columns=["review"]),
     r"^the mapper was called with input_columns= \(its first argument is a column's values, "
     r"a list\); it reads column 'review' from the whole batch itself: call ds\.map\(mapper, "
     r"batched=True, with_indices=True\) without input_columns$"),
    (lambda ds, m: ds.with_format("pandas").map(m, batched=True, with_indices=True),
     r"^the mapper reads the batches of a dataset without a format; this batch is a pandas "
     r"DataFrame \(the dataset was given a format by with_format or set_format\): map "
     r"ds\.with_format\(None\) and set the format again on the result, "
     r"ds\.with_format\(None\)\.map\(mapper, batched=True, with_indices=True\)"
     r"\.with_format\(\.\.\.\)$"),
    (lambda ds, m: ds.with_format("numpy").map(m, batched=True, with_indices=True),
     r"this batch is a dict of numpy ndarray \(the dataset was given a format"),
    (lambda ds, m: ds.with_format("arrow").map(m, batched=True, with_indices=True),
     r"this batch is a pyarrow Table \(the dataset was given a format"),
    (lambda ds, m: list(ds.to_iterable_dataset().map(m, with_indices=True)),
     r"^the mapper was called on one row \(map without batched=True\); " + CALL),
])
def test_each_wrong_call_of_map_is_told_what_is_wrong(ds, emb_file, call, match):
    """Issue 30, item 7: a formatted dataset and input_columns= were told "called without
    batched=True and with_indices=True", which they were not."""
    with pytest.raises(TypeError, match=match):
        call(ds, mapper(column="review", epsilon=5, embeddings=emb_file))


def test_a_formatted_dataset_released_as_the_message_says(ds, emb_file):
    m = mapper(column="review", epsilon=5, embeddings=emb_file, seed=1)
    out = ds.with_format("pandas").with_format(None).map(
        m, batched=True, with_indices=True).with_format("pandas")
    assert out.format["type"] == "pandas"
    assert column(out, "review") == column(run(ds, m), "review")


@pytest.mark.parametrize("mode", ["text", "bag"])
def test_an_iterable_dataset_is_released_as_the_dataset(ds, emb_file, mode):
    """Issue 30, item 7: an ``IterableDataset`` (streaming; plain lists in its batches) was
    refused with advice that did not help; it is released as the same rows of a
    ``Dataset``, batch sizes apart."""
    m = mapper(column="review", epsilon=0.7, mode=mode, embeddings=emb_file, seed=3)
    expected = run(ds, m, batch_size=4).to_list()
    stream = ds.to_iterable_dataset(num_shards=2).map(m, batched=True, with_indices=True,
                                                       batch_size=3)
    assert list(stream) == expected
    assert expected[1]["review"] is None and expected[1]["emprivacy_n_words"] is None
    kept = list(ds.to_iterable_dataset().map(
        mapper(column="review", epsilon=0.7, mode=mode, embeddings=emb_file, seed=3,
               keep_original=True, out_column="safe"),
        batched=True, with_indices=True, remove_columns=["review"]))
    assert [r["safe"] for r in kept] == [r["review"] for r in expected]
    assert "review" not in kept[0]


def test_an_iterable_dataset_cannot_drop_the_original_from_inside(ds, emb_file):
    renamed = mapper(column="review", epsilon=5, embeddings=emb_file, out_column="safe")
    with pytest.raises(TypeError, match=r"^the mapper cannot remove column 'review' from the "
                       r"batches of an IterableDataset .*: to rename the release, make the "
                       r"mapper with keep_original=True and map with "
                       r"remove_columns=\['review'\]"):
        list(ds.to_iterable_dataset().map(renamed, batched=True, with_indices=True))


@pytest.mark.parametrize("mode", ["text", "bag"])
def test_remove_columns_of_the_column_keeps_the_release(hf, ds, emb_file, mode):
    """Issue 30, item 7: ``remove_columns=["review"]`` removed the release too (written into
    the batch under that name); the mapper returns it, so map removes only the original,
    and a first batch all null still gives typed columns."""
    m = mapper(column="review", epsilon=5, mode=mode, embeddings=emb_file, seed=1)
    plain = run(ds, m)
    removed = run(ds, m, remove_columns=["review"])
    assert column(removed, "review") == column(plain, "review")
    assert removed.column_names[:3] == ["id", "review", "stars"]
    nulls = run(hf.Dataset.from_dict({"t": [None, None, "A cat."]}),
                mapper(column="t", epsilon=5, mode=mode, embeddings=emb_file, seed=1),
                batch_size=2, remove_columns=["t"])
    assert column(nulls, "t")[:2] == [None, None] and column(nulls, "t")[2] is not None
    assert nulls.features["emprivacy_n_words"].dtype == "int64"


@pytest.mark.filterwarnings(FORK)
@pytest.mark.parametrize("num_proc", [None, 2])
def test_one_mapper_over_two_datasets_never_repeats_a_rows_noise(hf, emb_file, num_proc):
    """One mapper over two datasets whose row ``i`` differs only by a last word ("zebra"):
    the shared first words of row ``i`` are perturbed by the same noise only if the two rows
    share a stream (as a key of the index alone would make them, in worker processes that
    cannot see each other).  At ε = 0.3 on the tiny vocabulary an independent release
    keeps the 4-word prefix identical in under 1 row in 100 (measured: 0 to 0.005 over six
    seeds); with shared noise, in every row.  Threshold 0.4: far from both."""
    words = ["cat", "dog", "car", "bus", "sun", "harbour", "quiet", "drifted"]
    gen = np.random.default_rng(0)
    first = [" ".join(gen.choice(words, 4)) for _ in range(200)]
    second = [t + " zebra" for t in first]
    m = mapper(column="t", epsilon=0.3, embeddings=emb_file, seed=4)
    a = column(run(hf.Dataset.from_dict({"t": first}), m, num_proc=num_proc), "t")
    b = column(run(hf.Dataset.from_dict({"t": second}), m, num_proc=num_proc), "t")
    same = np.mean([x.split()[:4] == y.split()[:4] for x, y in zip(a, b, strict=True)])
    assert same < 0.4
    # and the same dataset again: the same release (one release's worth, no fresh noise)
    again = column(run(hf.Dataset.from_dict({"t": first}), m, num_proc=num_proc), "t")
    assert again == a


def test_indices_that_are_not_consecutive_are_released_as_their_rows(hf, emb_file):
    m = mapper(column="t", epsilon=0.5, embeddings=emb_file, seed=2)
    texts = ["cat dog car", "bus sun cat", "dog dog dog", "car bus"]
    expected = keyed_by_text(texts, epsilon=0.5, mode="text", embeddings=emb_file,
                             seed=2).released
    batch = hf.Dataset.from_dict({"t": [texts[3], texts[0], texts[1]]})
    out = batch.map(lambda b, i: m(b, [3, 0, 1]), batched=True, with_indices=True)
    assert column(out, "t") == [expected[3], expected[0], expected[1]]


@pytest.mark.parametrize("kwargs, error, match", [
    ({}, TypeError, "epsilon is required"),
    ({"epsilon": -1}, ValueError, "epsilon must be a finite number > 0; got -1"),
    ({"epsilon": 1, "mode": "table"}, ValueError, "mode must be one of 'bag', 'text'"),
    ({"epsilon": 1, "mechanism": "laplace"}, ValueError, "mechanism must be one of"),
    ({"epsilon": 1, "params": {"zeta": 1}}, ValueError, "unknown parameter 'zeta'"),
    ({"epsilon": 1, "mechanism": "vickrey", "params": {"t": 2}}, ValueError, "t must be"),
    ({"epsilon": 1, "seed": -3}, ValueError, "seed must be an integer >= 0; got -3"),
    ({"epsilon": 1, "vocab_size": 0}, ValueError, "vocab_size must be an integer >= 1"),
    ({"epsilon": 1, "oov": "subword"}, ValueError, "oov='subword' needs a fastText .bin"),
    ({"epsilon": 1, "keep_original": True, "out_column": "review"}, ValueError,
     "out_column must differ from column 'review' when keep_original=True"),
    ({"epsilon": 1, "keep_original": "yes"}, TypeError, "keep_original must be a bool"),
    ({"epsilon": 1, "column": 3}, TypeError, "column must be a column's name"),
    ({"epsilon": 1, "batch_rows": 10}, TypeError, "unexpected keyword argument 'batch_rows'"),
])
def test_bad_options_are_refused_at_creation_before_any_load(emb_file, monkeypatch, kwargs,
                                                             error, match):
    monkeypatch.setattr(options_module, "load_embeddings", None)  # nothing is loaded
    with pytest.raises(error, match=match):
        mapper(**{"column": "review", "embeddings": emb_file, **kwargs})


def test_the_mapper_carries_no_embeddings_nor_a_built_mechanism(tmp_path):
    emb = Embeddings(["cat", "dog"], [[0, 0], [1, 0]], name="tiny")
    with pytest.raises(TypeError, match=r"embeddings must be a path to an embeddings file or "
                       r"None .* not loaded Embeddings"):
        mapper(column="t", epsilon=1, embeddings=emb)
    with pytest.raises(TypeError, match=r"mechanism must be a mechanism's name .* not a built "
                       r"EarthMoversPrivacy"):
        mapper(column="t", mechanism=EarthMoversPrivacy(emb, epsilon=1))
    with pytest.raises(EmbeddingsFormatError, match=r"embeddings file .*nothere\.txt' does not "
                       r"exist"):
        mapper(column="t", epsilon=1, embeddings=tmp_path / "nothere.txt")


def test_a_relative_embeddings_path_is_read_from_where_the_mapper_was_made(
        ds, emb_file, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    m = mapper(column="review", epsilon=1, embeddings="emb.txt", seed=1)
    monkeypatch.chdir(Path(sys.prefix))  # a process elsewhere still finds the file
    assert column(run(ds, m), "review") == column(
        run(ds, mapper(column="review", epsilon=1, embeddings=emb_file, seed=1)), "review")
    assert m.metadata["embeddings"]["name"] == "emb.txt"


def test_counts_needs_the_metadata_columns(ds, emb_file):
    bare = run(ds, mapper(column="review", epsilon=5, embeddings=emb_file, metadata=False))
    with pytest.raises(KeyError, match="no column 'emprivacy_n_words'"):
        counts(bare)
    other = run(ds, mapper(column="review", epsilon=5, embeddings=emb_file, seed=1,
                           prefix="p_"))
    assert counts(other, prefix="p_") == {
        "rows": 10, "nulls": 2, "skipped_empty": 2, "skipped_out_of_vocabulary": 0,
        "words": sum(r.metadata["n_words"] for r in privatize_texts(
            REVIEWS, epsilon=5, embeddings=emb_file, seed=1) if r.metadata)}


def test_a_missing_datasets_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "datasets", None)
    with pytest.raises(MissingExtraError, match=r"privatising a column of a Hugging Face "
                       r"dataset needs the optional dependency 'datasets'; install it with: "
                       r"pip install 'emprivacy\[datasets\]'"):
        mapper(column="text", epsilon=1)


def test_emprivacy_datasets_imports_datasets_only_when_a_mapper_is_made():
    code = ("import sys; import emprivacy.tables.datasets; print('datasets' in sys.modules); "
            "sys.modules['datasets'] = None\n"
            "try:\n    emprivacy.tables.datasets.mapper(column='t', epsilon=1)\n"
            "except Exception as e:\n    print(type(e).__name__)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["False", "MissingExtraError"]
