"""The self-check: the installed files against the manifest, each table's pay tables against
what the audit log approved; on a mismatch, every table concerned is closed.

A file changed, missing or added (or no manifest where one must be) closes every table: code
that is not the installed code may deal or pay anything. A table whose pay tables differ from
its approved ones is closed alone. Either way a significant event says what differs, and the
tables stay closed (in the database too) until an operator, having looked, opens them again.
A development checkout without a manifest is only warned about.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from sqlalchemy.orm import Session

from croupier.errors import CroupierError
from croupier.server.integrity import manifest as files
from croupier.server.integrity.paytables import approved_configs, differences, paytables_of
from croupier.server.tables.config import TableConfig

__all__ = ["Report", "check"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True, kw_only=True)
class Report:
    """What one check found."""

    checked_at: str
    manifest: str
    found: bool
    """A manifest was there and readable."""
    editable: bool
    manifest_digest: str | None = None
    files: files.FileDifferences | None = None
    tables: dict[str, list[str]] = field(default_factory=dict)
    """Tables whose running pay tables differ from the approved ones: what differs."""
    unverified: list[str] = field(default_factory=list)
    """Tables the audit log has no full configuration of (changed before issue 30)."""
    approved: dict[str, TableConfig] = field(default_factory=dict, repr=False)
    """Each verifiable table's approved configuration."""

    @property
    def files_ok(self) -> bool:
        return self.found and self.files is not None and self.files.ok

    @property
    def ok(self) -> bool:
        return self.files_ok and not self.tables

    def to_close(self, names: list[str]) -> list[str]:
        """The tables a mismatch closes: every one when the files do not check (but a
        development checkout without a manifest), else those whose pay tables differ."""
        if not self.files_ok and not (self.editable and not self.found):
            return list(names)
        return sorted(self.tables)

    def summary(self) -> str:
        if not self.found:
            return f"no manifest at {self.manifest}: the installation cannot be checked"
        parts = [] if self.files is None or self.files.ok else [f"files {self.files}"]
        parts += [f"table {t}: {'; '.join(d)}" for t, d in sorted(self.tables.items())]
        return "; ".join(parts) or "every file and pay table as installed and approved"

    def to_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked_at": self.checked_at,
            "manifest": self.manifest,
            "manifest_found": self.found,
            "manifest_digest": self.manifest_digest,
            "editable": self.editable,
            "files": None if self.files is None else self.files.to_json(),
            "tables": self.tables,
            "unverified": self.unverified,
            "summary": self.summary(),
        }


def check(
    session: Session,
    *,
    manifest_path: Path | None,
    configs: Mapping[str, TableConfig],
    root: Path | None = None,
) -> Report:
    """Check the package at ``root`` (the installed one) against the manifest at
    ``manifest_path`` (its default place), and each table of ``configs`` (as the database
    has them now) against its approved configuration."""
    root = root or files.package_root()
    path = manifest_path or root / files.MANIFEST_NAME
    now = dt.datetime.now(dt.UTC).isoformat(timespec="seconds")
    editable = root.parent.name == "src" and (root.parent.parent / "pyproject.toml").is_file()
    try:
        manifest = files.load(path)
    except (OSError, ValueError) as exc:
        log.warning("integrity: no usable manifest at %s (%s)", path, exc)
        manifest = None
    tables, unverified, approved = _tables(session, configs)
    if manifest is None:
        return Report(
            checked_at=now, manifest=str(path), found=False, editable=editable,
            tables=tables, unverified=unverified, approved=approved,
        )  # fmt: skip
    return Report(
        checked_at=now, manifest=str(path), found=True, editable=manifest.editable,
        manifest_digest=manifest.digest(), files=files.check_files(manifest, root),
        tables=tables, unverified=unverified, approved=approved,
    )  # fmt: skip


def _tables(
    session: Session, configs: Mapping[str, TableConfig]
) -> tuple[dict[str, list[str]], list[str], dict[str, TableConfig]]:
    differ: dict[str, list[str]] = {}
    unverified: list[str] = []
    approved: dict[str, TableConfig] = {}
    approvals = approved_configs(session)
    for name, running in configs.items():
        approval = approvals.get(name)
        if approval is None or approval.config is None:
            unverified.append(name)
            continue
        approved[name] = approval.config
        try:
            lines = differences(paytables_of(approval.config), paytables_of(running))
        except CroupierError as exc:
            lines = [f"its rules cannot be built: {exc}"]
        if lines:
            differ[name] = lines
    return differ, sorted(unverified), approved
