"""The repository cites only itself: rules cited in code exist on the game's rules page, and no machine path."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from cardtable_web.registry import SITE_GAMES

import pyengine

ROOT = Path(__file__).resolve().parents[1]
CITATION = re.compile(r"\brules? (\d+(?:\s*(?:-|–|,|and|or)\s*\d+)*)")


def engine_sources(game_id: str) -> list[Path]:
    """The engine files of a game (its module, or every module of its package) and its golden tests."""
    module = pyengine.core.rules_for(game_id).__class__.__module__
    path = Path(__import__(module, fromlist=["_"]).__file__ or "")
    games = ROOT / "pyengine" / "games"
    package = games / path.relative_to(games).parts[0]
    tests = ROOT / "tests" / f"test_{path.relative_to(games).parts[0].removesuffix('.py')}.py"
    return (sorted(package.rglob("*.py")) if package.is_dir() else [path]) + ([tests] if tests.is_file() else [])


def cited_rules(text: str) -> set[int]:
    return {int(n) for match in CITATION.finditer(text) for n in re.findall(r"\d+", match.group(1))}


@pytest.mark.parametrize("game_id", list(SITE_GAMES))
def test_rules_cited_in_code_are_anchors_of_the_rules_page(game_id: str) -> None:
    page = (ROOT / SITE_GAMES[game_id].rules_page).read_text("utf-8")
    anchors = {int(n) for n in re.findall(r'\bid="r(\d+)"', page)}
    assert anchors, f"{game_id}: the rules page numbers no rules (id=\"r1\", ...)"
    for path in engine_sources(game_id):
        missing = cited_rules(path.read_text("utf-8")) - anchors
        assert not missing, f"{path.relative_to(ROOT)} cites rules {sorted(missing)} that its rules page lacks"


def test_no_machine_paths_or_outside_specifications() -> None:
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    bad = re.compile(r"/work/|/root/|/home/(?!pyodide\b)\w|shared/rules|shared/seeds|\brules/[a-z-]+\.md\b")
    found = []
    for name in tracked:
        if name == "tests/test_repository.py" or not name.endswith((".py", ".html", ".js", ".css", ".md", ".toml")):
            continue
        for number, line in enumerate((ROOT / name).read_text("utf-8", errors="replace").splitlines(), 1):
            if bad.search(line):
                found.append(f"{name}:{number}: {line.strip()[:80]}")
    assert not found, "\n".join(found)


def test_no_issue_numbers_and_no_count_of_the_games() -> None:
    """The repository cites no issue by number (its history is in git), and writes the number of games nowhere:
    the registry (``pyengine/games/__init__.py``) is the one list, so a new game makes no sentence wrong."""
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    words = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
    count = words[len(pyengine.GAMES)] if len(pyengine.GAMES) < len(words) else str(len(pyengine.GAMES))
    bad = re.compile(rf"\bissues? ?#? ?\d+|\bissue:|\b(all |the )?{count} (card )?games\b", re.IGNORECASE)
    found = []
    for name in tracked:
        if name == "tests/test_repository.py" or not name.endswith((".py", ".html", ".js", ".md", ".toml", ".json",
                                                                     ".webmanifest")):
            continue
        for number, line in enumerate((ROOT / name).read_text("utf-8", errors="replace").splitlines(), 1):
            if bad.search(line):
                found.append(f"{name}:{number}: {line.strip()[:80]}")
    assert not found, "\n".join(found)
