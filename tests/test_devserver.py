"""The local server's answers to what a browser should never have sent: an address too long to read."""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

import devserver


def test_an_address_too_long_is_refused_in_words(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>", encoding="utf-8")
    with devserver.serving(tmp_path, "/") as url:
        with pytest.raises(urllib.error.HTTPError) as refused:
            urllib.request.urlopen(url + "index.html?game=carbles&x=" + "a" * 70_000, timeout=10)
        assert refused.value.code == 414
        page = refused.value.read().decode("utf-8")
        assert "This address is too long" in page and "after #" in page
        with urllib.request.urlopen(url + "index.html?game=carbles", timeout=10) as answer:  # still serving
            assert answer.status == 200
