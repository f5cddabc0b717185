"""HTTP routes of the audit log, for the operator's console."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Query

from croupier.server.audit import service
from croupier.server.audit.chain import Entry
from croupier.server.deps import DB_ID_MAX, OperatorUser, SessionDep

__all__ = ["router"]

router = APIRouter(prefix="/api/operator/audit", tags=["audit"])


def _public(entry: Entry) -> dict[str, Any]:
    return {
        "seq": entry.seq,
        "at": entry.at,
        "actor": entry.actor,
        "action": entry.action,
        "subject": entry.subject,
        "details": json.loads(entry.details),
        "prev_hash": entry.prev_hash,
        "hash": entry.hash,
    }


@router.get("")
def audit_page(
    operator: OperatorUser,
    session: SessionDep,
    before: Annotated[
        int | None, Query(ge=1, le=DB_ID_MAX, description="Entries older than this seq.")
    ] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 100,
) -> dict[str, Any]:
    """The log, newest first; ``next`` is the ``before`` of the following page (null at the
    end)."""
    rows = service.page(session, before=before, limit=limit)
    more = bool(rows) and rows[-1].seq > 1 and len(rows) == limit
    return {"entries": [_public(e) for e in rows], "next": rows[-1].seq if more else None}


@router.get("/verify")
def audit_verify(
    operator: OperatorUser,
    session: SessionDep,
    head: Annotated[
        str | None, Query(pattern="^[0-9a-f]{64}$", description="A head hash noted earlier.")
    ] = None,
) -> dict[str, Any]:
    """Check the whole chain (as ``croupier audit verify`` does)."""
    result = service.verify(session, expected_head=head)
    broken = result.broken
    return {
        "ok": result.ok,
        "entries": result.entries,
        "head": result.head,
        "broken": None
        if broken is None
        else {"seq": broken.seq, "position": broken.position, "reason": broken.reason},
    }
