"""Each game's picture in the lobby: one of its named positions (the registry's ``picture``) drawn by the game's own
renderer, as seen from the first seat, written as a small static page: the table's and the game's stylesheets,
no script, nothing that can be clicked or focused. The lobby shows it scaled down in a frame.

Made at build time, under CPython: ``python -m cardtable_web.pictures FOLDER`` writes ``FOLDER/<game>.html`` for
every game (the same bytes on every build).
"""

from __future__ import annotations

import sys
from pathlib import Path

import pyengine

from .drawing import render_state
from .html import esc
from .registry import SITE_GAMES, site_game

PICTURE_SEAT = 0
"""The seat whose view the picture shows: a hand of cards makes a table look like one."""

CSP = ("default-src 'self'; script-src 'none'; style-src 'self'; style-src-attr 'unsafe-inline'; img-src 'self'; "
       "object-src 'none'; base-uri 'self'; form-action 'none'")


def picture_html(game: str) -> str:
    """The picture page of ``game``: its named position drawn for :data:`PICTURE_SEAT`, under the site's styles
    (the page lives in ``web/pictures/``)."""
    entry = site_game(game)
    state = pyengine.core.named_position(game, entry.picture)
    board = render_state(state, PICTURE_SEAT)
    title = pyengine.GAMES[game].title
    return (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        f"<title>A table of {esc(title)}</title>\n"
        '<link rel="stylesheet" href="../table.css">\n'
        f'<link rel="stylesheet" href="../../{esc(entry.stylesheet)}">\n'
        '<link rel="stylesheet" href="../picture.css">\n'
        "</head>\n"
        f'<body class="picture" inert>\n<div id="board" class="board">{board}</div>\n</body>\n</html>\n'
    )


def write_pictures(folder: Path) -> list[Path]:
    """Write every game's picture page into ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for game in SITE_GAMES:
        path = folder / f"{game}.html"
        path.write_text(picture_html(game), encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m cardtable_web.pictures FOLDER", file=sys.stderr)
        return 2
    for path in write_pictures(Path(argv[0])):
        print(path.name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
