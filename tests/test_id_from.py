"""``--id-from path|index|hash`` (``ObfuscationConfig.id_from``): a release without file names.

With ``index`` or ``hash`` no input path (nor a JSONL/Parquet record's own id) appears in
stdout, stderr or any output file — JSONL, Parquet (its rows and ``_manifest.json``),
single-process, partitioned, resumed or on a Dask cluster — and a seeded run releases
the same words whatever ``--id-from`` is: the noise stays keyed by each document's own id.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest

from emprivacy.cli import main
from emprivacy.distributed import MechanismSettings, obfuscate_corpus
from emprivacy.exceptions import OutputError
from emprivacy.io.parquet_output import read_parquet_records
from emprivacy.math.randomness import hashed_document_id, run_key_from_seed
from emprivacy.obfuscation.config import ObfuscationConfig

from .helpers import EMBEDDINGS_FILE

#: Words of the input paths and ids: none may be released under index or hash.
SECRETS = ("leakdir", "zelda", "quimby", "hivpos", "yorick", "divorce", "xavier", "wanda",
           "vkq")
#: Content words of the tiny embeddings, so that ε = 0.5 moves many of them.
WORDS = "cat dog car bus sun harbour zeppelin quiet factory drifted "
SEED = 5
HEX_ID = re.compile(r"^[0-9a-f]{32}$")


@pytest.fixture
def corpus(tmp_path: Path) -> dict[str, Any]:
    """A directory of three text files (one empty) and a JSONL file of two records (the
    second without an id): five documents whose paths and ids name people."""
    leak = tmp_path / "leakdir"
    leak.mkdir()
    (leak / "xavier_empty.txt").write_text("... !!!\n", encoding="utf-8")
    (leak / "yorick_divorce.txt").write_text(WORDS * 3, encoding="utf-8")
    (leak / "zelda_quimby_hivpos.txt").write_text(WORDS * 5, encoding="utf-8")
    jsonl = tmp_path / "records_wanda.jsonl"
    jsonl.write_text(json.dumps({"id": "patient-vkq", "text": WORDS * 2}) + "\n"
                     + json.dumps({"text": WORDS * 4}) + "\n", encoding="utf-8")
    emb = tmp_path / "emb.txt"
    emb.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()
    return {"inputs": [str(leak), str(jsonl)], "emb": emb, "out": out,
            "ids": [str(leak / "xavier_empty.txt"), str(leak / "yorick_divorce.txt"),
                    str(leak / "zelda_quimby_hivpos.txt"), "patient-vkq",
                    "records_wanda.jsonl:2"]}


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def args(corpus: dict[str, Any], *extra: str) -> list[str]:
    return ["obfuscate", *corpus["inputs"], "-e", "0.5", "--embeddings",
            str(corpus["emb"]), "--seed", str(SEED), *extra]


def no_secret(*texts: str) -> None:
    for text in texts:
        lowered = text.lower()
        for word in SECRETS:
            assert word not in lowered, (word, text[:500])


def output_text(path: Path) -> str:
    """Everything an output holds: a file's bytes, or every file of a directory (Parquet:
    also every value of every row, as JSON, since the pages may be compressed)."""
    if path.is_file():
        return path.read_text(encoding="utf-8")
    texts = [str(p.relative_to(path)) for p in path.rglob("*")]
    texts += [p.read_bytes().decode("utf-8", "replace") for p in path.rglob("*") if p.is_file()]
    texts += [json.dumps(r) for r in read_parquet_records(path)]
    return "\n".join(texts)


def records(text: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in text.splitlines()]


def without_ids(recs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{k: v for k, v in r.items() if k != "id"} for r in recs]


# -- each choice ---------------------------------------------------------------------------
def test_path_is_the_default_and_unchanged(corpus: dict[str, Any],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args(corpus), capsys)
    assert code == 0, err
    assert [r["id"] for r in records(out)] == corpus["ids"][1:]
    assert f"document {corpus['ids'][0]!r} is empty" in err
    code, out2, _ = run(args(corpus, "--id-from", "path"), capsys)
    assert code == 0 and out2 == out


def test_index_is_the_position_in_the_input(corpus: dict[str, Any],
                                            capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args(corpus, "--id-from", "index"), capsys)
    assert code == 0, err
    assert [r["id"] for r in records(out)] == ["1", "2", "3", "4"]  # "0" is empty: skipped
    assert "document '0' is empty after normalisation; skipped" in err
    no_secret(out, err)


def test_hash_is_keyed_by_the_run_key(corpus: dict[str, Any],
                                      capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args(corpus, "--id-from", "hash"), capsys)
    assert code == 0, err
    ids = [r["id"] for r in records(out)]
    assert all(HEX_ID.match(i) for i in ids) and len(set(ids)) == 4
    key = run_key_from_seed(SEED)  # a seeded run: the key derives from the seed
    assert ids == [hashed_document_id(key, i) for i in corpus["ids"][1:]]
    skipped = hashed_document_id(key, corpus["ids"][0])
    assert f"document {skipped!r} is empty" in err
    no_secret(out, err)
    # not a plain hash of the path, which anyone could recompute from a guessed name
    plain = {hashlib.sha256(i.encode()).hexdigest()[:32]
             for i in corpus["ids"]}
    assert not plain & set(ids)
    # another seed, another key, other ids; no seed: a fresh secret key every run
    code, other, _ = run([a if a != str(SEED) else "6" for a in args(corpus, "--id-from", "hash")],
                         capsys)
    assert code == 0 and not {r["id"] for r in records(other)} & set(ids)
    unseeded = [a for a in args(corpus, "--id-from", "hash") if a not in ("--seed", str(SEED))]
    firsts = []
    for _ in range(2):
        code, out, err = run(unseeded, capsys)
        assert code == 0, err
        firsts.append(records(out)[0]["id"])
        no_secret(out, err)
    assert firsts[0] != firsts[1]


@pytest.mark.parametrize("fmt", ["bag", "text"])
def test_formats_without_ids_warn_without_paths(corpus: dict[str, Any], fmt: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["obfuscate", corpus["inputs"][0], "-e", "0.5", "--embeddings",
                          str(corpus["emb"]), "-f", fmt, "--id-from", "index"], capsys)
    assert code == 0, err
    assert "document '0' is empty" in err
    no_secret(out, err)


def test_the_noise_does_not_depend_on_id_from(corpus: dict[str, Any],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    released = {}
    for how in ("path", "index", "hash"):
        code, out, err = run(args(corpus, "--id-from", how), capsys)
        assert code == 0, err
        released[how] = without_ids(records(out))
    assert released["path"] == released["index"] == released["hash"]
    # the comparison can tell: ε = 0.5 moves words, and another seed moves others
    inputs = [sorted((WORDS * k).split()) for k in (3, 5, 2, 4)]
    assert [r["bag"] for r in released["path"]] != inputs
    code, out, _ = run([a if a != str(SEED) else "6" for a in args(corpus)], capsys)
    assert code == 0 and without_ids(records(out)) != released["path"]


def test_bad_choice_is_one_line(corpus: dict[str, Any],
                                capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(args(corpus, "--id-from", "name"), capsys)
    assert code == 2 and out == ""
    assert err.splitlines() == ["emprivacy: error: id-from must be one of 'path', 'index', "
                                "'hash'; got 'name'"]
    with pytest.raises(ValueError, match="id_from must be one of"):
        ObfuscationConfig(id_from="name")


# -- every output format and every way of running ------------------------------------------
@pytest.mark.parametrize("how", ["index", "hash"])
@pytest.mark.parametrize("output", ["out.jsonl", "out.parquet"])
def test_files_and_partitioned_runs_hold_no_path(corpus: dict[str, Any], how: str,
                                                 output: str,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    code, reference, _ = run(args(corpus, "--id-from", how, "-q"), capsys)
    assert code == 0
    target = corpus["out"] / output
    # a .parquet output, or --resume into JSONL, is the partitioned run, in this process
    extra = ["--resume"] if output.endswith(".jsonl") else []
    code, out, err = run(args(corpus, "--id-from", how, "-o", str(target), *extra), capsys)
    assert code == 0, err
    assert "is empty" in err
    no_secret(out, err, output_text(target))
    got = (records(target.read_text(encoding="utf-8")) if output.endswith(".jsonl")
           else list(read_parquet_records(target)))
    assert got == records(reference)
    if output.endswith(".parquet"):
        manifest = json.loads((target / "_manifest.json").read_text(encoding="utf-8"))
        # the empty document, named as its record would be (a seeded run: the key
        # derives from the seed)
        expected = ("0" if how == "index"
                    else hashed_document_id(run_key_from_seed(SEED), corpus["ids"][0]))
        assert manifest["skipped"] == [expected]


def test_partitions_count_from_the_start_of_the_corpus(corpus: dict[str, Any],
                                                       capsys: pytest.CaptureFixture[str],
                                                       ) -> None:
    """One document per partition: each partition's index ids start where the ones
    before it end; a resumed run keeps them, and refuses another --id-from."""
    code, reference, _ = run(args(corpus, "--id-from", "index", "-q"), capsys)
    assert code == 0
    settings = MechanismSettings(epsilon=0.5, embeddings=str(corpus["emb"]))
    out = corpus["out"] / "out.jsonl"
    config = ObfuscationConfig(id_from="index")

    class Stop(Exception):
        pass

    def stop_after_two(done: int, total: int) -> None:
        if done >= 2:
            raise Stop

    with pytest.raises(Stop):
        obfuscate_corpus(corpus["inputs"], out, mechanism=settings,
                         config=config, seed=SEED, partition_documents=1,
                         progress=stop_after_two)
    with pytest.raises(OutputError, match="other settings"):
        obfuscate_corpus(corpus["inputs"], out, mechanism=settings,
                         config=ObfuscationConfig(id_from="hash"), seed=SEED,
                         partition_documents=1, resume=True)
    summary = obfuscate_corpus(corpus["inputs"], out,
                               mechanism=settings, config=config, seed=SEED,
                               partition_documents=1, resume=True)
    assert summary.partitions == 5 and summary.partitions_reused == 2
    assert summary.skipped == ("0",)
    assert out.read_text(encoding="utf-8") == reference
    no_secret(out.read_text(encoding="utf-8"))


def test_dask_workers_release_the_same_ids(corpus: dict[str, Any],
                                           capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("distributed")
    code, reference, _ = run(args(corpus, "--id-from", "hash", "-q"), capsys)
    assert code == 0
    out = corpus["out"] / "out.jsonl"
    code, stdout, err = run(args(corpus, "--id-from", "hash", "--workers", "1", "-o",
                                 str(out)), capsys)
    assert code == 0, err
    assert out.read_text(encoding="utf-8") == reference
    no_secret(stdout, err, out.read_text(encoding="utf-8"))


# -- the published manifest: nothing computed from a path or a modification time ----------
def _leaks(corpus: dict[str, Any]) -> list[str]:
    """What an unkeyed manifest could carry that lets someone test a guessed file name: the
    digests of the plan computed from the real paths, the paths and the mtimes."""
    from emprivacy.distributed.plan import plan_partitions
    from emprivacy.distributed.publish import digest

    plan = plan_partitions(corpus["inputs"])
    leaks = [digest([p.layout() for p in plan]), digest([p.descriptor() for p in plan])]
    for part in plan:
        paths = [path for _, path in part.files] if part.kind == "text" else [part.path]
        for path in paths:
            leaks += [path, str(Path(path).stat().st_mtime_ns)]
    leaks += corpus["ids"]
    return leaks


@pytest.mark.parametrize("how", ["index", "hash"])
@pytest.mark.parametrize("seeded", [True, False])
def test_manifest_holds_nothing_computed_from_paths(corpus: dict[str, Any], how: str,
                                                    seeded: bool,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """``_manifest.json``'s ``run.plan`` was an unkeyed SHA-256 of the paths and mtimes:
    anyone could recompute it from a guessed file name.  Under index/hash it now digests
    the path-free layout only (kinds, positions, counts); ``--resume`` still recognises the
    completed run, and still refuses other inputs."""
    target = corpus["out"] / "out.parquet"
    argv = args(corpus, "--id-from", how, "-q", "-o", str(target))
    if not seeded:
        argv = [a for a in argv if a not in ("--seed", str(SEED))]
    code, out, err = run(argv, capsys)
    assert code == 0, err
    published = "\n".join([output_text(target), out, err])
    assert sorted(p.name for p in target.iterdir()) == ["_manifest.json", "part-00000.parquet",
                                                         "part-00001.parquet"]
    for leak in _leaks(corpus):
        assert leak not in published, leak
    manifest = json.loads((target / "_manifest.json").read_text(encoding="utf-8"))
    assert set(manifest["run"]) == {"plan", "partitions", "documents", "settings"}
    # resume: the completed run is recognised, untouched
    stamp = (target / "_manifest.json").stat().st_mtime_ns
    code, _, err = run([*argv, "--resume"], capsys)
    assert code == 0, err
    assert (target / "_manifest.json").stat().st_mtime_ns == stamp
    # other inputs (one document fewer) are refused
    code, _, err = run([a for a in argv if a != corpus["inputs"][1]] + ["--resume"], capsys)
    assert code == 2 and err.splitlines() == [
        f"emprivacy: error: output directory {str(target)!r} holds a completed run with other "
        "inputs or settings; choose a new output directory"]


def test_manifest_of_a_path_run_keeps_the_full_layout(corpus: dict[str, Any],
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """``--id-from path`` releases the paths anyway: its manifest keeps the digest of the
    full layout (paths, mtimes), so a resume notices an edited input."""
    from emprivacy.distributed.plan import plan_partitions
    from emprivacy.distributed.publish import digest

    target = corpus["out"] / "out.parquet"
    code, _, err = run(args(corpus, "-q", "-o", str(target)), capsys)
    assert code == 0, err
    manifest = json.loads((target / "_manifest.json").read_text(encoding="utf-8"))
    plan = plan_partitions(corpus["inputs"])
    assert manifest["run"]["plan"] == digest([p.layout() for p in plan])


def test_help_states_the_seed_caveat(capsys: pytest.CaptureFixture[str]) -> None:
    """The help claims what is true: a seeded run's hashed ids can be tested by whoever
    knows the seed (README's Limits say so too)."""
    code, out, _ = run(["obfuscate", "--help"], capsys)
    assert code == 0
    text = " ".join(re.sub(r"[│╭╮╰╯─]", " ", out).split())
    assert "unless --seed is given: whoever knows the seed can" in text
    assert "none can be guessed back" not in text
