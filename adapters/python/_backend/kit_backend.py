"""A PEP 517 build backend on the standard library alone, so that ``pip install`` builds the kit
with no network and nothing installed first (setuptools before 70.1 needs the ``wheel`` package
to build one). It builds a pure-Python wheel of the ``autoreview_kit`` package, an sdist, and an
editable wheel (PEP 660) that points at this directory. Metadata comes from pyproject.toml."""

from __future__ import annotations

import base64
import hashlib
import io
import tarfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "autoreview_kit"


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def _dist_name() -> str:
    project = _project()
    return f"{project['name'].replace('-', '_')}-{project['version']}"


def _metadata() -> str:
    project = _project()
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {project['name']}",
        f"Version: {project['version']}",
        f"Summary: {project['description']}",
        f"Requires-Python: {project['requires-python']}",
        *(f"Classifier: {c}" for c in project.get("classifiers", [])),
        "Description-Content-Type: text/markdown",
        "",
        (ROOT / project["readme"]).read_text(encoding="utf-8"),
    ]
    return "\n".join(lines)


def _entry_points() -> str:
    scripts = _project().get("scripts", {})
    return "[console_scripts]\n" + "".join(f"{name} = {target}\n" for name, target in scripts.items())


def _sources() -> list[Path]:
    return sorted(p for p in (ROOT / PACKAGE).rglob("*.py") if "__pycache__" not in p.parts)


def _write_wheel(directory: str, files: dict[str, bytes]) -> str:
    name = _dist_name()
    info = f"{name}.dist-info"
    files = {
        **files,
        f"{info}/METADATA": _metadata().encode(),
        f"{info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: autoreview-kit\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
        f"{info}/entry_points.txt": _entry_points().encode(),
    }
    record = []
    for path, data in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(data)}")
    record.append(f"{info}/RECORD,,")
    files[f"{info}/RECORD"] = ("\n".join(record) + "\n").encode()
    filename = f"{name}-py3-none-any.whl"
    with zipfile.ZipFile(Path(directory) / filename, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files.items():
            wheel.writestr(zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return filename


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, {p.relative_to(ROOT).as_posix(): p.read_bytes() for p in _sources()})


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _write_wheel(wheel_directory, {f"{PACKAGE}.pth": f"{ROOT}\n".encode()})


def build_sdist(sdist_directory, config_settings=None):
    name = _dist_name()
    filename = f"{name}.tar.gz"
    paths = [ROOT / "pyproject.toml", ROOT / "README.md", ROOT / "CHANGELOG.md", *_sources(), *sorted((ROOT / "_backend").glob("*.py"))]
    with tarfile.open(Path(sdist_directory) / filename, "w:gz") as sdist:
        for path in paths:
            sdist.add(path, f"{name}/{path.relative_to(ROOT).as_posix()}")
        pkg_info = _metadata().encode()
        entry = tarfile.TarInfo(f"{name}/PKG-INFO")
        entry.size = len(pkg_info)
        sdist.addfile(entry, io.BytesIO(pkg_info))
    return filename


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []
