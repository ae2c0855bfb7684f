"""Mechanism benchmark: words per second and output statistics, ours against the peers'.

Every mechanism of :data:`emprivacy.mechanisms.MECHANISMS` (madlib, mahalanobis,
vickrey, tem, santext), Madlib with ``rank_resample=0.04`` (the curse-of-dimensionality
fix) and Madlib and Vickrey with the approximate decoder, on the default embeddings
(``emprivacy.load_embeddings()``: GloVe 6B 50d, 100k words × 50 dims), for ε in
{5, 10, 20} — side by side, in one run, with the same mechanism of the PyPI packages
``mldp-text`` 0.1.2 and ``pypantera`` 1.0.2 where they have one, on the same vectors
and the same input words:

* input words: ``--words`` vocabulary rows drawn (seeded) with a Zipf law over the
  frequency-ordered vocabulary, like running text;
* ours: each mechanism built fresh for each of ``--rounds`` rounds (construction timed
  apart), ``privatize_indices`` on all the words; the fastest round counts;
* peers: installed into their own virtual environment (``python -m venv`` +
  ``pip install mldp-text==0.1.2 pypantera==1.0.2`` from PyPI, cached under
  ``~/.cache/emprivacy/benchmark-peers/``) and run there as a subprocess of this
  script (``--peer-worker``), which gets the vectors and words as .npy/.json files.
  Their mechanism classes are called directly with our vectors: mldp-text's with a
  gensim ``KeyedVectors`` built from them (``embedding_matrix=``, ``dim=50``,
  ``vocab=`` our words; one ``replace_word`` call per word, as designed), pypantera's
  with a GloVe-format text file of them (``embPath``, read once by its own ``Vocab``
  loader and shared by every instance; one ``processText`` call per one-word text).
  Each peer task processes the input words in order until ``--peer-budget`` seconds
  have passed and at least ``--peer-min-words`` are done (at most ``--peer-cap``
  seconds, at most all the words); its words/s is measured on that prefix.

Statistics, for ours and each peer on the same input words: the share of words left
unchanged and the mean Euclidean distance ``‖Vec(x) − Vec(output)‖`` moved (in our
vectors), each with its standard error; and a paired z on the peer's prefix
(per input word, ours averaged over the rounds minus the peer's).  ``|z| > 3`` is a
disagreement beyond sampling error; for the two visible known peer bugs the
statistics of a *bug model* (our noise and decoder, the peer's documented rule) are
given as well, to show that the bug accounts for the whole difference.

Usage::

    python benchmarks/mechanisms.py [--quick] [--words 2000] [--rounds 3]
                                    [--peer-budget 10] [--no-peers] [--no-write]

Prints the table, writes ``benchmarks/results/mechanisms.json`` and the table of
``docs/BENCHMARKS.md`` (between the ``mechanisms`` markers).  5–7 minutes on a shared
2-core machine (plus about 1.5 minutes to create the peers' environment once);
``--quick`` about 2.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results" / "mechanisms.json"
BEGIN, END = "<!-- mechanisms:begin -->", "<!-- mechanisms:end -->"
EPSILONS = (5.0, 10.0, 20.0)
SEED = 2013
Z_LIMIT = 3.0
PEER_REQUIREMENTS = ("mldp-text==0.1.2", "pypantera==1.0.2")

# (label, emprivacy mechanism, its parameters, peers: (package, class, parameters)).
# The peers' parameters are their defaults where those match ours (mldp-text's
# Mahalanobis lambd = 0.2, its Vickrey k = 2, t = [1, 0]); pypantera has no defaults in
# its classes and gets ours (lam = 0.2, t = 0.75, beta = 0.001).
Peer = tuple[str, str, dict[str, Any]]
_MADLIB_PEERS: tuple[Peer, ...] = (("mldp-text", "MultivariateCalibrated", {}),
                                   ("pypantera", "CMP", {}))
_VICKREY_PEERS: tuple[Peer, ...] = (("mldp-text", "VickreyMechanism", {}),
                                    ("pypantera", "VickreyCMP", {"t": 0.75}))
ROWS: tuple[tuple[str, str, dict[str, Any], tuple[Peer, ...]], ...] = (
    ("madlib", "madlib", {}, _MADLIB_PEERS),
    ("madlib, approximate decoder", "madlib", {"decoder": "approximate"}, _MADLIB_PEERS),
    ("madlib + rank_resample=0.04", "madlib", {"rank_resample": 0.04}, ()),
    ("mahalanobis (λ = 0.2)", "mahalanobis", {},
     (("mldp-text", "Mahalanobis", {}), ("pypantera", "Mahalanobis", {"lam": 0.2}))),
    ("vickrey (t = 0.75)", "vickrey", {}, _VICKREY_PEERS),
    ("vickrey, approximate decoder", "vickrey", {"decoder": "approximate"}, _VICKREY_PEERS),
    ("tem (β = 0.001)", "tem", {},
     (("mldp-text", "TEM", {}), ("pypantera", "TEM", {"beta": 0.001}))),
    ("santext", "santext", {}, (("pypantera", "SanText", {}),)),
)

# Known peer bugs and deviations (../shared/MECHANISMS.md), and whether they can show in
# the statistics measured here: (description, visible).
KNOWN_BUGS: dict[tuple[str, str], tuple[str, bool]] = {
    ("mldp-text", "vickrey"): (
        "mldp-text's VickreyMechanism is not the paper's rule: it drops the input word when "
        "it is the nearest, then picks between the next two with softmax(−[1, 0]·d²) on "
        "squared faiss distances, i.e. the second with probability 1/(1 + e^(−d²)) ≥ ½ "
        "(MECHANISMS.md §3, pitfall 4)", True),
    ("pypantera", "mahalanobis"): (
        "pypantera renormalises Σ_λ^½·u to unit length (pitfall 3); at λ = 0.2 on these "
        "vectors ‖Σ_λ^½·u‖ is {stretch_mean:.4f} ± {stretch_sd:.4f} (mean ± sd), so this "
        "changes the noise radius by about {stretch_sd:.1%}", False),
    ("mldp-text", "mahalanobis"): (
        "mldp-text scales Σ by the variance of the whole matrix, so tr Σ = {trace_ratio:.3f}·n "
        "here instead of n", False),
    ("mldp-text", "tem"): (
        "mldp-text's ⊥ score uses ln(|V|/|L_w|) instead of ln|V∖L_w| (pitfall 2), which "
        "only changes P(⊥) ≤ β = 0.001", False),
    ("pypantera", "tem"): (
        "pypantera releases the input word when ⊥ wins (pitfall 1), with probability at "
        "most β = 0.001", False),
    ("pypantera", "vickrey"): (
        "pypantera trusts np.argpartition(·, 2)[:, :2] to be ordered (pitfall 5); in its "
        "environment the pair came out ordered in {argpartition_ordered} of "
        "{argpartition_checks} checks on these vectors", False),
}


# == the peers' side: runs in the peers' virtual environment ===============================
def peer_worker(work: Path) -> int:
    """Serve peer tasks (one JSON line in, one JSON line out) with mldp-text and pypantera.

    Runs under the peers' interpreter; imports only the standard library, numpy and the
    peers' packages.  Library output is sent to stderr: stdout carries the protocol.
    """
    import importlib
    import random
    from importlib import metadata

    import numpy as np

    proto = os.fdopen(os.dup(1), "w", buffering=1, encoding="utf-8")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    t0 = time.perf_counter()
    vectors = np.load(work / "vectors.npy")
    words = json.loads((work / "words.json").read_text(encoding="utf-8"))
    row_of = {w: i for i, w in enumerate(words)}
    dim = int(vectors.shape[1])

    from gensim.models import KeyedVectors

    kv = KeyedVectors(vector_size=dim, count=0, dtype=np.float32)
    kv.add_vectors(words, vectors)
    vocab_set = set(words)
    import mldp_text

    # pypantera reads embeddings from a GloVe-format text file with its own loader
    # (``Vocab``, a multiprocessing parser).  Parse it once; every constructor reuses it.
    text_file = work / "embeddings.txt"
    with text_file.open("w", encoding="utf-8") as fh:
        for w, v in zip(words, vectors.tolist(), strict=True):
            fh.write(w + " " + " ".join(f"{x:.9g}" for x in v) + "\n")
    pp_base = importlib.import_module("src.AbstractTextObfuscationDPMechanism")
    pp_vocab = getattr(pp_base, "Vocab")(str(text_file))  # noqa: B009
    pp_words = list(pp_vocab.embeddings)
    pp_same = pp_words == words and all(
        np.array_equal(pp_vocab.embeddings[w], vectors[i]) for i, w in enumerate(words))
    setattr(pp_base, "Vocab", lambda path: pp_vocab)  # noqa: B010
    pp_classes = {
        "CMP": "src.EmbeddingPerturbationMechanism.cmp",
        "Mahalanobis": "src.EmbeddingPerturbationMechanism.mahalanobis",
        "VickreyCMP": "src.EmbeddingPerturbationMechanism.vickrey",
        "TEM": "src.SamplingPerturbationMechanism.tem",
        "SanText": "src.SamplingPerturbationMechanism.santext",
    }
    # pypantera's Vickrey takes np.argpartition(d, 2)[:, :2] as (nearest, second): how often
    # is that pair ordered under this numpy, on noisy points near these vectors?
    check = np.random.default_rng(0)
    ordered, checks = 0, 200
    for _ in range(checks):
        z = vectors[check.integers(len(vectors))] + check.normal(size=dim) * 0.3
        d = np.sqrt(((vectors - z) ** 2).sum(axis=1))[None, :]
        pair = np.argpartition(d, 2, axis=1)[0, :2]
        ordered += int(d[0, pair[0]] <= d[0, pair[1]])
    versions: dict[str, str | None] = {}
    for dist in ("mldp-text", "pypantera", "numpy", "scipy", "faiss-cpu", "gensim"):
        try:
            versions[dist] = metadata.version(dist)
        except metadata.PackageNotFoundError:
            versions[dist] = None
    versions["python"] = sys.version.split()[0]
    proto.write(json.dumps({"ready": True, "versions": versions,
                            "pypantera_vocabulary_identical": bool(pp_same),
                            "pypantera_vocabulary_words": len(pp_words),
                            "argpartition_ordered": ordered, "argpartition_checks": checks,
                            "load_seconds": time.perf_counter() - t0}) + "\n")

    for line in sys.stdin:
        task = json.loads(line)
        try:
            np.random.seed(task["seed"])  # noqa: NPY002 -- the peers use the global RNG
            random.seed(task["seed"])
            s0 = time.perf_counter()
            if task["peer"] == "mldp-text":
                mech = getattr(mldp_text, task["class"])(
                    epsilon=task["epsilon"], embedding_matrix=kv, dim=dim, vocab=vocab_set,
                    **task["params"])
                call = mech.replace_word
            else:
                cls = getattr(importlib.import_module(pp_classes[task["class"]]), task["class"])
                mech = cls({"embPath": str(text_file), "epsilon": task["epsilon"],
                            **task["params"]})
                if task["class"] in ("CMP", "Mahalanobis", "VickreyCMP"):
                    # as its obfuscateText does: processText(noisyEmb(words of one text))
                    def call(w: str, mech: Any = mech) -> str:
                        return mech.processText(mech.noisyEmb([w]))
                else:
                    def call(w: str, mech: Any = mech) -> str:
                        return mech.processText([w])
            setup = time.perf_counter() - s0
            outs: list[int] = []
            t1, c1 = time.perf_counter(), time.process_time()
            for row in task["rows"]:
                outs.append(row_of.get(call(words[row]), -1))
                elapsed = time.perf_counter() - t1
                if (elapsed >= task["cap"]
                        or (elapsed >= task["budget"] and len(outs) >= task["min_words"])):
                    break
            wall, cpu = time.perf_counter() - t1, time.process_time() - c1
            result = {"words": len(outs), "seconds": wall, "cpu_seconds": cpu,
                      "setup_seconds": setup, "outputs": outs}
        except Exception:
            result = {"error": traceback.format_exc()}
        proto.write(json.dumps(result) + "\n")
    return 0


# == our side ================================================================================
def default_peer_env() -> Path:
    from emprivacy.io.cache_dir import user_cache_dir

    name = "_".join(r.replace("==", "-") for r in PEER_REQUIREMENTS)
    return user_cache_dir() / "benchmark-peers" / name


def peer_python(env: Path) -> Path:
    """The peers' interpreter, creating their virtual environment first if needed."""
    python = env / "bin" / "python"
    if python.exists():
        return python
    print(f"creating the peers' environment {env} (python -m venv; pip install "
          f"{' '.join(PEER_REQUIREMENTS)}) ...", flush=True)
    env.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run([sys.executable, "-m", "venv", str(env)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                    "--disable-pip-version-check", *PEER_REQUIREMENTS], check=True)
    return python


