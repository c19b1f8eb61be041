"""What a researcher installs and cites: the sdist, the wheel built from it, that wheel at work.

The package is built as a release is, with ``python -m build``: the sdist, then the
wheel from the unpacked sdist, so a file the sdist leaves out is missing from the
wheel too. The build runs without isolation (the test extra brings setuptools and
build), so it needs no package index, and on a copy of the files the package is made
of (`SOURCES`): a build writes ``minestats.egg-info`` beside ``pyproject.toml``, and
in the checkout that folder would be found by ``importlib.metadata`` before the
installed package, with whatever version it was last built at.

The wheel is then installed, without its dependencies, into a fresh virtual
environment under the test's temporary folder; a ``.pth`` file there appends this
environment's site-packages for numpy and the rest. Lines of a ``.pth`` file are added
after the environment's own site-packages and their own ``.pth`` files are not run, so
the checkout's editable install stays out: the commands run from outside the checkout,
and the test checks that ``minestats`` is imported from the fresh environment.

The experiments travel as modules of the package: ``minestats reproduce`` runs one from
the installed wheel, in a folder outside the checkout. The summary tables of
``results/`` travel too, as package data (``setup.py`` maps them
to ``minestats/_results/``): the wheel holds exactly the committed ones, and the
installed package reads them there.

The version is written in ``pyproject.toml``; the files a citation is taken from
(``CITATION.cff``, the changelog, the site's page on citing) must name the same one.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import zipfile
from fractions import Fraction
from math import comb
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
SOURCES = ("pyproject.toml", "setup.py", "README.md", "LICENSE", "minestats", "results")
"""What the sdist is built from: the project's metadata and build step, its readme and
licence, the package, and the results whose summary tables it ships."""


def run(*command, cwd=None, status=0):
    """Run ``command`` with no PYTHONPATH; return its stdout, failing on another exit status.

    A command expected to fail (``status`` not 0) returns its stderr instead."""
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "PYTHONHOME")}
    done = subprocess.run([str(part) for part in command], capture_output=True, text=True,
                          cwd=cwd, env=env)
    assert done.returncode == status, done.stderr
    return done.stdout if status == 0 else done.stderr


def test_the_citation_changelog_and_cite_page_name_the_version_in_pyproject():
    citation = (ROOT / "CITATION.cff").read_text()
    assert re.findall(r"^ *version: (.+)$", citation, re.MULTILINE) == [VERSION, VERSION]
    [released] = set(re.findall(r"^ *date-released: (.+)$", citation, re.MULTILINE))
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[(.+)\] - (.+)$", changelog, re.MULTILINE)
    assert releases[0] == (VERSION, released)
    assert f"Version {VERSION}," in (ROOT / "docs" / "cite.md").read_text()


def copy_sources(folder: Path) -> Path:
    """Copy `SOURCES` into ``folder`` (made if missing), without caches; return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(ROOT / name, folder / name,
                            ignore=shutil.ignore_patterns("__pycache__", "*.sqlite"))
        else:
            shutil.copy2(ROOT / name, folder / name)
    return folder


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The folder holding the sdist and the wheel built from it."""
    source = copy_sources(tmp_path_factory.mktemp("source"))
    out = tmp_path_factory.mktemp("dist")
    run(sys.executable, "-m", "build", "--no-isolation", "--outdir", out, source)
    return out


@pytest.fixture(scope="module")
def wheel(dist):
    [path] = dist.glob("*.whl")
    return path


@pytest.fixture(scope="module")
def sdist(dist):
    [path] = dist.glob("*.tar.gz")
    return path


def test_the_builds_are_named_by_the_version_in_pyproject(wheel, sdist):
    assert wheel.name == f"minestats-{VERSION}-py3-none-any.whl"
    assert sdist.name == f"minestats-{VERSION}.tar.gz"


def test_the_distributions_pass_the_metadata_check(wheel, sdist):
    # what PyPI checks on upload: the metadata fields and that the readme renders
    report = run(sys.executable, "-m", "twine", "check", "--strict", wheel, sdist)
    assert report.count("PASSED") == 2


def test_the_wheel_builds_without_isolation_on_the_floor_setuptools(tmp_path):
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    [floor] = [re.fullmatch(r"setuptools>=([\d.]+)", item)[1] for item in requires
               if item.startswith("setuptools")]
    venv = tmp_path / "floor"
    run(sys.executable, "-m", "venv", venv)
    python = venv / "bin" / "python"
    installed = subprocess.run([str(python), "-m", "pip", "install", "--quiet",
                                f"setuptools=={floor}.*"], capture_output=True, text=True)
    if installed.returncode and re.search(r"(?i)connection|network|resolve", installed.stderr):
        pytest.skip(f"no package index to fetch setuptools {floor} from")
    assert installed.returncode == 0, installed.stderr
    version = run(python, "-c", "import setuptools; print(setuptools.__version__)").strip()
    assert version.split(".")[0] == floor.split(".")[0]
    source = copy_sources(tmp_path / "source")
    run(python, "-m", "pip", "wheel", "--quiet", "--no-build-isolation", "--no-deps",
        "--wheel-dir", tmp_path / "out", source)
    [built] = (tmp_path / "out").glob(f"minestats-{VERSION}-*.whl")
    names = zipfile.ZipFile(built).namelist()
    assert f"minestats-{VERSION}.dist-info/licenses/LICENSE" in names
    assert "minestats/_results/first_click.csv" in names


def test_the_wheel_ships_the_license_py_typed_and_every_module(wheel):
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = f"minestats-{VERSION}.dist-info"
        assert archive.read(f"{info}/licenses/LICENSE") == (ROOT / "LICENSE").read_bytes()
        metadata = archive.read(f"{info}/METADATA").decode()
    assert "minestats/py.typed" in names
    assert "License-Expression: BSD-3-Clause" in metadata.splitlines()
    modules = {path.relative_to(ROOT).as_posix() for path in (ROOT / "minestats").rglob("*.py")}
    assert {name for name in names if name.endswith(".py")} == modules


def test_the_wheel_ships_every_committed_summary_table_with_its_sidecar(wheel):
    from minestats.reproduction.registry import summary_tables

    committed = [table for table in summary_tables() if (ROOT / "results" / table).is_file()]
    assert "win_rates.csv" in committed
    with zipfile.ZipFile(wheel) as archive:
        shipped = {name.removeprefix("minestats/_results/"): archive.read(name)
                   for name in archive.namelist() if name.startswith("minestats/_results/")}
    assert sorted(shipped) == sorted(name for table in committed
                                     for name in (table, f"{table}.json"))
    assert all(data == (ROOT / "results" / name).read_bytes() for name, data in shipped.items())


def test_the_sdist_ships_the_license_and_py_typed(sdist):
    top = f"minestats-{VERSION}"
    with tarfile.open(sdist) as archive:
        names = set(archive.getnames())
        license_text = archive.extractfile(f"{top}/LICENSE").read()
    assert license_text == (ROOT / "LICENSE").read_bytes()
    assert {f"{top}/minestats/py.typed", f"{top}/pyproject.toml", f"{top}/README.md"} <= names


def test_the_installed_wheel_runs_outside_the_checkout(wheel, tmp_path):
    venv = tmp_path / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps",
        "--no-index", wheel)
    purelib = "import sysconfig\nprint(sysconfig.get_path('purelib'))"
    site_packages = Path(run(python, "-c", purelib, cwd=tmp_path).strip())
    ours = dict.fromkeys(sysconfig.get_path(kind) for kind in ("purelib", "platlib"))
    (site_packages / "test_environment.pth").write_text("".join(f"{path}\n" for path in ours))

    assert run(venv / "bin" / "minestats", "--version", cwd=tmp_path) == f"minestats {VERSION}\n"
    where, version, probability = run(
        python, "-c", "import minestats\nprint(minestats.__file__)\nprint(minestats.__version__)\n"
        "print(minestats.opening_probability('expert', 'centre', rule='safe-click'))",
        cwd=tmp_path).splitlines()
    assert Path(where).is_relative_to(site_packages)
    assert version == VERSION
    # Expert is 30x16 with 99 mines; the centre's closed neighbourhood has 9 cells.
    assert Fraction(probability) == Fraction(comb(480 - 9, 99), comb(480 - 1, 99))

    table = tmp_path / "win_rates.csv"
    attrs = run(python, "-c", "import json, minestats\n"
                f"table = minestats.load_results('win_rates')\ntable.to_csv({str(table)!r}, "
                "index=False)\nprint(json.dumps(table.attrs))", cwd=tmp_path)
    committed = ROOT / "results" / "win_rates.csv"
    assert table.read_text() == committed.read_text()
    sidecar = json.loads(Path(f"{committed}.json").read_text())
    assert json.loads(attrs) == {"name": "win_rates", "n": sidecar["n"], "seed": sidecar["seed"],
                                 "chunk_size": sidecar["chunk_size"],
                                 "commit": sidecar["git_revision"],
                                 "command": sidecar["command"]}
    listing = json.loads(run(venv / "bin" / "minestats", "results", "list", "--json",
                             cwd=tmp_path))
    assert json.loads(attrs) in listing
    refused = run(python, "-c", "import minestats\nminestats.load_results('win_rate')",
                  cwd=tmp_path, status=1).splitlines()[-1]
    assert refused.startswith("ValueError: unknown results table 'win_rate'; choose from ")

    # The experiments are the package's: reproduce runs one in any folder, at its
    # paper-grade size as the committed table was made, and writes that table.
    run(venv / "bin" / "minestats", "reproduce", "--only", "first_click", "--full", "--out",
        "out", "--workers", "1", "--quiet", cwd=tmp_path)
    assert (tmp_path / "out" / "first_click.csv").read_bytes() == (
        ROOT / "results" / "first_click.csv").read_bytes()
    assert "python -m minestats.experiments.first_click --out out" in (
        tmp_path / "out" / "README.md").read_text()
