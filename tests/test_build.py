"""The static site build (``build.py``): layout, pins, integrity, wheel, games JSON, self-containment, serving.

One build per module runs into a temporary copy of the repository (``--root``), with a temporary npm cache seeded from
the repository's own cache when it has one, so the real ``dist/`` and ``.cache/`` are never touched.
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import importlib.util
import io
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tarfile
import threading
import urllib.request
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

import pytest

import pyengine
from tests.games import GAME_IDS

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "build.py"
WHEEL = "pyengine-0.1.0-py3-none-any.whl"
PYODIDE_FILES = {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"}
MICROPIP = "micropip-0.11.1-py3-none-any.whl"
EXTERNAL = re.compile(
    r"""(\bsrc\s*=|<link\b[^>]*\bhref\s*=|@import\s+(url\()?|\burl\(|\bimport\s*\(?|\bfrom|\bfetch\s*\()"""
    r"""\s*["'`]?\s*https?://"""
)
BUILD_TIMEOUT = 300


@dataclass(frozen=True)
class Site:
    """A finished build: the temporary repository copy, its output, the npm cache used and the build's stdout."""

    root: Path
    out: Path
    cache: Path
    stdout: str


def run_build(*args: str | Path, timeout: float = BUILD_TIMEOUT) -> subprocess.CompletedProcess[str]:
    """Run ``build.py`` with ``args`` and capture its output."""
    return subprocess.run(
        [sys.executable, str(BUILD), *map(str, args)],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def load_build() -> ModuleType:
    """``build.py`` imported as a module (under a name no installed package uses)."""
    spec = importlib.util.spec_from_file_location("cardtable_build", BUILD)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def source_files(folder: Path) -> set[str]:
    """Files under ``folder`` the build should ship, as posix paths (no bytecode, caches or hidden files)."""
    return {
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file()
        and "__pycache__" not in p.parts
        and p.suffix != ".pyc"
        and not any(part.startswith(".") for part in p.relative_to(folder).parts)
    }


def make_root(root: Path) -> None:
    """A copy of the repository's build inputs, plus files that exercise the build's exclusions."""
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copytree(ROOT / "pyengine", root / "pyengine", ignore=ignore)
    shutil.copy2(ROOT / "pyproject.toml", root / "pyproject.toml")
    if (ROOT / "README.md").is_file():
        shutil.copy2(ROOT / "README.md", root / "README.md")
    else:
        (root / "README.md").write_text("# Card Table\n", encoding="utf-8")
    if (ROOT / "index.html").is_file():
        shutil.copy2(ROOT / "index.html", root / "index.html")
    else:
        (root / "index.html").write_text(
            "<!doctype html>\n<title>Card Table</title>\n<!-- GAMES -->\n", encoding="utf-8"
        )
    if (ROOT / "web").is_dir():
        shutil.copytree(ROOT / "web", root / "web", ignore=ignore)
    (root / "docs").mkdir()
    shutil.copy2(ROOT / "docs" / "python-pages.md", root / "docs" / "python-pages.md")  # the wheel's readme
    shutil.copy2(ROOT / "python-example.html", root / "python-example.html")
    for name in ("sw.js", "manifest.webmanifest", "snapshot.mjs"):
        shutil.copy2(ROOT / name, root / name)
    web = root / "web"
    (web / "cardtable_web").mkdir(parents=True, exist_ok=True)
    (web / "cardtable_web" / "__init__.py").touch()
    (web / "rules").mkdir(exist_ok=True)
    (web / "rules" / "zz-build-test.html").write_text(
        '<p>Original rules: <a href="https://example.org/rules">example.org</a>.</p>\n', encoding="utf-8"
    )
    for folder in (web / "__pycache__", web / "cardtable_web" / "__pycache__"):
        folder.mkdir(exist_ok=True)
        (folder / "stale.cpython-311.pyc").write_bytes(b"not shipped")


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Site:
    """Build once into a temporary copy of the repository."""
    base = tmp_path_factory.mktemp("build")
    root, cache = base / "repo", base / "npm-cache"
    root.mkdir()
    cache.mkdir()
    make_root(root)
    for tarball in sorted((ROOT / ".cache" / "npm").glob("*.tgz")) + sorted((ROOT / ".cache" / "npm").glob("*.whl")):
        shutil.copy2(tarball, cache / tarball.name)  # only a head start: the build verifies every tarball and wheel
    # and what the Node steps made: the compiled modules, the standard library and the snapshot, whose bytes do not
    # depend on where they were made (test_two_builds_are_byte_identical makes them afresh, in another folder)
    steps = ROOT / ".cache" / "npm" / "steps"
    for made in [*steps.glob("bytecode-*"), *steps.glob("stdlib-*"), *steps.glob("snapshot-*")]:
        shutil.copytree(made, cache / "steps" / made.name)
    proc = run_build("--root", root, "--out", root / "dist", "--cache", cache)
    assert proc.returncode == 0, f"build failed:\n{proc.stdout}\n{proc.stderr}"
    return Site(root=root, out=root / "dist", cache=cache, stdout=proc.stdout)


def games_data(index_html: str) -> dict[str, object]:
    """The lobby's data (games and levels) embedded in the built page."""
    match = re.search(r'<script type="application/json" id="games-data">(.*?)</script>', index_html, re.DOTALL)
    assert match, "no games-data script in index.html"
    data = json.loads(match.group(1))
    assert isinstance(data, dict) and isinstance(data["games"], list) and isinstance(data["levels"], list)
    return data


# -- the built site ----------------------------------------------------------------------------------------------------


def test_layout(site: Site) -> None:
    out = site.out
    assert {p.name for p in (out / "vendor" / "pyodide").iterdir()} == PYODIDE_FILES | {MICROPIP}
    pyscript = {p.name for p in (out / "vendor" / "pyscript").iterdir()}
    assert {"core.js", "core.css"} <= pyscript
    assert all(name.endswith((".js", ".css")) for name in pyscript), pyscript
    groups = sorted([*GAME_IDS, "common", "adapters"])
    assert sorted(p.name for p in (out / "wheels").glob("*/*")) == [
        *(f"bytecode-{group}.zip" for group in groups),
        "cardtable_web.zip",
        WHEEL,
        "python.snapshot",
        "python_stdlib.zip",
    ]
    expected_web = {p for p in source_files(site.root / "web") if not p.startswith("cardtable_web/")}
    pictures = {f"pictures/{game}.html" for game in pyengine.GAMES}  # drawn by the build (cardtable_web.pictures)
    assert source_files(out / "web") == expected_web | pictures
    assert "rules/zz-build-test.html" in expected_web
    top = ["build.json", "icons", "index.html", "manifest.webmanifest", "python-example.html", "sw.js", "vendor"]
    top += ["web", "wheels"]
    top += ["embed.html"] if (site.root / "embed.html").is_file() else []
    assert sorted(p.name for p in out.iterdir()) == sorted(top)
    assert not [p for p in out.rglob("*") if p.name == "__pycache__" or p.suffix == ".pyc"]


def test_pyscript_chunks_all_present(site: Site) -> None:
    folder = site.out / "vendor" / "pyscript"
    for path in folder.glob("*.js"):
        for name in re.findall(r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["']\./([^"']+)["']""", path.read_text("utf-8")):
            assert (folder / name).is_file(), f"{path.name} imports missing {name}"


def test_pinned_versions(site: Site) -> None:
    lock = json.loads((site.out / "vendor" / "pyodide" / "pyodide-lock.json").read_text("utf-8"))
    assert lock["info"]["python"] == "3.14.2"
    assert re.search(r'="314\.0\.7"', (site.out / "vendor" / "pyodide" / "pyodide.mjs").read_text("utf-8"))
    for tarball, name, version in (
        ("pyodide-314.0.7.tgz", "pyodide", "314.0.7"),
        ("pyscript-core-0.7.31.tgz", "@pyscript/core", "0.7.31"),
        ("idiomorph-0.8.0.tgz", "idiomorph", "0.8.0"),
    ):
        with tarfile.open(site.cache / tarball) as tar:
            member = tar.extractfile("package/package.json")
            assert member is not None
            manifest = json.load(member)
        assert (manifest["name"], manifest["version"]) == (name, version)
    build = json.loads((site.out / "build.json").read_text("utf-8"))
    vendored = {"pyodide": "314.0.7", "@pyscript/core": "0.7.31", "idiomorph": "0.8.0", "qr": "0.7.0"}
    vendored["micropip"] = "0.11.1"
    assert build["vendor"] == vendored


def test_idiomorph_ships_one_module_that_both_pages_load(site: Site) -> None:
    """idiomorph (the table's in-place redraw) ships as its one ES module, which ``web/motion.js`` imports; both
    pages load motion.js from the site, the service worker precaches both, and a visit downloads them at start."""
    assert [p.name for p in (site.out / "vendor" / "idiomorph").iterdir()] == ["idiomorph.esm.js"]
    module = (site.out / "vendor" / "idiomorph" / "idiomorph.esm.js").read_text("utf-8")
    assert re.search(r"^export\s*\{\s*Idiomorph\s*\}", module, re.MULTILINE)
    motion = (site.out / "web" / "motion.js").read_text("utf-8")
    imported = re.findall(r"""^\s*import\b[^;]*?\bfrom\s*["']([^"']+)["']""", motion, re.MULTILINE)
    assert imported == ["../vendor/idiomorph/idiomorph.esm.js"]
    assert (site.out / "web" / imported[0]).resolve() == (site.out / "vendor" / "idiomorph" / "idiomorph.esm.js")
    for page in ("index.html", "embed.html"):  # the repository's pages (the test build copies no embed)
        assert '<script type="module" src="web/motion.js"></script>' in (ROOT / page).read_text("utf-8"), page
    worker = (site.out / "sw.js").read_text("utf-8")
    assert '"vendor/idiomorph/idiomorph.esm.js"' in worker and '"web/motion.js"' in worker
    build = json.loads((site.out / "build.json").read_text("utf-8"))
    assert "vendor/idiomorph/idiomorph.esm.js" in load_build().startup_files(site.out, build)


def test_no_source_maps_or_typings(site: Site) -> None:
    unwanted = [p for p in site.out.rglob("*") if p.suffix == ".map" or p.name.endswith(".d.ts") or "console" in p.name]
    assert unwanted == []


def archive(out: Path, name: str) -> Path:
    """Where the build put the wheel or the zip (a folder named by their hash)."""
    (path,) = (out / "wheels").glob(f"*/{name}")
    return path


def test_cached_tarballs_match_pins(site: Site) -> None:
    module = load_build()
    for pin in (module.PYODIDE, module.PYSCRIPT, module.IDIOMORPH, module.AXE):
        data = (site.cache / pin.tarball_name).read_bytes()
        assert "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode() == pin.integrity


def test_axe_is_a_test_tool_not_shipped(site: Site) -> None:
    """axe-core (the browser tests' accessibility checker) is cached by the build but never part of the site."""
    shipped = [p for p in site.out.rglob("*") if "axe" in p.name.lower()]
    assert not shipped, shipped
    assert "axe" not in (site.out / "sw.js").read_text("utf-8")


def test_build_json(site: Site) -> None:
    build = json.loads((site.out / "build.json").read_text("utf-8"))
    assert build["version"] == "0.1.0"
    assert re.fullmatch(rf"wheels/[0-9a-f]{{12}}/{re.escape(WHEEL)}", build["engine_wheel"])
    assert build["web_zip"] == build["engine_wheel"].rsplit("/", 1)[0] + "/cardtable_web.zip"
    assert build["pyodide"] == "vendor/pyodide/"
    assert build["pyscript"] == "vendor/pyscript/core.js"
    assert re.fullmatch(r"[0-9a-f]{8,16}", build["cache_key"])
    actual = {
        p.relative_to(site.out).as_posix(): p.stat().st_size
        for p in site.out.rglob("*")
        if p.is_file() and p.name != "build.json"
    }
    assert build["files"] == actual
    assert build["snapshot"] == build["engine_wheel"].rsplit("/", 1)[0] + "/python.snapshot"
    assert build["stdlib"] == build["engine_wheel"].rsplit("/", 1)[0] + "/python_stdlib.zip"
    assert build["stdlib_sha256"] == hashlib.sha256((site.out / build["stdlib"]).read_bytes()).hexdigest()
    assert build["snapshot_magic"] == load_build().SNAPSHOT_MAGIC
    for key in ("engine_wheel", "web_zip", "pyscript", "snapshot", "stdlib"):
        assert (site.out / build[key]).is_file()


def test_the_snapshot_marker_has_one_home() -> None:
    """``build.py`` alone spells the snapshot file's marker: the page's scripts take it from ``build.json``
    (``snapshot_magic``), so a new marker cannot leave a stale copy that refuses every snapshot."""
    magic = load_build().SNAPSHOT_MAGIC
    scripts = [*(ROOT / "web").rglob("*.js"), *(ROOT / "web").rglob("*.mjs"), *ROOT.glob("*.js"), *ROOT.glob("*.mjs")]
    scripts += [*ROOT.glob("*.html")]
    assert scripts
    copies = [path.relative_to(ROOT).as_posix() for path in scripts if magic.split()[0] in path.read_text("utf-8")]
    assert not copies, f"these carry their own copy of the snapshot marker; read build.json's snapshot_magic: {copies}"
    python_js = (ROOT / "web" / "python.js").read_text("utf-8")
    assert "settings.build.snapshot_magic" in python_js, "web/python.js reads the marker from build.json"


def read_snapshot_header(data: bytes, magic: str) -> tuple[dict[str, str], int]:
    """The facts a snapshot file was made from and where Pyodide's own snapshot starts in it, read the way
    ``web/python.js`` reads them: the first line is the marker, a space and the header's length."""
    first = data[:64].split(b"\n", 1)[0].decode("ascii")
    assert first.startswith(magic + " "), f"not a Card Table snapshot: {first!r}"
    length = int(first[len(magic) + 1 :])
    facts: dict[str, str] = json.loads(data[len(first) + 1 : length])
    return facts, length


def test_snapshot_names_what_it_was_made_from(site: Site) -> None:
    """The snapshot's header holds the Pyodide version and the sha256 of the wheel, the zip and the standard library
    it was made from (the page refuses it when they differ from the archives it loads and the manifest's standard
    library), and how Pyodide's memory image follows, aligned: its pages of zeros left out."""
    data = archive(site.out, "python.snapshot").read_bytes()
    facts, start = read_snapshot_header(data, load_build().SNAPSHOT_MAGIC)
    stored = facts.pop("image")
    assert facts == {
        "pyodide": "314.0.7",
        "engine_wheel": hashlib.sha256(archive(site.out, WHEEL).read_bytes()).hexdigest(),
        "web_zip": hashlib.sha256(archive(site.out, "cardtable_web.zip").read_bytes()).hexdigest(),
        "stdlib": hashlib.sha256(archive(site.out, "python_stdlib.zip").read_bytes()).hexdigest(),
    }
    assert start % 16 == 0 and stored["stored"] == len(data) - start and stored["page"] == 4096
    assert data[:start].decode("ascii").startswith("CARDTABLE-SNAPSHOT 2 ")
    image = load_build().full_image(stored, data[start:])
    assert len(image) == stored["size"] > 20_000_000
    assert stored["stored"] < 0.7 * stored["size"]  # the zeros are not stored


def test_sparse_image_round_trip() -> None:
    """A memory image goes into the snapshot file without its pages of zeros and comes back whole, a last page
    shorter than the others included; a map that does not match its pages is refused."""
    build = load_build()
    page = 16
    image = bytes(page * 3) + bytes(range(1, 40)) + bytes(page * 2) + b"\x07" + bytes(page - 1) + b"end"
    stored, body = build.sparse_image(image, page=page)
    # nine pages: 0-2 zeros, 3-5 the counting bytes, 6 zeros, 7 the 7, 8 (shorter) "end"; the map is 16 bytes
    assert stored == {"size": len(image), "page": page, "stored": 16 + 5 * page}
    assert body[:16] == bytes([0b10111000, 0b1]) + bytes(14)
    assert build.full_image(stored, body) == image
    with pytest.raises(ValueError):
        build.full_image(stored, body[:-page])
    assert build.full_image({"size": 0, "page": page, "stored": 0}, b"") == b""


def test_bytecode_archives(site: Site) -> None:
    """Every module of the wheel and the browser zip, less the command line's, is compiled ahead of time for
    Pyodide's Python exactly once: a hash-checked ``.pyc`` (flags 3, no time stamp) whose source hash is that of the
    module shipped beside it, named for Pyodide's Python; each game's archive holds its engine package and
    renderer, the common one the rest."""
    import _imp

    build = json.loads((site.out / "build.json").read_text(encoding="utf-8"))
    lock = json.loads((site.out / "vendor" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    major, minor = lock["info"]["python"].split(".")[:2]
    sources: dict[str, bytes] = {}
    for name in (WHEEL, "cardtable_web.zip"):
        with zipfile.ZipFile(archive(site.out, name)) as zf:
            sources |= {n: zf.read(n) for n in zf.namelist() if n.endswith(".py")}
    assert set(build["bytecode"]) == {"common", "adapters", *GAME_IDS}
    compiled: dict[str, str] = {}
    for group, path in build["bytecode"].items():
        with zipfile.ZipFile(site.out / path) as zf:
            for name in zf.namelist():
                folder, _, file = name.rpartition("/__pycache__/")
                module, tag, suffix = file.rsplit(".", 2)
                assert (tag, suffix) == (f"cpython-{major}{minor}", "pyc"), name
                source = f"{folder}/{module}.py"
                data = zf.read(name)
                magic = int.from_bytes(data[:2], "little")
                assert 3600 <= magic < 3700, "not Python 3.14's bytecode"  # 3.14's magic numbers are 3600-3699
                assert int.from_bytes(data[4:8], "little") == 0b11, name  # hash-based, checked against the source
                assert data[8:16] == _imp.source_hash(int.from_bytes(data[:4], "little"), sources[source]), name
                assert source not in compiled, f"{source} compiled twice"
                compiled[source] = group
    command_line = {"pyengine/__main__.py", "pyengine/simulate.py"}  # no page imports them
    assert set(compiled) == set(sources) - command_line and command_line <= set(sources)
    assert compiled["pyengine/games/silver_bars/rules.py"] == "silver-bars"
    assert compiled["cardtable_web/renderers/silver_bars.py"] == "silver-bars"
    assert compiled["cardtable_web/renderers/carbon_city_zero.py"] == "carbon-city-zero"
    assert compiled["pyengine/games/__init__.py"] == compiled["cardtable_web/renderers/__init__.py"] == "common"
    assert compiled["pyengine/core.py"] == compiled["cardtable_web/controller.py"] == "common"
    assert compiled["cardtable_web/shell.py"] == compiled["cardtable_web/dom.py"] == "adapters"  # DOM_ADAPTERS


def test_site_standard_library(site: Site) -> None:
    """The site's standard library is Pyodide's, entry for entry, less the parts a page never uses, with the modules
    a page imports as it starts compiled in place of their sources: unchecked hash-based ``.pyc`` files (flags 1)
    for Pyodide's Python, each carrying its source's hash; every entry deflated, as in Pyodide's zip (a host need
    not compress a zip)."""
    import _imp

    with zipfile.ZipFile(site.out / "vendor" / "pyodide" / "python_stdlib.zip") as zf:
        pyodide = {info.filename: zf.read(info) for info in zf.infolist()}
    with zipfile.ZipFile(archive(site.out, "python_stdlib.zip")) as zf:
        assert {info.compress_type for info in zf.infolist()} == {zipfile.ZIP_DEFLATED}
        ours = {info.filename: zf.read(info) for info in zf.infolist()}
    compiled = {name[:-1] for name in ours if name.endswith(".pyc")}
    # what a page imports as it starts: Pyodide's own start, PyScript's package and the shell's
    for module in (
        "encodings/__init__.py",
        "_pyodide/_base.py",
        "pyodide/ffi/__init__.py",
        "asyncio/tasks.py",
        "inspect.py",
        "json/decoder.py",
        "dataclasses.py",
        "traceback.py",
        "pathlib/__init__.py",
    ):
        assert module in compiled, module
    left_out = {name for name in pyodide if name not in ours and name not in compiled}
    assert {"unittest/__init__.py", "pdb.py", "_pyrepl/__init__.py", "multiprocessing/__init__.py"} <= left_out
    assert {"email/__init__.py", "xml/__init__.py"} <= left_out
    assert not [name for name in left_out if name.startswith(("json/", "asyncio/", "zipfile/"))]
    # of the text codecs, UTF-8 and its kin, ASCII, Latin-1 and zip's cp437 stay; the rest of the world's go
    codecs = {name for name in left_out if name.startswith("encodings/")}
    assert {"encodings/cp1251.py", "encodings/shift_jis.py", "encodings/mac_roman.py"} <= codecs
    kept = ("utf_8", "utf_8_sig", "utf_16", "ascii", "latin_1", "cp437", "idna", "aliases", "unicode_escape")
    assert not codecs & {f"encodings/{name}.py" for name in kept}
    for name, data in ours.items():
        if name.endswith(".pyc"):
            source = pyodide[name[:-1]]
            assert name[:-1] not in ours, f"{name} and its source both shipped"
            assert 3600 <= int.from_bytes(data[:2], "little") < 3700, "not Python 3.14's bytecode"
            assert int.from_bytes(data[4:8], "little") == 0b01, name  # hash-based, not checked against a source
            assert data[8:16] == _imp.source_hash(int.from_bytes(data[:4], "little"), source), name
        else:
            assert data == pyodide[name], f"{name} differs from Pyodide's"
    assert len(compiled) > 100


def test_precompressed_files_and_their_serving(tmp_path: Path) -> None:
    """``--precompress`` writes NAME.gz (and NAME.br with the brotli package) that decompress to the file, the same
    bytes every time, only where it pays; the local server sends them to browsers that accept the encoding."""
    module = load_build()
    script = ("const table = " + json.dumps({str(i): "card" * i for i in range(300)}) + ";\n").encode()
    (tmp_path / "web").mkdir()
    (tmp_path / "web" / "a.js").write_bytes(script)
    (tmp_path / "icon.png").write_bytes(b"\x89PNG" + bytes(range(256)) * 8)
    written = module.precompress(tmp_path, ["web/a.js", "icon.png"])
    assert "web/a.js.gz" in written and not [name for name in written if name.startswith("icon.png")]
    assert gzip.decompress((tmp_path / "web" / "a.js.gz").read_bytes()) == script
    first = {name: (tmp_path / name).read_bytes() for name in written}
    assert module.precompress(tmp_path, ["web/a.js"]) == written
    assert {name: (tmp_path / name).read_bytes() for name in written} == first
    try:
        import brotli  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        brotli = None
    if brotli is not None:
        assert brotli.decompress((tmp_path / "web" / "a.js.br").read_bytes()) == script
    import devserver

    with devserver.serving(tmp_path, "/site/") as url:
        for accept, encoding in (("gzip", "gzip"), ("", None), ("br, gzip", "br" if brotli else "gzip")):
            request = urllib.request.Request(url + "web/a.js", headers={"Accept-Encoding": accept})
            with urllib.request.urlopen(request, timeout=10) as response:
                body = response.read()
                assert response.headers.get("Content-Encoding") == encoding
                assert response.headers["Content-Type"].startswith("text/javascript")
            decoded = {"gzip": gzip.decompress, "br": brotli.decompress if brotli else None, None: bytes}[encoding]
            assert decoded is not None and decoded(body) == script


def test_wheel_contents_and_import(site: Site, tmp_path: Path) -> None:
    wheel = archive(site.out, WHEEL)
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        zf.extractall(tmp_path)
    assert "pyengine/__init__.py" in names
    assert all(n.startswith(("pyengine/", "pyengine-0.1.0.dist-info/")) for n in names), names
    assert not [n for n in names if "test" in n.split("/")[-1] or "/tests/" in f"/{n}" or n.endswith(".pyc")]
    code = (
        "import json, sys; sys.path.insert(0, sys.argv[1]); import pyengine; "
        "print(pyengine.__file__); print(json.dumps(list(pyengine.GAMES)))"
    )
    proc = subprocess.run(
        [sys.executable, "-I", "-B", "-c", code, str(tmp_path)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    where, keys = proc.stdout.splitlines()
    assert Path(where).resolve().is_relative_to(tmp_path.resolve())
    games = games_data((site.out / "index.html").read_text("utf-8"))["games"]
    assert isinstance(games, list)
    assert json.loads(keys) == [game["id"] for game in games]


def test_browser_zip(site: Site) -> None:
    with zipfile.ZipFile(archive(site.out, "cardtable_web.zip")) as zf:
        infos = zf.infolist()
    names = [info.filename for info in infos]
    assert names == sorted(names)
    assert {info.date_time for info in infos} == {(1980, 1, 1, 0, 0, 0)}
    expected = {f"cardtable_web/{p}" for p in source_files(site.root / "web" / "cardtable_web")}
    assert set(names) == expected
    assert "cardtable_web/__init__.py" in names


def test_games_json_in_index(site: Site) -> None:
    html = (site.out / "index.html").read_text("utf-8")
    assert "<!-- GAMES -->" not in html
    data = games_data(html)
    proc = subprocess.run(
        [sys.executable, "-B", "-m", "pyengine", "games", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=site.root,
    )
    assert proc.returncode == 0, proc.stderr
    engine = json.loads(proc.stdout)
    assert [{k: v for k, v in game.items() if k != "lesson_steps"} for game in data["games"]] == engine["games"]
    assert data["levels"] == engine["levels"]
    from cardtable_web.page_facts import STORAGE_KEYS

    from pyengine.ai import LEVELS
    from pyengine.lessons import lesson_for

    assert data["storage"] == STORAGE_KEYS
    assert all(game["lesson_steps"] == len(lesson_for(game["id"]).steps) for game in data["games"])

    assert [level["name"] for level in data["levels"]] == list(LEVELS), "the lobby's levels are the computer's"
    source = (site.root / "index.html").read_text("utf-8")
    before, _, after = source.partition("<!-- GAMES -->")
    assert html.startswith(before) and html.endswith(after)


def test_no_external_urls(site: Site) -> None:
    found = []
    for path in site.out.rglob("*"):
        if path.suffix in {".html", ".js", ".mjs", ".css", ".json", ".py"}:
            for match in EXTERNAL.finditer(path.read_text("utf-8", errors="replace")):
                found.append(f"{path.relative_to(site.out)}: {match.group(0)}")
    assert found == []
    assert "https://example.org/rules" in (site.out / "web" / "rules" / "zz-build-test.html").read_text("utf-8")


def test_summary_lines(site: Site) -> None:
    last = site.stdout.strip().splitlines()[-1]
    match = re.fullmatch(r".*dist/: (\d+) files, ([\d.]+) MB \(start-up download about ([\d.]+) MB\)", last)
    assert match, last
    files = [p for p in site.out.rglob("*") if p.is_file()]
    assert int(match.group(1)) == len(files)
    assert float(match.group(2)) == pytest.approx(sum(p.stat().st_size for p in files) / 1e6, abs=0.06)
    assert 10 < float(match.group(3)) < float(match.group(2))


def site_digest(out: Path) -> dict[str, str]:
    """Every file of a built site (its path in the site) and the sha256 of its bytes."""
    return {
        path.relative_to(out).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(out.rglob("*"))
        if path.is_file()
    }


def test_two_builds_are_byte_identical(site: Site, tmp_path: Path) -> None:
    """Two builds of the same sources give the same site, byte for byte, wherever the repository lies: a copy in
    a folder of another name and length, built with the Node steps made afresh (compiled modules, standard library,
    memory snapshot), gives every file as the first build did (so the same cache key: a returning player is told of
    no new version). One of the two took the steps from the cache (the first, when the repository's cache held
    them; else a third build). No staging folder is left."""
    first = site_digest(site.out)
    root = tmp_path / "another-checkout-of-the-repository" / "repo"
    shutil.copytree(site.root, root, ignore=shutil.ignore_patterns("dist"))
    steps = site.cache / "steps"
    assert {folder.name.split("-")[0] for folder in steps.iterdir()} == {"bytecode", "stdlib", "snapshot"}
    shutil.rmtree(steps)  # the Node steps run again: their output is the same
    proc = run_build("--root", root, "--out", root / "dist", "--cache", site.cache)
    assert proc.returncode == 0, proc.stderr
    assert "from cache" in proc.stdout and "snapshot: from cache" not in proc.stdout
    again = site_digest(root / "dist")
    assert [name for name in sorted(first.keys() | again.keys()) if first.get(name) != again.get(name)] == []
    assert not [p for p in root.parent.iterdir() if ".building-" in p.name]
    cached = site.stdout
    if not all(f"{step}: from cache" in cached for step in ("bytecode", "stdlib", "snapshot")):
        proc = run_build("--root", site.root, "--out", site.out, "--cache", site.cache)
        assert proc.returncode == 0, proc.stderr
        cached = proc.stdout
    for step in ("bytecode", "stdlib", "snapshot"):
        assert f"{step}: from cache" in cached
    assert site_digest(site.out) == first
    assert not [p for p in site.out.parent.iterdir() if ".building-" in p.name]


def test_the_cache_key_comes_from_the_content(tmp_path: Path) -> None:
    """The service worker's cache key hashes every file of the site: any change to any of them (a vendored file or
    an icon as much as a page) makes a new key, and nothing else does (the folder, the files' times)."""
    build = load_build()
    files = {"index.html": b"<p>table</p>", "vendor/pyodide/pyodide.asm.wasm": b"\0asm", "icons/icon-192.png": b"png"}

    def key(folder: Path, changes: dict[str, bytes] | None = None) -> str:
        for name, data in {**files, **(changes or {})}.items():
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_bytes(data)
        return str(build.cache_key(folder, sorted(files)))

    base = key(tmp_path / "a")
    assert key(tmp_path / "another-folder") == base
    os.utime(tmp_path / "a" / "index.html", (0, 0))
    assert key(tmp_path / "a") == base
    changed = {key(tmp_path / name, {name: data + b" "}) for name, data in files.items()}
    assert len(changed) == len(files) and base not in changed


def test_staging_folders_of_killed_builds_are_removed(tmp_path: Path) -> None:
    """A build assembles the site in ``.<out>.building-<process>-...`` beside it; one left by a build whose process
    is gone is removed by the next build, one of a build still running is not (git ignores both)."""
    build = load_build()
    out = tmp_path / "dist"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    left = tmp_path / f".dist.building-{dead.stdout.strip()}-abc123"
    running = tmp_path / f".dist.building-{os.getpid()}-def456"
    other = tmp_path / f".other.building-{dead.stdout.strip()}-ghi789"
    for folder in (left, running, other):
        (folder / "web").mkdir(parents=True)
    assert build.remove_stale_stages(out) == [left]
    assert not left.exists() and running.is_dir() and other.is_dir()
    assert ".*.building-*/" in (ROOT / ".gitignore").read_text("utf-8").splitlines()


# -- failures ------------------------------------------------------------------------------------------------------


def test_tampered_tarball_stops_the_build(site: Site, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    for tarball in site.cache.glob("*.tgz"):
        shutil.copy2(tarball, cache / tarball.name)
    tampered = cache / "pyodide-314.0.7.tgz"
    data = bytearray(tampered.read_bytes())
    data[len(data) // 2] ^= 0xFF
    tampered.write_bytes(bytes(data))
    actual = "sha512-" + base64.b64encode(hashlib.sha512(bytes(data)).digest()).decode()
    out = tmp_path / "dist"
    proc = run_build("--root", site.root, "--out", out, "--cache", cache, timeout=120)
    assert proc.returncode == 1
    assert "integrity mismatch for pyodide@314.0.7" in proc.stderr
    assert load_build().PYODIDE.integrity in proc.stderr
    assert actual in proc.stderr
    assert not tampered.exists()
    assert not out.exists()
    assert not [p for p in tmp_path.iterdir() if ".building-" in p.name]


def test_tampered_micropip_stops_the_build(site: Site, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    cache.mkdir()
    for cached in [*site.cache.glob("*.tgz"), site.cache / MICROPIP]:
        shutil.copy2(cached, cache / cached.name)
    tampered = cache / MICROPIP
    tampered.write_bytes(tampered.read_bytes() + b"\0")
    proc = run_build("--root", site.root, "--out", tmp_path / "dist", "--cache", cache, timeout=120)
    assert proc.returncode == 1
    assert f"sha256 mismatch for {MICROPIP}: expected {load_build().MICROPIP.sha256}" in proc.stderr
    assert not tampered.exists() and not (tmp_path / "dist").exists()


def test_missing_package_file_is_a_clear_error() -> None:
    module = load_build()
    loader = b'import("pyodide.asm.mjs"); "pyodide.asm.wasm" "python_stdlib.zip" "pyodide-lock.json"'
    files = {"pyodide.mjs": loader, "pyodide.asm.mjs": b"", "pyodide.asm.wasm": b"", "pyodide-lock.json": b"{}"}
    with pytest.raises(module.BuildError, match=r"pyodide@314\.0\.7 lacks expected file\(s\): python_stdlib\.zip"):
        module.pyodide_files(files)
    with pytest.raises(module.BuildError, match=r"core\.css"):
        module.pyscript_files({"dist/core.js": b""})
    with pytest.raises(module.BuildError, match=r"missing chunk"):
        module.pyscript_files({"dist/core.js": b'import"./gone.js"', "dist/core.css": b""})


def test_external_url_checker() -> None:
    module = load_build()
    bad = [
        '<script src="https://cdn.example/x.js"></script>',
        "<img src=http://example.org/a.png>",
        '<link rel="stylesheet" href="https://fonts.example/css">',
        "@import url('https://fonts.example/css');",
        'body { background: url("https://example.org/bg.png") }',
        'import x from "https://esm.example/x.js";',
        'await import("https://esm.example/y.js")',
        "fetch('https://api.example/data')",
        "await fetch(`https://api.example/${x}`)",
    ]
    good = [
        '<a href="https://example.org/rules">rules</a>',
        "new URL(`https://${host}`)",
        'const cdn = "https://cdn.example/";',
        "fetch('./build.json')",
        '<script src="web/boot.js"></script>',
        "url('data:image/svg+xml,<svg xmlns=\"http://www.w3.org/2000/svg\"/>')",
    ]
    assert [snippet for snippet in bad if not module.external_urls(snippet)] == []
    assert [snippet for snippet in good if module.external_urls(snippet)] == []


def test_games_json_is_script_safe(tmp_path: Path) -> None:
    (tmp_path / "pyengine").mkdir()
    (tmp_path / "pyengine" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pyengine" / "__main__.py").write_text(
        "import json\nprint(json.dumps({'games': [{'id': 'x', 'title': '</script><!-- é'}], 'levels': []}))\n",
        encoding="utf-8",
    )
    text = load_build().games_json(tmp_path)
    assert "</" not in text and "<!--" not in text
    assert json.loads(text) == {"games": [{"id": "x", "title": "</script><!-- é"}], "levels": []}


def test_needs_build(tmp_path: Path) -> None:
    module = load_build()
    root, out = tmp_path / "repo", tmp_path / "dist"
    (root / "web").mkdir(parents=True)
    page = root / "web" / "page.css"
    page.write_text("body {}\n", encoding="utf-8")
    paths = module.Paths(root=root, out=out, cache=tmp_path / "cache")
    assert module.needs_build(paths)
    out.mkdir()
    stamp = out / "build.json"
    stamp.write_text("{}", encoding="utf-8")
    newest = max(BUILD.stat().st_mtime, page.stat().st_mtime)
    os.utime(stamp, (newest + 10, newest + 10))
    assert not module.needs_build(paths)
    os.utime(page, (newest + 20, newest + 20))
    assert module.needs_build(paths)


def test_refuses_to_replace_a_folder_it_did_not_build(site: Site, tmp_path: Path) -> None:
    out = tmp_path / "precious"
    out.mkdir()
    (out / "keep.txt").write_text("mine", encoding="utf-8")
    stage = tmp_path / "stage"
    stage.mkdir()
    module = load_build()
    with pytest.raises(module.BuildError, match="not a Card Table build"):
        module.replace_output(stage, out)
    assert (out / "keep.txt").read_text(encoding="utf-8") == "mine"


# -- serving ---------------------------------------------------------------------------------------------------------


@pytest.fixture()
def server(site: Site, tmp_path: Path) -> Iterator[str]:
    """``build.py serve --port 0`` on the module's build; yields the printed address."""
    errors = (tmp_path / "serve.err").open("w", encoding="utf-8")
    proc = subprocess.Popen(
        [
            sys.executable,
            str(BUILD),
            "serve",
            "--port",
            "0",
            "--root",
            str(site.root),
            "--out",
            str(site.out),
            "--cache",
            str(site.cache),
        ],
        stdout=subprocess.PIPE,
        stderr=errors,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: lines.put(proc.stdout.readline() if proc.stdout else ""), daemon=True)
    reader.start()
    try:
        first = lines.get(timeout=120)
        match = re.fullmatch(r"Serving Card Table at (http://127\.0\.0\.1:(\d+)/)\n", first)
        assert match, f"first line {first!r}; stderr: {(tmp_path / 'serve.err').read_text()}"
        assert int(match.group(2)) > 0
        yield match.group(1)
    finally:
        proc.terminate()
        try:
            rest, _ = proc.communicate(timeout=10)
        finally:
            errors.close()
        assert proc.returncode in (0, -15), proc.returncode
    assert rest == "", f"more than one line on stdout: {rest!r}"


def fetch(url: str, method: str = "GET") -> tuple[int, str, bytes]:
    """Status, content type and body of a request to the local server."""
    request = urllib.request.Request(url, method=method)
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.headers.get_content_type(), response.read()


def test_serve(site: Site, server: str) -> None:
    status, kind, body = fetch(server)
    assert (status, kind) == (200, "text/html")
    assert body == (site.out / "index.html").read_bytes()
    wasm = site.out / "vendor" / "pyodide" / "pyodide.asm.wasm"
    status, kind, body = fetch(server + "vendor/pyodide/pyodide.asm.wasm")
    assert (status, kind, len(body)) == (200, "application/wasm", wasm.stat().st_size)
    build = json.loads((site.out / "build.json").read_text("utf-8"))
    expected = {
        "vendor/pyodide/pyodide.mjs": "text/javascript",
        build["engine_wheel"]: "application/zip",
        build["web_zip"]: "application/zip",
        "build.json": "application/json",
        "vendor/pyscript/core.css": "text/css",
    }
    assert {path: fetch(server + path, "HEAD")[1] for path in expected} == expected


def test_serve_binds_loopback_only(site: Site) -> None:
    proc = run_build("serve", "--host", "0.0.0.0", "--port", "0", "--root", site.root, "--out", site.out, timeout=60)
    assert proc.returncode == 1
    assert "only a 127.x.x.x loopback address" in proc.stderr
    assert proc.stdout == ""


# -- Python pages: micropip and the example page ------------------------------------------------------------------


def test_micropip_is_vendored_with_its_hash_in_the_lock_file(site: Site) -> None:
    """The registry's micropip wheel, pinned by sha256, beside Pyodide; the lock file, which ``loadPackage`` checks,
    names that wheel's sha256, and names only the packages the site ships: micropip."""
    wheel = (site.out / "vendor" / "pyodide" / MICROPIP).read_bytes()
    sha256 = hashlib.sha256(wheel).hexdigest()
    assert sha256 == load_build().MICROPIP.sha256 == hashlib.sha256((site.cache / MICROPIP).read_bytes()).hexdigest()
    shipped = (site.out / "vendor" / "pyodide" / "pyodide-lock.json").read_text("utf-8")
    with tarfile.open(site.cache / "pyodide-314.0.7.tgz") as tar:
        member = tar.extractfile("package/pyodide-lock.json")
        assert member is not None
        original = member.read().decode("utf-8")
    entry = json.loads(original)["packages"]["micropip"]
    assert (entry["file_name"], entry["depends"]) == (MICROPIP, [])
    lock = json.loads(original)
    assert json.loads(shipped) == {**lock, "packages": {"micropip": {**entry, "sha256": sha256}}} != lock
    with zipfile.ZipFile(site.out / "vendor" / "pyodide" / MICROPIP) as zf:
        assert "micropip/__init__.py" in zf.namelist()


def test_python_pages_files_are_built_but_not_fetched_by_players(site: Site) -> None:
    """The example page names the build's wheel and browser zip; the wheel is also at its lasting address; none of
    what only Python pages fetch is precached by the service worker or counted in a player's start."""
    build = json.loads((site.out / "build.json").read_text("utf-8"))
    assert build["python_pages"] == [f"vendor/pyodide/{MICROPIP}", f"wheels/{WHEEL}", "python-example.html"]
    assert (site.out / "wheels" / WHEEL).read_bytes() == (site.out / build["engine_wheel"]).read_bytes()
    page = (site.out / "python-example.html").read_text("utf-8")
    match = re.search(r"""<script type="py" config='([^']+)'>""", page)
    assert match, "the example has no PyScript configuration"
    config = json.loads(match.group(1))
    assert config == {
        "interpreter": "./vendor/pyodide/pyodide.mjs",
        "packages": [f"./{build['engine_wheel']}"],
        "files": {f"./{build['web_zip']}": "./*"},
    }
    worker = (site.out / "sw.js").read_text("utf-8")
    assert not [name for name in build["python_pages"] if f'"{name}"' in worker]
    assert not set(build["python_pages"]) & set(load_build().startup_files(site.out, build))


# -- installable, offline, released ----------------------------------------------------------------------------------


def test_manifest_icons_and_worker(site: Site) -> None:
    manifest = json.loads((site.out / "manifest.webmanifest").read_text("utf-8"))
    assert manifest["start_url"] == manifest["scope"] == "./" and manifest["display"] == "standalone"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"] and manifest["background_color"]
    for icon in manifest["icons"]:
        data = (site.out / icon["src"]).read_bytes()
        assert data.startswith(b"\x89PNG\r\n\x1a\n")
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        assert icon["sizes"] == f"{width}x{height}" and width in (192, 512)
    build = json.loads((site.out / "build.json").read_text("utf-8"))
    worker = (site.out / "sw.js").read_text("utf-8")
    match = re.search(r"const BUILD = (\{.*?\});", worker, re.DOTALL)
    assert match, "the build did not fill in the worker"
    data = json.loads(match.group(1))
    assert data["cache_key"] == build["cache_key"]
    # every file but Pyodide's own standard library: the pages start on the site's
    unused = {"sw.js", "vendor/pyodide/python_stdlib.zip", *build["python_pages"]}
    # Python's WebAssembly under the address the pages fetch it by: its bytes' hash as the query
    wasm = "vendor/pyodide/pyodide.asm.wasm"
    digest = hashlib.sha256((site.out / wasm).read_bytes()).hexdigest()[:12]
    assert build["runtime"] == f"{wasm}?v={digest}"
    assert set(data["files"]) == (set(build["files"]) - unused - {wasm}) | {"build.json", build["runtime"]}
    assert {"index.html", build["runtime"], build["engine_wheel"], build["web_zip"]} <= set(data["files"])
    assert any(name.startswith("web/rules/") for name in data["files"])


def test_release_zip(site: Site, tmp_path: Path) -> None:
    proc = run_build("zip", "--root", site.root, "--out", site.out, "--cache", site.cache, "--zip-dir", tmp_path)
    assert proc.returncode == 0, proc.stderr
    key = json.loads((site.out / "build.json").read_text("utf-8"))["cache_key"]
    archive_path = tmp_path / f"card-table-{key}.zip"
    with zipfile.ZipFile(archive_path) as zf:
        names = set(zf.namelist())
        readme = zf.read("card-table/README.txt").decode("utf-8")
    site_files = {f"card-table/{p.relative_to(site.out).as_posix()}" for p in site.out.rglob("*") if p.is_file()}
    assert names == site_files | {"card-table/README.txt"}
    assert "python3 -m http.server --bind 127.0.0.1 8000" in readme and "file://" in readme


def test_a_node_step_runs_again_only_when_what_it_is_made_from_changed(tmp_path: Path) -> None:
    module = load_build()
    root, cache = tmp_path / "repo", tmp_path / "cache"
    root.mkdir()
    (root / "snapshot.mjs").write_text("// the tool", encoding="utf-8")
    paths = module.Paths(root=root, out=tmp_path / "dist", cache=cache)
    source, target = tmp_path / "archive.zip", tmp_path / "made.bin"
    source.write_bytes(b"one")
    made: list[bytes] = []

    def make() -> None:
        made.append(source.read_bytes())
        target.write_bytes(b"made from " + source.read_bytes())

    def step() -> bool:
        return bool(module.step_output(paths, "snapshot", [source], [target], make, io.StringIO()))

    assert not step() and step()  # made, then taken from the cache
    target.unlink()
    assert step() and target.read_bytes() == b"made from one" and made == [b"one"]
    source.write_bytes(b"two")
    assert not step() and target.read_bytes() == b"made from two"
    (root / "snapshot.mjs").write_text("// the tool, changed", encoding="utf-8")
    assert not step() and made == [b"one", b"two", b"two"]
    assert len(list((cache / "steps").iterdir())) == module.STEPS_KEPT  # only the newest are kept


def test_the_lobby_script_reads_its_facts_from_the_page() -> None:
    """``web/boot.js`` writes no storage key, no lesson length and no default player count of its own: the build
    writes them into the page (``cardtable_web.page_facts``), from their one home in Python."""
    script = (ROOT / "web" / "boot.js").read_text("utf-8")
    assert not re.findall(r"[\"']cardtable\.[a-z-]+[\"']", script)
    assert "lesson_steps" in script and "default_players" in script and "lobbyData.storage" in script
    assert "Math.max(2" not in script and "< 10)" not in script