class PeerWorker:
    """The peer worker subprocess: one task at a time, JSON lines over pipes."""

    def __init__(self, python: Path, work: Path, vectors: Any, words: list[str]) -> None:
        import numpy as np

        np.save(work / "vectors.npy", np.ascontiguousarray(vectors, dtype=np.float32))
        (work / "words.json").write_text(json.dumps(words), encoding="utf-8")
        # mldp-text downloads WordNet when importing if it cannot find it (only its SynTF,
        # not benchmarked, uses it): an empty corpora/wordnet keeps the run offline.
        (work / "nltk_data" / "corpora" / "wordnet").mkdir(parents=True, exist_ok=True)
        env = dict(os.environ, NLTK_DATA=str(work / "nltk_data"), PYTHONNOUSERSITE="1")
        env.pop("PYTHONPATH", None)
        self.log = work / "peer-worker.log"
        self._log = self.log.open("w", encoding="utf-8")
        self.proc = subprocess.Popen(
            [str(python), str(Path(__file__).resolve()), "--peer-worker", str(work)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, text=True,
            cwd=work, env=env)
        self.info = self._read()

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self._log.flush()
            tail = self.log.read_text(encoding="utf-8", errors="replace")[-3000:]
            raise SystemExit(f"the peer worker stopped; its log ends with:\n{tail}")
        return dict(json.loads(line))

    def run(self, task: dict[str, Any]) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(task) + "\n")
        self.proc.stdin.flush()
        return self._read()

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait(timeout=60)
        self._log.close()


