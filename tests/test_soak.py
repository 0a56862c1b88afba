"""A short run of the soak script (``tests/soak.py``): two games per game and player count."""

from __future__ import annotations

from tests import soak


def test_a_short_soak_finds_no_failure() -> None:
    summary = soak.soak(games=2, seed=100)
    assert summary["failures"] == 0
    assert summary["games"] > 0 and summary["actions"] > 0 and summary["refused"] > 0
