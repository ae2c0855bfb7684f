"""Seeded outputs of every CLI command are pinned byte for byte (``tests/golden``).

A refactoring must leave them identical; a deliberate change of behaviour
regenerates them with ``python tests/golden/cases.py`` in the same commit.
"""

from __future__ import annotations

import pytest

from .golden.cases import CASES, HERE, render


@pytest.mark.parametrize("name", sorted(CASES))
def test_seeded_output_is_unchanged(name, tmp_path):
    expected = (HERE / f"{name}.out").read_bytes()
    assert render(name, tmp_path) == expected
