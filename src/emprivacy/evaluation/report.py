"""Writing an experiment's results: Table 3, a plot, the App. B tables and the run JSON.

Files written into the output directory (all of them or none: each is written in
full to a temporary file in the same directory, and only then are they renamed over
the destinations):

``table3.md`` / ``table3.csv``
    Laid out like the paper's Table 3: rows ε, columns SRauth, SRtopic, DRauth,
    DRtopic for every author set — the mean number of correct predictions over
    the trials ± the sample standard deviation, with the chance baselines.  Then,
    per set, the **word recovery** at each ε — the share of the released snippet
    words an adversary names from the released word alone, with its interval and
    the optimum's upper bound (:func:`emprivacy.protection.release_recovery`) —
    and, with ``epsilon_hat``, ε̂ beside ε·d; the CSV has them as columns.
``trials.csv``
    Every count: set, ε, trial, attack, correct, out of.
``accuracy.png``
    Accuracy (fraction correct) against ε for each attack and set, with
    error bars (± sd) and the chance lines, and the word recovery with its
    interval and its prior-only baseline.
``appendix_b.md``
    The paper's App. B tables: the three nearest known texts (Earth Mover's
    distance, author) of sample unmodified snippets; the first words of one
    snippet at each ε (first trial).
``run.json``
    Every setting, the seed, versions, the selected documents and all counts.
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from emprivacy._optional import import_optional
from emprivacy.evaluation.authorship import strongest
from emprivacy.evaluation.goal import goal_table
from emprivacy.evaluation.results import ATTACKS, ExperimentResult, SetResult
from emprivacy.evaluation.settings import epsilon_label
from emprivacy.io.outputs import write_files_atomic
from emprivacy.protection.epsilon.mechanism_study import TemTruncation, summarise_truncation

__all__ = ["AUTHORSHIP_NOTE", "CHANNEL_NOTES", "RECOVERY_NOTE", "REPORT_FILES", "accuracy_figure",
           "authorship_table", "clean_drauth_lines",
           "format_table3", "known_texts_note",
           "recovery_table", "report_files", "tem_truncation_note",
           "topic_classifier_warning", "write_report"]

#: The files :func:`write_report` writes.
REPORT_FILES: tuple[str, ...] = ("table3.md", "table3.csv", "trials.csv", "accuracy.png",
                                 "appendix_b.md", "run.json")

_PAPER_NAMES = {"SRauth": "1-NN by Earth Mover's distance, author",
                "SRtopic": "5-NN by Earth Mover's distance, topic",
                "DRauth": "Koppel et al. (2011) character 4-grams, author",
                "DRtopic": "fastText classifier, topic"}


def _fmt(mean: float, sd: float) -> str:
    return f"{mean:.1f}" if math.isnan(sd) else f"{mean:.1f} ± {sd:.1f}"


def format_table3(result: ExperimentResult) -> str:
    """Table 3 as Markdown: one table per author set, rows ε, columns the four attacks."""
    cfg = result.config
    lines = [f"# Correct predictions on {result.dataset} (Table 3 of the paper)", "",
             f"Mean ± sample sd over {cfg.trials} trial(s); out-of-vocabulary policy "
             f"`{cfg.oov}`; DRauth similarity `{cfg.similarity}`; seed {result.seed}"
             + ("" if cfg.lang == "en" else f"; language `{cfg.lang}`") + ".", "",
             known_texts_note(cfg.known), "", CHANNEL_NOTES[cfg.channel] + (
                 "" if cfg.style_epsilon is None else f" With the style option, ε_f = "
                 f"{cfg.style_epsilon:g}: function words drawn within their class, "
                 "punctuation canonical."), ""]
    for s in result.sets:
        mean, sd = s.mean(), s.sd()
        lines += [f"## {s.n_authors}-author set (N = {s.N} words per snippet)", "",
                  "| ε | " + " | ".join(ATTACKS) + " |",
                  "|---|" + "---:|" * len(ATTACKS)]
        for i, e in enumerate(s.epsilons):
            cells = [_fmt(mean[i, a], sd[i, a]) for a in range(len(ATTACKS))]
            lines.append(f"| {epsilon_label(e)} | " + " | ".join(cells) + " |")
        ch = s.chance
        lines.append(f"| chance | {ch['author']:g} | {ch['topic']:g} | {ch['author']:g} | "
                     f"{ch['topic']:g} |")
        val = np.asarray(s.fasttext_validation)
        lines += ["", f"Out of {s.n_authors} snippets.  fastText validation accuracy "
                  f"{val.mean():.3f}" + (f" ± {val.std(ddof=1):.3f}" if val.size > 1 else "")
                  + f" ({s.fasttext_docs.get('validation_documents', 0)} held-out documents, "
                  f"{s.fasttext_docs.get('validation_chunks', 0)} chunks of {s.N} words).", ""]
        lines += clean_drauth_lines(s, cfg.known)
        check = s.topic_classifier()
        if not check.clearly_above_chance:
            lines += [f"**Warning: the {check.describe()}, so DRtopic on this set measures "
                      "nothing** (its column says nothing about the utility kept).", ""]
        lines += authorship_table(s)
        lines += goal_table(s) if s.utility else []
        lines += recovery_table(s)
    tem = tem_truncation_note(result)
    if tem is not None:
        lines += [f"TEM and SanText: {tem}.", ""]
    lines += ["Attacks: " + "; ".join(f"{a}: {_PAPER_NAMES[a]}" for a in ATTACKS) + ".", ""]
    return "\n".join(lines)


#: What was released and attacked, one sentence of ``table3.md`` per channel.
CHANNEL_NOTES = {
    "bag": ("Channel: **bag** — each snippet released as a bag of N words (no function word, "
            "no punctuation), as in the paper."),
    "text": ("Channel: **text** — each snippet released whole as `obfuscate --format text` "
             "releases it (function words and punctuation kept, entities as asked); the "
             "author attacks read the released text, SRauth/SRtopic/DRtopic its bag's first "
             "N words; no word recovery (the release is text)."),
}


def known_texts_note(known: str) -> str:
    """One sentence of ``table3.md``: which known-author texts the adversary used."""
    if known == "whole":
        return ("Known texts: **whole** — every attack knows each author's whole known text "
                "(an adversary at full strength); the snippets are cut to N words.")
    return ("Known texts: **truncated** to N words, as in the paper's App. B (a weakened "
            "adversary; the default is their whole known text).")


def clean_drauth_lines(s: SetResult, known: str) -> list[str]:
    """Markdown lines: DRauth on the clean snippets with whole and with truncated known
    texts, side by side (the run's choice first)."""
    if not s.clean_drauth:
        return []
    words = np.asarray(s.known_words or [0])
    cells = []
    for mode in sorted(s.clean_drauth, key=lambda m: m != known):
        counts = np.asarray(s.clean_drauth[mode], dtype=np.float64)
        what = (f"whole ({words.min()}–{words.max()} words)" if mode == "whole"
                else f"truncated to N = {s.N}")
        cells.append(f"known texts {what}: {_fmt(counts.mean(), _sd(counts))} "
                     f"({counts.mean() / s.n_authors:.3f})"
                     + (" — this run" if mode == known else ""))
    return [f"Clean DRauth (Koppel) out of {s.n_authors}: " + "; ".join(cells) + ".", ""]


def _sd(x: np.ndarray) -> float:
    return float(x.std(ddof=1)) if x.size > 1 else math.nan


#: What the authorship table is, in one paragraph of ``table3.md``.
AUTHORSHIP_NOTE = (
    "Author identification at full strength (issue 41): mean correct attributions of every "
    "attack on every view of the release — SRauth; koppel = DRauth (Koppel et al. 2011, "
    "character 4-grams); delta = Burrows' Delta on the 150 commonest words of the view; "
    "char = character 1–3-grams with punctuation and spacing, tf-idf, nearest known text — "
    "on all words (/all), on the words the mechanism gave back unchanged or as another "
    "form of their inflectional family (/unchanged; run.json: unchanged_view) "
    "and, on text, on the function words only (/function) and the punctuation only "
    "(/punctuation); a bag holds neither, so those views are not run on it. "
    "\"strongest\": the largest mean of the row and its attack, over the attacks an "
    "adversary can run (not /unchanged, which needs the original to pick the words: a "
    "diagnostic of the channel); picked after the fact, an upper estimate of the best "
    "single attack.")


def authorship_table(s: SetResult) -> list[str]:
    """Markdown lines: every authorship attack and view per ε, and the strongest."""
    if not s.authorship:
        return []
    columns = list(s.author_means(0))
    lines = [f"### {s.n_authors}-author set: author identification, every attack", "",
             AUTHORSHIP_NOTE, "",
             "| ε | " + " | ".join(columns) + " | strongest |",
             "|---|" + "---:|" * len(columns) + "---|"]
    for i, e in enumerate(s.epsilons):
        means = s.author_means(i)
        column, best = strongest(means)
        lines.append(f"| {epsilon_label(e)} | " + " | ".join(
            "–" if c not in means else f"{means[c]:.1f}" for c in columns)
            + f" | {best:.1f} ({best / s.n_authors:.3f}, {column}) |")
    lines.append("| chance | " + " | ".join(["1"] * len(columns)) + " | 1 |")
    return [*lines, ""]


#: What the word recovery is, in one paragraph of ``table3.md``.
RECOVERY_NOTE = (
    "Word recovery: the share of the released snippet words (those through the mechanism) "
    "that an adversary names from the released word alone. It knows the mechanism on these "
    "words from a random half of this ε's releases (all trials): its guess for a release y "
    "is argmax_x n[x, y] + λ·π̂(x), the counts n and the word frequencies π̂ of that half, "
    "λ chosen on that half; scored on the other half (Clopper–Pearson 95 %). A lower bound "
    "on what the Bayes-optimal one-word adversary recovers; \"optimum ≤\" is the upper "
    "bound (plug-in over all releases + McDiarmid's margin), \"prior only\" the blind guess "
    "of the most frequent word. `emprivacy audit` measures the optimum with more draws "
    "(docs/AUDIT.md).")


def _estimate_cell(r: Any) -> str:
    if r is None:
        return "–"
    if r.exact:
        return f"{r.estimate:.3g} (exact)"
    return f"{r.estimate:.3f} [{r.lower:.3f}, {r.upper:.3f}]"


def recovery_table(s: SetResult) -> list[str]:
    """Markdown lines: the word recovery (and ε̂, where measured) of one set, per ε."""
    if not any(r is not None for r in s.recovery):
        return []
    hats = any(h is not None for h in s.epsilon_hat)
    head = "| ε | word recovery | optimum ≤ | prior only |"
    rule = "|---|---|---:|---:|"
    if hats:
        head += " ε̂ (lower bound) | ε·d | pair |"
        rule += "---:|---:|---|"
    lines = [f"### {s.n_authors}-author set: word recovery", "", RECOVERY_NOTE, "", head,
             rule]
    for i, e in enumerate(s.epsilons):
        r = s.recovery_at(i)
        cells = [epsilon_label(e), _estimate_cell(r),
                 "–" if r is None else f"{r.plugin_upper:.3f}",
                 "–" if r is None else f"{r.baseline:.3f}"]
        if hats:
            h = s.epsilon_hat_at(i)
            cells += (["–", "–", "–"] if h is None else
                      [f"{h['lower']:.3g}", "–" if h["nominal"] is None
                       else f"{h['nominal']:.3g}", " / ".join(h["pair"])])
        lines.append("| " + " | ".join(cells) + " |")
    if hats:
        first = next(h for h in s.epsilon_hat if h is not None)
        lines += ["", f"ε̂: the largest lower bound on the privacy loss over "
                  f"{len(first['pairs'])} pairs of snippet words at a spread of distances "
                  f"({first['draws']} releases of each word, {first['method']}, "
                  f"{first['confidence']:.0%} simultaneous over the pairs), beside that "
                  "pair's nominal bound ε·d (docs/AUDIT.md, Distinguishability)."]
    return [*lines, ""]


def _table3_csv(result: ExperimentResult) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    header = ["epsilon"]
    for s in result.sets:
        for a in ATTACKS:
            header += [f"{s.n_authors}-author {a} mean", f"{s.n_authors}-author {a} sd"]
    extra = {s.n_authors: _extra_columns(s) for s in result.sets}
    for s in result.sets:
        header += [f"{s.n_authors}-author {c}" for c in extra[s.n_authors]]
    w.writerow(header)
    labels = [epsilon_label(e) for e in result.config.epsilons]
    stats = [(s.mean(), s.sd()) for s in result.sets]
    for i, label in enumerate(labels):
        row: list[str] = [label]
        for mean, sd in stats:
            for j in range(len(ATTACKS)):
                row += [repr(float(mean[i, j])),
                        "" if math.isnan(sd[i, j]) else repr(float(sd[i, j]))]
        for s in result.sets:
            row += _extra_cells(s, i, extra[s.n_authors])
        w.writerow(row)
    row = ["chance"]
    for s in result.sets:
        for a in ATTACKS:
            row += [repr(s.chance["author" if a.endswith("auth") else "topic"]), ""]
    for s in result.sets:  # the recovery's chance: the blind guess of the most frequent word
        base = next((r.baseline for r in s.recovery if r is not None), None)
        row += [(repr(s.chance["author"]) if c == "strongest author mean" else
                 "" if base is None or c != "recovery" else repr(base))
                for c in extra[s.n_authors]]
    w.writerow(row)
    return buf.getvalue()


def _extra_columns(s: SetResult) -> list[str]:
    """The strongest author attack's, the word recovery's (and ε̂'s) columns of
    ``table3.csv`` for one set."""
    cols = ["strongest author mean", "strongest author attack"] if s.authorship else []
    if any(r is not None for r in s.recovery):
        cols += ["recovery", "recovery lower", "recovery upper", "recovery optimum upper"]
    if any(h is not None for h in s.epsilon_hat):
        cols += ["epsilon_hat lower", "epsilon_hat nominal"]
    return cols


def _extra_cells(s: SetResult, i: int, columns: list[str]) -> list[str]:
    r, h = s.recovery_at(i), s.epsilon_hat_at(i)
    column, best = strongest(s.author_means(i)) if s.authorship else ("", None)
    values = {"strongest author mean": best,"recovery": None if r is None else r.estimate,
              "recovery lower": None if r is None else r.lower,
              "recovery upper": None if r is None else r.upper,
              "recovery optimum upper": None if r is None else r.plugin_upper,
              "epsilon_hat lower": None if h is None else h["lower"],
              "epsilon_hat nominal": None if h is None else h["nominal"]}
    return [column if c == "strongest author attack" else _csv_number(values[c])
            for c in columns]


def _csv_number(value: Any) -> str:
    return "" if value is None else repr(float(value))


def _trials_csv(result: ExperimentResult) -> str:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["authors", "epsilon", "trial", "attack", "correct", "out_of"])
    for s in result.sets:
        for i, e in enumerate(s.epsilons):
            for t in range(s.correct.shape[1]):
                for a, name in enumerate(ATTACKS):
                    w.writerow([s.n_authors, epsilon_label(e), t + 1, name,
                                int(s.correct[i, t, a]), s.n_authors])
    return buf.getvalue()


