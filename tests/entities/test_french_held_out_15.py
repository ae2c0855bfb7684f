"""What the fifteenth French set's tuning half showed (issue 42): a choir's chat in lower
case whose families are named with their particle (``des d'almeida``, ``de n'guessan``),
and a sports club's membership form whose fields sit side by side on a line, apart by
dashes (``Nom : D'ORNANO – Prénom : Thị Mai – voisine``)."""

from __future__ import annotations

import pytest

from .french_release import release_fr


def test_every_word_of_a_name_fields_value_is_the_names():
    """A month (``Mai``), a particle (``LE``, ``D'``) and a name the model types a place
    (``ORNANO``, ``Gwenaëlle``) in the value of ``Nom :`` or ``Prénom :`` are the name's,
    and the keys stay."""
    pytest.importorskip("wordfreq")
    out = release_fr("Nom\u00a0: TRẦN – Prénom\u00a0: Thị Mai – voisine\n"
                     "Nom\u00a0: D'ORNANO – Prénom\u00a0: Marie-Ange – marraine\n"
                     "Nom\u00a0: LE ROUX – Prénom\u00a0: Gwenaëlle – nounou\n")
    first, second, third = out.splitlines()
    assert "Mai" not in first, out
    assert "D'" not in second and "ORNANO" not in second, out
    assert "LE " not in third and "ROUX" not in third and "Gwenaëlle" not in third, out
    assert all(line.startswith("Nom\u00a0: ") for line in (first, second, third)), out


def test_a_long_value_is_no_name():
    """A value ends at a dash between spaces (``voisine`` is no name), a full stop, or a
    comma before a number or a lower-case word (``Dupont, 12 rue``; not ``Dupont, Marie``);
    a value of more than five words, or one that starts with a function word (``à
    compléter``), is an instruction, not a name."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.french_forms import name_field_words
    from emprivacy.text.tokens import tokenize

    text = ("Nom : à compléter par le secrétariat avant la séance\nNom : Mai\n"
            "Nom : TRẦN – Prénom : Thị Mai – voisine, assistante – Tél. 06\n"
            "Nom : à compléter\nNom : Dupont, 12 rue de la Paix\nNom : Martin, il est gentil\n"
            "Patient  Nom : Durand\nNom, prénom : Dupont, Marie\n")
    words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    named = [words[i].text for i in sorted(name_field_words(text, words))]
    assert named == ["Mai", "TRẦN", "Thị", "Mai", "Dupont", "Martin", "Durand", "Dupont",
                     "Marie"]
    # linear in a long gap: a run of spaces took minutes in a first version of the pattern
    gap = "Bonjour Marie," + " " * 3000 + "\t" * 3000 + "à bientôt."
    assert name_field_words(gap, [t for t in tokenize(gap, lang="fr") if t.kind == "word"]) \
        == set()


def test_a_familys_particle_in_lower_case():
    """``des d'almeida``, ``de n'guessan``, ``à théo n'guessan``: ``d'`` after ``des`` and
    ``n'`` joined to a name are the family name's, and a listed given name before ``n'``
    and a name is a name (``à`` before it stays: no initial); ``il n'aime pas`` is
    untouched."""
    pytest.importorskip("wordfreq")
    out = release_fr("[18:20] capucine : déjà reçu de kofi et des d'almeida\n"
                     "[18:23] prosper : l'imprimerie de n'guessan a fermé\n"
                     "[18:24] noëlle : demande à théo n'guessan pour l'impression\n"
                     "[18:25] prosper : il n'aime pas ça\n")
    lines = out.splitlines()
    assert "d'almeida" not in lines[0] and "des d'" not in lines[0], out
    assert "n'" not in lines[1] and "guessan" not in lines[1], out
    assert "théo" not in lines[2] and "n'" not in lines[2], out
    assert "demande à " in lines[2], out  # the preposition before the name: no initial
    assert "il n'aime pas ça" in lines[3], out


def test_a_register_of_surnames_before_bracketed_given_names():
    """Seen (the held half's decree): ``TRAORÉ (Fatoumata Binta)``, ``DE SOUSA
    (Marie-Thérèse)``, ``« DU CHATELET (Jean-Marc) »`` — the words in capitals before a
    bracket of given names are the family name, particles included (``EL MANSOURI
    (Khadija)``, the given name typed a place); ``PROCHAINE SÉANCE (Bron)``, a place in
    brackets, leaves ``PROCHAINE`` to the mechanism."""
    pytest.importorskip("wordfreq")
    out = release_fr("Dt. 972/2023/00187.\n\nTRAORÉ (Fatoumata Binta), née le 28 avril 1996.\n"
                     "DE SOUSA (Marie-Thérèse), veuve N'DOYE.\n"
                     "Au lieu de « DU CHATELET (Jean-Marc) », lire autrement.\n"
                     "EL MANSOURI (Khadija), épouse D'ALMEIDA.\nPROCHAINE SÉANCE (Bron)\n")
    lines = out.splitlines()
    assert "TRAORÉ" not in lines[2] and "Fatoumata" not in lines[2], out
    assert not lines[3].startswith("DE ") and "SOUSA" not in lines[3], out
    assert "DU" not in lines[4] and "CHATELET" not in lines[4], out
    assert not lines[5].startswith("EL ") and "MANSOURI" not in lines[5], out
    assert lines[6].startswith("PROCHAINE "), out


def test_a_roll_of_names_read_out():
    """Seen (the held half's war memorial captions): lines that end with the same words
    (``mort pour la france``), each a name before them, are a roll: every word before the
    ending is the name's (``gui you françois``, ``bain à mou élie``, ``d'aboville hervé``),
    the ending's function words stay, and a sentence with the same ending (``il est mort pour la
    france``) keeps its words."""
    pytest.importorskip("wordfreq")
    out = release_fr("guerre de 1939 1945\nle goff pierre mort pour la france\n"
                     "gui you françois mort pour la france\nbain à mou élie mort pour la france\n"
                     "d'aboville hervé mort pour la france\nil est mort pour la france\n")
    lines = out.splitlines()
    for line, gone in zip(lines[1:5], ("goff", "gui you", "bain à mou", "aboville"),
                          strict=True):
        assert gone not in line.split(" pour la ")[0], out
        assert " pour la " in line, out
    assert lines[5].startswith("il est "), out
