"""Build Card Table's static site into ``dist/`` and serve it locally (with ``devserver.py``).

Usage::

    python build.py [--precompress] [--no-bytecode] [--out DIR] [--root DIR] [--cache DIR]
    python build.py serve [--port 8000] [--host 127.0.0.1] [--out DIR] [--root DIR] [--cache DIR]
    python build.py zip [--zip-dir DIR] [--out DIR] [--root DIR] [--cache DIR]

The site is fully offline: Pyodide, PyScript and idiomorph (the table's DOM morphing) are vendored from their npm
packages (pinned by version and by the registry's sha512 integrity), the engine ships as a wheel built from this
repository, and the browser layer ships as a zip of ``web/cardtable_web/``. micropip, for Python pages that install
the engine wheel (``python-example.html``, ``docs/python-pages.md``), comes from the package registry, pinned by
sha256. Python 3.11 standard library only.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import gzip
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import tomllib
import zipfile
import zlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent
PLACEHOLDER = "<!-- GAMES -->"
BROWSER_PACKAGE = "cardtable_web"
ZIP_NAME = f"{BROWSER_PACKAGE}.zip"
ZIP_DATE_TIME = (1980, 1, 1, 0, 0, 0)
SKIP_DIRS = frozenset({"__pycache__"})
SKIP_SUFFIXES = frozenset({".pyc", ".pyo"})
SCANNED_SUFFIXES = frozenset({".html", ".htm", ".js", ".mjs", ".css", ".json", ".py", ".webmanifest"})
WORKER = "sw.js"
"""The service worker's source (in the repository's and the site's root folder, so its scope is the whole site)."""
WORKER_PLACEHOLDER = '"__CARDTABLE_BUILD__"'
WEB_MANIFEST = "manifest.webmanifest"
PYODIDE_DIR = "vendor/pyodide/"
"""Where the site keeps Pyodide (relative to its root)."""
RUNTIME_FILE = f"{PYODIDE_DIR}pyodide.asm.wasm"
"""Python's WebAssembly (see :func:`runtime_address` for the address the pages fetch it by)."""
ICON_SIZES = (192, 512)
RELEASE_NAME = "card-table"
MB = 1_000_000
SNAPSHOT_TOOL = "snapshot.mjs"
"""The build step (run under Node) that makes the memory snapshot of Python with the wheel and the zip imported."""
SNAPSHOT_NAME = "python.snapshot"
STDLIB_NAME = "python_stdlib.zip"
"""The site's standard library (``snapshot.mjs --stdlib``): Pyodide's, with the start's modules compiled."""
SNAPSHOT_MAGIC = "CARDTABLE-SNAPSHOT 2"
"""First words of a snapshot file: then the header's length, a JSON line (what it was made from, and how the image
is stored), then Pyodide's memory image, its zero pages left out (``sparse_image``). ``build.json`` carries it as
``snapshot_magic`` (``web/python.js`` reads it there)."""
SNAPSHOT_PAGE = 4096
"""The snapshot's pages: a page of zeros is not stored (nearly half of Pyodide's memory image)."""
PRECOMPRESSED = frozenset({".html", ".js", ".mjs", ".css", ".json", ".wasm", ".svg", ".webmanifest", ".snapshot"})
"""File types worth precompressing (zips, wheels and PNGs are compressed already)."""


@dataclass(frozen=True)
class NpmPin:
    """An npm package pinned by version and by the registry's ``dist.integrity`` (sha512)."""

    name: str
    version: str
    integrity: str

    @property
    def spec(self) -> str:
        """The ``name@version`` spec npm understands."""
        return f"{self.name}@{self.version}"

    @property
    def tarball_name(self) -> str:
        """The file name ``npm pack`` gives this package's tarball."""
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"


PYODIDE = NpmPin(
    "pyodide",
    "314.0.7",
    "sha512-0YvXxEhfEdpLfb/XkM2BFAeMROq0iMUX2bzzH9pOttyMcWkwq+HbE5uyuGD82LN7y2q+SNvi/6V5JEsOlD2R1A==",
)
PYSCRIPT = NpmPin(
    "@pyscript/core",
    "0.7.31",
    "sha512-GqM1aonc1N4RTkNZ1zJ8jJk8+i2cqeztZslPsAiQtn+wHHkUX9Z1FgIg4HjCvhBylB68UKmbTVTzOobpgPIMVQ==",
)
AXE = NpmPin(
    "axe-core",
    "4.14.1",
    "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
)
"""A test tool (the browser tests' accessibility checker): fetched and verified into the cache, never shipped."""
AXE_SCRIPT = "axe.min.js"
IDIOMORPH = NpmPin(
    "idiomorph",
    "0.8.0",
    "sha512-R47JBL+6jHDQvcnbppIUtXXcxi5h6+wuCEEZXnRhUltsgzPFKzThL5PuHppP9ypJuy+7WawcY1TsSBD/iQbMhw==",
)
"""The keyed DOM morphing that redraws the table in place (``web/motion.js`` imports its one ES module)."""
IDIOMORPH_MODULE = "idiomorph.esm.js"
QR = NpmPin(
    "qr",
    "0.7.0",
    "sha512-/VrrACmOAwZVipuRITwfEwOL5oAMEHH5PTmBWaGtlTom2Thxaa+rhmna4zU9PRN2uLw2wdccbkHOLGZb1Q9SdA==",
)
"""QR codes for playing on separate devices: ``web/remote.js`` draws invitations and replies with its encoder
(``index.js``) and reads the camera's frames with its decoder (``decode.js``) where the browser has no QR reader."""
QR_MODULES = ("index.js", "decode.js")

