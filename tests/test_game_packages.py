"""Every registered game is built one way (docs/adding-a-game.md): the same engine modules, a <Game>Rules class
registered over a <Game>State, its knowledge (AI tuning, open hands, the modules to preload) in its package, and
the site's files (renderer, stylesheet, rules page)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest
from cardtable_web.registry import SITE_GAMES

import pyengine
from pyengine.ai import LEVELS
from pyengine.core import Rules, rules_for
from pyengine.games import GAME_MODULES, JUDGEMENT, PACKAGE_MODULES, preload

ROOT = Path(__file__).resolve().parents[1]
GAME_IDS = list(GAME_MODULES)


def camel(module: str) -> str:
    """A game package's name as its classes spell it (``carbon_city_zero`` -> ``CarbonCityZero``)."""
    return "".join(part.capitalize() for part in module.split("_"))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_package_has_every_module(game_id: str) -> None:
    """rules.py, notation.py, words.py, view.py and position.py, each a file of the game's package."""
    package = ROOT / "pyengine" / "games" / GAME_MODULES[game_id]
    missing = [name for name in PACKAGE_MODULES if not (package / f"{name}.py").is_file()]
    assert not missing, f"{game_id} lacks {', '.join(f'{name}.py' for name in missing)} in {package}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_registers_its_rules_class_over_its_state(game_id: str) -> None:
    """The registered rules are the <Game>Rules of rules.py, a direct Rules (no chain of the game's own classes),
    and a new game's core is a <Game>State."""
    module = GAME_MODULES[game_id]
    name = camel(module)
    rules_module = importlib.import_module(f"pyengine.games.{module}.rules")
    rules_class = getattr(rules_module, f"{name}Rules")
    rules = rules_for(game_id)
    assert type(rules) is rules_class and rules_class.__bases__ == (Rules,)
    package = importlib.import_module(f"pyengine.games.{module}")
    assert package.RULES is rules
    info = pyengine.GAMES[game_id]
    core = pyengine.new_game(game_id, max(info.min_players, min(2, info.max_players)), 1).core
    assert type(core).__name__ == f"{name}State"
    assert isinstance(rules.notation, pyengine.notation.Notation)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_refuses_a_position_in_words(game_id: str) -> None:
    """position.py loads a described position, or refuses it with a short ValueError (games with no positions)."""
    with pytest.raises(ValueError) as refused:
        pyengine.new_game(game_id, pyengine.GAMES[game_id].min_players or 2, 1, None, {"no such field": 1})
    assert 0 < len(str(refused.value)) < 300


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_has_its_site_files(game_id: str) -> None:
    """The site's registry names the game's renderer module, stylesheet and rules page, and each exists."""
    site = SITE_GAMES.get(game_id)
    assert site is not None, f"{game_id} has no entry in web/cardtable_web/registry.py"
    assert (ROOT / "web" / "cardtable_web" / "renderers" / f"{site.renderer}.py").is_file()
    assert site.renderer == GAME_MODULES[game_id]
    assert (ROOT / site.stylesheet).is_file(), site.stylesheet
    assert (ROOT / site.rules_page).is_file(), site.rules_page
    assert callable(getattr(site.render_module(), "render", None))


def test_what_is_specific_to_a_game_lives_in_its_rules() -> None:
    """AI tuning by level name, which options open hands (the registry asks the rules), the modules to preload."""
    for game_id in GAME_IDS:
        rules = rules_for(game_id)
        assert set(rules.ai_tuning) <= set(LEVELS), f"{game_id} tunes a level that does not exist"
        for level, settings in rules.ai_tuning.items():
            tunable = set(vars(LEVELS[level])) - {"name"}
            assert set(settings) <= tunable | {"from_players"}
            for more in settings.get("from_players", {}).values():
                assert set(more) <= tunable
        defaults = {o.name: o.default for o in rules.info.options}
        assert SITE_GAMES[game_id].open_information(defaults) == rules.open_information(defaults)
    assert rules_for("carbles").open_information({"open_hands": True})
    assert not rules_for("carbles").open_information({"open_hands": False})
    assert rules_for("carbon-city-zero").open_information({})
    assert not rules_for("carbondale").open_information({}) and not rules_for("silver-bars").open_information({})
    modules = preload()
    for module in GAME_MODULES.values():
        assert {f"pyengine.games.{module}.{name}" for name in PACKAGE_MODULES} <= set(modules)
    assert {"pyengine.ai", "pyengine.takeback", "pyengine.thinker"} <= set(modules)
    assert "pyengine.__main__" not in modules and "pyengine.simulate" not in modules


