"""The development server: serves a built site on a loopback address, optionally under a sub-path.

``build.py serve`` uses it to serve ``dist/``; the browser tests use it to serve the built site
under ``/card-table/`` as GitHub Pages serves a project site. Standard library only.
"""

from __future__ import annotations

import contextlib
import email.utils
import functools
import http.server
import ipaddress
import os
import signal
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from types import FrameType
from typing import Any

MIME_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".webmanifest": "application/manifest+json",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".py": "text/plain",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".txt": "text/plain",
}
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))
"""Precompressed siblings (``build.py --precompress``) served to browsers that accept them, best first."""


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Static files with the MIME types the page needs, no request log, revalidation of the page and
    ``build.json``; with a ``prefix`` other than ``/``, only paths under it are served (anything else is a 404)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, **MIME_TYPES}
    prefix = "/"

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return "/nonexistent"
        return super().translate_path("/" + path[len(self.prefix) :])

    def send_head(self) -> Any:
        """A file's precompressed sibling (``NAME.br`` or ``NAME.gz``) with ``Content-Encoding`` when the browser
        accepts that encoding; otherwise the file as it is."""
        path = self.translate_path(self.path)
        accepted = {part.split(";")[0].strip() for part in self.headers.get("Accept-Encoding", "").split(",")}
        if not os.path.isfile(path):
            return super().send_head()
        for encoding, suffix in ENCODINGS:
            if encoding in accepted and os.path.isfile(path + suffix):
                return self.send_encoded(path, path + suffix, encoding)
        return super().send_head()

    def send_encoded(self, path: str, packed: str, encoding: str) -> Any:
        """Headers and the open file for a precompressed sibling (a 304 when the browser's copy is current)."""
        stat = os.stat(path)
        since = self.headers.get("If-Modified-Since")
        if since and "If-None-Match" not in self.headers:
            with contextlib.suppress(TypeError, ValueError, IndexError, OverflowError):
                if int(stat.st_mtime) <= email.utils.parsedate_to_datetime(since).timestamp():
                    self.send_response(http.HTTPStatus.NOT_MODIFIED)
                    self.end_headers()
                    return None
        handle = open(packed, "rb")  # noqa: SIM115 (closed by the base class after copying)
        self.send_response(http.HTTPStatus.OK)
        self.send_header("Content-Type", self.guess_type(path))
        self.send_header("Content-Encoding", encoding)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Content-Length", str(os.fstat(handle.fileno()).st_size))
        self.send_header("Last-Modified", self.date_time_string(int(stat.st_mtime)))
        self.end_headers()
        return handle

    error_message_format = (
        '<!doctype html><html lang="en"><meta charset="utf-8"><title>%(code)d %(message)s</title>'
        "<h1>%(message)s</h1><p>%(explain)s</p></html>"
    )

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """An error page in words; an address too long to read says so and what to do."""
        if code == http.HTTPStatus.REQUEST_URI_TOO_LONG:
            message = "This address is too long"
            explain = ("The server reads addresses of up to 64 kB. A game's moves belong after # in the address "
                       "(the part the browser keeps to itself), or in a record loaded by the page.")
        super().send_error(code, message, explain)

    def log_message(self, format: str, *args: Any) -> None:
        """Say nothing per request."""

    def end_headers(self) -> None:
        """Ask browsers to revalidate HTML, build.json (the cache key lives there), the service worker and the web app
        manifest; the rest caches normally."""
        path = getattr(self, "path", "")  # unset when the request line itself was refused (too long)
        if path.split("?", 1)[0].endswith(("/", ".html", "build.json", "sw.js", ".webmanifest")):
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()


class ServerError(Exception):
    """The server cannot start as asked (the message says why)."""


def loopback_host(host: str) -> str:
    """``host`` if it is a loopback address; the site is never served beyond this machine."""
    if host == "localhost":
        return "127.0.0.1"
    try:
        if ipaddress.ip_address(host).is_loopback and ipaddress.ip_address(host).version == 4:
            return host
    except ValueError:
        pass
    raise ServerError(f"refusing to serve on {host}: only a 127.x.x.x loopback address is allowed")


class SiteServer(http.server.ThreadingHTTPServer):
    """The threading server, quiet when a browser goes away mid-download (a tab closed while Python's files came)."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        if not isinstance(sys.exc_info()[1], (BrokenPipeError, ConnectionResetError)):
            super().handle_error(request, client_address)


def make_server(folder: Path, host: str = "127.0.0.1", port: int = 0, prefix: str = "/") -> http.server.HTTPServer:
    """A threading server for ``folder`` (not yet serving); ``prefix`` is the sub-path it is served under."""
    handler_class = type("PrefixedSiteHandler", (SiteHandler,), {"prefix": prefix})
    handler = functools.partial(handler_class, directory=str(folder))
    server = SiteServer((loopback_host(host), port), handler)
    server.daemon_threads = True
    return server


@contextlib.contextmanager
def serving(folder: Path, prefix: str = "/", host: str = "127.0.0.1", port: int = 0) -> Iterator[str]:
    """Serve ``folder`` in a background thread while the block runs; yields the site's address."""
    server = make_server(folder, host, port, prefix)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://{server.server_address[0]}:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


def _stop_on_sigterm(signum: int, frame: FrameType | None) -> None:
    """Turn SIGTERM into the same clean stop as Ctrl-C."""
    raise KeyboardInterrupt


def serve_forever(folder: Path, host: str, port: int) -> None:
    """Serve ``folder`` until Ctrl-C (or SIGTERM), after printing its address."""
    with make_server(folder, host, port) as server:
        print(f"Serving Card Table at http://{server.server_address[0]}:{server.server_address[1]}/", flush=True)
        signal.signal(signal.SIGTERM, _stop_on_sigterm)
        with contextlib.suppress(KeyboardInterrupt):
            server.serve_forever()
