"""Side channels around the corpus and Dask paths (issue 12).

1. The run's secret (random key or seed) never reaches a file: not Dask's scratch
   space when workers are forced to spill everything they hold, not the output.
2. The Parquet output's layout (file names, rows per file, manifest) does not depend
   on words that are never released (stopwords, numbers, out-of-vocabulary words).
3. A repeated document id is refused up front — Obfuscator, command line, Dask —
   and nothing is left behind.
4. ``size`` truncates and never pads: records say ``n_words`` and the requested
   ``size`` plainly.

The spill tests start local clusters of 2 worker processes whose memory thresholds
make them spill every piece of data they hold as soon as they can.  Budget: about
30 s on 2 cores.
"""

from __future__ import annotations

import base64
import json
import logging
import os
import pickle
import secrets
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from emprivacy import EarthMoversPrivacy, Embeddings, load_embeddings
from emprivacy.cli import main
from emprivacy.distributed import MechanismSettings, obfuscate_corpus
from emprivacy.exceptions import InputError
from emprivacy.io.corpus import iter_documents
from emprivacy.io.documents import Document
from emprivacy.io.outputs import format_record
from emprivacy.math.randomness import run_key_from_seed
from emprivacy.obfuscation.config import ObfuscationConfig
from emprivacy.obfuscation.obfuscator import Obfuscator

EPSILON = 10.0
VOCAB = 5000
#: Workers that spill every piece of data they hold: the spill threshold is a few bytes
#: of process memory, pausing and killing are off, and the spilled bytes are not
#: compressed (so that a key in them would be found byte for byte).
SPILL_EVERYTHING = {
    "distributed.worker.memory.target": 1e-9,
    "distributed.worker.memory.spill": 1e-9,
    "distributed.worker.memory.pause": False,
    "distributed.worker.memory.terminate": False,
    "distributed.worker.memory.spill-compression": False,
    "distributed.worker.memory.monitor-interval": "20ms",
}
DUPLICATE = ("duplicate document id 'a': documents {} and {} of the input{}; ids must be "
             "unique, since each document's noise stream is keyed by its id")


@pytest.fixture(scope="module")
def emb() -> Embeddings:
    return load_embeddings(vocab_size=VOCAB)


def _write_jsonl(path: Path, docs: list[Document]) -> Path:
    path.write_text("".join(json.dumps({"id": d.id, "text": d.text}) + "\n" for d in docs),
                    encoding="utf-8")
    return path


def _docs(emb: Embeddings, n: int, *, seed: int = 0, prefix: str = "d") -> list[Document]:
    rng = np.random.default_rng(seed)
    return [Document(f"{prefix}{i}", " ".join(rng.choice(emb.words[:2000], 12)))
            for i in range(n)]


# -- 1. the secret never reaches a file ----------------------------------------------------
def _encodings(secret: bytes | int) -> list[bytes]:
    """Every form in which a secret could be stored: raw, hex, base64, repr, pickled."""
    if isinstance(secret, int):
        raw = secret.to_bytes(8, "little")
        return [raw, str(secret).encode(), f"{secret:x}".encode(), f"{secret:X}".encode(),
                pickle.dumps(secret)[2:-1]]  # the pickled int, without framing
    return [secret, secret.hex().encode(), secret.hex().upper().encode(),
            base64.b64encode(secret), base64.urlsafe_b64encode(secret),
            repr(secret).encode()[2:-1]]


def _files(root: Path) -> Iterator[tuple[Path, bytes]]:
    for path in root.rglob("*"):
        try:
            if path.is_file():
                yield path, path.read_bytes()
        except (FileNotFoundError, NotADirectoryError):  # deleted while we look
            continue