PYODIDE_LOADER = "pyodide.mjs"
PYODIDE_RUNTIME = ("pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
"""What ``pyodide.mjs`` fetches at start-up besides itself and its ``pyodide.asm.*`` script."""

# Contexts where an external URL would be loaded by the page (plain <a href> links are fine).
_URL = r"""["'`]?\s*https?://"""
EXTERNAL_URL_PATTERNS: tuple[re.Pattern[str], ...] = (
    re.compile(rf"\bsrc(?:set)?\s*=\s*{_URL}", re.IGNORECASE),
    re.compile(rf"<link\b[^>]*\bhref\s*=\s*{_URL}", re.IGNORECASE),
    re.compile(rf"@import\s+(?:url\(\s*)?{_URL}", re.IGNORECASE),
    re.compile(rf"\burl\(\s*{_URL}"),  # CSS url(...); JavaScript's `new URL(...)` only parses, it loads nothing
    re.compile(rf"\bimport\s*\(\s*{_URL}"),
    re.compile(rf"\bimport\s*{_URL}"),
    re.compile(rf"\bfrom\s*{_URL}"),
    re.compile(rf"\bimportScripts\s*\(\s*{_URL}"),
    re.compile(rf"\bfetch\s*\(\s*{_URL}"),
)


class BuildError(Exception):
    """A build step failed; the message says what and why."""


@dataclass(frozen=True)
class Paths:
    """Where the sources are, where the output goes and where npm tarballs are cached."""

    root: Path
    out: Path
    cache: Path


# -- small helpers -------------------------------------------------------------------------------------------------


def log(message: str, stream: Any = None) -> None:
    """Print a progress line (to stdout unless another stream is given)."""
    print(message, file=stream or sys.stdout, flush=True)


def sri_sha512(data: bytes) -> str:
    """The npm ``dist.integrity`` form of the sha512 of ``data``."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def skipped(path: Path) -> bool:
    """True for files and folders the site never ships (bytecode, caches, hidden files)."""
    return path.name in SKIP_DIRS or path.suffix in SKIP_SUFFIXES or path.name.startswith(".")


def walk_files(folder: Path, exclude: Iterable[Path] = ()) -> Iterator[Path]:
    """Files under ``folder`` in sorted order, leaving out skipped names and the ``exclude`` folders."""
    excluded = {p.resolve() for p in exclude}
    for path in sorted(folder.iterdir()):
        if skipped(path) or path.resolve() in excluded:
            continue
        if path.is_dir():
            yield from walk_files(path, excluded)
        elif path.is_file():
            yield path


def project_meta(root: Path) -> dict[str, Any]:
    """The ``[project]`` table of ``pyproject.toml``, after checking what the wheel build needs exists."""
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        raise BuildError(f"no pyproject.toml in {root}")
    project: dict[str, Any] = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    readme = project.get("readme")
    readme_file = readme.get("file") if isinstance(readme, dict) else readme
    if isinstance(readme_file, str) and not (root / readme_file).is_file():
        raise BuildError(
            f"pyproject.toml names readme {readme_file!r}, which does not exist: the wheel cannot be built"
        )
    return project


# -- npm vendoring -------------------------------------------------------------------------------------------------


def fetch_tarball(pin: NpmPin, cache: Path, stream: Any) -> Path:
    """The verified tarball of ``pin`` in ``cache``, packed by npm unless already cached.

    A tarball whose sha512 differs from the pinned integrity is deleted and the build stops.
    """
    cache.mkdir(parents=True, exist_ok=True)
    tarball = cache / pin.tarball_name
    if tarball.is_file():
        log(f"npm: {pin.spec} from cache", stream)
    else:
        log(f"npm: packing {pin.spec}", stream)
        npm = shutil.which("npm")
        if npm is None:
            raise BuildError(f"npm is needed to fetch {pin.spec} but is not on PATH")
        proc = subprocess.run(
            [npm, "pack", pin.spec, "--pack-destination", str(cache)],
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0 or not tarball.is_file():
            raise BuildError(f"npm pack {pin.spec} failed (exit {proc.returncode}):\n{proc.stderr.strip()}")
    actual = sri_sha512(tarball.read_bytes())
    if actual != pin.integrity:
        tarball.unlink()
        raise BuildError(
            f"integrity mismatch for {pin.spec}: expected {pin.integrity}, got {actual} "
            f"(the tarball was deleted; build again to fetch it anew)"
        )
    return tarball


def read_members(tarball: Path) -> dict[str, bytes]:
    """Every regular file of an npm tarball, keyed by its path inside the package (``package/`` stripped)."""
    files: dict[str, bytes] = {}
    with tarfile.open(tarball, "r:gz") as tar:
        for member in tar.getmembers():
            if not member.isfile():
                continue
            name = member.name.split("/", 1)[1] if "/" in member.name else member.name
            extracted = tar.extractfile(member)
            if extracted is not None:
                files[name] = extracted.read()
    return files


def require(files: dict[str, bytes], names: Iterable[str], pin: NpmPin) -> None:
    """Stop with a clear error when a package lacks a file the site needs."""
    missing = [n for n in names if n not in files]
    if missing:
        raise BuildError(f"{pin.spec} lacks expected file(s): {', '.join(missing)}")


def write_files(files: dict[str, bytes], target: Path) -> None:
    """Write ``files`` (relative posix paths) under ``target``."""
    for name, data in sorted(files.items()):
        path = target / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def pyodide_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """The files Pyodide's loader fetches at start-up: the loader, its asm script, the wasm, stdlib and lock file."""
    require(files, [PYODIDE_LOADER], PYODIDE)
    loader = files[PYODIDE_LOADER].decode("utf-8")
    scripts = sorted(set(re.findall(r"pyodide\.asm\.m?js\b", loader)))
    if len(scripts) != 1:
        raise BuildError(f"{PYODIDE.spec}: cannot tell which pyodide.asm script {PYODIDE_LOADER} loads ({scripts})")
    for name in PYODIDE_RUNTIME:
        if name not in loader:
            raise BuildError(f"{PYODIDE.spec}: {PYODIDE_LOADER} no longer mentions {name}; check what it fetches")
    wanted = [PYODIDE_LOADER, scripts[0], *PYODIDE_RUNTIME]
    require(files, wanted, PYODIDE)
    return {name: files[name] for name in wanted}


def relative_imports(source: str) -> set[str]:
    """Relative module paths a JavaScript file imports, statically or with ``import()``."""
    pattern = r"""(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\./[^"']+)["']"""
    return {m.group(1)[2:] for m in re.finditer(pattern, source)}


def static_imports(source: str) -> set[str]:
    """Relative module paths a JavaScript file imports statically (fetched before it runs)."""
    pattern = r"""(?:\bfrom\s*|\bimport\s*)["'](\./[^"']+)["']"""
    return {m.group(1)[2:] for m in re.finditer(pattern, source)}


def pyscript_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """PyScript's ``dist/`` folder without source maps, checked so every chunk core.js may import is present."""
    require(files, ["dist/core.js", "dist/core.css"], PYSCRIPT)
    shipped = {
        name.removeprefix("dist/"): data
        for name, data in files.items()
        if name.startswith("dist/") and not name.endswith(".map")
    }
    for name, data in shipped.items():
        if name.endswith((".js", ".mjs")):
            missing = relative_imports(data.decode("utf-8")) - shipped.keys()
            if missing:
                raise BuildError(f"{PYSCRIPT.spec}: dist/{name} imports missing chunk(s) {sorted(missing)}")
    return shipped


def idiomorph_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """idiomorph's ES module alone (the package's other builds, typings and htmx extension are not needed)."""
    name = f"dist/{IDIOMORPH_MODULE}"
    require(files, [name], IDIOMORPH)
    if not re.search(rb"^export\s*\{\s*Idiomorph\s*\}", files[name], re.MULTILINE):
        raise BuildError(f"{IDIOMORPH.spec}: {name} no longer exports Idiomorph")
    return {IDIOMORPH_MODULE: files[name]}


def qr_files(files: dict[str, bytes]) -> dict[str, bytes]:
    """qr's encoder and decoder modules alone (the decoder imports only the encoder's tables)."""
    require(files, list(QR_MODULES), QR)
    for name in QR_MODULES:
        missing = relative_imports(files[name].decode("utf-8")) - set(QR_MODULES)
        if missing:
            raise BuildError(f"{QR.spec}: {name} imports {sorted(missing)}, which the build does not ship")
    return {name: files[name] for name in QR_MODULES}


VENDORED = ((PYODIDE, pyodide_files, "pyodide"), (PYSCRIPT, pyscript_files, "pyscript"),
            (IDIOMORPH, idiomorph_files, "idiomorph"), (QR, qr_files, "qr"))
"""Each shipped npm package, what of it ships, and its folder under ``vendor/``."""


def vendor(paths: Paths, stage: Path, stream: Any) -> None:
    """Fetch, verify and extract Pyodide, PyScript and idiomorph into ``vendor/`` of the staging folder."""
    for pin, pick, folder in VENDORED:
        members = read_members(fetch_tarball(pin, paths.cache, stream))
        manifest = json.loads(members.get("package.json", b"{}"))
        if manifest.get("version") != pin.version or manifest.get("name") != pin.name:
            raise BuildError(f"{pin.spec}: package.json says {manifest.get('name')}@{manifest.get('version')}")
        write_files(pick(members), stage / "vendor" / folder)


def axe_script(cache: Path, stream: Any = None) -> bytes:
    """axe-core's script from its verified tarball in the cache (fetched first if missing); for the browser tests."""
    members = read_members(fetch_tarball(AXE, cache, stream))
    require(members, [AXE_SCRIPT], AXE)
    return members[AXE_SCRIPT]


# -- micropip, for Python pages that install the engine wheel ------------------------------------------------------


@dataclass(frozen=True)
class WheelPin:
    """A pure-Python wheel from the package registry, pinned by version and by the sha256 of its file."""

    name: str
    version: str
    sha256: str

    @property
    def file_name(self) -> str:
        return f"{self.name}-{self.version}-py3-none-any.whl"


MICROPIP = WheelPin("micropip", "0.11.1", "768de165adb8e66906039d8fec4127a57f522dfdf8e6fbff877a4616941ecfd3")
"""The package installer of Python pages (PyScript's ``packages``), at the version Pyodide's lock file names. Pyodide's
npm package lists it but lacks the wheel; the registry's wheel is not Pyodide's own build of it (their sha256
differ), so the build writes this wheel's sha256 into the lock file, which ``loadPackage`` checks."""
PYTHON_EXAMPLE = "python-example.html"
"""The documented example of a Python page (``docs/python-pages.md``), built with the engine wheel's address."""
EXAMPLE_PLACEHOLDERS = ("__ENGINE_WHEEL__", "__WEB_ZIP__")
PACKAGE_README = "docs/python-pages.md"
"""The engine package's readme (``pyproject.toml``'s ``readme``), a page of the documentation."""


def fetch_wheel(pin: WheelPin, python: str, cache: Path, stream: Any) -> Path:
    """The verified wheel of ``pin`` in ``cache``, downloaded by pip (for Python ``python``) unless already cached.

    A wheel whose sha256 differs from the pin is deleted and the build stops."""
    cache.mkdir(parents=True, exist_ok=True)
    wheel = cache / pin.file_name
    if wheel.is_file():
        log(f"wheel: {pin.file_name} from cache", stream)
    else:
        log(f"wheel: downloading {pin.file_name}", stream)
        command = [sys.executable, "-m", "pip", "download", f"{pin.name}=={pin.version}", "--no-deps", "--no-input"]
        command += ["--only-binary=:all:", "--python-version", python, "--disable-pip-version-check", "-q"]
        proc = subprocess.run([*command, "-d", str(cache)], capture_output=True, text=True, check=False)
        if proc.returncode != 0 or not wheel.is_file():
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-10:])
            raise BuildError(f"pip download {pin.name}=={pin.version} failed (exit {proc.returncode}):\n{tail}")
    actual = sha256_file(wheel)
    if actual != pin.sha256:
        wheel.unlink()
        raise BuildError(
            f"sha256 mismatch for {pin.file_name}: expected {pin.sha256}, got {actual} "
            f"(the wheel was deleted; build again to fetch it anew)"
        )
    return wheel


