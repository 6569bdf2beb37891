"""A PEP 517 build backend in the standard library only: builds this package's wheel and sdist.

pip installs a package from source by building it in an isolated environment with the backend's
requirements, which for setuptools come from PyPI; this backend requires nothing, so an install works
offline. It knows this package's layout only: the `agent_match` directory, this directory, pyproject.toml
and README.md.
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "agent_match"
SDIST_FILES = ["pyproject.toml", "README.md", "build_backend/stdlib_backend.py"]


def _project() -> dict[str, str]:
    """The `key = "value"` lines of pyproject.toml's [project] table (all this package's table holds)."""
    with open(os.path.join(ROOT, "pyproject.toml"), encoding="utf-8") as f:
        table = re.search(r"^\[project\]\n(.*?)(?=^\[|\Z)", f.read(), re.M | re.S)
    return dict(re.findall(r'^([\w-]+)\s*=\s*"([^"]*)"', table.group(1) if table else "", re.M))


def _dist_name() -> str:
    """`<name>-<version>` as wheel and sdist file names spell it."""
    project = _project()
    return f"{re.sub(r'[-_.]+', '_', project['name'])}-{project['version']}"


def _metadata() -> str:
    project = _project()
    with open(os.path.join(ROOT, project.get("readme", "README.md")), encoding="utf-8") as f:
        readme = f.read()
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {project['name']}\n"
        f"Version: {project['version']}\n"
        f"Summary: {project.get('description', '')}\n"
        f"Requires-Python: {project.get('requires-python', '>=3')}\n"
        "Description-Content-Type: text/markdown\n"
        f"\n{readme}"
    )


def _package_files() -> list[str]:
    """The package's files, relative to ROOT, without byte-code caches."""
    found = []
    for directory, subdirectories, files in os.walk(os.path.join(ROOT, PACKAGE)):
        subdirectories[:] = sorted(d for d in subdirectories if d != "__pycache__")
        found += [os.path.relpath(os.path.join(directory, f), ROOT).replace(os.sep, "/") for f in sorted(files) if not f.endswith(".pyc")]
    return found


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}\n"


def _write_wheel(wheel_directory: str, contents: dict[str, bytes]) -> str:
    dist_info = f"{_dist_name()}.dist-info"
    contents = dict(contents)
    contents[f"{dist_info}/METADATA"] = _metadata().encode()
    contents[f"{dist_info}/WHEEL"] = b"Wheel-Version: 1.0\nGenerator: stdlib_backend\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    record = "".join(_record_line(path, data) for path, data in contents.items()) + f"{dist_info}/RECORD,,\n"
    contents[f"{dist_info}/RECORD"] = record.encode()
    filename = f"{_dist_name()}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, filename), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in contents.items():
            wheel.writestr(path, data)
    return filename


def build_wheel(wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None) -> str:
    contents = {}
    for path in _package_files():
        with open(os.path.join(ROOT, path), "rb") as f:
            contents[path] = f.read()
    return _write_wheel(wheel_directory, contents)


def build_editable(wheel_directory: str, config_settings: dict | None = None, metadata_directory: str | None = None) -> str:
    """`pip install -e`: a wheel whose .pth file puts this directory on sys.path."""
    return _write_wheel(wheel_directory, {f"{PACKAGE}.pth": (ROOT + "\n").encode()})


def build_sdist(sdist_directory: str, config_settings: dict | None = None) -> str:
    base = _dist_name()
    filename = f"{base}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz", format=tarfile.PAX_FORMAT) as sdist:
        for path in SDIST_FILES + _package_files():
            sdist.add(os.path.join(ROOT, path), arcname=f"{base}/{path}", recursive=False)
        info = tarfile.TarInfo(f"{base}/PKG-INFO")
        data = _metadata().encode()
        info.size = len(data)
        sdist.addfile(info, io.BytesIO(data))
    return filename
