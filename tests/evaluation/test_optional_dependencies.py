"""The evaluation's heavy dependencies are the ``evaluation`` extra: imported on first use,
with one message naming the extra when missing, never at import time."""

from __future__ import annotations

import subprocess
import sys

import pytest

from emprivacy import Embeddings
from emprivacy.evaluation.attacks import FastTextTopicClassifier, earth_movers_distances
from emprivacy.evaluation.report import write_report
from emprivacy.exceptions import MissingExtraError

_EXTRA = r"install it with: pip install 'emprivacy\[evaluation\]'"
_HEAVY = ("fasttext", "ot", "matplotlib", "sklearn", "pooch", "requests")


def test_importing_the_evaluation_and_its_command_loads_no_heavy_dependency():
    code = ("import sys, emprivacy.evaluation, emprivacy.cli; "
            f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({_HEAVY!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_missing_pot_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ot", None)
    emb = Embeddings(["a", "b"], [[0.0], [1.0]])
    with pytest.raises(MissingExtraError, match=f"computing the SR attacks' Earth Mover's "
                       f"distances needs the optional dependency 'ot'; {_EXTRA}"):
        earth_movers_distances([["a"]], [["b"]], emb)


def test_missing_fasttext_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "fasttext", None)
    with pytest.raises(MissingExtraError, match=f"needs the optional dependency 'fasttext'; "
                       f"{_EXTRA}"):
        FastTextTopicClassifier().fit([["a"], ["b"]], ["x", "y"])


def test_missing_matplotlib_names_the_extra_and_writes_nothing(monkeypatch, synth_result,
                                                               tmp_path):
    monkeypatch.setitem(sys.modules, "matplotlib.backends.backend_agg", None)
    with pytest.raises(MissingExtraError, match=f"plot of the experiment needs the optional "
                       f"dependency 'matplotlib'; {_EXTRA}"):
        write_report(synth_result, tmp_path / "out")
    assert not (tmp_path / "out").exists()  # not even the directory


@pytest.mark.parametrize("module", ["fasttext", "ot", "matplotlib"])
def test_evaluate_checks_the_extra_before_it_reads_or_writes_anything(monkeypatch, tmp_path,
                                                                       capsys, module):
    from emprivacy import evaluation
    from emprivacy.cli import main

    def no_brown(**kwargs):
        raise AssertionError("read the corpus before checking the extra")

    monkeypatch.setattr(evaluation, "brown", no_brown)
    monkeypatch.setitem(sys.modules, module, None)
    expected = (f"emprivacy evaluate needs the optional dependency '{module}'; install it "
                "with: pip install 'emprivacy[evaluation]'")
    try:  # the main entry point prints an EmprivacyError as one line
        code = main(["evaluate", "--out", str(tmp_path / "out"), "--quiet"])
    except MissingExtraError as exc:
        assert str(exc) == expected
    else:
        assert code != 0 and expected in capsys.readouterr().err
    assert not (tmp_path / "out").exists()
