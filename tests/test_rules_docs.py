"""Issue 10 item 17: the rules live in the project. Each game's rules doc exists, is linked from the
README, names every rule parameter, and nothing the project ships points at files outside it."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from simlab.core.game import available_games, get_game
from simlab.core.params import ASSUMPTION
from simlab.core.registry import module_name

ROOT = Path(__file__).resolve().parents[1]
SHIPPED = ["README.md", "docs", "simlab", "strategies", "experiments", "examples"]


@pytest.mark.parametrize("game", available_games())
def test_rules_doc_is_in_the_project_and_linked(game):
    """simlab's own games keep their rules in docs/rules/; a plug-in (the example Pig) beside its code."""
    spec = get_game(game)
    if module_name("games", game).startswith("simlab.games."):
        assert spec.rules_file.startswith("docs/rules/"), spec.rules_file
    doc = ROOT / spec.rules_file
    assert doc.is_file(), f"{game}: {spec.rules_file} missing"
    assert f"]({spec.rules_file})" in (ROOT / "README.md").read_text(), f"README does not link {spec.rules_file}"


@pytest.mark.parametrize("game", available_games())
def test_rules_doc_names_every_open_reading(game):
    """Every ASSUMPTION parameter (an open reading or assumed data) is named in the game's rules doc."""
    spec = get_game(game)
    text = (ROOT / spec.rules_file).read_text()
    missing = [p.name for p in spec.params.params if p.status == ASSUMPTION and p.name not in text]
    assert missing == [], f"{spec.rules_file} does not name {missing}"


def test_nothing_shipped_points_outside_the_project():
    outside = re.compile(r"(\.\./)?shared/(rules|seeds)/|\bseeds/")
    hits = []
    for top in SHIPPED:
        path = ROOT / top
        files = [path] if path.is_file() else [f for f in path.rglob("*") if f.suffix in {".py", ".md", ".toml", ".txt"}]
        for f in files:
            for n, line in enumerate(f.read_text(errors="ignore").splitlines(), 1):
                if outside.search(line):
                    hits.append(f"{f.relative_to(ROOT)}:{n}")
    assert hits == [], hits
