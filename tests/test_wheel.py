"""The wheel holds every package and every ruleset folder with its data files: the
editable install of the quick start would hide one that ``pyproject.toml`` left out."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("protocol", "geometry", "engine", "vtt_bridge")
DATA_SUFFIXES = (".json", ".md", ".toml", ".csv")
#: What a checkout has but a server never runs: the wheel must not hold them.
DEV_FOLDERS = ("tools", "bench", "tests")


@pytest.fixture(scope="module")
def wheel_names(tmp_path_factory: pytest.TempPathFactory) -> set[str]:
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--quiet", "-w", str(out), str(ROOT)],
        check=True,
        cwd=build,
        timeout=300,
    )  # fmt: skip
    (wheel,) = out.glob("vtt_bridge-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        return set(archive.namelist())


def shipped_sources() -> list[str]:
    """Every module of our packages and every data file in a ruleset folder."""
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            relative = path.relative_to(ROOT)
            in_ruleset = relative.parts[:2] == ("engine", "rulesets")
            if path.suffix == ".py" or (in_ruleset and path.suffix in DATA_SUFFIXES):
                found.append(relative.as_posix())
    return sorted(found)


def test_every_module_and_ruleset_file_is_in_the_wheel(wheel_names: set[str]) -> None:
    missing = [name for name in shipped_sources() if name not in wheel_names]
    assert not missing, f"pyproject.toml leaves these out of the wheel: {missing}"


def test_every_ruleset_folder_is_a_package_in_the_wheel(wheel_names: set[str]) -> None:
    folders = [p for p in (ROOT / "engine" / "rulesets").iterdir() if p.is_dir()]
    for folder in folders:
        if folder.name == "__pycache__":
            continue
        assert f"engine/rulesets/{folder.name}/__init__.py" in wheel_names, folder.name
    assert "protocol/README.md" in wheel_names and "engine/py.typed" in wheel_names


def test_no_dev_tool_is_in_the_wheel(wheel_names: set[str]) -> None:
    dev = sorted(name for name in wheel_names if name.split("/", 1)[0] in DEV_FOLDERS)
    assert not dev, f"the wheel holds developer files: {dev}"
    assert (ROOT / "tools" / "wiredocs.py").is_file()
    assert not any(name.endswith("/wiredocs.py") for name in wheel_names)
