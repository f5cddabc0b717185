"""`croupier protocol`: write the table protocol's JSON Schema and the generated tables of
docs/protocol.md from the code's schemas (``--check``: only say whether they are up to date)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

__all__ = ["register"]


def register(app: typer.Typer) -> None:
    """Add the ``protocol`` command to ``app``."""

    @app.command("protocol")
    def protocol(
        schema_path: Annotated[
            Path, typer.Option("--schema", help="The JSON Schema file to write.")
        ] = Path("docs/protocol.schema.json"),
        doc_path: Annotated[
            Path, typer.Option("--doc", help="The protocol page whose tables are generated.")
        ] = Path("docs/protocol.md"),
        check: Annotated[
            bool, typer.Option("--check", help="Write nothing; exit 1 if a file is out of date.")
        ] = False,
    ) -> None:
        """Generate docs/protocol.schema.json and the message, frame and event tables of
        docs/protocol.md from croupier.server.tables.wire."""
        from croupier.server.tables.wire_docs import render_doc, render_schema

        doc = doc_path.read_text(encoding="utf-8")
        wanted = {schema_path: render_schema(), doc_path: render_doc(doc)}
        stale = [
            path
            for path, text in wanted.items()
            if not path.is_file() or path.read_text(encoding="utf-8") != text
        ]
        if check:
            for path in stale:
                print(f"{path} is out of date: run `croupier protocol`")
            raise typer.Exit(1 if stale else 0)
        for path in stale:
            path.write_text(wanted[path], encoding="utf-8")
            print(f"wrote {path}")
