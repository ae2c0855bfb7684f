"""``evaluate --entities`` (issue 29): each snippet detected as text before it becomes a bag,
its entity words released within their public sub-vocabulary at ε_e."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest

from emprivacy import Embeddings
from emprivacy.cli import main
from emprivacy.decoding import ExactDecoder
from emprivacy.evaluation.attacks import write_vec
from emprivacy.evaluation.datasets import from_records, prepare_set, select_authors
from emprivacy.evaluation.experiment import _mechanism, run_experiment
from emprivacy.evaluation.settings import ExperimentConfig
from emprivacy.evaluation.snippets import (
    detection_text,
    entity_plan,
    mark_snippets,
    release_snippets,
)
from emprivacy.math.randomness import document_generator

from .conftest import synthetic_embeddings, synthetic_records

#: One character name per author (all on the packaged census list of given names).
NAMES = ["ann", "bob", "eve", "zoe", "tom", "max", "ivy", "kim"]


def named_records() -> list[dict[str, str]]:
    """The synthetic records with each author's out-of-vocabulary name ('zorbax') replaced
    by a capitalised given name, never first in its sentence."""
    out = []
    for k, rec in enumerate(synthetic_records()):
        text = re.sub(r"\bzorb\w+", NAMES[k].title(), rec["text"])
        out.append({**rec, "text": text})
    return out


@pytest.fixture(scope="module")
def emb() -> Embeddings:
    base = synthetic_embeddings()
    gen = np.random.default_rng(5)
    extra = [*NAMES, "paris", "rome"]
    vectors = np.vstack([base.vectors, 5.0 + gen.normal(size=(len(extra), base.dim))])
    return Embeddings([*base.words, *extra], vectors, name="synthetic-named")


@pytest.fixture(scope="module")
def corpus():
    return from_records(named_records(), name="named")


def test_detection_text_maps_back_to_the_rebuilt_text():
    text = "Dan Morgan told `` Ann Turner '' , he said ( once ) ."
    read, where = detection_text(text)
    assert read == 'Dan Morgan told "Ann Turner", he said (once).'
    assert len(where) == len(read) and np.all(np.diff(where) > 0)
    for i, c in enumerate(read):
        assert text[where[i]] == c or (c == '"' and text[where[i]] in "`'")
    start = read.index("Ann Turner")
    assert text[where[start]:where[start + 9] + 1] == "Ann Turner"


def test_entity_words_become_names_once_per_snippet(corpus, emb):
    chosen = select_authors(corpus, 6, seed=0)
    p = prepare_set(chosen, embeddings=emb)
    mech = _mechanism(ExperimentConfig(), emb, 1e6, ExactDecoder(emb), np.random.default_rng(0))
    plan = entity_plan("capitalised", 1.0, (), mech)
    marks = mark_snippets(chosen, p, plan, emb, known_fraction=2 / 3)
    counts = marks.counts()
    names_in_snippets = sum(w in NAMES for s in p.snippets for w in s)
    assert names_in_snippets > 0
    assert counts["entity_words"] == names_in_snippets
    assert counts["entity_words_by_type"] == {"PERSON": names_in_snippets}
    assert counts["entity_words_distinct"] == sum(any(w in NAMES for w in s)
                                                  for s in p.snippets)
    released, _, (orig, out) = release_snippets(
        p, mech, emb, (plan, marks, document_generator(b"k" * 32, "entities")))
    person = {emb.words[i] for i in plan.marking.rows["PERSON"]}
    for clean, noisy in zip(p.snippets, released, strict=True):
        assert len(noisy) == len(clean)
        surrogates = {n for c, n in zip(clean, noisy, strict=True) if c in NAMES}
        assert len(surrogates) <= 1 and surrogates <= person  # one surrogate, a name
        # the other words, at ε = 1e6, come out as themselves
        assert [n for c, n in zip(clean, noisy, strict=True) if c not in NAMES] == \
            [c for c in clean if c not in NAMES]
    assert orig.size == out.size == sum(len(s) for s in p.snippets)


def test_without_entities_the_release_is_that_of_alg_2(corpus, emb):
    chosen = select_authors(corpus, 6, seed=0)
    p = prepare_set(chosen, embeddings=emb)
    mech = _mechanism(ExperimentConfig(), emb, 3.0, ExactDecoder(emb), np.random.default_rng(1))
    released, _, (orig, out) = release_snippets(p, mech, emb)
    again = _mechanism(ExperimentConfig(), emb, 3.0, ExactDecoder(emb), np.random.default_rng(1))
    flat = np.concatenate([emb.rows(s) for s in p.snippets])
    assert np.array_equal(orig, flat)
    assert np.array_equal(out, again.privatize_indices(flat))
    assert [len(s) for s in released] == [len(s) for s in p.snippets]


@pytest.fixture(scope="module")
def runs(corpus, emb):
    common = dict(embeddings=emb, authors=6, epsilons=(None, 1e6, 0.5), trials=1, seed=11,
                  meaning="word-vector")
    return (run_experiment(corpus, **common),
            run_experiment(corpus, entities="capitalised", entity_epsilon=0.5, **common))


def test_the_clean_row_and_the_bags_are_those_of_a_run_without_entities(runs):
    plain, named = runs
    a, b = plain.sets[0], named.sets[0]
    assert a.N == b.N and a.doc_ids == b.doc_ids
    assert np.array_equal(a.correct[0], b.correct[0])  # ε = none: the same snippets
    assert named.config.entities == "capitalised" and named.config.entity_epsilon == 0.5
    assert "entities" not in plain.metadata


def test_the_run_json_records_the_entity_settings_and_counts(runs):
    named = runs[1].to_dict()
    meta = named["metadata"]["entities"]
    assert meta["detectors"] == "capitalised" and meta["entity_epsilon"] == 0.5
    assert meta["sub_vocabulary_words"]["PERSON"] >= len(NAMES)  # and census words
    assert meta["sets"]["set-6"]["entity_words"] > 0
    assert "tags are not used" in meta["detection_text"]
    assert named["config"]["entities"] == "capitalised"


def test_bad_entity_settings_are_refused():
    with pytest.raises(ValueError, match="entities must be"):
        ExperimentConfig(entities="regex")
    with pytest.raises(ValueError, match="entity policy of PHONE"):
        ExperimentConfig(entities="capitalised", entity_policy=["PHONE=keep"])


@pytest.fixture(scope="module")
def cli_inputs(tmp_path_factory, emb):
    import csv

    d = tmp_path_factory.mktemp("cli-entities")
    data = d / "corpus.csv"
    with open(data, "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=["author", "topic", "text"])
        w.writeheader()
        w.writerows(named_records())
    return data, write_vec(emb, d / "named.vec")


def _args(cli_inputs, out, *extra):
    data, vec = cli_inputs
    return ["evaluate", "--dataset", str(data), "--embeddings", str(vec), "--authors", "6",
            "--epsilons", "none,1", "--trials", "1", "--out", str(out), "--seed", "3",
            "--quiet", *extra]


def test_evaluate_entities_on_the_command_line(cli_inputs, tmp_path, capsys):
    out = tmp_path / "run"
    assert main(_args(cli_inputs, out, "--entities", "capitalised", "--entity-epsilon",
                      "0.5", "--entity-policy", "LOCATION=placeholder")) == 0
    assert capsys.readouterr().err == ""
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["entities"] == "capitalised"
    assert run["config"]["entity_policy"] == [["LOCATION", "placeholder"]]
    assert "--entities capitalised --entity-epsilon 0.5" in run["command"]
    assert "LOCATION=placeholder" in run["metadata"]["entities"]["entity_policy"]


@pytest.mark.parametrize("extra, message", [
    (["--entities", "regex"], "entities must be 'auto', 'none' or a comma list"),
    (["--entity-epsilon", "0.5"], "apply with --entities"),
    (["--entities", "capitalised", "--entity-epsilon", "-1"],
     "--entity-epsilon must be a finite number > 0"),
    (["--entities", "capitalised", "--entity-policy", "ORG=privatise"],
     "entity policy of ORG must be one of"),
])
def test_bad_entity_options_are_one_line(cli_inputs, tmp_path, capsys, extra, message):
    assert main(_args(cli_inputs, tmp_path / "bad", *extra)) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("emprivacy: error: ") and message in err[0]
