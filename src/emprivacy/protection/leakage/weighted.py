"""The posterior-weighted audit of a sampled channel: every release informs every secret.

The counting estimator (:func:`~emprivacy.protection.sample_channel`) learns about
``C[x, ·]`` only from the releases of x itself, so at a small ε, where each secret's
releases scatter over thousands of words, the plug-in ``Σ_y max_x π_x Ĉ[x, y]`` mostly
measures that scatter (the maximum over noisy estimates is biased upward).  For the
mechanisms whose noise has a known density (:mod:`.densities`: madlib, mahalanobis,
vickrey, with or without rank resampling) a release y of a noisy point z can be
credited to *every* secret by how likely z is under it.  With ``N_o`` draws from each
secret o (multiple importance sampling with the balance heuristic; Veach & Guibas 1995)
and ``q(z) = Σ_o N_o f(z | o)``, each draw i gives

.. math::

    L_i[x] = \\frac{f(z_i \\mid x)}{\\sum_o N_o f(z_i \\mid o)} \\in [0, 1/N_x], \\qquad
    \\hat C[x, y] = \\sum_i L_i[x]\\, P[R(z_i) = y \\mid z_i],

an unbiased estimate of the whole channel:
``E Ĉ[x, y] = ∫ Σ_o N_o f(z|o) · f(z|x)/q(z) · P[y | z] dz = C[x, y]`` for every x and y at
once (the Vickrey coin is integrated out, so ``P[y | z]`` is exact; rank resampling is
drawn).  The figures (:func:`weighted_measures`), at ``confidence`` 1 − α:

* **upper end** of ``V(π▷C)``: the plug-in ``Σ_y max_x π_x Ĉ[x, y]`` (its mean is
  ≥ V(π▷C): a maximum of unbiased estimates) plus McDiarmid's margin
  ``b·sqrt(N ln(2/α) / 2)``: one draw moves the plug-in by at most
  ``b = max_x π_x / N_x`` (its weights ``π_x L_i[x]`` are below that), N draws in all;
  so the draws are allocated in proportion to π (``b = 1/N``), with at least
  ``draws // 4`` per secret;
* **lower end**: the success of a fixed guesser g, ``Σ_x π_x Σ_y C[x, y] 1[g(y) = x]``,
  estimated without bias by ``Σ_i π_{g(y_i)} L_i[g(y_i)]`` (each term in ``[0, b]``:
  Hoeffding's bound); the guessers are the family
  ``g(y) = argmax_x ln π_x − β ε d(μ + (1 + κ)(Vec y − μ), x)`` (the MAP guess as if the
  noisy point lay on y, or past it) for the G pairs (β, κ) of
  :data:`~.weighted_draws.GUESSERS`, fixed in advance and all scored, at α/(2G) each (the
  union bound), and the blind guess (``argmax_x π_x``, success exactly V(π)); the best of
  these lower bounds is reported, and the guesser that gives it is the attack
  (``attack_recovery``);
* and, where every secret has at least 2 draws, the **guesser learned on half the draws**
  (the counting audit's split-half construction, weighted): in every copy the last
  ``N_o // 2`` draws of each secret o form half B, the rest half A; each half weighs its
  draws by its own proposal, ``L^H_i[x] = f(z_i | x) / Σ_o N^H_o f(z_i | o)``; the guesser
  ``h(y) = argmax_x π_x Ĉ_A[x, y]`` (the fixed guesser β = 1, κ = 0 where A never released
  y) depends on A only, so its success is estimated without bias on B by
  ``Σ_{i ∈ B} π_{h(y_i)} L^B_i[h(y_i)]`` (terms in ``[0, max_x π_x / N^B_x]``: Hoeffding);
  it is one more candidate of the union bound (G + 1 lower bounds, each at α/(2(G + 1))).
  Vickrey needs it: it often releases the second-nearest word, which a guess from the
  released word's position alone cannot undo;
* **capacity**: the same with the uniform prior (weights ``L_i[x]/K``, ``b = max_x
  1/(K N_x)``; the guesser: the nearest secret), times K;
* **clipped** by what holds for free: ``V(π) ≤ V(π▷C) ≤ V(π)·e^{ε·diam(S)}`` and
  ``1 ≤ capacity ≤ min(K, e^{ε·diam(S)})`` (the mechanism is ε·d-private, d the metric of
  its guarantee; diam(S) the secrets' largest distance);
* each word's recovery by the chosen guesser, from its own draws (Clopper–Pearson, or
  Hoeffding where the Vickrey coin makes a draw's success a probability);
* with ``width``, the draws go on in stages fixed in advance (1, 2, 4, … times ``draws``,
  each stage one more copy of the same allocation, so that the proposal only scales and
  the weights of earlier draws are divided by the copies) until the interval of V(π▷C)
  is at most ``width`` wide; every stage's ends are at α/(2S), S the stages, so the
  interval reported holds at 1 − α wherever the draws stop (the union bound).

The noise is the paper's Alg. 1 (Thm. 2: ``r ~ Γ(n, 1/ε)``, u uniform on the sphere), or
its Mahalanobis stretch; the nearest-word decoding of Alg. 2 and the other releases are
post-processing (Lemma 3), which is what lets ``P[y | z]`` stand for the release.

Memory: the plug-in's per-output sums are dense over K, for at most ``memory_budget``
bytes of outputs at a time; further outputs are summed in further passes that draw the
same noise again (from per-block seeds) without decoding it again.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from emprivacy._validation import check_memory, check_positive_int, check_positive_number
from emprivacy.decoding.threads import available_cores, run_on_cores
from emprivacy.math.randomness import RandomState
from emprivacy.mechanisms.base import WordMechanism, check_rows
from emprivacy.protection.leakage.densities import NoiseLaw
from emprivacy.protection.leakage.vulnerability import (
    _blind_guess,
    _check_confidence,
    _check_prior,
    clopper_pearson,
)
from emprivacy.protection.leakage.weighted_draws import (
    GUESSERS,
    Design,
    Guessers,
    OutputSums,
)

__all__ = ["WeightedMeasures", "weighted_channel", "weighted_measures"]

#: The fixed guesser (β, κ) of an output that half A never released.
_FALLBACK = (1.0, 0.0)

#: ``progress(done, total, description)``.
Progress = Callable[[int, int, str], None]

#: Bytes of per-output sums held at once.
DEFAULT_MEMORY_BUDGET = 256 * 2**20


@dataclass(frozen=True)
class WeightedMeasures:
    """The posterior-weighted figures of one mechanism at its ε (see the module docstring).

    Attributes
    ----------
    prior_vulnerability : float
    posterior, capacity, attack : (float, float, float)
        ``(estimate, lower, upper)``: ``V(π▷C)`` (estimate: the plug-in), the capacity,
        and the success of the attack (the chosen guesser).
    guesser : str
        The attack, in words.
    recovery : (K, 3) float64 array
        Each secret's recovery by the attack from its own draws: estimate, lower, upper.
    samples : (K,) int64 array
        Draws per secret.
    distinct_outputs : int
    diameter : float
        diam(S) in the metric of the guarantee.
    margins : dict
        The McDiarmid/Hoeffding margins used (``upper``, ``lower``, ``capacity``).
    stages : tuple of int
        The stages fixed in advance (multiples of ``draws``; one without ``width``).
    """

    prior_vulnerability: float
    posterior: tuple[float, float, float]
    capacity: tuple[float, float, float]
    attack: tuple[float, float, float]
    guesser: str
    recovery: np.ndarray = field(repr=False)
    samples: np.ndarray = field(repr=False)
    distinct_outputs: int
    diameter: float
    margins: dict[str, float] = field(repr=False)
    stages: tuple[int, ...] = (1,)


def _check_secrets(mechanism: WordMechanism, rows: np.ndarray) -> np.ndarray:
    """Distinct vocabulary rows of ``mechanism``, at least one (a supported mechanism)."""
    if not isinstance(mechanism, WordMechanism):
        raise TypeError(f"mechanism must be a WordMechanism; got {type(mechanism).__name__}")
    out = check_rows(rows, "rows", len(mechanism.embeddings))
    if out.size == 0:
        raise ValueError("rows must hold at least one secret; got none")
    if np.unique(out).size != out.size:
        raise ValueError("rows must be distinct secrets")
    return out


def _hoeffding(bound: float, count: int, delta: float) -> float:
    """``b·sqrt(N ln(1/δ) / 2)``: the deviation of a sum of N independent terms in [0, b]."""
    return bound * math.sqrt(count * math.log(1.0 / delta) / 2.0)


def weighted_channel(mechanism: WordMechanism, rows: np.ndarray, *, draws: int = 500,
                     rng: RandomState = None) -> np.ndarray:
    """The posterior-weighted estimate Ĉ of the whole channel, dense (K, |V|).

    ``Ĉ[x, y] = Σ_i L_i[x] P[R(z_i) = y | z_i]`` (module docstring), unbiased for
    ``C[x, y]``; the draws are allocated as for a uniform prior.  For small vocabularies
    and tests: :func:`weighted_measures` never holds it whole.

    >>> from emprivacy import Embeddings, EarthMoversPrivacy
    >>> emb = Embeddings(["a", "b", "c"], [[0.0], [1.0], [5.0]])
    >>> C = weighted_channel(EarthMoversPrivacy(emb, epsilon=1.0), np.array([0, 2]), rng=0)
    >>> C.shape, bool(np.allclose(C.sum(axis=1), 1.0, atol=0.1))
    ((2, 3), True)
    """
    law = NoiseLaw(mechanism, _check_secrets(mechanism, rows))
    k = law.rows.size
    design = Design(law, np.full(k, 1.0 / k), check_positive_int(draws, "draws", minimum=4),
                     rng)
    out = np.zeros((k, len(mechanism.embeddings)))
    for c in design.add_copies(1):
        o, g, u, gen = design.noise(c)
        out_rows, probs = law.release(law.points(o, g, u), gen)
        lik = design.weights(o, g, u)
        for j in range(out_rows.shape[1]):
            np.add.at(out.T, out_rows[:, j], lik * probs[:, j, None])
    return out


def weighted_measures(mechanism: WordMechanism, rows: np.ndarray, prior: np.ndarray, *,
                      draws: int = 500, confidence: float = 0.95, rng: RandomState = None,
                      width: float | None = None, max_draws: int | None = None,
                      progress: Progress | None = None,
                      memory_budget: int = DEFAULT_MEMORY_BUDGET) -> WeightedMeasures:
    """Bayes vulnerability, capacity and the attack of a sampled channel, posterior-weighted.

    Parameters
    ----------
    mechanism : WordMechanism
        madlib, mahalanobis or vickrey (:func:`~.densities.has_noise_density`).
    rows : (K,) int array
        The secrets' vocabulary rows (distinct).
    prior : (K,) float array
        π, summing to 1.
    draws : int, default 500
        Draws per secret on average (K·draws in all; :func:`~.weighted_draws.allocate_draws`), ≥ 4.
    confidence : float, default 0.95
        Of every interval (each end at (1 − confidence)/2).
    rng : None, int or numpy.random.Generator
        The draws (an int: a reproducible audit; the same seed gives the same noise draws
        ``(g, u)`` at every ε, as the counting audit does).
    width : float, optional
        Draw until the interval of V(π▷C) is at most this wide: ``draws`` per secret, then
        as many again, then twice as many… up to ``max_draws`` (the stages S fixed in
        advance: 1, 2, 4, … times ``draws``), every stage's intervals at
        ``(1 − confidence)/S`` — so that the one reported, wherever the draws stop, holds at
        ``confidence`` (the union bound over the stages).  ``None``: ``draws`` exactly.
    max_draws : int, optional
        The most draws per secret with ``width`` (default ``2·draws``).
    progress : callable, optional
        ``progress(done, total, description)`` in points drawn.
    memory_budget : int, default 256 MiB
        Bytes of the plug-in's per-output sums held at once.

    Returns
    -------
    WeightedMeasures

    Examples
    --------
    >>> from emprivacy import Embeddings, EarthMoversPrivacy
    >>> emb = Embeddings(["a", "b", "c"], [[0.0], [1.0], [5.0]])
    >>> m = weighted_measures(EarthMoversPrivacy(emb, epsilon=50.0), np.array([0, 2]),
    ...                       np.array([0.5, 0.5]), draws=40, rng=0)
    >>> m.posterior[1] <= 1.0 <= m.posterior[2]
    True
    """
    rows = _check_secrets(mechanism, rows)
    p = _check_prior(prior, rows.size)
    confidence = _check_confidence(confidence)
    law = NoiseLaw(mechanism, rows)
    draws = check_positive_int(draws, "draws", minimum=4)
    stages = [1]
    if width is not None:
        width = check_positive_number(width, "width")
        most = 2 * draws if max_draws is None else check_positive_int(max_draws, "max_draws")
        while stages[-1] * 2 * draws <= most:
            stages.append(stages[-1] * 2)
    budget = check_positive_int(memory_budget, "memory_budget")
    k = p.size
    # each draw keeps its released rows and their probabilities (16 bytes an output); the
    # per-output sums stay within the budget
    check_memory(16 * law.outputs * stages[-1] * k * draws + budget,
                 f"the sampled channel ({k} secrets x {draws} draws)",
                 "use fewer draws or fewer secrets")
    design = Design(law, p, draws, rng)
    with np.errstate(divide="ignore"):
        guessers = Guessers(law, np.log(p))
    n_guess = len(GUESSERS)
    out: list[tuple[np.ndarray, np.ndarray]] = []  # per chunk: released rows, probabilities
    compact = np.full(len(mechanism.embeddings), -1, dtype=np.int64)
    n_seen = 0
    halves = design.half_counts if design.splits else None
    cap = max(1, budget // ((16 if halves is None else 32) * k))
    sums = OutputSums(p, cap, halves)
    rec = np.zeros((n_guess + 1, k))  # Σ L⁰_i[x] 1[g(y_i) = x], per guesser and x
    own = np.zeros((n_guess, k))  # the own draws' successes, per guesser and secret
    alpha = (1.0 - confidence) / len(stages)
    done = 0
    cores = available_cores()
    for stage, copies in enumerate(stages):
        new_chunks = design.add_copies(copies - (stages[stage - 1] if stage else 0))
        for c in new_chunks:
            o, g, u, gen = design.noise(c)
            rows_c, probs_c = law.release(law.points(o, g, u), gen)
            out.append((rows_c, probs_c))
            new = np.unique(rows_c[(compact[rows_c] < 0) & (probs_c > 0.0)])
            compact[new] = np.arange(n_seen, n_seen + new.size)
            n_seen += new.size
            guess = guessers(rows_c)  # (G + 1, m, outputs)
            ids_c = np.where(probs_c > 0.0, compact[rows_c], -1)

            def measure(b0: int, o: np.ndarray = o, g: np.ndarray = g, u: np.ndarray = u,
                        probs_c: np.ndarray = probs_c, guess: np.ndarray = guess
                        ) -> tuple[np.ndarray, list[np.ndarray], list[np.ndarray]]:
                part = slice(b0, b0 + design.block)
                lik = design.weights(o[part], g[part], u[part])
                pr, idx = probs_c[part], np.arange(lik.shape[0])[:, None]
                found = [np.bincount(guess[j, part].ravel(), minlength=k,
                                     weights=(lik[idx, guess[j, part]] * pr).ravel())
                         for j in range(n_guess + 1)]
                hits = [np.bincount(o[part], minlength=k, weights=(
                    (guess[j, part] == o[part][:, None]) * pr).sum(axis=1))
                    for j in range(n_guess)]
                return lik, found, hits

            # the weights on every core, then added block by block, in order (reproducible)
            blocks = list(range(0, rows_c.shape[0], design.block))
            for group in range(0, len(blocks), cores):
                starts = blocks[group:group + cores]
                results: list = [None] * len(starts)

                def work(items: list[int], starts: list[int] = starts,
                         results: list = results) -> None:
                    for i in items:
                        results[i] = measure(starts[i])

                run_on_cores(work, range(len(starts)), cores)
                for b0, (lik, found, hits) in zip(starts, results, strict=True):
                    part = slice(b0, b0 + design.block)
                    sums.add(lik, ids_c[part], probs_c[part], 0, design.halves(c, part))
                    rec[:] += found
                    own[:] += hits
            done += rows_c.shape[0]
            if progress is not None:
                progress(done, copies * design.per_copy, "sampling the channel")
        plugin, plugin_u = sums.maxima()
        if halves is not None:  # the guesser learned on A: its guess for each output
            seen = np.empty(n_seen, dtype=np.int64)  # the vocabulary row of each output id
            seen[compact[compact >= 0]] = np.flatnonzero(compact >= 0)
            fallback = guessers.table[GUESSERS.index(_FALLBACK), seen].astype(np.int64)
            learned = np.full(len(mechanism.embeddings), -1, dtype=np.int64)
            learned_score, guess = sums.learned(fallback)
            learned[seen[:guess.size]] = guess
        for lo in range(cap, n_seen, cap):  # outputs beyond the budget: same noise again
            more = OutputSums(p, min(cap, n_seen - lo), halves)
            for c, (rows_c, probs_c) in enumerate(out):
                ids = np.where(probs_c > 0.0, compact[rows_c], -1)
                pick = np.flatnonzero(((ids >= lo) & (ids < lo + cap)).any(axis=1))
                if pick.size:
                    o, g, u, _ = design.noise(c)
                    for b0 in range(0, pick.size, design.block):
                        sel = pick[b0:b0 + design.block]
                        more.add(design.weights(o[sel], g[sel], u[sel]), ids[sel],
                                 probs_c[sel], lo, design.halves(c, sel))
            extra, extra_u = more.maxima()
            if halves is not None:
                score, guess = more.learned(fallback[lo:])
                learned_score += score
                learned[seen[lo:lo + guess.size]] = guess
            plugin, plugin_u = plugin + extra, plugin_u + extra_u
        trained = None
        if halves is not None:  # its success on B, and each secret's own B draws it recovers
            hits = np.zeros(k)
            for c, (rows_c, probs_c) in enumerate(out):
                o = design.noise_origins(c)
                b_part = design.halves(c, slice(None))
                won = ((learned[rows_c] == o[:, None]) * probs_c).sum(axis=1) * b_part
                hits += np.bincount(o, weights=won, minlength=k)
            trained = (learned_score / copies, hits)
        result = _assemble(law, p, design, copies, plugin / copies, plugin_u / copies,
                           rec / copies, own, n_seen, alpha, trained)
        if width is None or result.posterior[2] - result.posterior[1] <= width:
            break
    return dataclasses.replace(result, stages=tuple(stages))


def _assemble(law: NoiseLaw, p: np.ndarray, design: Design, copies: int, plugin: float,
              plugin_u: float, rec: np.ndarray, own: np.ndarray, n_seen: int,
              alpha: float, trained: tuple[float, np.ndarray] | None = None
              ) -> WeightedMeasures:
    """The intervals of the module docstring from the sums (divided by the copies) of one
    audit, each end at α/2; ``trained``: the learned guesser's success on B (divided by the
    copies) and each secret's B draws it recovers."""
    samples, gram = copies * design.base, design.gram
    k, total = p.size, int(samples.sum())
    n_guess = len(GUESSERS)
    v_prior = float(p.max())
    diameter = law.diameter(gram)
    free = math.exp(law.epsilon * diameter) if law.epsilon * diameter < 700 else math.inf
    b = float((p / samples).max())
    b_u = float((1.0 / (k * samples)).max())
    m_up = _hoeffding(b, total, alpha / 2.0)
    n_cand = n_guess + (trained is not None)  # the fixed guessers and the learned one
    m_low = _hoeffding(b, total, alpha / (2.0 * n_cand))
    m_cap = _hoeffding(b_u, total, alpha / 2.0)
    upper = min(1.0, v_prior * free, plugin + m_up)
    scores = rec[:n_guess] @ p
    best = int(np.argmax(scores - m_low))
    lower_est = float(scores[best] - m_low)
    if trained is not None:
        n_b = copies * design.half_counts[1]
        m_b = _hoeffding(float((p / n_b).max()), int(n_b.sum()), alpha / (2.0 * n_cand))
    if trained is not None and trained[0] - m_b > max(lower_est, v_prior):
        score = min(1.0, trained[0])
        attack = (score, trained[0] - m_b, min(1.0, score + m_b))
        guesser = ("argmax_x pi_x C_A[x, y], learned on half A of each secret's draws, scored "
                   "on the other half B (an output A never released: beta = 1, kappa = 0)")
        chosen, samples_b = trained[1] / n_b, n_b
        m_low = m_b
    elif lower_est > v_prior:
        score = min(1.0, float(scores[best]))  # a sum of weights rounds past 1 at a huge ε
        attack = (score, lower_est, min(1.0, score + m_low))
        beta, scale = GUESSERS[best]
        guesser = (f"argmax_x ln pi_x - beta*eps*d(mu + (1 + kappa)(Vec y - mu), x), beta = "
                   f"{beta:g}, kappa = {scale:g} (the best of {n_guess} fixed in advance)")
        chosen, samples_b = own[best] / samples, samples.astype(np.float64)
    else:  # the blind guess does at least as well: its success is V(pi) exactly
        attack, guesser = (v_prior, v_prior, v_prior), "the blind guess argmax_x pi_x"
        chosen, samples_b = _blind_guess(p), samples.astype(np.float64)
    lower = max(v_prior, attack[1])
    posterior = (min(max(plugin, lower), upper), lower, max(upper, lower))
    cap_free = min(float(k), free)
    cap_upper = min(cap_free, k * (plugin_u + m_cap))
    cap_lower = min(cap_upper, max(1.0, float(rec[-1].sum()) - k * _hoeffding(b_u, total,
                                                                             alpha / 2.0)))
    capacity = (min(max(k * plugin_u, cap_lower), cap_upper), cap_lower, cap_upper)
    if law.outputs == 1:
        lo, hi = clopper_pearson(np.rint(chosen * samples_b), samples_b.astype(np.int64),
                                 confidence=1.0 - alpha)
    else:
        half = np.sqrt(np.log(2.0 / alpha) / (2.0 * samples_b))
        lo, hi = np.clip(chosen - half, 0.0, 1.0), np.clip(chosen + half, 0.0, 1.0)
    recovery = np.column_stack([chosen, lo, hi])
    return WeightedMeasures(v_prior, posterior, capacity, attack, guesser, recovery, samples,
                            n_seen, diameter,
                            {"upper": m_up, "lower": m_low, "capacity": k * m_cap})