def timed(fn: Any) -> tuple[float, float, Any]:
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - t0, time.process_time() - c0, out


def per_word(vectors64: Any, src: Any, outs: Any) -> tuple[Any, Any]:
    """Per input word: share unchanged and distance moved, averaged over replicates.

    ``outs`` is (replicates, m) output rows for the m input rows ``src``.
    """
    import numpy as np

    outs = np.atleast_2d(outs)
    unchanged = (outs == src[None, :]).mean(axis=0)
    moved = np.linalg.norm(vectors64[outs] - vectors64[src][None, :, :], axis=2).mean(axis=0)
    return unchanged, moved


def summary(values: Any) -> dict[str, float]:
    """Mean and its standard error (binomial for a share of 0/1 values)."""
    import numpy as np

    n = values.size
    se = float(values.std(ddof=1) / np.sqrt(n)) if n > 1 else float("nan")
    return {"mean": float(values.mean()), "se": se}


def paired_z(ours: Any, peer: Any) -> float | None:
    """z of the mean per-word difference ours − peer (same input words, independent draws)."""
    import numpy as np

    d = ours - peer
    if d.size < 2:
        return None
    se = float(d.std(ddof=1) / np.sqrt(d.size))
    if se == 0.0:
        return 0.0 if float(d.mean()) == 0.0 else float(np.sign(d.mean()) * np.inf)
    return float(d.mean() / se)


