"""The page, written on the server: the form, and each answer's releases side by side.

Everything the page shows is HTML written here from the library's figures, escaped
(:func:`html.escape`); the page's JavaScript only sends the form and puts the answer in
place.  Each word of a release is a ``<span>`` whose class says its fate (:data:`~.fates.FATES`)
— by colour *and* by a line style, so colour is never the only signal — and whose ``title``
(also reached by keyboard: the slots take focus) gives its guarantee.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from importlib import resources

from emprivacy.playground.audit import TextAudit
from emprivacy.playground.fates import FATES, Segment
from emprivacy.playground.marks import AUDIT_SOURCE, RECOVERY
from emprivacy.playground.session import Release
from emprivacy.playground.settings import MAX_TEXT_CHARS, MECHANISM_NAMES, PageSettings

__all__ = ["ENTITY_CHOICES", "SAMPLE", "asset", "audit_results", "page", "results", "word_title"]

#: The entity detectors the form offers (``--entities``).
ENTITY_CHOICES = ("none", "auto", "capitalised", "names,patterns", "capitalised,names,patterns")
_SLIDER = (1.0, 30.0, 0.5)
#: The text the page opens with (released as soon as the page is up).
SAMPLE = ("Dear Dr. Alice Moreno,\nthank you for meeting me in Lyon on 12 March. The new "
          "contract is ready; call me on 06 12 34 56 78 or write to alice@example.org.\n"
          "Best wishes,\nTom")


def asset(name: str) -> bytes:
    """A file of the page (the stylesheet, the script, the template), from the package."""
    return resources.files("emprivacy.playground").joinpath("assets", name).read_bytes()


def page(*, seed: int, epsilon: float = 10.0, compare: str = "5, 20",
         sample: str = SAMPLE) -> str:
    """The page: the form, the legend, empty results (filled by the first answer)."""
    low, high, step = _SLIDER
    mechanisms = "".join(f'<option value="{m}"{" selected" if m == "madlib" else ""}>{m}'
                         "</option>" for m in MECHANISM_NAMES)
    entities = "".join(f'<option value="{escape(e)}">{escape(e)}</option>'
                       for e in ENTITY_CHOICES)
    marks = "".join(
        f'<ul class="marks" data-mechanism="{m}"{"" if m == "madlib" else " hidden"}>'
        + "".join(f"<li>ε = {e:g}: an attacker recovers ≈ {s:.0%} of words</li>"
                  .replace("%", " %") for e, s in points) + "</ul>"
        for m, points in RECOVERY.items())
    datalist = "".join(f'<option value="{e:g}" label="{e:g}"></option>'
                       for e in sorted({e for pts in RECOVERY.values() for e, _ in pts
                                        if low <= e <= high}))
    legend = "".join(f'<li><span class="w {fate}">{escape(fate)}</span> '
                     f"{escape(text.split(': ', 1)[1])}</li>" for fate, text in FATES.items())
    template = asset("page.html").decode("utf-8")
    return (template.replace("{{MECHANISMS}}", mechanisms)
            .replace("{{ENTITIES}}", entities)
            .replace("{{MARKS}}", marks)
            .replace("{{DATALIST}}", datalist)
            .replace("{{LEGEND}}", legend)
            .replace("{{AUDIT_SOURCE}}", escape(AUDIT_SOURCE))
            .replace("{{SAMPLE}}", escape(sample))
            .replace("{{SEED}}", str(seed))
            .replace("{{EPSILON}}", f"{epsilon:g}")
            .replace("{{LOW}}", f"{low:g}").replace("{{HIGH}}", f"{high:g}")
            .replace("{{STEP}}", f"{step:g}")
            .replace("{{COMPARE}}", escape(compare))
            .replace("{{MAX_CHARS}}", str(MAX_TEXT_CHARS)))


def word_title(segment: Segment, release: Release, settings: PageSettings, *,
               euclidean: bool) -> str:
    """What hovering (or focusing) a word of ``release`` says: its fate and guarantee."""
    fate = segment.fate
    if fate in ("changed", "kept"):
        head = (f"‘{segment.original}’ → ‘{segment.text}’ ({fate}). Guarantee ε·d against "
                "any other word x: the release's probability changes by at most e^(ε·d).")
        near = release.neighbours.get(segment.original or "", [])
        if near and euclidean:
            head += " Nearest words: " + "; ".join(
                f"{w}: d = {d:.3g}, ε·d = {release.epsilon * d:.3g}" for w, d in near)
        elif near:
            head += (" (the mechanism's d is not the Euclidean distance; nearest words by "
                     "it: " + ", ".join(w for w, _ in near) + ")")
        return head
    if fate == "entity":
        return (f"{segment.entity_type} slot: ‘{segment.original}’ → surrogate "
                f"‘{segment.text}’, drawn within the public {segment.entity_type} words at "
                f"ε_e = {settings.entity_epsilon:g} (ε_e·d); every mention of the word gets "
                "the same surrogate.")
    if fate == "entity-placeholder":
        return f"a detected {segment.entity_type}, replaced by its type (layout)."
    return FATES.get(fate, "layout: released as it is") + "."


def _segments(segments: Sequence[Segment] | None, release: Release, settings: PageSettings,
              euclidean: bool) -> str:
    if segments is None:
        return escape(release.text)
    out = []
    for s in segments:
        if s.fate == "layout":
            out.append(escape(s.text))
            continue
        focus = ' tabindex="0"' if s.fate in ("changed", "kept", "entity") else ""
        kind = f" {escape(s.entity_type)}" if s.fate == "entity" and s.entity_type else ""
        title = escape(word_title(s, release, settings, euclidean=euclidean))
        out.append(f'<span class="w {s.fate}{kind}" data-fate="{s.fate}"{focus} '
                   f'title="{title}">{escape(s.text)}</span>')
    return "".join(out)


def results(settings: PageSettings, releases: Sequence[Release], commands: Sequence[str], *,
            euclidean: bool) -> str:
    """The original beside each ε's release, with its summary and its commands."""
    columns = [f'<article class="column original"><h2>Original</h2>'
               f'<pre class="text">{escape(settings.text)}</pre></article>']
    for k, rel in enumerate(releases):
        s = rel.summary
        columns.append(
            f'<article class="column" data-index="{k}" data-epsilon="{rel.epsilon:g}">'
            f"<h2>ε = {rel.epsilon:g}</h2>"
            f'<pre class="text release">{_segments(rel.segments, rel, settings, euclidean)}'
            "</pre>"
            '<dl class="summary">'
            f"<dt>words perturbed</dt><dd>{s['words_perturbed']}</dd>"
            f'<dt>words changed</dt><dd class="words-changed">{s["words_changed"]}</dd>'
            f"<dt>names released verbatim</dt><dd>{s['verbatim_names']}</dd>"
            f"<dt>epsilon_total</dt><dd>{s['epsilon_total']:g}</dd>"
            f"<dt>audit recovery</dt><dd>{escape(s['recovery'])}</dd></dl>"
            f'<div class="actions">'
            f'<button type="button" class="copy-command" data-index="{k}">Copy as command'
            "</button>"
            f'<button type="button" class="copy-python" data-index="{k}">Copy Python call'
            "</button>"
            f'<button type="button" class="download-text" data-index="{k}">Download text'
            "</button>"
            f'<button type="button" class="download-jsonl" data-index="{k}">Download JSONL'
            "</button></div>"
            "<details><summary>The command</summary>"
            f'<pre class="command">{escape(commands[k])}</pre></details>'
            f"<details><summary>The guarantee</summary><p>{escape(s['guarantee'])}</p>"
            "</details></article>")
    return f'<div class="columns">{"".join(columns)}</div>'


def audit_results(settings: PageSettings, audits: Sequence[TextAudit]) -> str:
    """The quick audit of the page's text: V(π▷C) per ε, with its interval."""
    rows = "".join(
        f'<tr data-epsilon="{a.epsilon:g}"><th scope="row">{a.epsilon:g}</th>'
        f'<td class="recovered">{a.posterior:.0%}</td>'
        f"<td>{'exact' if a.exact else f'[{a.lower:.0%}, {a.upper:.0%}]'}</td>"
        f"<td>{a.prior:.0%}</td></tr>".replace("%", " %") for a in audits)
    k = audits[0].secrets if audits else 0
    return (f"<h2>Audit of this text ({escape(settings.mechanism)})</h2>"
            f"<p>The {k} content words of your text are the secrets, their counts the prior; "
            "an adversary who knows the mechanism and that the word is one of them names it "
            "from one release this often (V(π▷C), docs/AUDIT.md). Few candidates make the "
            "guess easier than in the cached Brown audit.</p>"
            '<table class="audit"><thead><tr><th scope="col">ε</th>'
            '<th scope="col">words recovered</th><th scope="col">95 % interval</th>'
            '<th scope="col">without a release</th></tr></thead>'
            f"<tbody>{rows}</tbody></table>")