def test_the_snapshot_imports_the_browser_package_but_its_dom_adapters() -> None:
    """``cardtable_web.preload()``: every module of the browser package, each game's renderer among them, less
    the DOM's adapters; each imports here, where there is no page (no ``js`` module), as the snapshot needs."""
    import cardtable_web

    modules = cardtable_web.preload()
    assert {f"cardtable_web.renderers.{module}" for module in GAME_MODULES.values()} <= set(modules)
    assert {"cardtable_web.controller", "cardtable_web.remote_host", "cardtable_web.lesson"} <= set(modules)
    assert not set(modules) & set(cardtable_web.DOM_ADAPTERS)
    for name in modules:
        importlib.import_module(name)
    for adapter in cardtable_web.DOM_ADAPTERS:
        with pytest.raises(ModuleNotFoundError, match="js"):
            importlib.import_module(adapter)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_never_imports_the_computer_players(game_id: str) -> None:
    """The games sit below the computer players: a game plans with :mod:`pyengine.planning`, never ``pyengine.ai``
    (nor the worker's ``thinker``)."""
    import ast

    package = ROOT / "pyengine" / "games" / GAME_MODULES[game_id]
    for path in sorted(package.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            names += [alias.name for alias in node.names] if isinstance(node, ast.Import) else []
            for name in names:
                assert name.split(".")[-1] not in {"ai", "thinker"}, f"{path.name} imports {name}"


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_declares_whether_it_loads_positions(game_id: str) -> None:
    """``GameInfo.loads_positions`` is the one word on it: a game that declares it loads each of its named
    positions; one that does not refuses every description with a short ValueError (the page reads the
    declaration and never probes the rules class)."""
    rules = rules_for(game_id)
    if rules.info.loads_positions:
        for name in rules.positions:
            assert pyengine.core.named_position(game_id, name).position is not None
    else:
        assert not rules.positions
        with pytest.raises(ValueError, match="no loadable positions"):
            rules.load_position(rules.info.min_players, {}, {})


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_has_a_judgement_or_says_it_has_none(game_id: str) -> None:
    """``judgement.py`` and a rules ``judgement`` that judges, or ``JUDGEMENT = None`` in the package (and no
    judgement)."""
    module = GAME_MODULES[game_id]
    package = importlib.import_module(f"pyengine.games.{module}")
    has_module = (ROOT / "pyengine" / "games" / module / f"{JUDGEMENT}.py").is_file()
    declared_none = hasattr(package, "JUDGEMENT") and package.JUDGEMENT is None
    assert has_module != declared_none, f"{game_id}: a {JUDGEMENT}.py, or JUDGEMENT = None in its __init__.py"
    state = pyengine.new_game(game_id, pyengine.GAMES[game_id].min_players, 3)
    judged = rules_for(game_id).judgement(state.core, 0)
    assert (judged is None) == declared_none


def test_every_registered_game_has_its_test_settings() -> None:
    """The one table of per-game test settings (``tests/games.py``) has an entry for every registered game, and
    only for them; the tests and benchmarks that go through the games read the registry."""
    from tests.games import GAME_IDS as LISTED
    from tests.games import SETTINGS, settings

    assert LISTED == GAME_IDS
    missing = [game for game in GAME_IDS if game not in SETTINGS]
    assert not missing, f"add {', '.join(missing)} to SETTINGS in tests/games.py"
    assert set(SETTINGS) <= set(GAME_IDS), "tests/games.py has settings for a game that is not registered"
    for game in GAME_IDS:
        info = pyengine.GAMES[game]
        for players in (*settings(game).players(game), *(p for p, _ in settings(game).games(game))):
            assert info.min_players <= players <= info.max_players, f"{game}: {players} players"
