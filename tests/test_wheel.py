"""The engine wheel as a package people install: built as the site's build builds it, installed with pip into a fresh
virtual environment with no package index (it has no dependencies), then played through its API and its command
line there, away from the repository."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

from tests.games import GAME_IDS

ROOT = Path(__file__).resolve().parents[1]
FIGURE_MOVES = ("build 2♣ at 0,-1 south of 2♠", "contribute 3♢")


def load_build() -> ModuleType:
    """``build.py`` imported as a module (under a name no installed package uses)."""
    spec = importlib.util.spec_from_file_location("cardtable_build", ROOT / "build.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(spec.name, module)  # its dataclasses look their module up there
    spec.loader.exec_module(sys.modules[spec.name])
    return sys.modules[spec.name]


@dataclass(frozen=True)
class Installed:
    """A virtual environment with the wheel installed, and a folder outside the repository to run it in."""

    python: Path
    bin: Path
    home: Path

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``python -I ARGS`` in the environment (isolated: the repository is not on its path)."""
        env = {"PYTHONIOENCODING": "utf-8", "PATH": str(self.bin)}
        return subprocess.run(
            [str(self.python), "-I", *args], cwd=self.home, env=env, capture_output=True, text=True, timeout=300
        )


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Installed:
    build = load_build()
    base = tmp_path_factory.mktemp("wheel")
    wheel = build.build_wheel(ROOT, build.project_meta(ROOT), base / "wheels", None)
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(base / "venv")], check=True, timeout=120)
    python = base / "venv" / "bin" / "python"
    pip = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", "--no-input", "-q"]
    done = subprocess.run([*pip, str(wheel)], capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    home = base / "home"
    home.mkdir()
    return Installed(python, python.parent, home)


PLAY = """
import json
import pyengine
from pyengine import new_game, replay

state = new_game("silver-bars", 2, seed=11)
while not state.is_terminal():
    state = state.apply(state.legal_texts()[0])
again = replay(json.loads(json.dumps(state.record())))
print(json.dumps({"file": pyengine.__file__, "games": list(pyengine.GAMES), "winners": state.winners(),
                  "moves": len(state.record()["actions"]), "replayed": again.view(None) == state.view(None)}))
"""


def test_the_installed_package_plays_a_game_through_its_api(installed: Installed) -> None:
    done = installed.run("-c", PLAY)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert "site-packages" in Path(result["file"]).parts and not Path(result["file"]).is_relative_to(ROOT)
    assert result["games"] == GAME_IDS
    assert result["winners"] and result["moves"] > 10 and result["replayed"]


def test_the_metadata_is_complete(installed: Installed) -> None:
    code = "import json; from importlib.metadata import metadata; m = metadata('pyengine'); print(json.dumps(m.json))"
    done = installed.run("-c", code)
    assert done.returncode == 0, done.stderr
    meta = json.loads(done.stdout)
    assert meta["name"] == "pyengine" and meta["version"] == "0.1.0" and meta["requires_python"] == ">=3.11"
    assert meta["summary"].startswith("Card Table's rules engines") and meta["license_expression"] == "MIT"
    assert meta["description_content_type"] == "text/markdown"
    assert "python -m pyengine" in meta["description"] and "pip install" in meta["description"]
    assert "Programming Language :: Python :: 3.11" in meta["classifier"]
    assert "Topic :: Games/Entertainment :: Board Games" in meta["classifier"]
    assert "requires_dist" not in meta and "provides_extra" not in meta  # it installs with no index


def test_the_command_line_offers_the_games_a_position_and_a_simulation(installed: Installed) -> None:
    games = installed.run("-m", "pyengine", "games")
    assert games.returncode == 0 and games.stdout.splitlines()[0].startswith("carbondale\t2-4 players\tCarbondale")
    listed = installed.run("-m", "pyengine", "position", "carbondale")
    assert listed.returncode == 0 and "figure-1\t2 players\tFigure 1" in listed.stdout
    moves = [arg for move in FIGURE_MOVES for arg in ("--move", move)]
    shown = installed.run("-m", "pyengine", "position", "carbondale", "figure-1", "--seat", "0", *moves)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[1:] == [
        "  You build 2♣ south of your 2♠",
        "  You contribute 3♢ to the communal stock",
        "Player 1 decides.",
        "Scores: Player 1 7, Player 2 0",
        "Player 1's moves:",
        "  draw from pile",
    ]
    public = installed.run("-m", "pyengine", "position", "carbondale", "figure-1", *moves, "--json")
    view = json.loads(public.stdout)
    assert view["seat"] is None and view["moves"] == {} and view["hand"] is None  # nobody's cards
    simulated = installed.run("-m", "pyengine", "simulate", "silver-bars", "--players", "2", "--games", "1")
    assert simulated.returncode == 0 and json.loads(simulated.stdout)["games"] == 1
    script = subprocess.run(
        [str(installed.bin / "pyengine"), "games", "--json"], capture_output=True, text=True, timeout=120, check=False
    )
    assert script.returncode == 0 and [game["id"] for game in json.loads(script.stdout)["games"]] == GAME_IDS


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("position", "chess"), "unknown game 'chess'; the games are: carbondale"),
        (("position", "carbondale", "figure-9"), "Carbondale has no position 'figure-9'; its positions are: figure-1"),
        (("position", "carbondale", "figure-1", "--move", "contribute 3♢"), "move 1, 'contribute 3♢': you contribute"),
        (("position", "carbondale", "figure-1", "--seat", "2"), "seat must be None or 0..1; got 2"),
        (("position", "carbondale", "--seat", "1"), "--move, --seat and --json need a position's name"),
        (("simulate", "silver-bars", "--players", "3"), "takes 2 to 2 players"),
        (("simulate", "silver-bars", "--players", "2", "--games", "0"), "--games must be at least 1"),
        (("deal",), "invalid choice: 'deal'"),
    ],
)
def test_bad_input_is_named_without_a_traceback(installed: Installed, args: tuple[str, ...], words: str) -> None:
    done = installed.run("-m", "pyengine", *args)
    assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr, done.stderr
