"""The ε slider's marks: what the word audit measured on the built-in vocabulary.

These figures are not computed by the page: they are the cached results of the Brown audit
(``bash docs/results/brown-audit/run.sh``, collected in docs/results/brown-audit/summary.md):
the built-in GloVe 6B 50d embeddings, K = 2,000 secret words with the Brown corpus's prior,
and V(π▷C), the share of secret words the Bayes-optimal adversary recovers from one release
of the word (docs/AUDIT.md).  TEM and SanText are exact; the others are sampled (95 %
intervals in the summary).  Between two measured ε the page says what it interpolates
(linearly in ε) and names the nearest measurements.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

__all__ = ["AUDIT_SOURCE", "RECOVERY", "Recovery", "recovery_at"]

#: Where the figures come from.
AUDIT_SOURCE = ("Brown audit on GloVe 6B 50d, K = 2,000 secrets "
                "(docs/results/brown-audit/summary.md)")

#: Mechanism → (ε, V(π▷C)) measured, by increasing ε (the summary's V(π▷C) column).
RECOVERY: dict[str, tuple[tuple[float, float], ...]] = {
    "madlib": ((5.0, 0.139), (7.5, 0.417), (10.0, 0.704), (15.0, 0.949)),
    "mahalanobis": ((5.0, 0.131), (10.0, 0.686), (15.0, 0.944)),
    "vickrey": ((5.0, 0.115), (10.0, 0.414), (50.0, 0.742)),
    "tem": ((2.0, 0.024), (3.0, 0.130), (5.0, 0.890), (10.0, 0.999)),
    "santext": ((2.0, 0.024), (3.0, 0.130), (5.0, 0.891), (10.0, 0.9998)),
}


@dataclass(frozen=True, slots=True)
class Recovery:
    """The audit's recovery at one ε: measured there, between two measurements, or outside.

    Attributes
    ----------
    share : float or None
        V(π▷C) at ε (interpolated between measurements), or ``None`` outside them.
    text : str
        What the page says, e.g. ``"≈ 70 % of words recovered (measured at ε = 10)"``.
    """

    share: float | None
    text: str


def recovery_at(mechanism: str, epsilon: float) -> Recovery:
    """What the cached audit says an attacker recovers at ``epsilon``.

    Examples
    --------
    >>> recovery_at("madlib", 10).text
    '≈ 70 % of words recovered (measured at ε = 10)'
    >>> recovery_at("madlib", 20).text
    'above the measured range: ≥ 95 % at ε = 15'
    """
    points = RECOVERY[mechanism]
    for eps, share in points:
        if eps == epsilon:
            return Recovery(share, f"≈ {share:.0%} of words recovered (measured at ε = {eps:g})"
                            .replace("%", " %"))
    lo_eps, lo = points[0]
    hi_eps, hi = points[-1]
    if epsilon < lo_eps:
        return Recovery(None, f"below the measured range: ≤ {lo:.0%} at ε = {lo_eps:g}"
                        .replace("%", " %"))
    if epsilon > hi_eps:
        return Recovery(None, f"above the measured range: ≥ {hi:.0%} at ε = {hi_eps:g}"
                        .replace("%", " %"))
    for (e0, s0), (e1, s1) in pairwise(points):
        if e0 < epsilon < e1:
            share = s0 + (s1 - s0) * (epsilon - e0) / (e1 - e0)
            return Recovery(share, f"≈ {share:.0%} of words recovered (interpolated between "
                            f"ε = {e0:g}: {s0:.0%} and ε = {e1:g}: {s1:.0%})"
                            .replace("%", " %"))
    raise AssertionError("unreachable: epsilon is inside the measured range")  # pragma: no cover
