"""obfuscate --entities / --entity-epsilon / --entity-policy on the command line."""

import json
import subprocess
import sys

import pytest

from emprivacy.cli import main

LETTER = ("Dear Dr. Patel, your patient Margaret Thompson of Cambridge called. "
          "Thompson said hello.\n")


@pytest.fixture
def letter(tmp_path):
    path = tmp_path / "letter.txt"
    path.write_text(LETTER, encoding="utf-8")
    return path


def one_error(capsys):
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("emprivacy: error: "), err
    return err[0]


@pytest.mark.parametrize("args, message", [
    (["--entity-policy", "PHONE=keep"], "entity policy of PHONE must be one of 'placeholder'"),
    (["--entity-policy", "PERSON"], "TYPE=POLICY"),
    (["--entities", "regex"], "entities must be 'auto', 'none' or a comma list"),
    (["--entities", "spacy=/no/such/dir"], "never downloads a model"),
    (["--entity-epsilon", "0.5"], "apply with --entities"),
])
def test_bad_options_are_one_line_and_exit_2(letter, capsys, args, message):
    code = main(["obfuscate", str(letter), "-e", "10", "--format", "text", "-q", *args])
    assert code == 2
    assert message in one_error(capsys)


def test_bag_mode_takes_entities(letter, tmp_path, capsys):
    out = tmp_path / "bag.jsonl"
    assert main(["obfuscate", str(letter), "-e", "1e6", "--entities", "capitalised", "-q",
                 "--seed", "1", "--entity-policy", "PERSON=placeholder", "-o", str(out),
                 "--format", "jsonl"]) == 0
    (rec,) = [json.loads(line) for line in out.read_text().splitlines()]
    assert rec["mode"] == "bag" and rec["entities"] == "capitalised"
    assert "[PERSON]" in rec["bag"] and "thompson" not in rec["bag"]
    assert "patient" in rec["bag"]  # an ordinary word at a huge ε
    assert "within the public sub-vocabulary" in rec["guarantee"]


def test_spacy_without_the_extra_names_it(letter):
    # a fresh interpreter in which spaCy cannot be imported, as if the extra were missing
    code = ("import sys; sys.modules['spacy'] = None; from emprivacy.cli import main; "
            f"sys.exit(main(['obfuscate', {str(letter)!r}, '-e', '10', '--format', 'text', "
            "'--entities', 'spacy', '-q']))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("emprivacy: error: ")
    assert "pip install 'emprivacy[ner]'" in lines[0] and "'spacy'" in lines[0]


@pytest.mark.slow
def test_names_are_privatised_within_their_sub_vocabulary(letter, capsys):
    from emprivacy.entities.name_words import name_key
    from emprivacy.entities.vocabulary import person_words

    pytest.importorskip("names")
    code = main(["obfuscate", str(letter), "-e", "10", "--format", "jsonl", "--readable",
                 "--entities", "capitalised", "--entity-policy", "ORG=keep", "--seed", "1",
                 "-q"])
    assert code == 0
    out = capsys.readouterr()
    record = json.loads(out.out)
    words = record["text"].replace(",", " ").replace(".", " ").split()
    # 'Patel', 'Thompson' (twice: one surrogate) and 'Margaret' become names of the list
    patel, margaret, thompson, thompson2 = words[2], words[5], words[6], words[10]
    # the list's words are looked up without apostrophes (D'Orso is the census' DORSO)
    assert {name_key(w) for w in (patel, margaret, thompson)} <= person_words()
    assert thompson == thompson2
    assert record["entity_policy_keep"] == "ORG" and "ε_e" in record["guarantee"]
    # -q: no warning line; without -q the keep policy is one line
    assert out.err == ""


def test_embeddings_without_the_types_words_are_one_line(letter, tmp_path, capsys):
    """Found by benchmarks/cli_fuzz.py: embeddings holding fewer than 2 words of the person
    list were a ValueError traceback (exit 1); now one line naming the way out, exit 2."""
    pytest.importorskip("names")
    from ..helpers import EMBEDDINGS_FILE

    emb = tmp_path / "emb.txt"
    emb.write_text(EMBEDDINGS_FILE, encoding="utf-8")
    code = main(["obfuscate", str(letter), "-e", "10", "--embeddings", str(emb), "--format",
                 "text", "--entities", "capitalised", "-q"])
    assert code == 2
    assert one_error(capsys) == (
        "emprivacy: error: the public sub-vocabulary of PERSON holds 1 word(s) of the "
        "embeddings 'emb.txt'; privatising within it needs at least 2 (larger embeddings, "
        "or --entity-policy PERSON=placeholder)")
