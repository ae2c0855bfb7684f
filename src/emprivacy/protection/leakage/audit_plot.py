"""The audit's plot: recovery against ε per mechanism, and the most exposed words.

:func:`plot_audit` draws the word audits of :func:`~emprivacy.protection.audit_mechanism`
(``emprivacy audit --out DIR`` writes it as ``audit.png``) — from
:class:`~emprivacy.protection.WordAudit` objects, or from the saved results of earlier
runs (``audit.json``, or the lines of ``emprivacy audit --json``), so that a study can be
re-plotted without being computed again:

.. code-block:: python

    from emprivacy.protection import plot_audit
    plot_audit(["madlib/audit.json", "tem/audit.json"], "audit.png")

Top panel, per mechanism: the posterior Bayes vulnerability V(π▷C) against ε with its
interval (exact for TEM and SanText; for a sampled channel the interval is
``[split-half attack's lower bound, plug-in + McDiarmid margin]``), the recovery of the
split-half attack actually run with its interval (sampled channels only: for an exact
channel the attack is the optimal guesser, V(π▷C) itself), and the prior vulnerability
V(π) — the best blind guess — as a baseline.  Bottom panels, one per mechanism: the
words the attacker recovers most often at one setting (by default the mechanism's
lowest ε, the strongest protection audited), with their intervals, beside the same
attacker's recovery over all words.

Needs matplotlib (the ``evaluation`` extra), imported when a plot is drawn; the figure
is drawn on matplotlib's Agg canvas (no GUI, no global backend change).
"""

from __future__ import annotations

import io
import itertools
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from emprivacy._optional import import_optional
from emprivacy._validation import check_positive_int
from emprivacy.exceptions import InputError
from emprivacy.io.corpus import read_named_file
from emprivacy.io.outputs import check_output_path, write_bytes_atomic
from emprivacy.protection.leakage.audit_report import TOP_EXPOSED, WordAudit

__all__ = ["AuditSource", "audit_figure", "load_audit_results", "plot_audit"]

#: What :func:`plot_audit` reads: audits, parsed ``audit.json`` objects or their results,
#: or paths (an ``audit.json``, a directory holding one, a file of ``--json`` lines).
AuditSource = WordAudit | Mapping[str, Any] | str | os.PathLike[str]

#: The fields a result must have to be plotted.
_FIGURES = ("posterior_vulnerability", "attack_recovery")
_REQUIRED = ("mechanism", "epsilon", "prior_vulnerability", *_FIGURES)
#: Record fields that do not tell two series of one mechanism apart (TEM's γ follows from
#: β, ε and the vocabulary's size; the others repeat the mechanism).
_NOT_SERIES = frozenset({"gamma", "mechanism", "metric"})
#: Most exposed-word panels per row.
_PANELS_PER_ROW = 3
#: One marker per series (two series with the same values still both show).
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")


def load_audit_results(sources: AuditSource | Iterable[AuditSource], *,
                       top: int = TOP_EXPOSED) -> list[dict[str, Any]]:
    """The audit results of ``sources`` as JSON-ready dicts (the ``--json`` objects).

    Parameters
    ----------
    sources : WordAudit, mapping, path, or an iterable of them
        :class:`~emprivacy.protection.WordAudit` objects (each as its
        :meth:`~emprivacy.protection.WordAudit.summary` with ``top`` exposed words); a
        parsed ``audit.json`` (its ``results``) or one result (a ``--json`` object); a
        path to an ``audit.json``, to a directory holding one, or to a file of
        ``emprivacy audit --json`` lines.
    top : int, default 20
        Exposed words kept from a WordAudit.

    Raises
    ------
    emprivacy.exceptions.InputError
        A file that is missing, unreadable, not JSON, or holds no audit result.
    ValueError
        A result without the fields the plot needs.
    TypeError
        A source of another type.
    """
    top = check_positive_int(top, "top")
    if isinstance(sources, WordAudit | Mapping | str | os.PathLike):
        sources = [sources]
    out: list[dict[str, Any]] = []
    for source in sources:
        if isinstance(source, WordAudit):
            found = [source.summary(top=top)]
            where = f"the audit of {source.mechanism} at ε = {source.epsilon:g}"
        elif isinstance(source, Mapping):
            found, where = _from_object(source, "a result"), "a mapping"
        elif isinstance(source, str | os.PathLike):
            found, where = _read(Path(source)), f"audit file {os.fspath(source)!r}"
        else:
            raise TypeError("sources must be WordAudit objects, parsed audit.json objects "
                            f"or paths; got {type(source).__name__}")
        for result in found:
            _check_result(result, where)
        out.extend(found)
    if not out:
        raise ValueError("sources hold no audit result")
    return out


