"""A table's column of roles is no one's name (emprivacy.entities.table_roles; issue 40,
stage 41: a lifeboat crew's rota released ``Coxswain``, ``ILB Helm`` and ``Crew`` as person
slots, and ``Crew`` at every mention after)."""

from __future__ import annotations

import re

import pytest

from emprivacy.entities.spans import PROPER_NOUN, EntitySpan
from emprivacy.entities.table_roles import drop_role_cells, role_cells

ROTA = ("| Crew ID | Name | Init. | Call sign | Role | Pager | Home |\n"
        "|---|---|---|---|---|---|---|\n"
        "| PCW-001 | TREGENZA, Mark | MT | PC01 | Coxswain | PG-30117 | Porthcarrow |\n"
        "| PCW-005 | RIVERS, Will | WR | PC05 | ALB Crew | PG-30121 | Porthcarrow |\n"
        "| PCW-006 | BROOK, Sandy | SB | PC06 | Shore Crew | PG-30122 | Trewin |\n"
        "| PCW-008 | MASON, Finn | FM | PC08 | ILB Helm | PG-30124 | Pentreath |\n")


@pytest.mark.parametrize(("text", "want"), [
    (ROTA, ["---", "Coxswain", "ALB Crew", "Shore Crew", "ILB Helm"]),
    ("Name,Occupation,Phone\nAnn Lee,Nurse,1\nBo Hart,Porter,2\nCy Moss,Ward Clerk,3",
     ["Nurse", "Porter", "Ward Clerk"]),
    # a cell that may name someone is no label: left to the detectors
    ("Name,Role,Phone\nAnn Lee,PA to Mark Ellis,1\nBo Hart,Cover for Jago,2\n"
     "Cy Moss,Steward,3\nDi Roe,Crew - Jago's sister,4", ["Steward"]),
    # headers that hold people, places or tasks: no role's column
    ("Date,Duty Officer,Phone\n1/2,Alan Turner,1\n2/2,Rose Cooper,2\n3/2,Dean Shepherd,3", []),
    ("Role,Role holder,Phone\nChair,Helen Baker,1\nClerk,Robin Fletcher,2\n"
     "Bursar,Grace Mason,3", ["Chair", "Clerk", "Bursar"]),
    ("Marshal,Position,Radio\nAnn Lee,Chapel Street,1\nBo Hart,Newlyn Bridge,2\n"
     "Cy Moss,Market Jew Street,3", []),
    ("Nom;Qualité;Domicile\nMarie Roux;Veuve Berger;Beaune\nPaul Petit;Épouse Petit;Dijon\n"
     "Anne Moreau;Témoin;Nuits", []),
    ("Nom\tFonction\tVille\nMarie Roux\tTrésorière\tBeaune\nPaul Petit\tSecrétaire\tDijon\n"
     "Anne Moreau\tPrésidente\tNuits", ["Trésorière", "Secrétaire", "Présidente"]),
    # no role's header, a name's header with a role's word, prose: no cells
    ("Name,Team,Phone\nAnn Lee,Reds,1\nBo Hart,Blues,2\nCy Moss,Greens,3", []),
    ("Role name,Holder,Phone\nChair,Ann Lee,1\nClerk,Bo Hart,2\nBursar,Cy Moss,3", []),
    ("Her role, at last, was clear: the coxswain.", []),
])
def test_role_cells(text: str, want: list[str]) -> None:
    assert [text[a:b] for a, b in role_cells(text)] == want


def test_people_and_capitalised_words_in_role_cells_are_dropped_places_stay() -> None:
    at = ROTA.index("Coxswain")
    helm = ROTA.index("Helm")
    mark = ROTA.index("Mark")
    alb = ROTA.index("ALB Crew")
    spans = [EntitySpan(at, at + 8, "PERSON"), EntitySpan(helm, helm + 4, PROPER_NOUN),
             EntitySpan(helm - 4, helm + 4, "LOCATION"), EntitySpan(mark, mark + 4, "PERSON"),
             EntitySpan(alb, alb + 8, "ORG")]
    kept = drop_role_cells(ROTA, spans)
    assert [ROTA[s.start:s.end] for s in kept] == ["ILB Helm", "Mark", "ALB Crew"]
    assert drop_role_cells("no table here", spans) == spans
    text = "Nom|Fonction|Ville\nAnn Roux|Directrice Normandie|Caen\nBo Petit|Trésorier|Sens\n"
    at = text.index("Normandie")
    region = EntitySpan(at, at + 9, "PERSON")  # a model's mistake: still a place's word
    assert drop_role_cells(text, [region]) == [region]


def test_a_crew_rota_keeps_its_roles_and_loses_its_names() -> None:
    pytest.importorskip("spacy")
    from emprivacy.tables import privatize_texts

    release = next(iter(privatize_texts([ROTA], epsilon=1e6, seed=1, entities="auto",
                                        entity_epsilon=1.0))).release
    rows = release.splitlines()
    roles = [row.split("|")[5].strip() for row in rows[2:]]
    # the person spans go (the learned model's Helm); a place span stays (spaCy's Shore)
    assert roles[2].endswith(" Crew") and roles[3].endswith("Helm")
    for name in ("TREGENZA", "Mark", "RIVERS", "BROOK", "Sandy", "MASON", "Finn"):
        assert not re.search(rf"\b{name}\b", release), release  # a surrogate may be BROOKS


LOG = ("The crew stood by at the slipway.\n\n"
       "| Incident | Date | Paged | Launched | Boat | Tasking / location | Outcome | Cox/Helm "
       "| Crew (init.) |\n|---|---|---|---|---|---|---|---|---|\n"
       "| PCW-24-001 | 07/01/2024 | 14:22 | 14:31 | ALB | Yacht aground, Gull Rock | Towed "
       "| MT | GF, RS, PO |\n"
       "| PCW-24-002 | 19/01/2024 | 09:05 | 09:12 | ILB | Kayaker, Fisher's Cove | Landed "
       "| FM | SMacL, CW |\n")


def test_a_call_out_logs_header_is_no_ones_name() -> None:
    """``Crew (init.)`` of a log's header was a person's slot, and with it every ``Crew``
    of the document (the forty-first English set's tuning half)."""
    pytest.importorskip("spacy")
    from emprivacy.tables import privatize_texts

    release = next(iter(privatize_texts([LOG], epsilon=1e6, seed=1, entities="auto",
                                        entity_epsilon=1.0))).release
    assert release.startswith("The crew stood by")
    header = release.splitlines()[2]
    for word in ("| Incident |", "| Paged |", "| Launched |", "| Boat |", "| Outcome |",
                 "| Crew ("):
        assert word in header
