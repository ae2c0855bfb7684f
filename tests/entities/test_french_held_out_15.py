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
    """A value ends at a dash between spaces (``voisine`` is no name), and a value of more
    than five words is an instruction, not a name."""
    pytest.importorskip("wordfreq")
    from emprivacy.entities.french_forms import name_field_words
    from emprivacy.text.tokens import tokenize

    text = ("Nom : à compléter par le secrétariat avant la séance\nNom : Mai\n"
            "Nom : TRẦN – Prénom : Thị Mai – voisine, assistante – Tél. 06")
    words = [t for t in tokenize(text, lang="fr") if t.kind == "word"]
    named = [words[i].text for i in sorted(name_field_words(text, words))]
    assert named == ["Mai", "TRẦN", "Thị", "Mai"]


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