def _from_object(obj: Mapping[str, Any], where: str) -> list[dict[str, Any]]:
    if "results" in obj:
        results = obj["results"]
        if not isinstance(results, list) or not all(isinstance(r, Mapping) for r in results):
            raise ValueError(f"{where}: 'results' must be a list of audit results")
        return [dict(r) for r in results]
    return [dict(obj)]


def _read(path: Path) -> list[dict[str, Any]]:
    where = os.fspath(path)
    if path.is_dir():
        path = path / "audit.json"
        if not path.exists():
            raise InputError(f"audit directory {where!r} holds no audit.json")
    text = read_named_file(path, what="audit file")
    try:
        objects = [json.loads(text)]
    except json.JSONDecodeError:  # JSON Lines: the output of --json
        objects = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip():
                continue
            try:
                objects.append(json.loads(line))
            except json.JSONDecodeError:
                raise InputError(f"audit file {where!r} is not JSON (audit.json) or JSON "
                                 f"lines (emprivacy audit --json): line {number}") from None
    results: list[dict[str, Any]] = []
    for obj in objects:
        if not isinstance(obj, Mapping):
            raise InputError(f"audit file {where!r} holds no audit result (a JSON "
                             f"{type(obj).__name__}, not an object)")
        results += _from_object(obj, f"audit file {where!r}")
    if not results:
        raise InputError(f"audit file {where!r} holds no audit result")
    return results


def _check_result(result: Mapping[str, Any], where: str) -> None:
    for key in _REQUIRED:
        if key not in result:
            raise ValueError(f"{where}: a result has no {key!r}: not a word audit result "
                             "(audit.json, or a line of emprivacy audit --json)")
    for key in _FIGURES:
        fig = result[key]
        if not isinstance(fig, Mapping) or not {"estimate", "lower", "upper"} <= set(fig):
            raise ValueError(f"{where}: {key!r} must be an object with estimate, lower and "
                             "upper")


# -- series ----------------------------------------------------------------------------------
def _descriptor(result: Mapping[str, Any]) -> dict[str, Any]:
    """What tells two series of one mechanism apart: its parameters, the prior, K, D."""
    params = {k: v for k, v in sorted(dict(result.get("parameters") or {}).items())
              if k not in _NOT_SERIES}
    return {**params, "prior": result.get("prior"), "K": result.get("secrets"),
            "draws": result.get("draws")}


def _series(results: list[dict[str, Any]]) -> list[tuple[str, list[dict[str, Any]]]]:
    """Results grouped into series (label, results by ε), in order of first appearance."""
    groups: dict[tuple[str, str], list[dict[str, Any]]] = {}
    descriptors: dict[tuple[str, str], dict[str, Any]] = {}
    for r in results:
        d = _descriptor(r)
        key = (str(r["mechanism"]), json.dumps(d, sort_keys=True, default=str))
        groups.setdefault(key, []).append(r)
        descriptors[key] = d
    out = []
    for key, rows in groups.items():
        mech = key[0]
        others = [descriptors[k] for k in groups if k[0] == mech and k != key]
        mine = descriptors[key]
        differ = [k for k in mine if any(o.get(k) != mine[k] for o in others)]
        label = mech + (" (" + ", ".join(f"{k} {mine[k]}" for k in differ) + ")"
                        if differ else "")
        rows = sorted(rows, key=lambda r: float(r["epsilon"]))
        for a, b in itertools.pairwise(rows):
            if float(a["epsilon"]) == float(b["epsilon"]):
                raise ValueError(f"two results of {label} at ε = {float(a['epsilon']):g} with "
                                 "the same settings: plot them separately")
        out.append((label, rows))
    return out