def runtime_requirements(wheel: Path) -> list[str]:
    """The ``Requires-Dist`` lines of a wheel's metadata that are not for an extra (what installing it needs)."""
    with zipfile.ZipFile(wheel) as zf:
        (metadata,) = [n for n in zf.namelist() if n.endswith(".dist-info/METADATA") and n.count("/") == 1]
        lines = zf.read(metadata).decode("utf-8").splitlines()
    needs = [line.split(":", 1)[1].strip() for line in lines if line.startswith("Requires-Dist:")]
    return [need for need in needs if "extra ==" not in need]


def vendor_micropip(paths: Paths, stage: Path, stream: Any) -> str:
    """Put micropip's wheel beside Pyodide and its sha256 in the lock file, so ``pyodide.loadPackage("micropip")``
    works from the site; returns the wheel's path in the site. The lock file then names micropip alone: the site
    ships no other package, and the file's 350 other entries (26 KB compressed) only made every first visit longer.
    Stops when the lock file names another version or micropip needs packages besides it (they would have to be
    vendored too)."""
    folder = stage / PYODIDE_DIR
    lock_path = folder / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    entry = lock["packages"].get(MICROPIP.name, {})
    if (entry.get("version"), entry.get("file_name")) != (MICROPIP.version, MICROPIP.file_name):
        raise BuildError(
            f"{PYODIDE.spec}'s lock file names {entry.get('file_name')}, not {MICROPIP.file_name}: pin that version"
        )
    python = ".".join(lock["info"]["python"].split(".")[:2])
    wheel = fetch_wheel(MICROPIP, python, paths.cache, stream)
    needs = sorted(set(entry.get("depends", [])) | set(runtime_requirements(wheel)))
    if needs:
        raise BuildError(f"{MICROPIP.file_name} needs {', '.join(needs)}, which the build does not vendor")
    lock["packages"] = {MICROPIP.name: {**entry, "sha256": MICROPIP.sha256}}
    lock_path.write_text(json.dumps(lock, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    shutil.copyfile(wheel, folder / MICROPIP.file_name)
    return f"{PYODIDE_DIR}{MICROPIP.file_name}"


def write_python_pages(root: Path, stage: Path, project: dict[str, Any], archives: str) -> list[str]:
    """What Python pages use: the engine wheel again at a lasting address, ``wheels/<wheel>`` (for ``pip install``
    and for pages on other sites), and the example page with the addresses of the wheel and the browser zip filled
    in. Returns these files' paths in the site: a player's page never fetches them (the service worker leaves them
    out)."""
    name = wheel_name(project)
    shutil.copyfile(stage / archives / name, stage / "wheels" / name)
    written = [f"wheels/{name}"]
    source = root / PYTHON_EXAMPLE
    if source.is_file():
        html = source.read_text(encoding="utf-8")
        for placeholder in EXAMPLE_PLACEHOLDERS:
            if html.count(placeholder) != 1:
                raise BuildError(f"{PYTHON_EXAMPLE} must hold the placeholder {placeholder} exactly once")
        html = html.replace("__ENGINE_WHEEL__", f"./{archives}/{name}").replace(
            "__WEB_ZIP__", f"./{archives}/{ZIP_NAME}"
        )
        (stage / PYTHON_EXAMPLE).write_text(html, encoding="utf-8")
        written.append(PYTHON_EXAMPLE)
    return written


# -- the engine wheel and the browser package ----------------------------------------------------------------------


def wheel_name(project: dict[str, Any]) -> str:
    """The standard file name of the project's pure-Python wheel."""
    name = re.sub(r"[-_.]+", "_", project["name"]).lower()
    return f"{name}-{project['version']}-py3-none-any.whl"


def check_wheel(wheel: Path, package: str) -> None:
    """The wheel must hold the package's modules and nothing test-like or compiled."""
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
    if f"{package}/__init__.py" not in names:
        raise BuildError(f"{wheel.name} lacks {package}/__init__.py")
    for name in names:
        parts = name.split("/")
        top_ok = parts[0] == package or parts[0].endswith(".dist-info")
        testy = any(p in {"tests", "test", "e2e", "conftest.py"} or p.startswith("test_") for p in parts)
        compiled = any(p in SKIP_DIRS for p in parts) or Path(name).suffix in SKIP_SUFFIXES
        if not top_ok or testy or compiled:
            raise BuildError(f"{wheel.name} holds an unexpected file: {name}")


def build_wheel(root: Path, project: dict[str, Any], target: Path, stream: Any) -> Path:
    """Build the engine wheel with pip (the hatchling backend) and copy it to ``target``."""
    expected = wheel_name(project)
    log(f"wheel: building {expected}", stream)
    # With hatchling installed, build in this environment: faster, and it works with no network.
    isolation = [] if importlib.util.find_spec("hatchling") is None else ["--no-build-isolation"]
    with tempfile.TemporaryDirectory(prefix="cardtable-wheel-") as tmp:
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "wheel", ".", "--no-deps", "--no-input", "-q", *isolation, "-w", tmp],
            cwd=root,
            capture_output=True,
            text=True,
            check=False,
        )
        if proc.returncode != 0:
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-25:])
            raise BuildError(f"pip wheel failed (exit {proc.returncode}):\n{tail}")
        built = sorted(p.name for p in Path(tmp).glob("*.whl"))
        if built != [expected]:
            raise BuildError(f"pip wheel made {built}, expected [{expected!r}]")
        target.mkdir(parents=True, exist_ok=True)
        wheel = Path(shutil.copy2(Path(tmp) / expected, target / expected))
    check_wheel(wheel, "pyengine")
    return wheel