def _appendix_b(result: ExperimentResult) -> str:
    lines = [f"# Examples (App. B of the paper) — {result.dataset}", ""]
    for s in result.sets:
        lines += [f"## {s.n_authors}-author set: nearest known texts of sample snippets", "",
                  "Unmodified snippets; d_i is the Earth Mover's distance to the i-th closest "
                  "known-author text, a_i its author (✓ = the snippet's own author).", "",
                  "| snippet (author) | i | d_i | a_i |", "|---|---:|---:|---|"]
        for item in s.nearest:
            first = True
            for nb in item["neighbours"]:
                mark = " ✓" if nb["author"] == item["author"] else ""
                head = f"{item['doc_id']} ({item['author']})" if first else ""
                lines.append(f"| {head} | {nb['rank']} | {nb['distance']:.3f} | "
                             f"{nb['author']}{mark} |")
                first = False
        lines += ["", f"## {s.n_authors}-author set: the first words of snippet "
                  f"{s.sample['doc_id']} ({s.sample['author']}) at each ε (trial "
                  f"{s.sample['trial']})", ""]
        rows = s.sample["rows"]
        width = max((len(r["words"]) for r in rows), default=0)
        lines += ["| ε | " + " | ".join(str(i + 1) for i in range(width)) + " |",
                  "|---|" + "---|" * width]
        any_passed = False
        for r in rows:
            cells = []
            for word, passed in r["words"]:
                any_passed |= bool(passed)
                cells.append(f"*{word}*†" if passed else word)
            cells += [""] * (width - len(cells))
            lines.append(f"| {r['epsilon']} | " + " | ".join(cells) + " |")
        if any_passed:
            lines += ["", "† out of vocabulary: passed through the mechanism unchanged "
                      "(OOV policy `keep`)."]
        lines.append("")
    return "\n".join(lines)


