"""The hash chain of the audit log, without any database: canonical form, hashes, checks.

Each entry's hash is the SHA-256 of the canonical JSON (sorted keys, no spaces, UTF-8) of its
fields and the previous entry's hash; the first entry chains from :data:`GENESIS`. Changing a
field, deleting an entry or swapping two breaks the chain at the first entry concerned, which
:func:`first_break` names.

>>> first = Entry.make(seq=1, at="2026-01-01T00:00:00+00:00", actor="boss",
...                    action="account.credit", subject="user:7", details={"amount": 500},
...                    prev_hash=GENESIS)
>>> first_break([first]) is None
True
>>> import dataclasses
>>> first_break([dataclasses.replace(first, subject="user:8")]).reason
'its hash does not match its fields (changed after it was written)'
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["GENESIS", "Break", "Entry", "canonical_json", "entry_hash", "first_break"]

GENESIS = "0" * 64
"""The ``prev_hash`` of the first entry."""


def canonical_json(value: Any) -> str:
    """One JSON text for a value: sorted keys, no whitespace, non-ASCII kept as is.

    >>> canonical_json({"b": 1, "a": [True, None, "é"]})
    '{"a":[true,null,"é"],"b":1}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def entry_hash(
    *, seq: int, at: str, actor: str, action: str, subject: str, details: str, prev_hash: str
) -> str:
    """The SHA-256 (hex) of an entry's fields; ``details`` is already canonical JSON text."""
    fields = {
        "seq": seq,
        "at": at,
        "actor": actor,
        "action": action,
        "subject": subject,
        "details": details,
        "prev_hash": prev_hash,
    }
    return hashlib.sha256(canonical_json(fields).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True, kw_only=True)
class Entry:
    """One audit entry as stored; ``details`` is canonical JSON text."""

    seq: int
    """1, 2, 3...: the entry's place in the chain."""
    at: str
    """When it was written, ISO 8601 in UTC."""
    actor: str
    """Who acted: a username, or ``system`` for the server itself."""
    action: str
    """What was done, dotted: ``account.credit``, ``account.register``..."""
    subject: str
    """What it was done to: ``user:7``, ``table:uth-casino``..."""
    details: str
    prev_hash: str
    hash: str

    @classmethod
    def make(
        cls,
        *,
        seq: int,
        at: str,
        actor: str,
        action: str,
        subject: str,
        details: Mapping[str, Any],
        prev_hash: str,
    ) -> Entry:
        """A new entry with its hash computed."""
        entry = cls(
            seq=seq,
            at=at,
            actor=actor,
            action=action,
            subject=subject,
            details=canonical_json(dict(details)),
            prev_hash=prev_hash,
            hash="",
        )
        return dataclasses.replace(entry, hash=entry.computed_hash())

    def computed_hash(self) -> str:
        """The hash the entry's fields give now (equal to ``hash`` unless tampered with)."""
        return entry_hash(
            seq=self.seq,
            at=self.at,
            actor=self.actor,
            action=self.action,
            subject=self.subject,
            details=self.details,
            prev_hash=self.prev_hash,
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class Break:
    """Where and why the chain is broken."""

    seq: int
    """The stored ``seq`` of the first entry that does not check."""
    position: int
    """Its place in the order read (1 = first)."""
    reason: str

    def __str__(self) -> str:
        return f"entry {self.seq} (position {self.position}): {self.reason}"


def first_break(entries: Iterable[Entry]) -> Break | None:
    """The first entry that breaks the chain, read in ``seq`` order, or ``None`` if it holds.

    An entry breaks the chain when its ``seq`` is not the next number (one deleted or
    reordered), its ``prev_hash`` is not the hash of the entry before (one deleted, inserted
    or reordered), or its hash does not match its own fields (one changed).
    """
    previous = GENESIS
    for position, entry in enumerate(entries, start=1):
        if entry.seq != position:
            return Break(
                seq=entry.seq,
                position=position,
                reason=f"expected entry {position} here (an entry is missing or out of order)",
            )
        if entry.prev_hash != previous:
            return Break(
                seq=entry.seq,
                position=position,
                reason="its prev_hash is not the hash of the entry before it",
            )
        if entry.computed_hash() != entry.hash:
            return Break(
                seq=entry.seq,
                position=position,
                reason="its hash does not match its fields (changed after it was written)",
            )
        previous = entry.hash
    return None
