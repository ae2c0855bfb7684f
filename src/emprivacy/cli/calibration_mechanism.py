"""``emprivacy calibrate --mechanism NAME``: the N_w study on any mechanism, by running it.

For each ε: how often the mechanism returns the studied word itself (N_w), how many distinct
words it turns into (S_w), the mean embedding distance moved, and where the released words
sit in the input's neighbour list; for TEM, where its truncation leaves every word inside.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from emprivacy.cli._common import (
    LOG_EVERY,
    check_encoding,
    echo,
    echo_json,
    fail,
    load,
    one_mechanism,
    progress_bar,
    stderr,
)

__all__ = ["calibrate_mechanism"]


def calibrate_mechanism(name: str | None, pairs: list[str], eps_list: list[float] | None, *,
                        embeddings: Path | None, encoding: str, vocab_size: int,
                        words_file: Path | None,
                        n_words: int, trials: int, seed: int | None, as_json: bool,
                        quiet: bool, lang: str = "en") -> None:
    """``calibrate --mechanism NAME``: sampled statistics and rank histogram per ε."""

    import numpy as np

    from emprivacy.math import check_random_state
    from emprivacy.mechanisms import make_mechanism
    from emprivacy.protection import study_mechanism

    if name is None:
        fail("--param needs --mechanism")
    params = one_mechanism(name, pairs, verb="studied")
    if not eps_list:
        fail("--mechanism needs --epsilons: the ε scales of the mechanisms differ")
    console = stderr()
    emb = load(embeddings, vocab_size, quiet, check_encoding(encoding), lang)
    words = None
    if words_file is not None:
        from emprivacy.io import read_text_file
        from emprivacy.text import normalise_word

        words = [w for w in dict.fromkeys(normalise_word(t) for t in
                                          read_text_file(words_file).split()) if w in emb]
        if not words:
            fail(f"no word of {str(words_file)!r} is in the vocabulary of {emb.name!r}")
    gen = check_random_state(seed)
    studies = []
    # a bar on a terminal, a line every LOG_EVERY seconds elsewhere (issue 44, item 8)
    with progress_bar(console, show=not quiet, elapsed=True, log_every=LOG_EVERY) as bar:
        task = bar.add_task(f"running {name} on the studied words", total=len(eps_list))
        for eps in eps_list:
            mech = make_mechanism(name, emb, epsilon=eps, **params)
            try:  # a study the machine cannot hold: one line, before any draw
                studies.append(study_mechanism(mech, words=words, n_words=n_words,
                                               trials=trials, rng=gen, lang=lang))
            except ValueError as exc:
                fail(str(exc))
            bar.advance(task)
    truncation = []
    if name == "tem":  # where γ leaves every word inside, TEM is SanText: say so
        from dataclasses import asdict

        from emprivacy.protection import summarise_truncation, tem_truncation

        truncation = tem_truncation(emb, epsilons=eps_list, beta=mech.record_fields()["beta"],
                                    rows=emb.rows(list(studies[0].words)))
    if as_json:
        payload: dict[str, Any] = {"embeddings": {"name": emb.name, "vocab_size": len(emb),
                                                  "dim": emb.dim},
                                   "results": [st.summary() for st in studies]}
        if truncation:
            payload["tem_truncation"] = [asdict(t) for t in truncation]
        echo_json(payload)
        return
    first = studies[0]
    echo(f"{emb.name} ({len(emb)} words, n = {emb.dim}): mechanism {name} "
         f"{first.parameters}; {len(first.words)} words × {first.trials} trials")
    echo("N_w: fraction of trials returning the word; S_w: distinct outputs; distance: mean "
         "embedding distance moved; rank: where released words sit in the input's neighbour "
         f"list (0 = the input; over {first.rank_sample} runs)")
    echo("| ε | median N_w | median S_w | distance | rank 0 | rank 1-100 | rank >100 |")
    echo("|---|---:|---:|---:|---:|---:|---:|")
    for st in studies:
        r = st.ranks
        echo(f"| {st.epsilon:g} | {float(np.median(st.unchanged)):.3f} | "
             f"{float(np.median(st.distinct)):g} | {float(np.mean(st.distance_moved)):.3f} | "
             f"{r['0']:.3f} | {r['1-100']:.3f} | {r['>100']:.3f} |")
    if truncation:
        echo(summarise_truncation(truncation, what="studied word"))