def _plot(result: ExperimentResult) -> bytes:
    fig = accuracy_figure(result)
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120, metadata={"Software": None})
    return buf.getvalue()


def accuracy_figure(result: ExperimentResult) -> Any:
    """``accuracy.png`` as a matplotlib ``Figure``: accuracy against ε, one panel per set,
    ± sd error bars, chance lines; the legend below the panels, clear of every point."""
    purpose = "the accuracy plot of the experiment"
    agg = import_optional("matplotlib.backends.backend_agg", extra="evaluation", purpose=purpose)
    figure = import_optional("matplotlib.figure", extra="evaluation", purpose=purpose)
    sets: Sequence[SetResult] = result.sets
    fig = figure.Figure(figsize=(5.2 * len(sets), 4.6), layout="constrained")
    agg.FigureCanvasAgg(fig)
    axes = fig.subplots(1, len(sets), squeeze=False)[0]
    labels = [epsilon_label(e) for e in result.config.epsilons]
    x = np.arange(len(labels))
    styles = {"SRauth": ("tab:red", "o", "-"), "SRtopic": ("tab:blue", "o", "-"),
              "DRauth": ("tab:red", "s", "--"), "DRtopic": ("tab:blue", "s", "--")}
    for ax, s in zip(axes, sets, strict=True):
        mean, sd = s.mean() / s.n_authors, np.nan_to_num(s.sd()) / s.n_authors
        for a, name in enumerate(ATTACKS):
            color, marker, ls = styles[name]
            ax.errorbar(x, mean[:, a], yerr=sd[:, a], color=color, marker=marker, linestyle=ls,
                        capsize=3, label=name)
        ax.axhline(s.chance["author"] / s.n_authors, color="tab:red", linestyle=":",
                   linewidth=1, label="chance (author)")
        ax.axhline(s.chance["topic"] / s.n_authors, color="tab:blue", linestyle=":",
                   linewidth=1, label="chance (topic)")
        rec = [s.recovery_at(i) for i in range(len(labels))]
        if any(r is not None for r in rec):
            est = np.array([np.nan if r is None else r.estimate for r in rec])
            err = np.array([[0.0, 0.0] if r is None else [r.estimate - r.lower,
                                                          r.upper - r.estimate]
                            for r in rec]).T
            ax.errorbar(x, est, yerr=err, color="black", marker="D", linestyle="-.",
                        capsize=3, label="word recovery")
            base = next(r.baseline for r in rec if r is not None)
            ax.axhline(base, color="black", linestyle=":", linewidth=1,
                       label="prior only (recovery)")
        ax.set_xticks(x, labels)
        ax.set_xlabel("ε (per word; 'none' = unmodified)")
        ax.set_ylabel("accuracy, word recovery (fraction)")
        ax.set_ylim(-0.02, 1.02)
        ax.set_title(f"{result.dataset}: {s.n_authors} authors, N = {s.N}, OOV {result.config.oov}")
        ax.grid(True, alpha=0.3)
    handles, names = axes[0].get_legend_handles_labels()
    fig.legend(handles, names, loc="outside lower center", ncols=3, fontsize="small")
    return fig