def _exposed(result: Mapping[str, Any], top: int) -> list[dict[str, Any]]:
    """The ``top`` most exposed words of a result (all secrets in ``per_secret``, else the
    listed ``most_exposed``), most exposed first, ties to the more probable word."""
    rows = result.get("per_secret")
    if rows:
        rows = sorted(rows, key=lambda w: (-float(w["recovery"]["estimate"]),
                                           -float(w.get("prior", 0.0))))
    else:
        rows = result.get("most_exposed") or []
    return list(rows[:top])


def _pick(rows: list[dict[str, Any]], exposed: str | float) -> dict[str, Any] | None:
    if exposed == "lowest":
        return rows[0]
    if exposed == "highest":
        return rows[-1]
    for r in rows:
        if math.isclose(float(r["epsilon"]), float(exposed), rel_tol=1e-9):
            return r
    return None


def _check_exposed(exposed: Any) -> str | float:
    if isinstance(exposed, str) and exposed in ("lowest", "highest"):
        return exposed
    if (not isinstance(exposed, str | bool) and isinstance(exposed, int | float)
            and math.isfinite(exposed) and exposed > 0):
        return float(exposed)
    raise ValueError(f"exposed must be 'lowest', 'highest' or an ε (a finite number > 0); "
                     f"got {exposed!r}")


def _plain(text: str) -> str:
    """Text for matplotlib, with ``$`` kept literal (no mathtext)."""
    return text.replace("$", r"\$")


# -- the figure ----------------------------------------------------------------------------
def plot_audit(results: AuditSource | Iterable[AuditSource],
               path: str | os.PathLike[str] | None = None, *,
               exposed: str | float = "lowest", top: int = 10,
               title: str | None = None) -> bytes:
    """The audit's plot as PNG bytes (and written to ``path``, atomically, if given).

    Parameters
    ----------
    results : WordAudit, mapping, path, or an iterable of them
        The audits to draw (:func:`load_audit_results`): WordAudit objects, parsed
        ``audit.json`` objects, or paths to ``audit.json`` files (or their directories,
        or files of ``emprivacy audit --json`` lines) — several runs may be combined.
        Results of one mechanism with the same parameters, prior, K and draws form one
        series; series of one mechanism that differ are labelled by what differs.
    path : path, optional
        Also write the PNG here (atomically; its directory must exist).
    exposed : {"lowest", "highest"} or float, default "lowest"
        The setting of each mechanism's most-exposed-words panel: its lowest ε, its
        highest, or the given ε (mechanisms audited at other ε only get no panel).
    top : int, default 10
        Words per exposed-words panel.
    title : str, optional
        The figure's title, over the top panel and its legend (``Figure.suptitle``).

    Returns
    -------
    bytes
        The PNG (the same bytes at every call on the same results).

    Raises
    ------
    emprivacy.exceptions.MissingExtraError
        Without matplotlib (``pip install 'emprivacy[evaluation]'``).

    Notes
    -----
    The figure is :func:`audit_figure`'s.  The plug-in estimate of V(π▷C) is biased
    upward and the attack is a lower bound on the optimum (docs/AUDIT.md, "How sampled
    figures are bounded").  The exposed-words panels name the corpus's frequent words:
    the plot, like ``audit.md``, is for the data's owner, not for publication.

    Examples
    --------
    Re-plot saved runs without computing them again::

        plot_audit(["runs/madlib/audit.json", "runs/tem/audit.json"], "audit.png")
    """
    dest = None if path is None else check_output_path(path, kind="plot")
    fig = audit_figure(results, exposed=exposed, top=top, title=title)
    png = io.BytesIO()  # drawn in memory: a failed write is one error of the file
    fig.savefig(png, format="png", dpi=100, metadata={"Software": None})
    data = png.getvalue()
    if dest is not None:
        write_bytes_atomic(dest, data)
    return data