def zip_folder(folder: Path, arcroot: str, target: Path) -> None:
    """Zip ``folder`` as ``arcroot/...`` deterministically (sorted entries, fixed timestamps and modes)."""
    files = {f"{arcroot}/{path.relative_to(folder).as_posix()}": path.read_bytes() for path in walk_files(folder)}
    zip_files(target, files)


# -- static files ----------------------------------------------------------------------------------------------------


def games_json(root: Path) -> str:
    """The lobby's data as script-safe JSON: ``python -m cardtable_web.page_facts`` of the repository's own page
    (the games and computer levels, each game's lesson length, the storage keys: every fact the lobby's script reads
    before Python starts), or ``python -m pyengine games --json`` where the repository has no page package."""
    web = root / "web"
    facts = (web / "cardtable_web" / "page_facts.py").is_file()
    path = os.pathsep.join([str(root), str(web)]) if facts else str(root)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": path}
    command = ["-m", "cardtable_web.page_facts"] if facts else ["-m", "pyengine", "games", "--json"]
    proc = subprocess.run(
        [sys.executable, "-B", *command],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=env,
        cwd=root,
        check=False,
    )
    if proc.returncode != 0:
        raise BuildError(f"listing the games of {root} failed:\n{proc.stderr.strip()}")
    data = json.loads(proc.stdout)
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("</", "<\\/").replace("<!--", "\\u003c!--")


def write_index(root: Path, stage: Path, stream: Any) -> None:
    """Copy ``index.html`` with the games placeholder replaced by the lobby's JSON."""
    source = root / "index.html"
    if not source.is_file():
        raise BuildError(f"no index.html in {root}")
    html = source.read_text(encoding="utf-8")
    count = html.count(PLACEHOLDER)
    if count != 1:
        raise BuildError(f"index.html must hold the placeholder {PLACEHOLDER} exactly once (found {count})")
    data = games_json(root)
    script = f'<script type="application/json" id="games-data">{data}</script>'
    (stage / "index.html").write_text(html.replace(PLACEHOLDER, script), encoding="utf-8")
    log(f"index.html: {len(json.loads(data)['games'])} game(s) listed", stream)


def write_lobby_pictures(root: Path, stage: Path, stream: Any) -> None:
    """Each game's picture for the lobby (``web/pictures/<game>.html``): a named position drawn by the game's own
    renderer, run here under this CPython (``python -m cardtable_web.pictures``); static pages, the same on
    every build."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": os.pathsep.join([str(root), str(root / "web")])}
    proc = subprocess.run(
        [sys.executable, "-B", "-m", f"{BROWSER_PACKAGE}.pictures", str(stage / "web" / "pictures")],
        capture_output=True, text=True, encoding="utf-8", env=env, cwd=root, check=False,
    )
    if proc.returncode != 0:
        raise BuildError(f"drawing the lobby's pictures failed:\n{proc.stderr.strip()}")
    log(f"web/pictures: {len(proc.stdout.split())} game picture(s)", stream)


def copy_embed(root: Path, stage: Path) -> None:
    """Copy ``embed.html`` (one game or position for an ``<iframe>`` elsewhere) when the repository has it."""
    if (root / "embed.html").is_file():
        shutil.copyfile(root / "embed.html", stage / "embed.html")


def copy_web(root: Path, stage: Path) -> None:
    """Copy ``web/`` to ``web/`` of the output, leaving out the browser package (it ships zipped) and bytecode."""
    web = root / "web"
    if not web.is_dir():
        raise BuildError(f"no web/ folder in {root}")
    for path in walk_files(web, exclude=[web / BROWSER_PACKAGE]):
        target = stage / "web" / path.relative_to(web)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)


# -- manifest, checks and summary ------------------------------------------------------------------------------------


def file_sizes(stage: Path) -> dict[str, int]:
    """Every file of the output (posix path relative to it) with its size, sorted."""
    return {p.relative_to(stage).as_posix(): p.stat().st_size for p in sorted(stage.rglob("*")) if p.is_file()}


def cache_key(stage: Path, files: Iterable[str]) -> str:
    """A short hash of every file of the site, names and bytes (the service worker's own source with its
    placeholder; ``write_worker`` adds it and the web app manifest again): the key changes exactly when the site
    does. Nothing else goes in (no time, no folder), so a build of the same sources has the same key, and a returning
    player is told of a new version only when there is one."""
    pins = [pin.spec for pin, _, _ in VENDORED] + [MICROPIP.file_name]
    digest = hashlib.sha256(" ".join(pins).encode() + b"\n")
    for name in sorted(files):
        digest.update(name.encode() + b"\0" + hashlib.sha256((stage / name).read_bytes()).digest())
    return digest.hexdigest()[:12]


def file_archives(stage: Path) -> str:
    """Move the wheel and the zip into ``wheels/<hash of both>/`` and return that folder.

    The page unpacks them by file type, which a ``?v=`` query would hide, so the
    cache-busting key goes into the path instead.
    """
    wheels = stage / "wheels"
    digest = hashlib.sha256()
    for path in sorted(wheels.iterdir()):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    folder = wheels / digest.hexdigest()[:12]
    folder.mkdir()
    for path in sorted(wheels.iterdir()):
        if path.is_file():
            path.rename(folder / path.name)
    return folder.relative_to(stage).as_posix()


def runtime_address(stage: Path) -> str:
    """Where the pages fetch Python's WebAssembly: its file, with a hash of its bytes as the query. The pages ask the
    browser's HTTP cache for it first (whose copy the browser keeps compiled), which answers without asking the
    server, so another build's copy must not match; the service worker precaches it under the same address, so
    that a first visit's copy is the one it keeps."""
    return f"{RUNTIME_FILE}?v={sha256_file(stage / RUNTIME_FILE)[:12]}"


