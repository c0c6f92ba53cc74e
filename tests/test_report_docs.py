"""The user docs stand alone in a clone: each game's page names every clause switch the code
declares, no link leaves the repository for ../shared/, and retired agent names are gone."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the pages a designer reads (the developer references architecture.md, engine-contract.md and
# ladder.md are checked by their owners)
USER_DOCS = [ROOT / "README.md", *(ROOT / "docs" / name for name in (
    "faction-war.md", "poker-duel.md", "strategies.md", "rules-notes.md", "scenario-format.md"))]


def test_the_poker_duel_page_lists_every_switch_of_the_rules_code():
    from sim.poker_duel.rules import AMBIGUITIES
    page = (ROOT / "docs" / "poker-duel.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| (D-AMB-\d+) \| `(\w+)` \|", page, flags=re.M))
    assert {(key, name) for key, (name, _) in AMBIGUITIES.items()} <= rows
    assert ("D-AMB-01", "club_multiplier") in rows


def test_the_faction_war_page_lists_every_switch_of_the_rules_code():
    from sim.faction_war.rules import AMBIGUITIES
    page = (ROOT / "docs" / "faction-war.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"^\| (FA-\d+) \|", page, flags=re.M))
    assert set(AMBIGUITIES) == listed


def test_every_clause_row_has_a_sentence():
    for name in ("faction-war.md", "poker-duel.md"):
        for line in (ROOT / "docs" / name).read_text(encoding="utf-8").splitlines():
            if re.match(r"^\| [FD]-[A-Z]", line) and not line.startswith("| D-AMB"):
                assert len(line.split("|")[2].split()) >= 4, line


def test_user_docs_have_no_links_outside_the_clone_and_no_retired_names():
    for path in USER_DOCS:
        text = path.read_text(encoding="utf-8")
        assert "../shared" not in text, path.name
        assert "pimc-greedy" not in text, path.name
