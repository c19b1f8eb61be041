"""Write generated source pages into a folder of the site, leaving unchanged pages alone.

The API and results extensions write their pages at ``config-inited``. Rewriting a
page whose text has not changed would make Sphinx read it again, and a page left from
a name or experiment that is gone would still be built, so both go through
`write_generated`.
"""

from __future__ import annotations

from pathlib import Path


def write_generated(folder: Path, pages: dict[str, str], pattern: str) -> None:
    """Make ``folder`` hold exactly ``pages`` among the files matching ``pattern``.

    Parameters
    ----------
    folder : pathlib.Path
        The folder of generated pages (created if missing).
    pages : dict of str to str
        File name -> text of every page that should exist.
    pattern : str
        Glob of the generated files in ``folder``; those not in ``pages`` are deleted.
    """
    folder.mkdir(parents=True, exist_ok=True)
    for stale in folder.glob(pattern):
        if stale.name not in pages:
            stale.unlink()
    for name, text in pages.items():
        path = folder / name
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