def audit_figure(results: AuditSource | Iterable[AuditSource], *,
                 exposed: str | float = "lowest", top: int = 10,
                 title: str | None = None) -> Any:
    """The matplotlib Figure of :func:`plot_audit` (same parameters), to adjust or save.

    Its first axes is the top panel, each series drawn in the order of the results, in a
    colour and a marker of its own: V(π▷C) against ε with its interval (a band and error
    bars; exact channels have none), the split-half attack's recovery with its interval
    (sampled channels only; dashed, open markers, drawn 2 % to the right of its ε so that
    the two sets of error bars do not hide each other), then V(π) as a dotted baseline
    (one per prior when the results have several); the ε axis is logarithmic and the
    legend is to the right.  The next axes, one per series with a result at the
    ``exposed`` setting: its ``top`` most exposed words (bars: the probability that the
    attacker recovers the word from its release, with its interval; dashed: the same
    attacker's recovery over all words, ``attack_recovery``).
    """
    top = check_positive_int(top, "top")
    exposed = _check_exposed(exposed)
    data = load_audit_results(results, top=max(top, TOP_EXPOSED))
    series = _series(data)
    picks = [(label, rows, _pick(rows, exposed)) for label, rows in series]
    if not any(p is not None for _, _, p in picks):
        eps = sorted({float(r["epsilon"]) for r in data})
        raise ValueError(f"exposed: no result at ε = {exposed:g}; the results have ε = "
                         f"{', '.join(f'{e:g}' for e in eps)}")
    import_optional("matplotlib", extra="evaluation", purpose="the audit plot")
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.ticker import FuncFormatter

    panels = [(i, label, pick) for i, (label, _, pick) in enumerate(picks) if pick is not None]
    ncols = min(len(panels), _PANELS_PER_ROW)
    nrows = -(-len(panels) // ncols)
    fig = Figure(figsize=(max(8.0, 3.8 * ncols), 4.8 + 3.0 * nrows), layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(1 + nrows, ncols, height_ratios=[1.6] + [1.0] * nrows)
    ax = fig.add_subplot(grid[0, :])
    handles: list[Any] = []  # the legend in the order drawn (errorbars would go last)
    for i, (label, rows, _) in enumerate(picks):
        handles += _draw_series(ax, f"C{i % 10}", _MARKERS[i % len(_MARKERS)],
                                _plain(label), rows)
    baselines: dict[tuple[Any, Any, float], None] = {}
    for r in data:
        baselines[(r.get("prior"), r.get("secrets"), float(r["prior_vulnerability"]))] = None
    for prior, k, value in baselines:
        what = "" if len(baselines) == 1 else f" (prior {prior}, K = {k})"
        handles.append(ax.axhline(value, color="0.4", linestyle=":", linewidth=1.2,
                                  label=_plain(f"V(π){what}: the best blind guess")))
    eps_all = sorted({_x(float(r["epsilon"])) for r in data})
    ax.set_xscale("log")
    if len(eps_all) == 1 or eps_all[0] < 1e-250 or eps_all[-1] > 1e250:
        # the limits by hand: matplotlib's own margins and decades overflow float64 there
        ax.set_xlim(eps_all[0] / 2, eps_all[-1] * 2)
    if any(_x(float(r["epsilon"])) != float(r["epsilon"]) for r in data):
        ax.set_xlabel(f"ε (per word; an ε beyond [{_X_RANGE[0]:g}, {_X_RANGE[1]:g}] is drawn "
                      "at its end)")
    plain = FuncFormatter(lambda v, _pos: f"{v:g}")
    ax.xaxis.set_major_formatter(plain)
    ax.xaxis.set_minor_formatter(plain)
    ax.tick_params(axis="x", which="minor", labelsize="x-small")
    ax.set_ylim(-0.02, 1.02)
    if not ax.get_xlabel():
        ax.set_xlabel("ε (per word)")
    ax.set_ylabel("recovery rate of a released word")
    conf = data[0].get("confidence")
    level = f"; intervals at {float(conf):.0%}" if conf is not None else ""
    # the figure's title, not the top axes': centred over the axes and the legend beside
    # them, it is laid out with them and never clipped
    fig.suptitle(_plain(title) if title is not None else
                 f"How often the adversary recovers a word from its release{level}")
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0),
              fontsize="small", borderaxespad=0.0)
    for n, (i, label, pick) in enumerate(panels):
        sub = fig.add_subplot(grid[1 + n // ncols, n % ncols])
        _draw_exposed(sub, f"C{i % 10}", _plain(label), pick, top)
    return fig


def _figure(rows: Sequence[Mapping[str, Any]], key: str) -> tuple[list[float], ...]:
    est = [float(r[key]["estimate"]) for r in rows]
    lo = [float(r[key]["lower"]) for r in rows]
    hi = [float(r[key]["upper"]) for r in rows]
    return est, lo, hi


def _is_exact(rows: Sequence[Mapping[str, Any]]) -> bool:
    return all(r.get("channel") == "exact" or r["posterior_vulnerability"].get("kind")
               == "exact" for r in rows)


#: The ε the plot's log axis can draw (matplotlib's decades of 1.7e308 overflow float64).
_X_RANGE = (1e-300, 1e300)


def _x(epsilon: float) -> float:
    """Where an ε is drawn: itself, or the nearer end of :data:`_X_RANGE`."""
    return min(max(epsilon, _X_RANGE[0]), _X_RANGE[1])


def _error_bars(est: list[float], lo: list[float], hi: list[float]) -> list[list[float]]:
    """matplotlib's error bars ``[below, above]`` of estimates in their intervals; never
    negative (an estimate a rounding outside its interval, 1.0000000000000002 against an
    upper end of 1, is drawn at its end, not refused by matplotlib)."""
    return [[max(0.0, e - v) for e, v in zip(est, lo, strict=True)],
            [max(0.0, v - e) for e, v in zip(est, hi, strict=True)]]


def _draw_series(ax: Any, color: str, marker: str, label: str,
                 rows: list[dict[str, Any]]) -> list[Any]:
    """One series on the top panel; its legend handles."""
    eps = [_x(float(r["epsilon"])) for r in rows]
    est, lo, hi = _figure(rows, "posterior_vulnerability")
    exact = _is_exact(rows)
    if exact:
        return ax.plot(eps, est, marker=marker, linestyle="-", color=color,
                       label=f"{label}: V(π▷C), exact (= the attack)")
    if len(eps) > 1:
        ax.fill_between(eps, lo, hi, color=color, alpha=0.15, linewidth=0)
    post = ax.errorbar(eps, est, yerr=_error_bars(est, lo, hi),
                fmt=f"{marker}-", color=color, capsize=3, label=f"{label}: V(π▷C) estimate")
    a_est, a_lo, a_hi = _figure(rows, "attack_recovery")
    attack = ax.errorbar([e * 1.02 for e in eps], a_est,
                yerr=_error_bars(a_est, a_lo, a_hi),
                fmt=f"{marker}--", color=color, capsize=3, markerfacecolor="white",
                label=f"{label}: attack run (split-half)")
    return [post, attack]


def _draw_exposed(ax: Any, color: str, label: str, result: Mapping[str, Any],
                  top: int) -> None:
    words = _exposed(result, top)
    est = [float(w["recovery"]["estimate"]) for w in words]
    lo = [float(w["recovery"]["lower"]) for w in words]
    hi = [float(w["recovery"]["upper"]) for w in words]
    pos = list(range(len(words)))
    exact = result.get("channel") == "exact"
    ax.barh(pos, est, color=color, alpha=0.75,
            xerr=None if exact else _error_bars(est, lo, hi),
            error_kw={"capsize": 2, "elinewidth": 0.8})
    ax.set_yticks(pos, [_plain(str(w["word"])) for w in words], fontsize="small")
    ax.invert_yaxis()
    ax.set_xlim(0.0, 1.02)
    overall = float(result["attack_recovery"]["estimate"])  # the bars' guesser, all words
    ax.axvline(overall, color="0.3", linestyle="--", linewidth=1)
    ax.set_xlabel("recovery of the word\n(dashed: over all words)", fontsize="small")
    ax.set_title(f"{label}, ε = {float(result['epsilon']):g}: most exposed",
                 fontsize="medium")