class SecretScan:
    """Collects the run keys made while a run starts, and scans files for any secret."""

    def __init__(self, root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        self.root = root
        self.secrets: list[bytes | int] = []
        self.spilled: set[str] = set()
        self.leaks: list[str] = []
        token_bytes = secrets.token_bytes

        def recording(n: int | None = None) -> bytes:
            value = token_bytes(n)
            frames = {f.name for f in traceback.extract_stack()}
            # the run key; not the fresh generators deliberately given to the workers
            if n == 32 and "obfuscate_corpus" in frames and "secure_generator" not in frames:
                self.secrets.append(value)
            return value

        monkeypatch.setattr(secrets, "token_bytes", recording)

    def scan(self) -> None:
        needles = [e for s in self.secrets for e in _encodings(s)]
        for path, data in _files(self.root):
            if path.parent.name == "storage":
                self.spilled.add(path.name)
            if any(n in data for n in needles):
                self.leaks.append(str(path.relative_to(self.root)))

    def progress(self, then: Callable[[int, int], None] | None = None
                 ) -> Callable[[int, int], None]:
        """A progress callback scanning after every partition; at the end it first waits
        for the workers to spill the data they still hold (the job)."""
        def progress(done: int, total: int) -> None:
            if then is not None:
                then(done, total)
            if done == total:
                deadline = time.monotonic() + 10
                while not self.spilled and time.monotonic() < deadline:
                    time.sleep(0.05)
                    self.scan()
            self.scan()

        return progress

    def check(self) -> None:
        self.scan()
        assert self.secrets, "no run key was recorded"
        assert self.spilled, "the workers never spilled: the test proves nothing"
        assert self.leaks == []


@pytest.fixture(scope="module")
def spilling_client(tmp_path_factory: pytest.TempPathFactory):
    """2 worker processes that spill everything, their scratch space under a tmp path."""
    import dask
    from distributed import Client, LocalCluster

    scratch = tmp_path_factory.mktemp("scratch")
    with dask.config.set(SPILL_EVERYTHING), \
            LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                         memory_limit="1GiB", local_directory=str(scratch),
                         dashboard_address=":0", silence_logs=logging.CRITICAL) as cluster, \
            Client(cluster) as client:
        yield client, scratch


