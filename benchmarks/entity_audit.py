"""The audit of entity words, measured (issue 29): ``emprivacy audit --entities`` on the
labelled sentences and letters of ``benchmarks/data/`` (their marks removed), one document
per sentence and per letter (59 documents).

For each ``--entities`` setting it runs, in this process::

    emprivacy audit DOCS -e 10 --mechanism santext,madlib --entities E --entity-epsilon 1 \\
        --reconstruct --seed 1 --out OUT/E

and prints the entity rows of the word audit and the reconstruction's ``entity`` class.

Usage::

    python benchmarks/entity_audit.py [--entities capitalised,auto] [--out /tmp/entity_audit]

``auto`` means spaCy, Presidio and capitalised words with the ``ner`` extra (else the
capitalised detector alone, and the audit says so).
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

DATA = Path(__file__).parent / "data"
MARK = re.compile(r"\[([^\]]+)\]\((PERSON|LOCATION|ORG)\)")


def documents(where: Path) -> Path:
    """The sentences and the letters, one file each, marks removed, under ``where``."""
    where.mkdir(parents=True, exist_ok=True)
    texts = [line for line in (DATA / "entities_labelled.txt").read_text(
        encoding="utf-8").splitlines() if line.strip() and not line.startswith("#")]
    letters = "\n".join(line for line in (DATA / "entities_letters.txt").read_text(
        encoding="utf-8").splitlines() if not line.startswith("#"))
    texts += [t.strip() for t in letters.split("\n---\n")]
    for i, text in enumerate(texts):
        (where / f"{i:03d}.txt").write_text(MARK.sub(r"\1", text) + "\n", encoding="utf-8")
    return where


def main() -> None:
    from emprivacy.cli import main as cli

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entities", default="capitalised,auto",
                        help="the --entities settings to run, separated by commas")
    parser.add_argument("--out", type=Path, default=Path("/tmp/entity_audit"))
    args = parser.parse_args()
    docs = documents(args.out / "docs")
    for setting in args.entities.split(","):
        out = args.out / setting
        code = cli(["audit", str(docs), "-e", "10", "--mechanism", "santext,madlib",
                    "--entities", setting, "--entity-epsilon", "1", "--reconstruct",
                    "--seed", "1", "--out", str(out), "-q"])
        if code:
            raise SystemExit(code)
        report = json.loads((out / "audit.json").read_text(encoding="utf-8"))
        print(f"--entities {setting}: {report['settings']['command']}")
        for result in report["results"]:
            ent = result["entities"]
            print(f"  {result['mechanism']} ε = {result['epsilon']:g}: detected "
                  f"{ent['detected']}, mentions {ent['mentions']}, secrets {ent['secrets']}")
            for t, a in ent["types"].items():
                print(f"    word audit {t} at ε_e = {a['epsilon']:g} ({a['channel']}): V(π) "
                      f"{a['prior_vulnerability']:.3f}, V(π▷C) "
                      f"{a['posterior_vulnerability']['estimate']:.3f} "
                      f"[{a['posterior_vulnerability']['lower']:.3f}, "
                      f"{a['posterior_vulnerability']['upper']:.3f}], attack "
                      f"{a['attack_recovery']['estimate']:.3f} "
                      f"[{a['attack_recovery']['lower']:.3f}, "
                      f"{a['attack_recovery']['upper']:.3f}]")
            for c, by in result["reconstruction"]["classes"].items():
                r = by["attack"]
                if r["exact"] is None:
                    continue
                print(f"    reconstruction {c}: {r['words']} words, exact "
                      f"{r['exact']['estimate']:.3f} [{r['exact']['lower']:.3f}, "
                      f"{r['exact']['upper']:.3f}], prior only "
                      f"{by['prior_only']['exact']['estimate']:.3f}")


if __name__ == "__main__":
    main()
