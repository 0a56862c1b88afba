"""The linter and the type checker run with the suite: ruff over every Python file of the repository, and
``mypy --strict`` over the engines (``pyengine/``) and the page's package (``web/cardtable_web/``), as
``pyproject.toml`` configures them. Both come pinned from ``tests/requirements.txt``."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*command: str, cache: Path) -> subprocess.CompletedProcess[str]:
    """``python -m <command>`` in the repository, its caches in ``cache`` (a fresh run, nothing left behind)."""
    env = {**os.environ, "MYPY_CACHE_DIR": str(cache / "mypy"), "RUFF_CACHE_DIR": str(cache / "ruff")}
    return subprocess.run([sys.executable, "-m", *command], cwd=ROOT, capture_output=True, text=True, env=env,
                          timeout=600)


def test_ruff_finds_nothing(tmp_path: Path) -> None:
    done = run("ruff", "check", "--no-fix", ".", cache=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr


def test_mypy_strict_finds_nothing_in_the_engines_and_the_page(tmp_path: Path) -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    assert config["strict"] is True and set(config["files"]) >= {"pyengine", "web/cardtable_web"}
    done = run("mypy", cache=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
