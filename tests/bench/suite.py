"""How long the whole test suite takes: the README's test command, timed.

    python tests/bench/suite.py [--site DIR] [-- PYTEST ARGS]

Runs ``python3 -m pytest -q`` (the README's command, with the workers ``pyproject.toml`` sets) against the built
site (``dist/``, or ``--site``), and prints the wall time against the target (6 minutes on a 2-core machine), the
processor time of pytest and the processes it waited for, the tests counted, and the 15 slowest tests. The
processor time leaves out part of the browser's (Chromium's helper processes are not all waited for by pytest).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TARGET_SECONDS = 6 * 60
"""The whole suite's time on a 2-core machine."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--site", type=Path, help="the built site to test (default: dist/, built when older)")
    parser.add_argument("pytest_args", nargs="*", help="more arguments for pytest, after --")
    args = parser.parse_args()
    env = {**os.environ, **({"CARDTABLE_SITE": str(args.site.resolve())} if args.site else {})}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--durations=15", *args.pytest_args]
    started = time.monotonic()
    proc = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall = time.monotonic() - started
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = proc.stdout.splitlines()
    counted = next((line for line in reversed(out) if re.search(r"\d+ (passed|failed)", line)), "no result line")
    slowest = [line for line in out if re.match(r"\s*\d+\.\d+s (call|setup|teardown) ", line)]
    print(f"tests: {counted.strip('= ')}")
    print(
        f"wall: {wall / 60:.1f} min ({wall:.0f} s); target {TARGET_SECONDS / 60:.0f} min on 2 cores"
        f" ({os.cpu_count()} here): {'met' if wall <= TARGET_SECONDS else 'NOT met'}"
    )
    print(
        f"processor time waited for: {usage.ru_utime + usage.ru_stime:.0f} s "
        f"(user {usage.ru_utime:.0f} s, system {usage.ru_stime:.0f} s)"
    )
    print("slowest:")
    for line in slowest:
        print(f"  {line.strip()}")
    return proc.returncode


if __name__ == "__main__":
    raise SystemExit(main())
