"""Collect the five audits of docs/results/brown-audit/ into one Markdown table (summary.md).

Reads, per mechanism directory, ``audit.csv`` (word audit and ε̂), ``reconstruction.csv``
(the reconstruction attack), ``distinguish.csv`` (ε̂ per pair) and ``audit.json.gz`` (the
share of released words that are secrets, the context weight); writes ``summary.md`` beside
them.  Every figure is copied, rounded, from those files.

    python docs/results/brown-audit/summary.py
"""

from __future__ import annotations

import csv
import gzip
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
MECHANISMS = ("madlib", "mahalanobis", "vickrey", "tem", "santext")


def _f(x: str | float, digits: int = 3) -> str:
    v = float(x)
    if digits == 3 and 0.9995 <= v < 1:  # not "1.000" for a figure below 1
        digits = 4
    return f"{v:.{digits}f}" if abs(v) < 1000 else f"{v:,.0f}"


def _ci(est: str, lo: str, hi: str, kind: str, digits: int = 3) -> str:
    if kind == "exact":
        return f"{_f(est, digits)} (exact)"
    return f"{_f(est, digits)} [{_f(lo, digits)}, {_f(hi, digits)}]"


def _rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def main() -> None:
    head = ("| mechanism | ε | V(π) | V(π▷C) | attack recovery | leakage | capacity "
            "| text: exact | text: top-5 | channel only | context only | prior only | w "
            "| closest pair: ε·d → ε̂ lower | best ε̂ lower / ε·d |")
    lines = [
        "# The Brown audit, five mechanisms",
        "",
        "Made by `bash docs/results/brown-audit/run.sh`, collected by `summary.py`.  Word "
        "audit (V(π), V(π▷C), attack recovery, leakage, capacity): K = 2,000 secrets, corpus "
        "prior; reconstruction (text: …): the release of half the corpus attacked with a "
        "trigram model of the other half, exact recovery over all released content words; ε̂: "
        "20 word pairs, 2,000 releases of each word.  Intervals: 95 %; \"(exact)\" marks the "
        "closed-form channels of TEM and SanText.",
        "",
        head,
        "|" + "---|" * (head.count("|") - 1),
    ]
    for m in MECHANISMS:
        d = HERE / m
        if not (d / "audit.csv").is_file():
            continue
        recon = {(r["epsilon"], r["class"], r["guesser"]): r
                 for r in _rows(d / "reconstruction.csv")}
        pairs: dict[str, list[dict[str, str]]] = {}
        for r in _rows(d / "distinguish.csv"):
            pairs.setdefault(r["epsilon"], []).append(r)
        weight = {}
        with gzip.open(d / "audit.json.gz", "rt", encoding="utf-8") as fh:
            for res in json.load(fh)["results"]:
                weight[float(res["epsilon"])] = res["reconstruction"]["context_weight"]
        for a in _rows(d / "audit.csv"):
            e, kind = a["epsilon"], a["kind"]
            att = recon[(e, "all", "attack")]
            base = {g: recon[(e, "all", g)] for g in ("channel_only", "context_only",
                                                       "prior_only")}
            ps = pairs.get(e, [])
            closest = min(ps, key=lambda r: float(r["distance"])) if ps else None
            best = max(ps, key=lambda r: float(r["tightness"])) if ps else None
            cells = [
                m, f"{float(e):g}", _f(a["prior_vulnerability"], 4),
                _ci(a["posterior_vulnerability"], a["posterior_vulnerability_lower"],
                    a["posterior_vulnerability_upper"], kind),
                _ci(a["attack_recovery"], a["attack_recovery_lower"],
                    a["attack_recovery_upper"], kind),
                _ci(a["multiplicative_leakage"], a["multiplicative_leakage_lower"],
                    a["multiplicative_leakage_upper"], kind, 1),
                _ci(a["capacity"], a["capacity_lower"], a["capacity_upper"], kind, 0),
                f"{_f(att['exact'])} [{_f(att['exact_lower'])}, {_f(att['exact_upper'])}]",
                _f(att["top5"]),
                _f(base["channel_only"]["exact"]), _f(base["context_only"]["exact"]),
                _f(base["prior_only"]["exact"]), f"{weight[float(e)]:g}",
                (f"{closest['first']}/{closest['second']}: {_f(closest['nominal'], 2)} → "
                 f"{_f(closest['epsilon_hat_lower'], 2)}"
                 + (f" (exact loss {_f(closest['exact_loss'], 2)})"
                    if closest["exact_loss"] else "") if closest else "–"),
                (f"{_f(best['tightness'], 2)} ({best['first']}/{best['second']}, ε·d "
                 f"{_f(best['nominal'], 1)})" if best else "–"),
            ]
            lines.append("| " + " | ".join(cells) + " |")
    (HERE / "summary.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    print("\n".join(lines))
    print()
    print(_compact(lines[4:]))


def _compact(rows: list[str]) -> str:
    """The table of docs/AUDIT.md: the same rows without the context weight and the best
    tightness, the closest pair's ε̂ without its names."""
    out = []
    for row in rows:
        cells = [c.strip() for c in row.strip("|").split("|")]
        if cells[0] == "mechanism":
            cells[13] = "ε·d → ε̂ lower (exact loss)"
        elif not cells[0].startswith("---"):
            cells[13] = cells[13].split(": ", 1)[1].replace("exact loss ", "")
        del cells[14], cells[12]
        out.append("| " + " | ".join(cells) + " |")
    out[1] = "|" + "---|" * (len(out[0].split("|")) - 2)
    return "\n".join(out)


if __name__ == "__main__":
    main()