def tem_truncation_note(result: ExperimentResult) -> str | None:
    """For a TEM run: at which ε its truncation is active on the snippet words, and where
    TEM is SanText exactly
    (:func:`emprivacy.protection.epsilon.mechanism_study.summarise_truncation`)."""
    found = result.metadata.get("tem_truncation")
    if not found:
        return None
    return summarise_truncation([TemTruncation(**t) for t in found], what="snippet word")


def topic_classifier_warning(results: Sequence[ExperimentResult]) -> str | None:
    """One line saying on which author sets the topic classifier is not clearly above
    chance (:meth:`~emprivacy.evaluation.results.SetResult.topic_classifier`), or ``None``.

    The classifier is trained with the same seeds for every mechanism of a run, so a set
    is named once however many runs share it.
    """
    seen: dict[int, str] = {}
    for r in results:
        for s in r.sets:
            check = s.topic_classifier()
            if not check.clearly_above_chance and s.n_authors not in seen:
                seen[s.n_authors] = (f"{s.n_authors}-author set: validation accuracy "
                                     f"{check.mean:.2f}"
                                     + ("" if math.isnan(check.sd) else f" ± {check.sd:.2f}")
                                     + f", chance {check.chance:.2f}")
    if not seen:
        return None
    return ("the topic classifier (fastText) is not clearly above chance ("
            + "; ".join(seen[k] for k in sorted(seen))
            + "), so DRtopic measures nothing there; see table3.md")