def bench_ours(emb: Any, name: str, params: dict[str, Any], eps: float, src: Any,
               rounds: int) -> tuple[dict[str, Any], Any]:
    """Fresh mechanism per round (construction timed apart); the fastest round counts."""
    import numpy as np

    from emprivacy.mechanisms import make_mechanism

    walls, cpus, setups, outs = [], [], [], []
    for r in range(rounds):
        t0 = time.perf_counter()
        mech = make_mechanism(name, emb, epsilon=eps, rng=SEED, **params)
        setups.append(time.perf_counter() - t0)
        gen = np.random.default_rng([SEED, int(eps), r])
        wall, cpu, out = timed(lambda mech=mech, gen=gen: mech.privatize_indices(src, rng=gen))
        walls.append(wall)
        cpus.append(cpu)
        outs.append(out)
    return ({"words": int(src.size), "rounds": rounds,
             "words_per_second": src.size / min(walls),
             "words_per_cpu_second": src.size / min(cpus),
             "seconds": walls, "setup_seconds": min(setups)}, np.stack(outs))


# -- bug models: our noise and decoder with the peer's documented rule ------------------------
def top_k_exact(emb: Any, z: Any, k: int) -> tuple[Any, Any]:
    """The k nearest rows to each point and their squared distances (float64, sorted)."""
    import numpy as np

    w = emb.vectors
    w64 = w.astype(np.float64)
    sq = np.einsum("ij,ij->i", w64, w64)
    rows = np.empty((len(z), k), dtype=np.int64)
    d2 = np.empty((len(z), k))
    for s in range(0, len(z), 256):
        zb = z[s:s + 256]
        approx = sq[None, :] - 2.0 * (zb.astype(np.float32) @ w.T)
        cand = np.argpartition(approx, k + 8, axis=1)[:, :k + 8]
        exact = ((w64[cand] - zb[:, None, :]) ** 2).sum(axis=2)
        order = np.lexsort((cand, exact), axis=1)
        rows[s:s + len(zb)] = np.take_along_axis(cand, order, axis=1)[:, :k]
        d2[s:s + len(zb)] = np.take_along_axis(exact, order, axis=1)[:, :k]
    return rows, d2