def sha256_file(path: Path) -> str:
    """The hex sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def snapshot_facts(stage: Path, project: dict[str, Any], archives: str) -> dict[str, str]:
    """What a snapshot is made from: the Pyodide version and the sha256 of the engine wheel and the browser zip
    (the page compares them with the archives it loads and refuses a snapshot made from others), and of the site's
    standard library when the build has one (the page compares it with the manifest's)."""
    facts = {
        "pyodide": PYODIDE.version,
        "engine_wheel": sha256_file(stage / archives / wheel_name(project)),
        "web_zip": sha256_file(stage / archives / ZIP_NAME),
    }
    if (stage / archives / STDLIB_NAME).is_file():
        facts["stdlib"] = sha256_file(stage / archives / STDLIB_NAME)
    return facts


def sparse_image(image: bytes, page: int = SNAPSHOT_PAGE) -> tuple[dict[str, int], bytes]:
    """Pyodide's memory image without its pages of zeros: a map of its pages (bit ``i % 8`` of byte ``i // 8`` set
    when page ``i`` is stored), padded with zeros to a multiple of 16 bytes, then the stored pages in order (the last
    one padded to a whole page). Returns how it is stored (``size``: the image's bytes, ``page``, ``stored``: the
    bytes that follow the header) and those bytes. ``web/python.js`` fills a zeroed image from them."""
    count = -(-len(image) // page)
    bits = bytearray(-(-count // 8))
    pages = []
    for index in range(count):
        chunk = image[index * page : (index + 1) * page]
        if chunk.count(0) != len(chunk):
            bits[index // 8] |= 1 << (index % 8)
            pages.append(chunk.ljust(page, b"\0"))
    body = bytes(bits.ljust(-(-len(bits) // 16) * 16, b"\0")) + b"".join(pages)
    return {"size": len(image), "page": page, "stored": len(body)}, body


def full_image(stored: dict[str, int], body: bytes) -> bytes:
    """The memory image back from ``sparse_image``'s output (as ``web/python.js`` rebuilds it; for the tests)."""
    size, page = stored["size"], stored["page"]
    count = -(-size // page)
    image = bytearray(size)
    map_bytes = -(-count // 8)
    at = -(-map_bytes // 16) * 16
    for index in range(count):
        if body[index // 8] >> (index % 8) & 1:
            end = min(size, (index + 1) * page)
            image[index * page : end] = body[at : at + end - index * page]
            at += page
    if at != len(body):
        raise ValueError("the page map does not match the stored pages")
    return bytes(image)


def snapshot_header(facts: dict[str, Any]) -> bytes:
    """``CARDTABLE-SNAPSHOT 2 <length>``, a newline, the facts as one JSON line, padded with spaces to ``length``
    (a multiple of 16, so what follows stays aligned)."""
    body = json.dumps(facts, sort_keys=True, separators=(",", ":"))
    first = len(SNAPSHOT_MAGIC) + 1 + 4 + 1  # the length is written with 4 digits
    length = -(-(first + len(body) + 1) // 16) * 16
    text = f"{SNAPSHOT_MAGIC} {length:04d}\n{body}\n".ljust(length)
    return text.encode("ascii")


def node_tool(paths: Paths) -> tuple[str, Path]:
    """Node and ``snapshot.mjs``, which run the build's steps inside Pyodide."""
    tool = paths.root / SNAPSHOT_TOOL
    node = shutil.which("node")
    if not tool.is_file():
        raise BuildError(f"no {SNAPSHOT_TOOL} in {paths.root}")
    if node is None:
        raise BuildError(f"node (installed with npm) is needed to run {SNAPSHOT_TOOL} but is not on PATH")
    return node, tool


def run_node_step(paths: Paths, stage: Path, args: list[str], *, step: str = "") -> None:
    """``node snapshot.mjs [--bytecode | --stdlib] PYODIDE_DIR ARGS`` with the output's Pyodide (``step`` names
    the flag; none makes the snapshot), or a ``BuildError`` with the tail of its output."""
    node, tool = node_tool(paths)
    command = [node, str(tool), *([f"--{step}"] if step else []), str(stage / PYODIDE_DIR), *args]
    proc = subprocess.run(command, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-15:])[-3000:]
        raise BuildError(f"{SNAPSHOT_TOOL} failed (exit {proc.returncode}):\n{tail}")


STEP_CACHE = "steps"
"""Under the package cache: what the Node steps made (compiled modules, the standard library, the snapshot), by a
hash of everything they are made from. A build whose archives did not change (a stylesheet did) takes them from
there instead of starting Python under Node three times. (The snapshot is a memory image: one made in another
folder holds the same Python, though not byte for byte the same image.)"""
STEPS_KEPT = 2
"""How many versions of each step's output the cache keeps (the newest)."""


def step_output(
    paths: Paths, step: str, inputs: Sequence[Path], outputs: Sequence[Path], make: Callable[[], None], stream: Any
) -> bool:
    """Run ``make()``, which writes ``outputs``, unless the step cache holds them made from the same ``inputs``
    (their bytes, this script, the Node tool and the Pyodide pin): then copy them from there. True when cached."""
    digest = hashlib.sha256(f"{step}\0{PYODIDE.spec}".encode())
    for source in (Path(__file__).resolve(), node_tool(paths)[1], *inputs):
        digest.update(b"\0" + hashlib.sha256(source.read_bytes()).digest())
    kept = paths.cache / STEP_CACHE / f"{step}-{digest.hexdigest()[:16]}"
    if all((kept / target.name).is_file() for target in outputs):
        for target in outputs:
            shutil.copyfile(kept / target.name, target)
        kept.touch()  # the newest used
        log(f"{step}: from cache", stream)
        return True
    make()
    partial = kept.with_name(kept.name + f".{os.getpid()}")
    partial.mkdir(parents=True, exist_ok=True)
    for target in outputs:
        shutil.copyfile(target, partial / target.name)
    shutil.rmtree(kept, ignore_errors=True)
    try:
        partial.rename(kept)
    except OSError:  # another build stored the same meanwhile
        shutil.rmtree(partial, ignore_errors=True)
    versions = sorted(kept.parent.glob(f"{step}-*"), key=lambda folder: folder.stat().st_mtime, reverse=True)
    for old in versions[STEPS_KEPT:]:
        shutil.rmtree(old, ignore_errors=True)
    return False


BYTECODE_COMMON = "common"
"""The bytecode archive every page takes (the core, the computer player and the shell); each game has its own too."""
BYTECODE_ADAPTERS = "adapters"
"""The bytecode archive of the browser package's DOM adapters (``cardtable_web.DOM_ADAPTERS``): the only modules a
page started from the memory snapshot imports, so that start takes this archive alone."""


def bytecode_name(group: str) -> str:
    return f"bytecode-{group}.zip"


@dataclass(frozen=True)
class ProjectModules:
    """What the bytecode step reads of the project's modules (:func:`project_modules`)."""

    games: dict[str, str]
    """Each game's id and its module name (``pyengine.games.GAME_MODULES``: also its renderer's name)."""
    command_line: tuple[str, ...]
    """Where the compiled files of the engine's command-line modules (``pyengine.games.COMMAND_LINE``) start: no
    page imports them, so the page's bytecode archives leave them out."""
    adapters: tuple[str, ...]
    """Where the compiled files of the browser package's DOM adapters (``cardtable_web.DOM_ADAPTERS``) start."""


def project_modules(root: Path) -> ProjectModules:
    """The games, the command line's modules and the page's DOM adapters of the project at ``root``, read by one
    fresh Python (the engine and the browser package importable)."""
    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "PYTHONPATH": os.pathsep.join((str(root), str(root / "web")))}
    code = ("import json, cardtable_web; from pyengine import games; print(json.dumps([games.GAME_MODULES, "
            "games.COMMAND_LINE, cardtable_web.DOM_ADAPTERS]))")
    proc = subprocess.run(
        [sys.executable, "-B", "-c", code], capture_output=True, text=True, env=env, cwd=root, check=False
    )
    if proc.returncode != 0:
        raise BuildError(f"reading the modules of {root} failed:\n{proc.stderr.strip()}")
    games, command_line, adapters = json.loads(proc.stdout)
    return ProjectModules(dict(games), module_files(command_line), module_files(adapters))


def module_files(modules: list[str]) -> tuple[str, ...]:
    """Where the compiled files of ``modules`` (dotted names) start in an archive: ``package/__pycache__/name.``."""
    starts = []
    for module in modules:
        package, _, name = module.rpartition(".")
        starts.append(f"{package.replace('.', '/')}/__pycache__/{name}.")
    return tuple(starts)


def bytecode_group(name: str, modules: dict[str, str], adapters: tuple[str, ...] = ()) -> str:
    """Which archive a compiled module goes to: the DOM adapters' (``adapters``: where their files start), its
    game's (the game's engine package or renderer), else common."""
    if name.startswith(adapters):
        return BYTECODE_ADAPTERS
    for game, module in modules.items():
        if name.startswith(f"pyengine/games/{module}/") or name.startswith(
            f"{BROWSER_PACKAGE}/renderers/__pycache__/{module}."
        ):
            return game
    return BYTECODE_COMMON


def zip_files(target: Path, files: dict[str, bytes]) -> None:
    """A zip of ``files`` (name: bytes), deterministically (sorted entries, fixed timestamps and modes)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(target, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(files):
            info = zipfile.ZipInfo(name, date_time=ZIP_DATE_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            zf.writestr(info, files[name])


def staged_archives(stage: Path, project: dict[str, Any]) -> list[Path]:
    """The engine wheel and the browser zip, where the build makes them (before ``file_archives`` moves them)."""
    return [stage / "wheels" / wheel_name(project), stage / "wheels" / ZIP_NAME]


def write_bytecode(paths: Paths, stage: Path, project: dict[str, Any], stream: Any) -> dict[str, str]:
    """Compile the wheel's and the browser zip's modules ahead of time for Pyodide's Python (hash-checked
    ``__pycache__/*.cpython-3XX.pyc``, see ``snapshot.mjs``) into ``bytecode-common.zip``, one
    ``bytecode-<game>.zip`` per game and ``bytecode-adapters.zip`` (the page's DOM adapters) beside the archives: a
    page that starts Python the ordinary way unpacks the common one, its game's and the adapters' over the sources
    and imports them without compiling (all of them in the wheel would add 0.47 MB to a first visit, four fifths of
    it for games it does not play); a page started from the memory snapshot, which imported the rest, unpacks the
    adapters' alone. The command line's modules are left out: no page imports them. Returns group: file name."""
    archives = staged_archives(stage, project)
    found = project_modules(paths.root)
    modules = found.games
    names = {group: bytecode_name(group) for group in (BYTECODE_COMMON, BYTECODE_ADAPTERS, *modules)}

    def compile_archives() -> None:
        with tempfile.TemporaryDirectory(prefix="cardtable-bytecode-") as tmp:
            run_node_step(paths, stage, [tmp, *map(str, archives)], step="bytecode")
            compiled = {p.relative_to(tmp).as_posix(): p.read_bytes() for p in sorted(Path(tmp).rglob("*.pyc"))}
        if not compiled:
            raise BuildError("compiling the archives' modules for Pyodide gave no bytecode")
        compiled = {name: data for name, data in compiled.items() if not name.startswith(found.command_line)}
        groups: dict[str, dict[str, bytes]] = {group: {} for group in names}
        for name, data in compiled.items():
            groups[bytecode_group(name, modules, found.adapters)][name] = data
        for group, files in groups.items():
            zip_files(stage / "wheels" / names[group], files)
        log(f"bytecode: {len(compiled)} modules compiled for Pyodide's Python, in {len(groups)} archives", stream)

    outputs = [stage / "wheels" / name for name in names.values()]
    step_output(paths, "bytecode", archives, outputs, compile_archives, stream)
    return names


def write_stdlib(paths: Paths, stage: Path, project: dict[str, Any], stream: Any) -> None:
    """Run ``snapshot.mjs --stdlib`` under Node: the site's standard library, ``STDLIB_NAME`` beside the archives
    (Pyodide's, less what a page never uses, with every module a page imports as it starts compiled ahead of time
    for this Python in place of its source: compiling them at start would be most of a first visit's start)."""
    archives = staged_archives(stage, project)
    target = stage / "wheels" / STDLIB_NAME
    step_output(paths, "stdlib", archives, [target],
                lambda: run_node_step(paths, stage, [str(target), *map(str, archives)], step="stdlib"), stream)
    with zipfile.ZipFile(target) as zf:
        compiled = sum(1 for name in zf.namelist() if name.endswith(".pyc"))
    log(f"standard library: {compiled} modules of the start compiled, {target.stat().st_size / MB:.1f} MB", stream)


def make_snapshot(paths: Paths, stage: Path, project: dict[str, Any], archives: str, stream: Any) -> str:
    """Run ``snapshot.mjs`` under Node: Pyodide (on the site's standard library when the build has one) with the
    wheel and the zip imported, saved as ``SNAPSHOT_NAME`` in the archives' folder behind a header naming what it
    was made from, its pages of zeros left out (``sparse_image``); returns its path in the site."""
    target = stage / archives / SNAPSHOT_NAME
    log(f"snapshot: Python with {wheel_name(project)} and {ZIP_NAME} imported", stream)
    stdlib = stage / archives / STDLIB_NAME
    with tempfile.TemporaryDirectory(prefix="cardtable-snapshot-") as tmp:
        raw = Path(tmp) / SNAPSHOT_NAME
        inputs = [stage / archives / name for name in (wheel_name(project), ZIP_NAME)]
        extra = ["--stdlib-zip", str(stdlib)] if stdlib.is_file() else []
        step_output(paths, "snapshot", [*inputs, *([stdlib] if stdlib.is_file() else [])], [raw],
                    lambda: run_node_step(paths, stage, [str(raw), *map(str, inputs), *extra]), stream)
        if not raw.is_file():
            raise BuildError(f"{SNAPSHOT_TOOL} wrote no snapshot")
        stored, body = sparse_image(raw.read_bytes())
        facts = {**snapshot_facts(stage, project, archives), "image": stored}
        target.write_bytes(snapshot_header(facts) + body)
    return target.relative_to(stage).as_posix()


def precompress(out: Path, names: Iterable[str], stream: Any = None) -> list[str]:
    """Write ``NAME.gz`` (and ``NAME.br`` when the ``brotli`` package is installed) beside each file worth it, for
    hosts that serve precompressed files; deterministic (no time stamps). Returns the files written."""
    try:
        import brotli  # type: ignore[import-not-found, import-untyped, unused-ignore]
    except ImportError:
        brotli = None
    written = []
    for name in sorted(names):
        path = out / name
        if path.suffix not in PRECOMPRESSED:
            continue
        data = path.read_bytes()
        packed = {".gz": gzip.compress(data, compresslevel=9, mtime=0)}
        if brotli is not None:
            packed[".br"] = brotli.compress(data, quality=11 if len(data) < MB else 9)
        for suffix, blob in packed.items():
            if len(blob) < 0.9 * len(data):
                path.with_name(path.name + suffix).write_bytes(blob)
                written.append(name + suffix)
    kinds = ".gz and .br" if brotli is not None else ".gz (no brotli package here)"
    log(f"precompressed: {len(written)} files ({kinds})", stream)
    return written


def write_manifest(
    stage: Path,
    project: dict[str, Any],
    archives: str,
    snapshot: str,
    bytecode: dict[str, str],
    python_pages: Sequence[str] = (),
) -> dict[str, Any]:
    """Write ``build.json``: where things are (``snapshot`` and the first words of its header, ``snapshot_magic``;
    ``bytecode``: each group's archive, ``common`` or a game's id;
    ``stdlib``: the site's standard library, or null for Pyodide's own; ``python_pages``: the files only Python
    pages fetch, which the service worker does not precache), the cache-busting key and every file's size."""
    files = file_sizes(stage)
    stdlib = stage / archives / STDLIB_NAME
    runtime = runtime_address(stage)
    manifest: dict[str, Any] = {
        "version": project["version"],
        "engine_wheel": f"{archives}/{wheel_name(project)}",
        "web_zip": f"{archives}/{ZIP_NAME}",
        "snapshot": snapshot,
        "snapshot_magic": SNAPSHOT_MAGIC,
        "bytecode": {group: f"{archives}/{name}" for group, name in bytecode.items()},
        "stdlib": f"{archives}/{STDLIB_NAME}" if stdlib.is_file() else None,
        "stdlib_sha256": sha256_file(stdlib) if stdlib.is_file() else None,
        "pyodide": PYODIDE_DIR,
        "runtime": runtime,
        "pyscript": "vendor/pyscript/core.js",
        "vendor": {pin.name: pin.version for pin, _, _ in VENDORED} | {MICROPIP.name: MICROPIP.version},
        "python_pages": list(python_pages),
        "cache_key": write_worker(
            stage, files, cache_key(stage, files), runtime, own_stdlib=stdlib.is_file(), left_out=python_pages
        ),
        "files": file_sizes(stage),
    }
    (stage / "build.json").write_text(json.dumps(manifest, indent=2, sort_keys=False) + "\n", encoding="utf-8")
    return manifest


def external_urls(text: str) -> list[str]:
    """Snippets of ``text`` where an external http(s) URL would be loaded (src=, import, url(, fetch(, @import)."""
    found = []
    for pattern in EXTERNAL_URL_PATTERNS:
        for match in pattern.finditer(text):
            found.append(text[match.start() : match.end() + 40].splitlines()[0])
    return found


def check_output(stage: Path) -> None:
    """No source maps and no external URL loaded by any html, js, css, json or py file."""
    problems = [f"source map shipped: {p.relative_to(stage).as_posix()}" for p in stage.rglob("*.map")]
    for path in sorted(stage.rglob("*")):
        if path.is_file() and path.suffix.lower() in SCANNED_SUFFIXES:
            text = path.read_text(encoding="utf-8", errors="replace")
            for snippet in external_urls(text):
                problems.append(f"external URL in {path.relative_to(stage).as_posix()}: {snippet}")
    if problems:
        raise BuildError("the output is not self-contained:\n  " + "\n  ".join(problems))


def startup_files(stage: Path, manifest: dict[str, Any]) -> list[str]:
    """Files the page downloads at start: Pyodide, wheel, zip, page, web/ (PyScript is only for the Python pages)."""
    files: dict[str, int] = manifest["files"]
    wanted = {name for name in files if name.startswith(PYODIDE_DIR)} - set(manifest.get("python_pages", []))
    if manifest.get("stdlib"):  # the site's standard library instead of Pyodide's
        wanted = (wanted - {f"{PYODIDE_DIR}{STDLIB_NAME}"}) | {manifest["stdlib"]}
    wanted |= {manifest["engine_wheel"], manifest["web_zip"], "index.html"}
    wanted |= {name for name in files if name.startswith("vendor/idiomorph/")}
    wanted |= {name for name in files if name.startswith("web/") and not name.startswith("web/rules/")}
    return sorted(wanted)


def display(path: Path) -> str:
    """``path`` relative to the working folder when it is below it, else as it is."""
    with contextlib.suppress(ValueError):
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix() or "."
    return str(path)


def summary(out: Path, manifest: dict[str, Any], startup: Sequence[str]) -> str:
    """The closing line: file count, total size and the start-up download."""
    files: dict[str, int] = manifest["files"]
    total = sum(files.values()) + (out / "build.json").stat().st_size
    start = sum(files.get(name, 0) for name in startup) + (out / "build.json").stat().st_size
    return f"{display(out)}/: {len(files) + 1} files, {total / MB:.1f} MB (start-up download about {start / MB:.1f} MB)"


# -- the build -------------------------------------------------------------------------------------------------------


def stage_prefix(out: Path) -> str:
    """Where a build assembles the site before it replaces ``out``: ``.<out's name>.building-<process id>-...``,
    beside ``out`` (ignored by git)."""
    return f".{out.name}.building-"


def remove_stale_stages(out: Path) -> list[Path]:
    """Remove the staging folders that builds of ``out`` left behind when they were killed (their process is gone;
    a build that fails removes its own). Returns them."""
    removed = []
    for folder in sorted(out.parent.glob(f"{stage_prefix(out)}*")):
        pid = folder.name.removeprefix(stage_prefix(out)).split("-", 1)[0]
        if not folder.is_dir() or (pid.isdigit() and process_alive(int(pid))):
            continue
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed


def process_alive(pid: int) -> bool:
    """True when a process with this id runs (on this machine)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def replace_output(stage: Path, out: Path) -> None:
    """Swap the finished staging folder in for ``out`` (only ever deleting a folder a build made)."""
    if out.exists():
        if not (out / "build.json").is_file() and any(out.iterdir()):
            raise BuildError(f"{out} exists and is not a Card Table build (no build.json): not replacing it")
        shutil.rmtree(out)
    stage.rename(out)


# -- installable and offline: icons, web app manifest, service worker -----------------------------------------------


def png(width: int, height: int, rows: Iterable[bytes]) -> bytes:
    """An 8-bit RGB PNG from its rows of ``width * 3`` bytes."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return len(data).to_bytes(4, "big") + kind + data + zlib.crc32(kind + data).to_bytes(4, "big")

    header = width.to_bytes(4, "big") + height.to_bytes(4, "big") + bytes([8, 2, 0, 0, 0])
    raw = b"".join(b"\0" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def icon_png(size: int) -> bytes:
    """The site's icon: a white card with a red heart on green felt (the favicon's drawing), ``size`` pixels square."""
    felt, card, heart = b"\x1d\x3b\x2a", b"\xff\xff\xff", b"\xb3\x26\x1e"
    half_w, half_h, radius = 0.28 * size, 0.38 * size, 0.06 * size
    centre = (size - 1) / 2
    rows = []
    for j in range(size):
        row = bytearray()
        dy = abs(j - centre)
        for i in range(size):
            dx = abs(i - centre)
            cx, cy = max(dx - (half_w - radius), 0.0), max(dy - (half_h - radius), 0.0)
            if dx > half_w or dy > half_h or cx * cx + cy * cy > radius * radius:
                row += felt
                continue
            # the heart curve (x^2 + y^2 - 1)^3 <= x^2 y^3, about a third of the card wide
            x, y = (i - centre) / (0.15 * size), -(j - centre) / (0.15 * size) + 0.1
            row += heart if (x * x + y * y - 1) ** 3 - x * x * y**3 <= 0 else card
        rows.append(bytes(row))
    return png(size, size, rows)


def write_app_files(root: Path, stage: Path) -> None:
    """Copy the web app manifest and the service worker's source, and draw the manifest's icons."""
    for name in (WEB_MANIFEST, WORKER):
        if not (root / name).is_file():
            raise BuildError(f"no {name} in {root}")
    manifest = json.loads((root / WEB_MANIFEST).read_text(encoding="utf-8"))
    (stage / "icons").mkdir()
    for size in ICON_SIZES:
        (stage / "icons" / f"icon-{size}.png").write_bytes(icon_png(size))
    missing = [icon["src"] for icon in manifest.get("icons", []) if not (stage / icon["src"]).is_file()]
    if missing:
        raise BuildError(f"{WEB_MANIFEST} names icons the build does not make: {missing}")
    shutil.copyfile(root / WEB_MANIFEST, stage / WEB_MANIFEST)
    source = (root / WORKER).read_text(encoding="utf-8")
    if source.count(WORKER_PLACEHOLDER) != 1:
        raise BuildError(f"{WORKER} must hold the placeholder {WORKER_PLACEHOLDER} exactly once")
    shutil.copyfile(root / WORKER, stage / WORKER)


def write_worker(
    stage: Path, files: Iterable[str], key: str, runtime: str, own_stdlib: bool = False, left_out: Iterable[str] = ()
) -> str:
    """Fill in the service worker: the cache key (with the worker's own source and the manifest hashed into it) and
    every file it precaches (the whole site and ``build.json``, less Pyodide's own standard library when the site
    has its own, ``own_stdlib``: no page fetches it then, and less the files only Python pages fetch, ``left_out``:
    a player's first visit does not download them; Python's WebAssembly under the pages' address for it,
    ``runtime``); returns that key."""
    digest = hashlib.sha256(key.encode())
    for name in (WORKER, WEB_MANIFEST):
        digest.update(b"\0" + (stage / name).read_bytes())
    key = digest.hexdigest()[:12]
    unused = ({f"{PYODIDE_DIR}{STDLIB_NAME}"} if own_stdlib else set()) | set(left_out)
    precache = sorted({name for name in files if name != WORKER and name not in unused} | {"build.json"})
    precache = [runtime if name == RUNTIME_FILE else name for name in precache]
    data = json.dumps({"cache_key": key, "files": precache}, indent=1)
    source = (stage / WORKER).read_text(encoding="utf-8")
    (stage / WORKER).write_text(source.replace(WORKER_PLACEHOLDER, data), encoding="utf-8")
    return key


def build(paths: Paths, stream: Any = None, compress: bool = False, bytecode: bool = True) -> dict[str, Any]:
    """Build the whole site into ``paths.out`` and return its manifest (with ``compress``, also precompressed
    ``.gz`` and ``.br`` files beside the site's files, for hosts that serve them; without ``bytecode``, the
    archives hold only sources, as a benchmark's comparison needs)."""
    started = time.monotonic()
    project = project_meta(paths.root)
    paths.out.parent.mkdir(parents=True, exist_ok=True)
    remove_stale_stages(paths.out)
    stage = Path(tempfile.mkdtemp(prefix=f"{stage_prefix(paths.out)}{os.getpid()}-", dir=paths.out.parent))
    stage.chmod(0o755)
    try:
        vendor(paths, stage, stream)
        micropip = vendor_micropip(paths, stage, stream)
        axe_script(paths.cache, stream)  # only into the cache: the tests run offline
        write_index(paths.root, stage, stream)
        copy_embed(paths.root, stage)
        copy_web(paths.root, stage)
        write_lobby_pictures(paths.root, stage, stream)
        build_wheel(paths.root, project, stage / "wheels", stream)
        zip_folder(paths.root / "web" / BROWSER_PACKAGE, BROWSER_PACKAGE, stage / "wheels" / ZIP_NAME)
        compiled = write_bytecode(paths, stage, project, stream) if bytecode else {}
        if bytecode:
            write_stdlib(paths, stage, project, stream)
        write_app_files(paths.root, stage)
        archives = file_archives(stage)
        python_pages = [micropip, *write_python_pages(paths.root, stage, project, archives)]
        snapshot = make_snapshot(paths, stage, project, archives, stream)
        manifest = write_manifest(stage, project, archives, snapshot, compiled, python_pages)
        check_output(stage)
        if compress:
            precompress(stage, manifest["files"], stream)
        startup = startup_files(stage, manifest)
        replace_output(stage, paths.out)
    finally:
        if stage.exists():
            shutil.rmtree(stage)
    log(f"built in {time.monotonic() - started:.1f} s, cache key {manifest['cache_key']}", stream)
    log(summary(paths.out, manifest, startup), stream)
    return manifest


def sources(root: Path) -> Iterator[Path]:
    """Every file a build reads from the repository (and this script)."""
    yield Path(__file__).resolve()
    for name in ("index.html", "embed.html", "pyproject.toml", "README.md", PACKAGE_README, PYTHON_EXAMPLE):
        if (root / name).is_file():
            yield root / name
    for name in (WORKER, WEB_MANIFEST, SNAPSHOT_TOOL):
        if (root / name).is_file():
            yield root / name
    for folder in ("web", "pyengine"):
        if (root / folder).is_dir():
            yield from walk_files(root / folder)


def needs_build(paths: Paths) -> bool:
    """True when the output is missing or any source is newer than the last build."""
    stamp = paths.out / "build.json"
    if not stamp.is_file():
        return True
    built = stamp.stat().st_mtime
    return any(path.stat().st_mtime > built for path in sources(paths.root))


# -- release archive -------------------------------------------------------------------------------------------------

RELEASE_README = """Card Table: card games that run in the browser, offline.

To play, serve this folder over HTTP on your own computer and open the address it prints:

    python3 -m http.server --bind 127.0.0.1 8000

then open http://127.0.0.1:8000/ in a browser. After one visit the site also works with no network at all.

Opening index.html from the file system (file://) cannot work: the page loads JavaScript modules and
WebAssembly (the Python runtime), which browsers only allow over HTTP, and service workers need HTTP too.
"""


def release_zip(paths: Paths, folder: Path, stream: Any = None) -> Path:
    """Build when a source is newer than the output, then write ``folder/card-table-<cache key>.zip``: the site in a
    ``card-table/`` folder with a README.txt saying how to serve it (deterministic: sorted, fixed dates)."""
    if needs_build(paths):
        build(paths, stream=stream)
    manifest = json.loads((paths.out / "build.json").read_text(encoding="utf-8"))
    target = folder / f"{RELEASE_NAME}-{manifest['cache_key']}.zip"
    zip_folder(paths.out, RELEASE_NAME, target)
    with zipfile.ZipFile(target, "a", compression=zipfile.ZIP_DEFLATED) as zf:
        info = zipfile.ZipInfo(f"{RELEASE_NAME}/README.txt", date_time=ZIP_DATE_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.external_attr = 0o644 << 16
        zf.writestr(info, RELEASE_README)
    log(f"release: {display(target)} ({target.stat().st_size / MB:.1f} MB)", stream)
    return target


# -- serving ---------------------------------------------------------------------------------------------------------


def serve(paths: Paths, host: str, port: int) -> None:
    """Build if needed, then serve the output folder until Ctrl-C (or SIGTERM)."""
    devserver = load_devserver()
    try:
        host = devserver.loopback_host(host)
    except devserver.ServerError as exc:
        raise BuildError(str(exc)) from None
    if needs_build(paths):
        build(paths, stream=sys.stderr)
    devserver.serve_forever(paths.out, host, port)


def load_devserver() -> Any:
    """The development server module beside this script."""
    spec = importlib.util.spec_from_file_location("devserver", Path(__file__).resolve().with_name("devserver.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- command line ----------------------------------------------------------------------------------------------------


def parser(command: str | None) -> argparse.ArgumentParser:
    """The command-line parser for a build, or for the ``serve`` or ``zip`` command."""
    serving = command == "serve"
    prog = f"build.py {command}" if command else "build.py"
    p = argparse.ArgumentParser(prog=prog, description=__doc__.splitlines()[0] if __doc__ else None)
    p.add_argument("--root", type=Path, default=ROOT, help="the repository to build (default: build.py's folder)")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: ROOT/dist)")
    p.add_argument("--cache", type=Path, default=None, help="npm tarball cache (default: ROOT/.cache/npm)")
    if serving:
        p.add_argument("--port", type=int, default=8000, help="port (0 picks a free one)")
        p.add_argument("--host", default="127.0.0.1", help="loopback address to bind (default 127.0.0.1)")
    if command is None:
        p.add_argument(
            "--precompress",
            action="store_true",
            help="also write NAME.gz and NAME.br beside the files, for hosts that serve precompressed files",
        )
        p.add_argument(
            "--no-bytecode",
            action="store_true",
            help="leave the modules uncompiled in the archives and take Pyodide's own standard library "
            "(to measure what the bytecode saves)",
        )
    if command == "zip":
        p.add_argument("--zip-dir", type=Path, default=None, help="where the archive goes (default: ROOT/dist-zip)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    """Run a build or ``serve``; a failed step prints one clear error and returns 1."""
    args_in = list(sys.argv[1:] if argv is None else argv)
    command = args_in[0] if args_in and args_in[0] in ("serve", "zip") else None
    serving = command == "serve"
    args = parser(command).parse_args(args_in[1:] if command else args_in)
    root = args.root.resolve()
    paths = Paths(
        root=root,
        out=(args.out or root / "dist").resolve(),
        cache=(args.cache or root / ".cache" / "npm").resolve(),
    )
    try:
        if serving:
            serve(paths, args.host, args.port)
        elif command == "zip":
            release_zip(paths, (args.zip_dir or root / "dist-zip").resolve())
        else:
            build(paths, compress=args.precompress, bytecode=not args.no_bytecode)
    except BuildError as exc:
        print(f"build.py: error: {exc}", file=sys.stderr, flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
