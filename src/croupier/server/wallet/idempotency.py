"""Idempotency keys: a money-moving request is applied once per ``(scope, key)``.

A request is bound to its key by the SHA-256 of its defining fields (:func:`request_hash`).
Sent again with the same fields it is a replay, answered with the stored response; with other
fields it is an :class:`IdempotencyConflict` and nothing is applied. A request that fails is
not recorded (its transaction rolls back), so it may be retried.

Two ways to use them, on the same records: :func:`find_replays` (any number of keys in one
query) and :func:`record` (their rows in one insert) for requests applied in bulk -- the
stakes of a table, one or a thousand -- and :func:`idempotent`, which claims its key before
applying, for the one-off movements (an operator's credit, a buy-in). The bulk ones read and
write rows, not ORM objects; on PostgreSQL the keys go as arrays in one statement (``unnest``).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Integer,
    String,
    Table,
    and_,
    bindparam,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from croupier.server.base import UtcDateTime, utcnow
from croupier.server.db import is_postgres, json_rows
from croupier.server.errors import IdempotencyConflict, InvalidRequestError
from croupier.server.wallet.models import IdempotencyKey

__all__ = [
    "Keyed",
    "check_idempotency_key",
    "find_replay",
    "find_replays",
    "idempotent",
    "record",
    "request_hash",
    "stored_keys",
]

_KEYS = cast(Table, IdempotencyKey.__table__)
_MAX_KEY = 128
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), default=str)
"""What ``json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)`` runs,
made once: the digests of requests stored under their keys stay what they were."""
_FOUND = (_KEYS.c.scope, _KEYS.c.key, _KEYS.c.request_hash, _KEYS.c.response)
_STORED = (_KEYS.c.scope, _KEYS.c.key, _KEYS.c.request_hash, _KEYS.c.transaction_id)


def _find(postgres: bool, columns: tuple[Any, ...] = _FOUND) -> Any:
    """The stored keys among the rows ``asked`` (scope, key): ``columns`` of each."""
    asked = json_rows("asked", postgres=postgres, scope=String(), key=String())
    match = and_(_KEYS.c.scope == asked.c.scope, _KEYS.c.key == asked.c.key)
    return select(*columns).join(asked, match)


def _record(postgres: bool) -> Any:
    """Insert the rows ``applied`` (``created_at``: one time for all)."""
    rows = json_rows(
        "applied",
        postgres=postgres,
        scope=String(),
        key=String(),
        request_hash=String(),
        response=JSON(),
        transaction_id=Integer(),
    )
    created = bindparam("created_at", type_=UtcDateTime())
    return insert(_KEYS).from_select([*rows.c.keys(), "created_at"], select(*rows.c, created))


_FIND = {postgres: _find(postgres) for postgres in (False, True)}
_FIND_STORED = {postgres: _find(postgres, _STORED) for postgres in (False, True)}
_RECORD = {postgres: _record(postgres) for postgres in (False, True)}


def check_idempotency_key(key: object) -> str:
    """Return ``key`` if it is a usable idempotency key (1..128 printable ASCII characters).

    Raises:
        InvalidRequestError: anything else.
    """
    if not isinstance(key, str) or not 1 <= len(key) <= _MAX_KEY:
        raise InvalidRequestError(
            f"idempotency key {key!r} must be 1 to {_MAX_KEY} characters",
            reason="idempotency_key_invalid",
        )
    if not key.isascii() or not key.isprintable():
        raise InvalidRequestError(
            f"idempotency key {key!r} must be printable ascii", reason="idempotency_key_invalid"
        )
    return key


def request_hash(request: Mapping[str, Any]) -> str:
    """The SHA-256 of a request's defining fields (what an idempotency key is bound to)."""
    return hashlib.sha256(_CANONICAL.encode(request).encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Keyed:
    """A request under its idempotency key: whose key space, the key, the defining fields."""

    scope: str
    key: str
    request: Mapping[str, Any]
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", request_hash(self.request))


def _answer(stored: tuple[str, Mapping[str, Any]], keyed: Keyed) -> dict[str, Any]:
    """The stored response for ``keyed`` of a key applied before (``stored``: its request's
    digest and its response).

    Raises:
        IdempotencyConflict: the key was applied to a different request.
    """
    digest, response = stored
    if digest != keyed.digest:
        raise IdempotencyConflict(
            f"idempotency key {keyed.key!r} was already used for a different request",
            reason="idempotency_conflict",
        )
    return dict(response)


def find_replays(
    session: Session, requests: Sequence[Keyed]
) -> list[dict[str, Any] | IdempotencyConflict | None]:
    """For each request, in order: the stored response when its key was applied to the same
    request, the conflict when to another, ``None`` when never applied."""
    found: dict[tuple[str, str], tuple[str, Mapping[str, Any]]] = {}
    asked = [{"scope": scope, "key": key} for scope, key in {(r.scope, r.key) for r in requests}]
    if asked:
        rows = session.execute(_FIND[is_postgres(session)], {"asked": asked})
        found.update(((scope, key), (digest, response)) for scope, key, digest, response in rows)
    answers: list[dict[str, Any] | IdempotencyConflict | None] = []
    for keyed in requests:
        row = found.get((keyed.scope, keyed.key))
        try:
            answers.append(None if row is None else _answer(row, keyed))
        except IdempotencyConflict as exc:
            answers.append(exc)
    return answers


def stored_keys(
    session: Session, asked: Collection[tuple[str, str]]
) -> dict[tuple[str, str], tuple[str, int | None]]:
    """Which of the keys ``asked`` (scope, key) are stored, in one statement: each one's
    request digest and ledger transaction (its response is not read)."""
    if not asked:
        return {}
    rows = session.execute(
        _FIND_STORED[is_postgres(session)],
        {"asked": [{"scope": scope, "key": key} for scope, key in set(asked)]},
    )
    return {(scope, key): (digest, txn) for scope, key, digest, txn in rows}


def find_replay(
    session: Session, *, scope: str, key: str, request: Mapping[str, Any]
) -> dict[str, Any] | None:
    """The stored response of ``key`` if it was applied to this same request, else ``None``.

    Raises:
        IdempotencyConflict: the key was applied to a different request.
    """
    (answer,) = find_replays(session, [Keyed(scope, check_idempotency_key(key), request)])
    if isinstance(answer, IdempotencyConflict):
        raise answer
    return answer


def record(
    session: Session, applied: Sequence[tuple[Keyed, Mapping[str, Any], int | None]]
) -> None:
    """Record requests just applied: each with its response and ledger transaction."""
    if not applied:
        return
    rows = [
        {
            "scope": keyed.scope,
            "key": keyed.key,
            "request_hash": keyed.digest,
            "response": dict(response),
            "transaction_id": transaction_id,
        }
        for keyed, response, transaction_id in applied
    ]
    session.execute(_RECORD[is_postgres(session)], {"applied": rows, "created_at": utcnow()})


def idempotent(
    session: Session,
    *,
    scope: str,
    key: str,
    request: Mapping[str, Any],
    apply: Callable[[], tuple[dict[str, Any], int | None]],
) -> tuple[dict[str, Any], bool]:
    """Apply ``apply`` once per ``(scope, key)``; return its response and whether it was a replay.

    The key is claimed before ``apply`` runs, so a concurrent request under the same key waits
    for this one (PostgreSQL) and is then answered as its replay.

    Raises:
        IdempotencyConflict: the key was applied to a different request; nothing applied.
    """
    keyed = Keyed(scope, check_idempotency_key(key), request)
    query = select(IdempotencyKey).where(IdempotencyKey.scope == scope, IdempotencyKey.key == key)
    existing = session.scalars(query).first()
    if existing is not None:
        return _answer((existing.request_hash, existing.response), keyed), True
    row = IdempotencyKey(scope=scope, key=key, request_hash=keyed.digest, response={})
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        # Another transaction applied the same key first (PostgreSQL waits for it to commit).
        theirs = session.scalars(query).one()
        return _answer((theirs.request_hash, theirs.response), keyed), True
    response, transaction_id = apply()
    row.response = response
    row.transaction_id = transaction_id
    session.flush()
    return response, False
