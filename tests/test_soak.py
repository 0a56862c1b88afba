"""A short run of the soak script (``tests/soak.py``): one game per game and player count the suite plays, one test per
game (so parallel workers share the run)."""

from __future__ import annotations

import pytest

import pyengine
from tests import soak


@pytest.mark.parametrize("game_id", list(pyengine.GAMES))
def test_a_short_soak_finds_no_failure(game_id: str) -> None:
    summary = soak.soak(games=1, seed=100, only=game_id, every_count=False)
    assert summary["failures"] == 0
    assert summary["games"] > 0 and summary["actions"] > 0 and summary["refused"] > 0
