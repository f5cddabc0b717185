"""Idempotency keys: a money-moving request is applied once per ``(scope, key)``.

A request is bound to its key by the SHA-256 of its defining fields (:func:`request_hash`).
Sent again with the same fields it is a replay, answered with the stored response; with other
fields it is an :class:`IdempotencyConflict` and nothing is applied. A request that fails is
not recorded (its transaction rolls back), so it may be retried.

Two ways to use them, on the same records: :func:`find_replays` (any number of keys in one
query) and :func:`record` (their rows in one insert) for requests applied in bulk -- the
stakes of a table, one or a thousand -- and :func:`idempotent`, which claims its key before
applying, for the one-off movements (an operator's credit, a buy-in).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

from sqlalchemy import Table, insert, select, tuple_
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

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
]

_KEYS = cast(Table, IdempotencyKey.__table__)
_MAX_KEY = 128
_CHUNK = 500
"""Keys looked up per query (two bound parameters each)."""


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
    canonical = json.dumps(request, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


@dataclass(frozen=True, slots=True)
class Keyed:
    """A request under its idempotency key: whose key space, the key, the defining fields."""

    scope: str
    key: str
    request: Mapping[str, Any]
    digest: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "digest", request_hash(self.request))


def _answer(row: IdempotencyKey, keyed: Keyed) -> dict[str, Any]:
    """The stored response of ``row`` for ``keyed``.

    Raises:
        IdempotencyConflict: the key was applied to a different request.
    """
    if row.request_hash != keyed.digest:
        raise IdempotencyConflict(
            f"idempotency key {keyed.key!r} was already used for a different request",
            reason="idempotency_conflict",
        )
    return dict(row.response)


def find_replays(
    session: Session, requests: Sequence[Keyed]
) -> list[dict[str, Any] | IdempotencyConflict | None]:
    """For each request, in order: the stored response when its key was applied to the same
    request, the conflict when to another, ``None`` when never applied."""
    found: dict[tuple[str, str], IdempotencyKey] = {}
    pairs = list({(r.scope, r.key) for r in requests})
    for start in range(0, len(pairs), _CHUNK):
        chunk = pairs[start : start + _CHUNK]
        query = select(IdempotencyKey).where(
            tuple_(IdempotencyKey.scope, IdempotencyKey.key).in_(chunk)
        )
        found.update(((row.scope, row.key), row) for row in session.scalars(query))
    answers: list[dict[str, Any] | IdempotencyConflict | None] = []
    for keyed in requests:
        row = found.get((keyed.scope, keyed.key))
        try:
            answers.append(None if row is None else _answer(row, keyed))
        except IdempotencyConflict as exc:
            answers.append(exc)
    return answers


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
    if applied:
        session.execute(
            insert(_KEYS),
            [
                {
                    "scope": keyed.scope,
                    "key": keyed.key,
                    "request_hash": keyed.digest,
                    "response": dict(response),
                    "transaction_id": transaction_id,
                }
                for keyed, response, transaction_id in applied
            ],
        )


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
        return _answer(existing, keyed), True
    row = IdempotencyKey(scope=scope, key=key, request_hash=keyed.digest, response={})
    try:
        with session.begin_nested():
            session.add(row)
    except IntegrityError:
        # Another transaction applied the same key first (PostgreSQL waits for it to commit).
        return _answer(session.scalars(query).one(), keyed), True
    response, transaction_id = apply()
    row.response = response
    row.transaction_id = transaction_id
    session.flush()
    return response, False
