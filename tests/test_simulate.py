"""``python -m pyengine simulate``: bots against bots, a JSON summary."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pyengine", "simulate", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_simulate_prints_a_json_summary() -> None:
    done = run("silver-bars", "--players", "2", "--games", "2", "--seed", "3", "--bot", "random")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["games"] == 2 and summary["players"] == 2
    assert summary["mean_length"] > 0 and summary["actions_per_second"] > 0
    assert sum(summary["wins_per_seat"]) == 2
    again = json.loads(run("silver-bars", "--players", "2", "--games", "2", "--seed", "3", "--bot", "random").stdout)
    assert again["wins_per_seat"] == summary["wins_per_seat"] and again["mean_length"] == summary["mean_length"]


def test_simulate_rejects_bad_input_with_a_message() -> None:
    for args, words in (
        (("chess", "--players", "2"), "unknown game"),
        (("silver-bars", "--players", "3"), "takes 2 to 2 players"),
        (("silver-bars", "--players", "2", "--bot", "genius"), "unknown bot"),
        (("silver-bars", "--players", "2", "--option", "thief=sometimes"), "thief"),
    ):
        done = run(*args)
        assert done.returncode == 2 and words in done.stderr and "Traceback" not in done.stderr
