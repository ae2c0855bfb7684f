"""French titles and form labels (issue 42): ``Me`` (Maître) before a name is a title, as
``M.`` and ``Mme`` are, not part of the name; a form's label that spaCy tags as an
organisation (``N° de sécurité sociale :``) is no ``[ORG]``."""

from __future__ import annotations

import pytest

from emprivacy.entities.french import form_label
from emprivacy.entities.spans import EntitySpan

from .french_release import release_fr

pytestmark = pytest.mark.filterwarnings("ignore::emprivacy.PrivacyLeakWarning")




def test_me_is_a_title_not_a_name(french):
    text = "Je vous écris de la part de Me Claire Dubois, mon avocate."
    for seed in range(3):
        out = release_fr(text, seed)
        # at ε = 10⁶ an ordinary word comes back: `Me` went through the mechanism as a word,
        # and the name's two words are two surrogates
        assert out.startswith("Je vous écris de la part de Me "), out
        name = out.removeprefix("Je vous écris de la part de Me ").split(",")[0].split()
        assert len(name) == 2 and not {"Claire", "Dubois"} & set(name), out
    # as M. and Mme are
    out = release_fr("M. Paul Martin et Mme Julie Roux sont venus.")
    assert out.startswith("M. ") and " et Mme " in out
    assert not {"Paul", "Martin", "Julie", "Roux"} & set(out.replace(".", " ").split())


def test_a_form_label_is_no_organisation(french):
    text = ("Nom : Claire Dubois\nN° de sécurité sociale : 1 51 07 26 362 148 55\n"
            "Numéro de sécurité sociale : 2 84 12 75 108 042 36\n")
    out = release_fr(text)
    assert "[ORG]" not in out
    assert "de sécurité sociale : [SSN]" in out  # the label's words: ordinary words at ε
    assert out.count("[SSN]") == 2


@pytest.mark.parametrize(("text", "start", "end", "label"), [
    ("N° de sécurité sociale : 1", 0, 22, True),
    ("Le n° de dossier est 4", 3, 16, True),
    ("Numéro de sécurité sociale : 2", 0, 26, True),
    ("Fiche. Mutuelle générale : 3", 7, 25, True),     # a key after a sentence's end
    ("Numéro de Sécurité Sociale : 2", 10, 26, False),  # an organisation inside the key
    ("Caisse : CPAM du Rhône", 9, 22, False),          # a value, not a key
    ("La CPAM du Rhône a écrit.", 3, 16, False),
])
def test_form_label(text, start, end, label):
    assert form_label(text, EntitySpan(start, end, "ORG")) is label


def test_an_elided_particle_goes_with_the_name(french):
    """The ``d'`` of ``Laure d'Aubigny`` and the ``N'`` of ``Baptiste N'Diaye`` were released
    as written, as function words (issue 42's third French half); they go with the name's
    surrogates, as a place's linking words do.  An elision after a name that is no particle
    (``Marie n'est pas``) is a word."""
    for seed in range(3):
        out = release_fr("Son avocate, Me Laure d'Aubigny, est venue.", seed)
        assert out.startswith("Son avocate, Me ") and out.endswith(", est venue."), out
        name = out.removeprefix("Son avocate, Me ").removesuffix(", est venue.")
        assert "'" not in name and len(name.split()) == 2, out
        assert not {"Laure", "Aubigny"} & set(name.split()), out
        out = release_fr("Excusés : Chloé Bertin, Baptiste N'Diaye.", seed)
        assert "N'" not in out and "Diaye" not in out, out
    out = release_fr("Hier, Marie n'est pas venue.")
    assert out.endswith(" n'est pas venue."), out
