"""What the forty-fourth stage showed (issue 40), seen: in a phone-in by automatic captions,
a greeting that spaCy reads into a name (``morning bernie``) and a filler after a title
(``doctor um row rao``) made every ``morning`` and every ``um`` of the text a person's slot
(one decision per form); and ``Revd``, a title, was read as a name."""

from __future__ import annotations

import re

import pytest


def _has(word: str, line: str) -> bool:
    return re.search(rf"(?<![\w'’-]){re.escape(word)}(?![\w'’-])", line) is not None


def test_a_greeting_is_no_part_of_a_persons_span() -> None:
    """A greeting that starts a person's span of spaCy's is left out of it, after the span
    is cut at line breaks; a place's or an organisation's span keeps it."""
    spacy = pytest.importorskip("spacy")
    from emprivacy.entities import SpacyDetector

    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([
        {"label": "PERSON", "pattern": [{"LOWER": "morning"}, {"LOWER": "bernie"}]},
        {"label": "PERSON", "pattern": [{"LOWER": "margaret"}, {"TEXT": "\n"},
                                        {"LOWER": "dear"}, {"LOWER": "olena"}]},
        {"label": "ORG", "pattern": [{"LOWER": "welcome"}, {"LOWER": "break"}]}])
    text = "and morning bernie it was\nhello margaret\ndear olena at Welcome Break"
    found = [text[s.start:s.end] for s in SpacyDetector(nlp).detect([text])[0]]
    assert found == ["bernie", "margaret", "olena", "Welcome Break"], found


@pytest.mark.slow
def test_greetings_and_fillers_of_a_phone_in_stay_words(release_auto) -> None:
    pytest.importorskip("wordfreq")
    out = release_auto(
        "and i'm bernie moss morning sunny\nmorning bernie and it was not sunny on saturday\n"
        "that doctor from ripon doctor um row rao she said mine was dense\n"
        "next caller is um olena olena good morning\nthis morning it's the big show\n")
    assert len(re.findall(r"\bmorning\b", out)) == 4, out
    assert len(re.findall(r"\bum\b", out)) == 2, out
    for name in ("bernie", "moss", "olena", "rao"):
        assert not _has(name, out), (name, out)


@pytest.mark.slow
def test_revd_is_a_title(release_auto) -> None:
    pytest.importorskip("wordfreq")
    out = release_auto("The service was taken by the Revd Joy Bell with the Revd Samuel "
                       "Adebayo.\n| BELL | Joy | Revd | JB |\n")
    assert out.count("Revd") == 3, out
    for name in ("Joy", "Bell", "BELL", "Samuel", "Adebayo"):
        assert not _has(name, out), (name, out)


@pytest.mark.slow
def test_the_keys_of_a_french_form_are_no_names() -> None:
    """A French form's keys (``Responsable légal :``, ``Tél. :`` with French's no-break space
    before the colon, ``Droit à l'image :``) and the columns of its tables (``| Poste |
    Initiales | Tél. |``) were names, and one decision per form then protected them at every
    mention; the names in the values stay protected."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    nb = "\u00a0"
    out = release_fr(
        f"NOM{nb}: MUGNIER          Prénom{nb}: Victoire\n"
        f"Née le{nb}: 12/03/2017          Club{nb}: SCA\n"
        f"Responsable légal{nb}: MUGNIER Céline (mère)          Tél.{nb}: 06 39 98 41 07\n"
        f"Autorisation parentale signée{nb}: oui          Droit à l'image{nb}: oui\n\n"
        "| Poste | NOM Prénom | Initiales | Tél. |\n|---|---|---|---|\n"
        "| Directeur de course | COMBAZ Désiré | D. C. | 06 39 98 00 12 |\n")
    for word in ("Responsable", "légal", "Tél", "Née", "Droit", "Poste", "Initiales"):
        assert _has(word, out), (word, out)
    for name in ("MUGNIER", "Céline", "Victoire", "COMBAZ", "Désiré"):
        assert not _has(name, out), (name, out)


@pytest.mark.slow
def test_a_french_chats_speakers_stay_names() -> None:
    """A speaker's label in a French chat whose speakers are named is no form's key, even a
    given name that is a French word (``prune :``)."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("lys : oui je connais le texte\nprune : moi je ne peux pas le 25\n"
                     "lys : d'accord prune\n")
    assert not _has("prune", out) and not _has("lys", out), out


@pytest.mark.slow
def test_a_breton_family_name_with_its_article_is_protected() -> None:
    """A Breton family name is written with its article apart (Le Bras, Le Du): after a
    given name, ``le`` and the name are the person's whatever the word; ``le maire`` stays."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("bonjour à tous avec marie dupont\non attend yann le bras et ange le du "
                     "présent\n")
    for word in ("yann", "bras", "ange", "du"):
        assert not _has(word, out), (word, out)
    out = release_fr("bonjour à tous avec marie dupont\nmerci paul le maire va parler\n")
    assert out.endswith(" le maire va parler\n"), out


def test_a_greeting_that_is_a_given_name_stays_in_the_span() -> None:
    """``ping`` and ``ty`` greet, and are given names: a span that starts with one keeps it
    (the second reading)."""
    spacy = pytest.importorskip("spacy")
    pytest.importorskip("names")
    from emprivacy.entities import SpacyDetector

    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns([
        {"label": "PERSON", "pattern": [{"LOWER": "ping"}, {"LOWER": "wang"}]}])
    text = "we met ping wang at the lab"
    found = [text[s.start:s.end] for s in SpacyDetector(nlp).detect([text])[0]]
    assert found == ["ping wang"], found


@pytest.mark.slow
def test_what_the_second_reading_found(release_auto) -> None:
    """A filler after an honorific is a name (``mr um``); a title stays inside an
    organisation's name before its designator (``merthyr justice centre``); a sentence's
    full stop before a key's colon is no abbreviation's (``Spoke to Sky. Notes:``)."""
    pytest.importorskip("wordfreq")
    out = release_auto("mr um called about the bill\n")
    assert not _has("um", out), out
    out = release_auto("the case went to the merthyr justice centre on monday\n")
    assert not _has("merthyr", out), out
    out = release_auto("Spoke to Sky. Notes: she is fine\n")
    assert not _has("Sky", out), out


@pytest.mark.slow
def test_french_speakers_are_no_keys() -> None:
    """A French speaker's label is no form's key: a given name read only before a family name
    (``Constant :``), a name on no list whose line is speech (``Loup : moi aussi``), and the
    speakers of a named chat whose colons follow no-break spaces."""
    pytest.importorskip("wordfreq")
    from .french_release import release_fr

    out = release_fr("Compte rendu de la réunion\nConstant : je confirme la date du 12 mars.\n")
    assert not _has("Constant", out), out
    out = release_fr("Prune : je suis d accord avec toi\nLoup : moi aussi\n")
    assert not _has("Loup", out) and not _has("Prune", out), out
    nb = "\u00a0"
    chat = "".join(f"{who}{nb}: {said}\n" for who, said in (
        ("pierre", "on se voit samedi"), ("marie", "oui à 10 h"), ("loup", "ok pour samedi"),
        ("julie", "je viens aussi"), ("pierre", "parfait"), ("loup", "je prends le pain")))
    out = release_fr(chat)
    for who in ("pierre", "marie", "loup", "julie"):
        assert not _has(who, out), (who, out)
