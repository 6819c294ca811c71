"""`fixlab render`: write the portal's generated pages from the results database."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .. import db
from ..errors import UsageError
from .site import render_site


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="fixlab render", description=__doc__)
    p.add_argument("--db", type=Path, default=db.DEFAULT_DB, help="results database (default: %(default)s)")
    p.add_argument("--runs", type=Path, default=Path("data/runs"),
                   help="run folders the database was ingested from, for the downloads (default: %(default)s)")
    p.add_argument("--site", type=Path, default=Path("site"), help="MkDocs docs folder (default: %(default)s)")
    p.add_argument("--mkdocs", type=Path, default=Path("mkdocs.yml"),
                   help="MkDocs config whose generated nav block is rewritten (default: %(default)s)")
    return p


def main(args: list[str] | None = None) -> int:
    args = list(sys.argv[1:] if args is None else args)
    # `fixlab render -- --db ...`: argparse.REMAINDER in the parent CLI keeps the "--".
    if args[:1] == ["--"]:
        args = args[1:]
    options = parser().parse_args(args)
    if not options.db.exists():
        raise UsageError(f"{options.db}: no results database; build it with `fixlab ingest` (make data)")
    con = db.connect(options.db, read_only=True)
    try:
        out = render_site(con, options.db, options.runs, options.site, options.mkdocs)
    finally:
        con.close()
    print(f"render: {len(out.pages)} pages, {len(out.figures)} figures in {options.site}"
          + (f"; nav in {options.mkdocs} updated" if out.nav_changed else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
