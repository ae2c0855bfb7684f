"""``emprivacy calibrate --target-recovery P``: one privacy scale.

The ε at which the Bayes-optimal adversary recovers at most a fraction P of the words: the
word audit of ``emprivacy audit`` (:func:`emprivacy.protection.audit_mechanism`), bisected on
ε by :func:`emprivacy.protection.calibrate_recovery` (docs/AUDIT.md, One privacy scale).
"""

from __future__ import annotations

from pathlib import Path

from emprivacy.cli._common import (
    LOG_EVERY,
    check_encoding,
    check_stdin,
    echo,
    echo_json,
    fail,
    load,
    one_mechanism,
    parse_epsilon_list,
    progress_bar,
    stderr,
)

__all__ = ["calibrate_target_recovery"]


def calibrate_target_recovery(target: float, corpus: list[str], name: str | None,
                              pairs: list[str], epsilons: str | None, *,
                              embeddings: Path | None, encoding: str, vocab_size: int,
                              n_secrets: int, draws: int, prior: str | None, rtol: float,
                              seed: int | None, as_json: bool, quiet: bool,
                              lang: str = "en") -> None:
    """``calibrate --target-recovery P``: the word audit, bisected on ε."""
    import secrets as _secrets

    from emprivacy.mechanisms import make_mechanism
    from emprivacy.protection import (
        calibrate_recovery,
        check_above_prior,
        check_rtol,
        check_sample_size,
        check_search_epsilon,
        check_target,
        content_word_counts,
        has_exact_channel,
        secret_words,
    )

    try:
        p = check_target(target, "--target-recovery")
        check_rtol(rtol, "--rtol")
    except ValueError as exc:
        fail(str(exc))
    name = name or "madlib"
    params = one_mechanism(name, pairs, verb="calibrated")
    bracket: tuple[float, float] | None = None
    start: float | None = None
    if epsilons is not None:  # where the search starts: one ε, or a bracket
        eps_list = parse_epsilon_list(epsilons)
        try:
            for eps in (eps_list[0], eps_list[-1]):
                check_search_epsilon(eps, "--epsilons")
        except ValueError as exc:
            fail(f"{exc} (with --target-recovery, where the search starts)")
        if len(eps_list) == 1:
            start = eps_list[0]
        else:
            bracket = (eps_list[0], eps_list[-1])
    if prior == "corpus" and not corpus:
        fail("--prior corpus needs a CORPUS to count words in; give one, or use --prior "
             "zipf or uniform")
    stdin = check_stdin(corpus)
    if seed is None:
        seed = _secrets.randbelow(2**63)
    console = stderr()
    emb = load(embeddings, vocab_size, quiet, check_encoding(encoding), lang)
    counts = None
    if corpus:
        import contextlib

        status = (contextlib.nullcontext() if quiet
                  else console.status("Counting the corpus's words…"))
        with status:
            counts = content_word_counts(corpus, stdin=stdin, lang=lang)
    try:
        chosen = secret_words(emb, k=n_secrets, counts=counts, prior=prior, lang=lang)
        first = make_mechanism(name, emb, epsilon=1.0, **params)  # a bad value: now
        check_above_prior(p, chosen, "--target-recovery")
        if not has_exact_channel(first):  # each measurement: K × --draws releases
            check_sample_size(len(chosen), draws)
    except (TypeError, ValueError) as exc:
        fail(str(exc))
    if len(chosen) < n_secrets and not quiet:
        where = "the corpus holds" if corpus else f"the vocabulary of {emb.name!r} holds"
        console.print(f"emprivacy: note: --secrets {n_secrets}: {where} {len(chosen):,} "
                      "content words of the vocabulary; calibrating on those", markup=False,
                      highlight=False)
    with progress_bar(console, show=not quiet, elapsed=True, log_every=LOG_EVERY) as bar:
        # the search's measurements are not known in advance: the bar (and a log line's
        # time left) is that of the measurement under way, named in the description
        task = bar.add_task("searching", total=None)

        def progress(n: int, eps: float, done: int, total: int, description: str) -> None:
            bar.update(task, completed=done, total=total,
                       description=f"measurement {n}: ε = {eps:.4g}: {description}")

        try:
            found = calibrate_recovery(emb, target_recovery=p, mechanism=name, params=params,
                                       secrets=chosen, draws=draws, bracket=bracket,
                                       start=start, rtol=rtol, rng=seed, progress=progress)
        except ValueError as exc:
            fail(str(exc))
    summary = found.summary()
    summary["seed"] = seed  # the command's seed (the measurements' one is derived from it)
    if as_json:
        payload = {"embeddings": {"name": emb.name, "vocab_size": len(emb), "dim": emb.dim},
                   "corpus": corpus, **summary}
        echo_json(payload, ensure_ascii=False)
        return
    a = found.audit
    chan = ("exact channel" if a.exact else
            f"{draws} releases per word"
            + (f" ({found.search_draws} on the coarse grid)" if found.search_draws else ""))
    echo(f"{emb.name} ({len(emb)} words, n = {emb.dim}): mechanism {name} "
         f"{dict(params) if params else ''}".rstrip() + f"; {len(chosen)} secret words, "
         f"prior {chosen.prior_name}; {chan}")
    echo(f"target: the Bayes-optimal adversary recovers at most P = {p:g} of the words ("
         + ("V(π▷C), exact" if a.exact else
            f"the upper end of V(π▷C)'s interval at {found.confidence_per_point:.7g}, "
            f"Bonferroni over the {found.points_covered:,} ε the search can measure: "
            f"{found.confidence:.0%} at the ε returned") + ", at or below P)")
    echo("| ε | measured | upper end of V(π▷C) | at or below P |")
    echo("|---:|---|---:|---|")
    for pt in sorted(found.search.points, key=lambda q: (q.stage, q.epsilon)):
        what = ("coarse grid" if pt.stage == "bracket"
                else "exact" if a.exact else f"{draws} draws")
        echo(f"| {pt.epsilon:.4g} | {what} | {pt.value:.4g} | "
             f"{'yes' if pt.value <= p else 'no'} |")
    echo(f"ε = {found.epsilon:.4g}: V(π▷C) = {a.posterior_vulnerability.text()}, at or "
         f"below {p:g}; attack recovery {a.attack_recovery.text()}; V(π) = "
         f"{a.prior_vulnerability:.4g}")
    echo(f"at ε = {found.above.epsilon:.4g} (within {rtol:g} relative) the upper end is "
         f"{found.above.posterior_vulnerability.upper:.4g}, above {p:g}")
    if not a.exact:
        echo("A sampled V(π▷C)'s upper end includes the plug-in's upward bias, so this ε is "
             "conservative (compare the attack recovery); more --draws make it less so.")
