"""A sample of ``benchmarks/cli_fuzz.py``'s cases in the test suite (issue 44): bad values,
bad files and bad outputs for every subcommand, each in a subprocess under a time and a
memory limit, its inputs hashed before and after.  The whole fuzz (474 cases, 969 with
``--with-sweep``) is ``python benchmarks/cli_fuzz.py``; its summary is in docs/FAULTS.md."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "cli_fuzz.py"


def _fuzz():
    spec = importlib.util.spec_from_file_location("cli_fuzz", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cli_fuzz", module)
    spec.loader.exec_module(module)
    return module


fuzz = _fuzz()
#: Every 20th case, and the first case of every kind (label) that a data-loss or a
#: traceback was found in before issue 44.
CASES = fuzz.all_cases(with_sweep=False)
SAMPLE = CASES[::20] + [c for c in CASES if c.flag in (
    "obfuscate --vocab-size", "obfuscate --workers", "obfuscate --entity-epsilon",
    "guarantee --distance", "evaluate --trials", "evaluate --epsilon-hat-draws")
    and c.value in ("99999999999999999999", "1e300")] + [
    c for c in CASES if c.flag.startswith("obfuscate -o") and c.value in ("'emb.txt'",
                                                                         "'link-to-a.txt'")]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("fuzz") / "template"
    root.mkdir()
    fuzz.setup(root)
    return root


def test_the_fuzz_covers_every_subcommand():
    assert len(CASES) >= 450
    assert {c.args[0] for c in CASES} == {"obfuscate", "distance", "guarantee", "calibrate",
                                          "audit", "evaluate"}


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: f"{c.flag}={c.value}"[:60])
def test_a_sampled_case_ends_in_one_line_and_changes_no_input(case, template):
    done = fuzz.run(case, template, 120.0)
    assert not done.problems, (done.args, done.code, done.err[-2000:])
