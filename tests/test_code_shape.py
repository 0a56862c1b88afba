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
