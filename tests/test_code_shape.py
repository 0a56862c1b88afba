"""The product code's shape: no function or method of the engines, the browser package, the build or the development
server is over :data:`MAX_LINES` lines (its ``def`` line to its last line, decorators apart)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PRODUCT = ("pyengine", "web/cardtable_web", "build.py", "devserver.py")
"""The product's Python: folders (every module under them) and single modules, from the repository's root."""
MAX_LINES = 60


def product_modules() -> list[Path]:
    """Every product module, sorted."""
    modules: list[Path] = []
    for name in PRODUCT:
        path = ROOT / name
        modules += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return modules


def long_functions(path: Path) -> list[str]:
    """``path:line name (N lines)`` for each function in the module at ``path`` over :data:`MAX_LINES` lines."""
    tree = ast.parse(path.read_text("utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_LINES:
                found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno} {node.name} ({lines} lines)")
    return found


def test_product_modules_are_found() -> None:
    names = {path.relative_to(ROOT).as_posix() for path in product_modules()}
    assert {"pyengine/core.py", "web/cardtable_web/controller.py", "build.py", "devserver.py"} <= names
    assert any(name.startswith("web/cardtable_web/renderers/") for name in names)


def test_no_product_function_is_over_60_lines() -> None:
    """Split a longer function into named steps."""
    found = [line for path in product_modules() for line in long_functions(path)]
    assert not found, f"functions over {MAX_LINES} lines:\n" + "\n".join(found)


MAX_CLASS_LINES = 300
DOM_CALLS = frozenset({"getElementById", "querySelector", "querySelectorAll", "addEventListener", "createElement",
                       "insertAdjacentHTML"})
"""The DOM's own methods: a module that calls one touches the DOM, whoever handed it the page's objects."""


def browser_modules() -> dict[str, Path]:
    """Every module of the browser package, by its dotted name."""
    package = ROOT / "web" / "cardtable_web"
    return {
        ".".join(("cardtable_web", *path.relative_to(package).with_suffix("").parts)).removesuffix(".__init__"): path
        for path in sorted(package.rglob("*.py"))
    }


def touches_the_dom(path: Path) -> bool:
    """Whether a module imports the browser's modules (``js``, ``pyodide``) or calls a method of the DOM."""
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("js", "pyodide"):
            return True
        if isinstance(node, ast.Import) and any(a.name.split(".")[0] in ("js", "pyodide") for a in node.names):
            return True
        if isinstance(node, ast.Attribute) and node.attr in DOM_CALLS:
            return True
    return False


def test_no_class_of_the_browser_package_is_over_300_lines() -> None:
    """Split a longer class into collaborators (the table's modes, the remote seats, the computer's turns)."""
    found = []
    for name, path in browser_modules().items():
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.ClassDef) and node.end_lineno is not None:
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_CLASS_LINES:
                    found.append(f"{name}.{node.name} ({lines} lines)")
    assert not found, f"classes over {MAX_CLASS_LINES} lines:\n" + "\n".join(found)


def test_every_module_that_touches_the_dom_is_named_in_one_list() -> None:
    """``cardtable_web.DOM_ADAPTERS`` names exactly the modules that touch the DOM, and the architecture page says
    the same: every other module is pure, runs under CPython and is imported ahead of time by the snapshot."""
    import cardtable_web

    touching = {name for name, path in browser_modules().items() if touches_the_dom(path)}
    assert touching == set(cardtable_web.DOM_ADAPTERS)
    architecture = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    listed = architecture.split("Only these modules touch the browser:", 1)[1].split("\n\n", 1)[0]
    named = {f"cardtable_web.{word.strip('`,. ').removesuffix('.py')}" for word in listed.split() if word.endswith(
        (".py`", ".py`,", ".py`."))}
    assert named == set(cardtable_web.DOM_ADAPTERS), "docs/architecture.md names other DOM modules than the code"


def test_the_check_finds_a_module_that_touches_the_dom(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("def draw(panel):\n    panel.querySelector('.x').remove()\n", "utf-8")
    pure = tmp_path / "pure.py"
    pure.write_text("def draw(view):\n    return '<p>querySelector</p>'\n", "utf-8")
    assert touches_the_dom(sneaky) and not touches_the_dom(pure)