def test_run_key_never_spilled_with_a_scattered_mechanism(tmp_path: Path, spilling_client,
                                                          emb: Embeddings,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    client, scratch = spilling_client
    corpus = _write_jsonl(tmp_path / "c.jsonl", _docs(emb, 120))
    scan = SecretScan(scratch, monkeypatch)
    mech = EarthMoversPrivacy(emb, epsilon=EPSILON)
    # the mechanism's own generator (for direct privatize() calls) is a secret too
    scan.secrets.append(mech.rng.bit_generator.state["state"]["keysetup"].tobytes())
    out = tmp_path / "out.parquet"
    summary = obfuscate_corpus([corpus], out, mechanism=mech, client=client,
                               partition_documents=10, progress=scan.progress())
    assert summary.documents_written == 120
    scan.check()
    scan.root = tmp_path  # the output and everything else written for this run
    scan.check()


def test_seed_never_spilled_and_seeded_run_equals_local(tmp_path: Path, spilling_client,
                                                        emb: Embeddings,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    client, scratch = spilling_client
    docs = _docs(emb, 80, seed=1)
    corpus = _write_jsonl(tmp_path / "c.jsonl", docs)
    seed = 0x5EED_C0DE_1234_ABCD
    scan = SecretScan(scratch, monkeypatch)
    scan.secrets += [seed, run_key_from_seed(seed)]
    out = tmp_path / "out.jsonl"
    obfuscate_corpus([corpus], out, mechanism=MechanismSettings(epsilon=EPSILON,
                                                                vocab_size=VOCAB),
                     client=client, seed=seed, partition_documents=10,
                     progress=scan.progress())
    scan.check()
    expected = [format_record(r, "jsonl") for r in
                Obfuscator(EarthMoversPrivacy(emb, epsilon=EPSILON), seed=seed).obfuscate(docs)]
    assert out.read_text(encoding="utf-8").splitlines() == expected


def test_run_key_never_spilled_by_the_command_line(tmp_path: Path, emb: Embeddings,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    import dask

    import emprivacy.distributed

    corpus = _write_jsonl(tmp_path / "c.jsonl", _docs(emb, 120, seed=2))
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    scan = SecretScan(scratch, monkeypatch)
    run = emprivacy.distributed.obfuscate_corpus

    def scanned(*args: Any, progress: Any = None, **kwargs: Any) -> Any:
        return run(*args, progress=scan.progress(progress), **kwargs)

    monkeypatch.setattr(emprivacy.distributed, "obfuscate_corpus", scanned)
    out = tmp_path / "out.jsonl"
    with dask.config.set({**SPILL_EVERYTHING, "temporary-directory": str(scratch)}):
        assert main(["obfuscate", str(corpus), "-e", str(EPSILON), "--vocab-size", str(VOCAB),
                     "--workers", "2", "-o", str(out), "-q"]) == 0
    assert len(out.read_text(encoding="utf-8").splitlines()) == 120
    scan.check()
    scan.root = tmp_path
    scan.check()


def test_the_secret_hides_from_repr_and_the_job() -> None:
    from emprivacy.distributed.run import _for_workers
    from emprivacy.distributed.task import Job, RunSecret

    key = secrets.token_bytes(32)
    secret = RunSecret(key=key)
    assert repr(secret) == str(secret) == "RunSecret(<redacted>)"  # Dask logs failed tasks
    assert key.hex() not in repr(secret) and pickle.loads(pickle.dumps(secret)).key == key
    with pytest.raises(ValueError, match="exactly one of seed and key"):
        RunSecret()
    emb = Embeddings(("cat", "dog"), np.eye(2, dtype=np.float32), name="t")
    mech = EarthMoversPrivacy(emb, epsilon=1.0)
    own = mech.rng.bit_generator.state["state"]["keysetup"].tobytes()
    job = Job(_for_workers(mech), ObfuscationConfig(), False, "jsonl", "/nowhere")
    assert own not in pickle.dumps(job)
    assert mech.rng.bit_generator.state["state"]["keysetup"].tobytes() == own  # untouched


# -- 2. the Parquet layout does not depend on unreleased words ------------------------------
PADDING = " the of and 1234 56.78 qzxvbnm" * 2000  # stopwords, numbers, OOV: never released


def _write_corpus(root: Path, kind: str, docs: list[Document]) -> Path:
    """The corpus at a fixed path, every file with one fixed modification time."""
    if kind == "jsonl":
        path = _write_jsonl(root / "c.jsonl", docs)
        files = [path]
    elif kind == "parquet":
        path = root / "c.parquet"
        pq.write_table(pa.table({"id": [d.id for d in docs], "text": [d.text for d in docs]}),
                       path, row_group_size=64)
        files = [path]
    else:
        path = root / "texts"
        path.mkdir(exist_ok=True)
        files = []
        for d in docs:
            (path / f"{d.id}.txt").write_text(d.text, encoding="utf-8")
            files.append(path / f"{d.id}.txt")
    for f in files:
        os.utime(f, ns=(1_700_000_000_000_000_000, 1_700_000_000_000_000_000))
    return path


def _layout(out: Path) -> tuple[list[str], dict[str, int], dict[str, Any]]:
    """File names, rows per Parquet file, and the manifest without its content digests."""
    names = sorted(os.listdir(out))
    rows = {n: pq.read_metadata(out / n).num_rows for n in names if n.endswith(".parquet")}
    manifest = json.loads((out / "_manifest.json").read_text(encoding="utf-8"))
    for part in manifest["partitions"]:
        del part["sha256"], part["bytes"]  # of the released bytes (oov_dropped differs)
    return names, rows, manifest


@pytest.mark.parametrize("kind", ["jsonl", "parquet", "text"])
def test_parquet_layout_ignores_unreleased_words(tmp_path: Path, emb: Embeddings,
                                                 kind: str) -> None:
    docs = [Document(f"d{i:03d}", d.text + " the of" * 60) for i, d in
            enumerate(_docs(emb, 150, seed=3))]  # ~0.5 KB each: several partitions by bytes
    padded = list(docs)
    padded[37] = Document(docs[37].id, docs[37].text + PADDING)  # +60 KB of unreleased words
    layouts, releases = [], []
    for k, corpus in enumerate((docs, padded)):
        path = _write_corpus(tmp_path, kind, corpus)
        out = tmp_path / f"out{k}.parquet"
        obfuscate_corpus([path], out, mechanism=EarthMoversPrivacy(emb, epsilon=EPSILON),
                         seed=7)
        layouts.append(_layout(out))
        releases.append([{k: v for k, v in r.items() if k != "oov_dropped"}
                         for r in pq.read_table(out).to_pylist()])
    assert layouts[0] == layouts[1]
    names, rows, manifest = layouts[0]
    assert len(rows) > 2 and set(rows.values()) <= {16, 150 % 16}  # by count, 16 a file
    assert names == ["_manifest.json", *sorted(rows)]
    assert [p["documents"] for p in manifest["partitions"]] == [16] * 9 + [6]
    assert releases[0] == releases[1]  # the same words released, with the same noise


# -- 3. a repeated id is refused up front ---------------------------------------------------
def test_obfuscator_refuses_a_repeated_id_before_obfuscating_it(emb: Embeddings) -> None:
    mech = EarthMoversPrivacy(emb, epsilon=EPSILON)
    obf = Obfuscator(mech, ObfuscationConfig(batch_words=1), seed=0)
    docs = [Document("a", "house"), Document("b", "dog"), Document("a", "car")]
    released = []
    with pytest.raises(InputError) as err:
        for record in obf.obfuscate(docs):
            released.append(record["id"])
    assert str(err.value) == DUPLICATE.format(1, 3, "")
    assert released == ["a", "b"]  # the second "a" was never obfuscated
    # over the obfuscator's lifetime: a second call cannot reuse a stream either
    with pytest.raises(InputError, match=r"documents 1 and 3 of the input"):
        list(obf.obfuscate([Document("a", "house")]))
    assert next(Obfuscator(mech, seed=0).obfuscate([Document("a", "house")]))["id"] == "a"
    with pytest.raises(TypeError, match=r"documents must be emprivacy\.io\.documents\.Document "
                                        "objects; got tuple"):
        list(Obfuscator(mech, seed=0).obfuscate([("a", "cat")]))


@pytest.fixture
def two_files_with_id_a(tmp_path: Path) -> list[Path]:
    a = _write_jsonl(tmp_path / "one.jsonl", [Document("a", "house"), Document("b", "dog")])
    b = _write_jsonl(tmp_path / "two.jsonl", [Document("c", "car"), Document("a", "bus")])
    return [a, b]


def test_reader_and_planner_name_both_positions(two_files_with_id_a: list[Path]) -> None:
    from emprivacy.distributed import plan_partitions

    where = f" (the second at {two_files_with_id_a[1]}:2)"
    with pytest.raises(InputError) as single:
        list(iter_documents(two_files_with_id_a))
    with pytest.raises(InputError) as planned:
        plan_partitions(two_files_with_id_a, partition_documents=1)
    assert str(single.value) == str(planned.value) == DUPLICATE.format(1, 4, where)


@pytest.mark.parametrize("output", ["out.jsonl", "out.parquet"])
def test_cli_refuses_repeated_ids_in_one_line(tmp_path: Path, two_files_with_id_a: list[Path],
                                              output: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["obfuscate", *map(str, two_files_with_id_a), "-e", "1", "--vocab-size",
                 str(VOCAB), "-o", str(tmp_path / output), "-q"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == ["emprivacy: error: " + DUPLICATE.format(
        1, 4, f" (the second at {two_files_with_id_a[1]}:2)")]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "two.jsonl"]


def test_cluster_refuses_repeated_ids_across_partitions(tmp_path: Path, spilling_client,
                                                        two_files_with_id_a: list[Path]
                                                        ) -> None:
    client, _ = spilling_client

    def tasks_sent() -> set[str]:
        return set(client.run_on_scheduler(lambda dask_scheduler: [
            str(t[0]) for t in dask_scheduler.transition_log
            if str(t[0]).startswith(("emprivacy-", "probe-"))]))

    before = tasks_sent()
    for output in ("out.parquet", "out.jsonl"):
        with pytest.raises(InputError, match=r"duplicate document id 'a': documents 1 and 4"):
            obfuscate_corpus(two_files_with_id_a, tmp_path / output, client=client,
                             mechanism=MechanismSettings(epsilon=1.0, vocab_size=VOCAB),
                             partition_documents=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "two.jsonl"]
    assert tasks_sent() == before  # refused while planning: no task was ever sent


def test_a_repeated_id_found_late_leaves_nothing(tmp_path: Path, emb: Embeddings,
                                                 two_files_with_id_a: list[Path],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Should a repeated id get past the planner, verification refuses to publish and the
    run's files are removed."""
    import emprivacy.distributed.plan as plan

    class Blind:
        def __len__(self) -> int:
            return 0

        def add(self, doc_id: str, *, where: str | None = None) -> None:
            pass

    monkeypatch.setattr(plan, "UniqueIds", Blind)
    mech = EarthMoversPrivacy(emb, epsilon=EPSILON)
    for output in ("out.parquet", "out.jsonl"):
        with pytest.raises(InputError, match="duplicate document id 'a'"):
            obfuscate_corpus(two_files_with_id_a, tmp_path / output, mechanism=mech,
                             partition_documents=1)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "two.jsonl"]


# -- 4. size truncates, never pads; records say so ----------------------------------------
def test_size_is_recorded_next_to_the_true_length(tmp_path: Path, emb: Embeddings) -> None:
    mech = EarthMoversPrivacy(emb, epsilon=EPSILON)
    docs = [Document("short", "house dog"),
            Document("long", "house dog car bus sun moon tree")]
    short, long = Obfuscator(mech, ObfuscationConfig(size=5), seed=0).obfuscate(docs)
    assert (short["n_words"], short["size"], short["epsilon_total"]) == (2, 5, 2 * EPSILON)
    assert len(short["bag"]) == 2  # not padded: the true length is released
    assert (long["n_words"], long["size"], len(long["bag"])) == (5, 5, 5)
    plain = next(Obfuscator(mech, seed=0).obfuscate(docs[:1]))
    assert "size" not in plain and plain["n_words"] == 2
    corpus = _write_jsonl(tmp_path / "c.jsonl", docs)
    obfuscate_corpus([corpus], tmp_path / "o.parquet", mechanism=mech, seed=0,
                     config=ObfuscationConfig(size=5))
    manifest = json.loads((tmp_path / "o.parquet" / "_manifest.json").read_text())
    assert manifest["size"] == manifest["metadata"]["size"] == 5
    rows = pq.read_table(tmp_path / "o.parquet").to_pylist()
    assert [(r["id"], r["n_words"], r["size"]) for r in rows] == [("short", 2, 5),
                                                                  ("long", 5, 5)]
