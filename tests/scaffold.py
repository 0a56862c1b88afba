"""Write a new game that passes the suite as it stands, to build a game on (docs/adding-a-game.md).

    python3 tests/scaffold.py copper-lines "Copper Lines"

The new game is a renamed copy of 100 Silver Bars, the smallest complete game (two seats, one deck, hidden hands):
its engine package, renderer, stylesheet and rules page, named in the two registries (``pyengine.games``'
``GAME_MODULES`` and the site's ``SITE_GAMES``), in the test settings (``tests/games.py``) and on the positions
page (``docs/positions.md``). Replace it module by module, running the suite as you go: each of its files is one
the project asks of every game. ``--remove`` takes a scaffolded game out again.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TEMPLATE = ("silver-bars", "silver_bars", "SilverBars", "100 Silver Bars")
"""The game copied: its id, package, class-name stem and title."""


def names(game: str, title: str) -> tuple[str, str, str, str]:
    """(id, package, class-name stem, title) of a new game; ``ValueError`` for an id that cannot be one."""
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)*", game) or len(game) > 30:
        raise ValueError(f"a game's id is lower-case words joined by hyphens, like copper-lines; got {game!r}")
    package = game.replace("-", "_")
    return game, package, "".join(part.capitalize() for part in package.split("_")), title


def renamed(text: str, new: tuple[str, str, str, str]) -> str:
    for old, value in zip(TEMPLATE, new, strict=True):
        text = text.replace(old, value)
    return text


def files(new: tuple[str, str, str, str]) -> list[tuple[Path, Path]]:
    """(template file, new file) of every file of a game."""
    game, package = TEMPLATE[0], TEMPLATE[1]
    source = ROOT / "pyengine" / "games" / package
    pairs = [(path, ROOT / "pyengine" / "games" / new[1] / path.name) for path in sorted(source.glob("*.py"))]
    pairs.append((ROOT / "web" / "cardtable_web" / "renderers" / f"{package}.py",
                  ROOT / "web" / "cardtable_web" / "renderers" / f"{new[1]}.py"))
    pairs.append((ROOT / "web" / "styles" / f"{game}.css", ROOT / "web" / "styles" / f"{new[0]}.css"))
    pairs.append((ROOT / "web" / "rules" / f"{game}.html", ROOT / "web" / "rules" / f"{new[0]}.html"))
    return pairs


def insert_after_last(path: Path, pattern: str, line: str) -> None:
    """Add ``line`` after the last line of ``path`` matching ``pattern``."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    last = max(i for i, text in enumerate(lines) if re.search(pattern, text))
    lines.insert(last + 1, line)
    path.write_text("".join(lines), encoding="utf-8")


def register(new: tuple[str, str, str, str]) -> None:
    """The game named in both registries and given test settings (those of the game it copies)."""
    game, package = new[0], new[1]
    insert_after_last(ROOT / "pyengine" / "games" / "__init__.py", r'^    "[a-z-]+": "[a-z_]+",$',
                      f'    "{game}": "{package}",\n')
    insert_after_last(ROOT / "web" / "cardtable_web" / "registry.py", r'^        _game\("',
                      f'        _game("{game}", "{package}"),\n')
    settings = ROOT / "tests" / "games.py"
    text = settings.read_text(encoding="utf-8")
    entry = re.search(r'\n    "silver-bars": GameTests\(\n.*?\n    \),\n', text, re.DOTALL)
    assert entry is not None, "tests/games.py has no entry to copy"
    insert_after_last(settings, r"^    \),$", entry.group(0)[1:].replace('"silver-bars"', f'"{game}"'))


def add_positions(new: tuple[str, str, str, str]) -> None:
    """The game's section of ``docs/positions.md``, made by the positions test (in a fresh interpreter, which
    imports the game just registered)."""
    made = subprocess.run(
        [sys.executable, "-c", f"from tests.test_positions import section; print(section({new[0]!r}), end='')"],
        cwd=ROOT, capture_output=True, text=True, check=True,
        env={"PYTHONPATH": f"{ROOT}:{ROOT / 'web'}", "PATH": "/usr/bin:/bin"},
    ).stdout
    page = ROOT / "docs" / "positions.md"
    page.write_text(page.read_text(encoding="utf-8").rstrip("\n") + "\n\n\n" + made, encoding="utf-8")


def scaffold(game: str, title: str) -> list[Path]:
    """Write the game; the files written."""
    new = names(game, title)
    pairs = files(new)
    taken = [str(target.relative_to(ROOT)) for _, target in pairs if target.exists()]
    if taken:
        raise ValueError(f"{game} exists already: {', '.join(taken)}")
    for source, target in pairs:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(renamed(source.read_text(encoding="utf-8"), new), encoding="utf-8")
    register(new)
    add_positions(new)
    written = [target for _, target in pairs]
    # the new names sort differently among the imports: ruff (of the test requirements) puts them in order
    subprocess.run([sys.executable, "-m", "ruff", "check", "--fix", "--select", "I", "-q",
                    *(str(path) for path in written if path.suffix == ".py")], cwd=ROOT, check=False)
    return written


def remove(game: str) -> None:
    """Take a scaffolded game out: its files, its registrations, its settings and its positions."""
    new = names(game, "")
    for _, target in files(new):
        target.unlink(missing_ok=True)
    shutil.rmtree(ROOT / "pyengine" / "games" / new[1], ignore_errors=True)
    for path, pattern in (
        (ROOT / "pyengine" / "games" / "__init__.py", rf'\n    "{game}": "{new[1]}",'),
        (ROOT / "web" / "cardtable_web" / "registry.py", rf'\n        _game\("{game}", "{new[1]}"\),'),
        (ROOT / "tests" / "games.py", rf'\n    "{game}": GameTests\(\n.*?\n    \),'),
    ):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(pattern, "", text, count=1, flags=re.DOTALL), encoding="utf-8")
    page = ROOT / "docs" / "positions.md"
    sections = page.read_text(encoding="utf-8").split("\n\n\n## ")
    kept = [part for part in sections if f"(../embed.html?game={game}&" not in part]
    page.write_text("\n\n\n## ".join(kept).rstrip("\n") + "\n", encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("game", help="the new game's id, lower-case words joined by hyphens (copper-lines)")
    parser.add_argument("title", nargs="?", default="", help="its title as players read it (Copper Lines)")
    parser.add_argument("--remove", action="store_true", help="take the scaffolded game out again")
    args = parser.parse_args()
    if args.remove:
        remove(args.game)
        print(f"removed {args.game}")
        return 0
    title = args.title or args.game.replace("-", " ").title()
    written = scaffold(args.game, title)
    print(f"wrote {args.game} ({title}): {len(written)} files, named in pyengine/games/__init__.py,")
    print("web/cardtable_web/registry.py, tests/games.py and docs/positions.md. Run the fast tests:")
    print('  python3 -m pytest -q -m "not e2e"')
    return 0


if __name__ == "__main__":
    sys.exit(main())