def report_files(result: ExperimentResult, *, command: str | None = None) -> dict[str, bytes]:
    """The report's files (see the module docstring) as ``{name: contents}``, in the order of
    :data:`REPORT_FILES`; nothing is written.

    Parameters
    ----------
    result : ExperimentResult
    command : str, optional
        The command line that made the run, recorded in ``run.json`` and the tables.
    """
    if not isinstance(result, ExperimentResult):
        raise TypeError(f"result must be an ExperimentResult; got {type(result).__name__}")
    table = format_table3(result)
    if command:
        table += f"\nMade by: `{command}`\n"
    payload = result.to_dict()
    if command:
        payload["command"] = command
    contents = {
        "table3.md": table.encode(),
        "table3.csv": _table3_csv(result).encode(),
        "trials.csv": _trials_csv(result).encode(),
        "accuracy.png": _plot(result),
        "appendix_b.md": _appendix_b(result).encode(),
        "run.json": (json.dumps(payload, indent=2, ensure_ascii=False) + "\n").encode(),
    }
    return {name: contents[name] for name in REPORT_FILES}


def write_report(result: ExperimentResult, out_dir: str | os.PathLike[str], *,
                 command: str | None = None) -> dict[str, Path]:
    """Write the report files (see the module docstring) into ``out_dir`` (created if needed).

    All of them or none: every file is written in full to a temporary file first and
    only then renamed into place (:func:`emprivacy.io.outputs.write_files_atomic`), so a
    full disk or an interruption leaves the directory as it was (a directory this call
    created is removed again).

    Parameters
    ----------
    result : ExperimentResult
    out_dir : path-like
    command : str, optional
        The command line that made the run, recorded in ``run.json`` and the tables.

    Returns
    -------
    dict mapping each file name of :data:`REPORT_FILES` to its path.
    """
    if not isinstance(result, ExperimentResult):
        raise TypeError(f"result must be an ExperimentResult; got {type(result).__name__}")
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise ValueError(f"output path {str(out)!r} exists and is not a directory")
    contents = report_files(result, command=command)
    paths = {name: out / name for name in contents}
    write_files_atomic({paths[name]: data for name, data in contents.items()}, parents=True)
    return paths