def model_mldp_vickrey(emb: Any, eps: float, src: Any, gen: Any) -> Any:
    """mldp-text's Vickrey rule on Madlib noise: drop the input if nearest, then
    P(second of the two candidates) = 1/(1 + exp(−d²_first)) (squared distances)."""
    import numpy as np

    from emprivacy import laplace_noise

    z = emb.vectors[src].astype(np.float64) + laplace_noise(emb.dim, eps, size=src.size,
                                                            rng=gen)
    rows, d2 = top_k_exact(emb, z, 3)
    drop = rows[:, 0] == src
    first = np.where(drop, rows[:, 1], rows[:, 0])
    second = np.where(drop, rows[:, 2], rows[:, 1])
    d_first = np.where(drop, d2[:, 1], d2[:, 0])
    p_second = 1.0 / (1.0 + np.exp(-d_first))
    return np.where(gen.random(src.size) < p_second, second, first)


def model_pypantera_mahalanobis(emb: Any, eps: float, src: Any, gen: Any) -> Any:
    """pypantera's Mahalanobis noise: Σ_λ^½·u renormalised to unit length, times r."""
    import numpy as np

    from emprivacy import laplace_noise
    from emprivacy.decoding import ExactDecoder
    from emprivacy.mechanisms import RegularizedMahalanobis

    noise = laplace_noise(emb.dim, eps, size=src.size, rng=gen)  # r·u
    stretched = RegularizedMahalanobis(emb, lam=0.2).transform(noise)
    stretched *= (np.linalg.norm(noise, axis=1) / np.linalg.norm(stretched, axis=1))[:, None]
    return ExactDecoder(emb).decode(emb.vectors[src].astype(np.float64) + stretched)


BUG_MODELS = {("mldp-text", "vickrey"): model_mldp_vickrey,
              ("pypantera", "mahalanobis"): model_pypantera_mahalanobis}


# -- report ---------------------------------------------------------------------------------
def disagrees(entry: dict[str, Any]) -> bool:
    """Whether a peer's statistics differ from ours beyond sampling error (|z| > Z_LIMIT)."""
    return any(z is not None and abs(z) > Z_LIMIT
               for z in (entry.get("z_unchanged"), entry.get("z_moved")))


def verdict(peer: str, mechanism: str, entries: list[tuple[float, dict[str, Any]]],
            facts: dict[str, Any]) -> str:
    """One line per (mechanism, peer) over all ε: where they differ, and which side is wrong."""
    differ = [eps for eps, e in entries if "error" not in e and disagrees(e)]
    agree = [eps for eps, e in entries if "error" not in e and not disagrees(e)]
    known = KNOWN_BUGS.get((peer, mechanism))
    if known:
        known = (known[0].format_map(facts), known[1])
    parts = []
    if differ:
        at = ", ".join(f"{e:g}" for e in differ)
        if known and known[1]:
            parts.append(f"differs at ε = {at}: peer wrong — {known[0]}")
        else:
            parts.append(f"differs at ε = {at}: UNEXPLAINED")
    if agree:
        at = ", ".join(f"{e:g}" for e in agree)
        note = ""
        if known:
            note = (f" ({known[0]}: too small to show)" if not known[1]
                    else " (the bug's smaller effect there is within this sample's "
                    "resolution)" if differ else "")
        parts.append(f"agree within sampling error at ε = {at}{note}")
    return "; ".join(parts) or "error"


