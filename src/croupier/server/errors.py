"""Server errors, and the one place that turns any :class:`CroupierError` into HTTP or WS.

The server adds a few branches to the tree drawn in :mod:`croupier.errors`::

    CroupierError
    ├── ... (croupier.errors: NotationError, ConfigError, IllegalActionError, InsufficientFunds...)
    ├── InvalidRequestError     (also ValueError)   input that no rule accepts: bad amount, bad type
    ├── NotFoundError           (also LookupError)  an unknown account, user, table or round
    ├── AuthenticationError                         no, expired or wrong credentials
    ├── PermissionDeniedError                       an authenticated user without the right role
    ├── ConflictError           (also ValueError)   a name already taken, a seat already occupied
    │   ├── IdempotencyConflict                     a key replayed with a different request
    │   └── RoundVoided                             a retry of a request a void or restart undid
    ├── TooManyRequests                             throttled: try again after ``retry_after``
    └── LedgerInvariantError                        a ledger check failed (a bug, never input)

Routers and WebSocket handlers never build responses for errors themselves: they raise, and
:func:`install_error_handlers` / :func:`error_frame` answer with the status and code listed in
:data:`ERROR_MAP`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from croupier.errors import (
    ConfigError,
    CroupierError,
    IllegalActionError,
    InsufficientFunds,
    InvalidCardsError,
    NotationError,
    Param,
    RecordError,
)

if TYPE_CHECKING:
    from fastapi import FastAPI

__all__ = [
    "ERROR_MAP",
    "AuthenticationError",
    "ConflictError",
    "IdempotencyConflict",
    "InvalidRequestError",
    "LedgerInvariantError",
    "NotFoundError",
    "PermissionDeniedError",
    "RoundVoided",
    "ServiceUnavailable",
    "TooManyRequests",
    "error_body",
    "error_frame",
    "install_error_handlers",
    "status_and_code",
]


class InvalidRequestError(CroupierError, ValueError):
    """A request no rule accepts: a negative or huge amount, a wrong type, a malformed frame."""


class NotFoundError(CroupierError, LookupError):
    """An unknown user, ledger account, table or round."""


class AuthenticationError(CroupierError):
    """Missing, expired or wrong credentials."""


class PermissionDeniedError(CroupierError):
    """The user is known but their role does not allow the request."""


class ConflictError(CroupierError, ValueError):
    """The request collides with existing state: a username taken, a seat occupied."""


class IdempotencyConflict(ConflictError):
    """An idempotency key already used for a different request; nothing was applied."""


class RoundVoided(ConflictError):
    """A retried request whose first attempt a void undid (a round voided by a malfunction or
    by a restart, a stack returned to the wallet): nothing is applied now, and ``details``
    says what is true instead (``balance``, ``round_id``)."""

    def __init__(
        self,
        message: str,
        *,
        reason: str | None = None,
        params: Mapping[str, Param] | None = None,
        **details: Any,
    ) -> None:
        super().__init__(message, reason=reason, params=params)
        self.details = details


class TooManyRequests(CroupierError):
    """Refused for coming too often (logins per account and address, busy password hashing);
    ``retry_after`` is the number of seconds to wait."""

    def __init__(
        self,
        message: str,
        *,
        retry_after: float,
        reason: str | None = None,
        params: Mapping[str, Param] | None = None,
    ) -> None:
        super().__init__(message, reason=reason, params=params)
        self.retry_after = retry_after


class ServiceUnavailable(CroupierError):
    """A part of the casino cannot be reached right now (the database, a cluster's bus, the
    process that runs a table): nothing was done; the request may be sent again."""


class LedgerInvariantError(CroupierError):
    """The ledger does not balance or a cached balance disagrees with its postings (a bug)."""


# Most specific first: the first matching class wins.
ERROR_MAP: tuple[tuple[type[CroupierError], int, str], ...] = (
    (IdempotencyConflict, 409, "idempotency_conflict"),
    (RoundVoided, 409, "round_voided"),
    (TooManyRequests, 429, "rate_limited"),
    (ConflictError, 409, "conflict"),
    (InsufficientFunds, 409, "insufficient_funds"),
    (IllegalActionError, 409, "illegal_action"),
    (AuthenticationError, 401, "unauthenticated"),
    (PermissionDeniedError, 403, "forbidden"),
    (NotFoundError, 404, "not_found"),
    (InvalidRequestError, 422, "invalid_request"),
    (NotationError, 422, "bad_notation"),
    (InvalidCardsError, 422, "invalid_cards"),
    (ConfigError, 422, "bad_config"),
    (RecordError, 422, "bad_record"),
    (ServiceUnavailable, 503, "unavailable"),
    (LedgerInvariantError, 500, "ledger_invariant"),
)


def status_and_code(exc: CroupierError) -> tuple[int, str]:
    """The HTTP status and the stable error code for ``exc``."""
    for cls, status, code in ERROR_MAP:
        if isinstance(exc, cls):
            return status, code
    return 400, "error"


def error_body(
    code: str, message: str, details: Any = None, *, exc: CroupierError | None = None
) -> dict[str, Any]:
    """The JSON body of every HTTP error: ``{"error": {"code", "message"[, "details",
    "reason", "params"]}}`` (``reason`` and ``params`` when ``exc`` carries them)."""
    body: dict[str, Any] = {"code": code, "message": message}
    if details is not None:
        body["details"] = details
    if exc is not None:
        body.update(_reason(exc))
    return {"error": body}


def _reason(exc: CroupierError) -> dict[str, Any]:
    """``reason`` and ``params`` of ``exc``, for a client to word (empty when it has none)."""
    if exc.reason is None:
        return {}
    return {"reason": exc.reason, "params": exc.params}


def error_frame(
    exc: CroupierError | None = None,
    *,
    code: str | None = None,
    message: str | None = None,
    ref: str | int | None = None,
) -> dict[str, Any]:
    """A WebSocket error frame for ``exc`` (or an explicit code and message)."""
    frame: dict[str, Any] = {}
    if exc is not None:
        _, code = status_and_code(exc)
        message = str(exc)
        details = getattr(exc, "details", None)
        if details:
            frame["details"] = details
        frame.update(_reason(exc))
    return {"type": "error", "code": code or "error", "message": message or "", "ref": ref, **frame}


def install_error_handlers(app: FastAPI) -> None:
    """Answer every ``CroupierError`` and every request-validation error in one shape."""
    from fastapi import Request
    from fastapi.encoders import jsonable_encoder
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse

    async def croupier_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, CroupierError)
        status, code = status_and_code(exc)
        headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
        if isinstance(exc, TooManyRequests):
            headers = {"Retry-After": str(max(1, math.ceil(exc.retry_after)))}
        details = getattr(exc, "details", None)
        return JSONResponse(
            error_body(code, str(exc), details or None, exc=exc),
            status_code=status,
            headers=headers,
        )

    async def validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        details = [
            {"loc": list(err.get("loc", ())), "msg": err.get("msg", ""), "type": err.get("type")}
            for err in exc.errors()
        ]
        first = details[0] if details else {"loc": [], "msg": "invalid request"}
        where = ".".join(str(part) for part in first["loc"])
        message = f"{where}: {first['msg']}".lower() if where else str(first["msg"]).lower()
        body = error_body("invalid_request", message, jsonable_encoder(details))
        # For a person: which field (its last name in the path), worded by the client.
        field = next((str(p) for p in reversed(first["loc"]) if isinstance(p, str)), "")
        body["error"].update(reason="field_invalid", params={"field": field})
        return JSONResponse(body, status_code=422)

    app.add_exception_handler(CroupierError, croupier_error)
    app.add_exception_handler(RequestValidationError, validation_error)
