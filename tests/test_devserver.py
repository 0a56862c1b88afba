"""The local server's answers to what a browser should never have sent (an address too long to read), and its
silence when a browser goes away mid-download."""

from __future__ import annotations

import socket
import struct
import time
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


def test_a_browser_gone_mid_download_is_not_an_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A tab closed while a large file came (the connection reset under the server's feet) leaves no traceback in
    the test log, and the server goes on serving."""
    (tmp_path / "big.bin").write_bytes(b"0" * 8_000_000)
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>", encoding="utf-8")
    with devserver.serving(tmp_path, "/") as url:
        host, port = url.split("//")[1].split("/")[0].split(":")
        for _ in range(3):
            with socket.create_connection((host, int(port))) as gone:
                gone.sendall(b"GET /big.bin HTTP/1.1\r\nHost: here\r\n\r\n")
                gone.recv(100)
                gone.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))  # close by a reset
        time.sleep(0.5)
        with urllib.request.urlopen(url + "index.html", timeout=10) as answer:
            assert answer.status == 200
    assert "Traceback" not in capsys.readouterr().err