def _fmt_stat(s: dict[str, float], digits: int) -> str:
    return f"{s['mean']:.{digits}f} ± {s['se']:.{digits}f}"


def _fmt_z(z: float | None) -> str:
    if z is None:
        return "—"
    text = f"{z:+.1f}"
    return f"**{text}**" if abs(z) > Z_LIMIT else text


def markdown(report: dict[str, Any]) -> str:
    m = report["machine"]
    env = report.get("peer_environment") or {}
    versions = env.get("versions", {})
    peers = (f"peers: mldp-text {versions.get('mldp-text')}, pypantera "
             f"{versions.get('pypantera')} (numpy {versions.get('numpy')}, faiss-cpu "
             f"{versions.get('faiss-cpu')}, gensim {versions.get('gensim')})"
             if versions else "peers not run")
    s = report["settings"]
    lines = [
        f"Measured {report['date']} on {m['cores']} cores ({m['cpu']}); ours: emprivacy "
        f"{m['emprivacy']}, numpy {m['numpy']}; {peers}.  Load average at start / end: "
        f"{m['load_average_start'][0]:.1f} / {m['load_average_end'][0]:.1f} "
        f"(above {m['cores']}: other processes were competing for the cores).  "
        f"{s['words']} input words (Zipf over the vocabulary, seed {s['seed']}); ours: "
        f"fastest of {s['rounds']} rounds, statistics over all rounds; each peer: one pass "
        f"over the first words until {s['peer_budget']:g} s and ≥ {s['peer_min_words']} "
        f"words (cap {s['peer_cap']:g} s).  ± is one standard error; z is the paired z of "
        f"ours − peer on the peer's words (bold: |z| > {Z_LIMIT:g}).  Total run time "
        f"{report['seconds']:.0f} s.",
        "",
        "| mechanism | ε | peer | ours w/s | peer w/s (words) | ours ÷ peer | ÷ in CPU time "
        "| unchanged: ours | unchanged: peer | z | moved: ours | moved: peer | z |",
        "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for c in report["cells"]:
        o = c["ours"]
        head = (f"| {c['label']} | {c['epsilon']:g} | ")
        ours_cols = (f"{o['words_per_second']:,.0f}", _fmt_stat(o["unchanged"], 3),
                     _fmt_stat(o["moved"], 3))
        if not c["peers"]:
            lines.append(head + f"— | {ours_cols[0]} | — | — | — | {ours_cols[1]} | — | — | "
                         f"{ours_cols[2]} | — | — |")
        for p in c["peers"]:
            if "error" in p:
                lines.append(head + f"{p['peer']} `{p['class']}` | {ours_cols[0]} | error "
                             "| | | | | | | | |")
                continue
            ratio = p["ours_over_peer"]
            ratio_s = f"{ratio:,.0f}×" if ratio >= 100 else f"**{ratio:,.0f}×**"
            lines.append(
                head + f"{p['peer']} `{p['class']}` | {ours_cols[0]} | "
                f"{p['words_per_second']:,.1f} ({p['words']}) | {ratio_s} | "
                f"{p['ours_over_peer_cpu']:,.0f}× | {ours_cols[1]} | "
                f"{_fmt_stat(p['unchanged'], 3)} | {_fmt_z(p['z_unchanged'])} | "
                f"{ours_cols[2]} | {_fmt_stat(p['moved'], 3)} | {_fmt_z(p['z_moved'])} |")
            if "bug_model" in p:
                b = p["bug_model"]
                lines.append(
                    f"| ↳ bug model of {p['peer']} | {c['epsilon']:g} | our noise + its rule "
                    f"| | | | | {_fmt_stat(b['unchanged'], 3)} | vs peer: "
                    f"{_fmt_z(b['z_unchanged'])} | | {_fmt_stat(b['moved'], 3)} | vs peer: "
                    f"{_fmt_z(b['z_moved'])} | |")
    lines += ["", "| mechanism | peer | verdict |", "|---|---|---|"]
    for key, text in report["verdicts"].items():
        label, peer = key.split(" | ")
        lines.append(f"| {label} | {peer} | {text} |")
    return "\n".join(lines)


def ensure_section() -> None:
    """Give docs/BENCHMARKS.md a "Mechanisms" section with the markers if it has none."""
    from decode import DOC
    from emprivacy.io.outputs import atomic_output

    text = DOC.read_text(encoding="utf-8")
    if BEGIN in text and END in text:
        return
    with atomic_output(DOC) as fh:
        fh.write(text.rstrip("\n") + "\n\n## Mechanisms (issue 13)\n\n"
                 "`python benchmarks/mechanisms.py`: see its docstring.\n\n"
                 f"{BEGIN}\n{END}\n")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--words", type=int, default=2000, help="input words")
    parser.add_argument("--rounds", type=int, default=3, help="timing rounds of ours")
    parser.add_argument("--peer-budget", type=float, default=10.0,
                        help="seconds each peer task runs at least (unless all words are done)")
    parser.add_argument("--peer-min-words", type=int, default=40,
                        help="words each peer task processes at least (unless capped)")
    parser.add_argument("--peer-cap", type=float, default=30.0,
                        help="seconds after which a peer task stops in any case")
    parser.add_argument("--peer-env", type=Path, default=None,
                        help="the peers' virtual environment (created if missing)")
    parser.add_argument("--no-peers", action="store_true", help="ours only")
    parser.add_argument("--quick", action="store_true",
                        help="400 words, 1 round, 2 s / 10 words / 8 s per peer task")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--peer-worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.peer_worker is not None:
        return peer_worker(args.peer_worker)
    if args.quick:
        args.words, args.rounds = 400, 1
        args.peer_budget, args.peer_min_words, args.peer_cap = 2.0, 10, 8.0

    import numpy as np

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from decode import machine_info, publish, zipf_sources
    from emprivacy import load_embeddings

    t_start = time.perf_counter()
    emb = load_embeddings()
    vectors64 = emb.vectors.astype(np.float64)
    src = zipf_sources(len(emb), args.words, np.random.default_rng(SEED))
    from emprivacy.mechanisms import RegularizedMahalanobis

    u = np.random.default_rng(SEED).standard_normal((100_000, emb.dim))
    u /= np.linalg.norm(u, axis=1)[:, None]
    stretch = np.linalg.norm(RegularizedMahalanobis(emb, lam=0.2).transform(u), axis=1)
    facts: dict[str, Any] = {
        "stretch_mean": float(stretch.mean()), "stretch_sd": float(stretch.std()),
        "trace_ratio": float(vectors64.var(axis=0).mean() / vectors64.var()),
        "argpartition_ordered": "?", "argpartition_checks": "?"}
    report: dict[str, Any] = {
        "date": time.strftime("%Y-%m-%d %H:%M"), "machine": machine_info(),
        "embeddings": {"name": emb.name, "words": len(emb), "dim": emb.dim},
        "settings": {"words": args.words, "distinct_words": int(np.unique(src).size),
                     "rounds": args.rounds, "peer_budget": args.peer_budget,
                     "peer_min_words": args.peer_min_words, "peer_cap": args.peer_cap,
                     "seed": SEED, "epsilons": list(EPSILONS), "z_limit": Z_LIMIT,
                     "quick": args.quick},
        "facts": facts, "cells": []}
    print(json.dumps(report["machine"], indent=1), flush=True)
    print(f"{emb.name}: {len(emb):,} words × {emb.dim}; {args.words} input words "
          f"({report['settings']['distinct_words']} distinct)", flush=True)

    with tempfile.TemporaryDirectory(prefix="emprivacy-mechanisms-") as tmp:
        worker = None
        if not args.no_peers:
            env = args.peer_env or default_peer_env()
            t0 = time.perf_counter()
            python = peer_python(env)
            worker = PeerWorker(python, Path(tmp), emb.vectors, list(emb.words))
            report["peer_environment"] = {
                "path": str(env), "requirements": list(PEER_REQUIREMENTS), **worker.info,
                "start_seconds": time.perf_counter() - t0}
            print(f"peer worker ready: {worker.info}", flush=True)
            facts |= {k: worker.info[k] for k in ("argpartition_ordered",
                                                   "argpartition_checks")}
        peer_runs: dict[tuple[str, str, float], dict[str, Any]] = {}
        try:
            for label, name, params, peers in ROWS:
                for eps in EPSILONS:
                    load0 = os.getloadavg()[0]
                    ours, outs = bench_ours(emb, name, params, eps, src, args.rounds)
                    ours_unch, ours_moved = per_word(vectors64, src, outs)
                    ours |= {"unchanged": summary(ours_unch), "moved": summary(ours_moved)}
                    cell: dict[str, Any] = {"label": label, "mechanism": name,
                                            "params": params, "epsilon": eps, "ours": ours,
                                            "peers": []}
                    line = (f"{label:30s} ε={eps:>4g}: ours {ours['words_per_second']:>8,.0f}"
                            f" w/s, unchanged {ours['unchanged']['mean']:.3f}, moved "
                            f"{ours['moved']['mean']:.3f}")
                    for k, (peer, cls, pparams) in enumerate(peers if worker else ()):
                        key = (peer, cls, eps)
                        if key not in peer_runs:
                            peer_runs[key] = worker.run({  # type: ignore[union-attr]
                                "peer": peer, "class": cls, "params": pparams,
                                "epsilon": eps, "rows": src.tolist(),
                                "budget": args.peer_budget, "min_words": args.peer_min_words,
                                "cap": args.peer_cap, "seed": SEED + 100 * int(eps) + k})
                        run = peer_runs[key]
                        entry: dict[str, Any] = {"peer": peer, "class": cls, "params": pparams}
                        if "error" in run:
                            entry["error"] = run["error"]
                            print(f"  {peer} {cls} failed:\n{run['error']}", flush=True)
                            cell["peers"].append(entry)
                            continue
                        n = run["words"]
                        p_out = np.asarray(run["outputs"], dtype=np.int64)
                        p_unch, p_moved = per_word(vectors64, src[:n], p_out)
                        entry |= {k2: run[k2] for k2 in ("words", "seconds", "cpu_seconds",
                                                         "setup_seconds")}
                        entry |= {
                            "unknown_outputs": int((p_out < 0).sum()),
                            "words_per_second": n / run["seconds"],
                            "words_per_cpu_second": n / max(run["cpu_seconds"], 1e-9),
                            "unchanged": summary(p_unch), "moved": summary(p_moved),
                            "z_unchanged": paired_z(ours_unch[:n], p_unch),
                            "z_moved": paired_z(ours_moved[:n], p_moved)}
                        entry["ours_over_peer"] = (ours["words_per_second"]
                                                   / entry["words_per_second"])
                        entry["ours_over_peer_cpu"] = (ours["words_per_cpu_second"]
                                                       / entry["words_per_cpu_second"])
                        model = BUG_MODELS.get((peer, name))
                        if model is not None and "decoder" not in params:
                            gen = np.random.default_rng([SEED, int(eps), 99])
                            m_unch, m_moved = per_word(vectors64, src,
                                                       model(emb, eps, src, gen))
                            entry["bug_model"] = {
                                "unchanged": summary(m_unch), "moved": summary(m_moved),
                                "z_unchanged": paired_z(m_unch[:n], p_unch),
                                "z_moved": paired_z(m_moved[:n], p_moved)}
                        cell["peers"].append(entry)
                        line += (f" | {peer} {cls}: {entry['words_per_second']:,.1f} w/s on "
                                 f"{n} ({entry['ours_over_peer']:,.0f}×), unchanged "
                                 f"{entry['unchanged']['mean']:.3f} "
                                 f"(z {_fmt_z(entry['z_unchanged'])}), moved "
                                 f"{entry['moved']['mean']:.3f} "
                                 f"(z {_fmt_z(entry['z_moved'])})")
                    cell["load_average"] = [load0, os.getloadavg()[0]]
                    report["cells"].append(cell)
                    print(line, flush=True)
        finally:
            if worker is not None:
                worker.close()
    by_pair: dict[str, list[tuple[float, dict[str, Any]]]] = {}
    for c in report["cells"]:
        for p in c["peers"]:
            pair = f"{c['label']} | {p['peer']} `{p['class']}`"
            by_pair.setdefault(pair, []).append((c["epsilon"], p))
    report["verdicts"] = {
        pair: verdict(entries[0][1]["peer"],
                      next(c["mechanism"] for c in report["cells"]
                           if pair.startswith(c["label"] + " | ")), entries,
                      report["facts"])
        for pair, entries in by_pair.items()}
    report["machine"]["load_average_end"] = list(os.getloadavg())
    report["seconds"] = time.perf_counter() - t_start
    table = markdown(report)
    print("\n" + table)
    if not args.no_write:
        ensure_section()
        publish(report, table, RESULTS, BEGIN, END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
