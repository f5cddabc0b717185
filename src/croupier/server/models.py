"""Every table of the server, imported in one place (for Alembic's metadata and for tests)."""

from __future__ import annotations

from croupier.server.accounts.models import AuthToken, User
from croupier.server.audit.models import AuditEntry
from croupier.server.base import Base
from croupier.server.cashier.models import DepositRequest
from croupier.server.cluster.models import TableLease
from croupier.server.floor.models import TableRow
from croupier.server.monitor.models import RtpAlert, RtpStream, UserChannel
from croupier.server.responsible.models import PlayerLimit, RealityCheck, SelfExclusion
from croupier.server.rounds.models import Round, RoundPlayer, RoundVoid
from croupier.server.wallet.models import (
    IdempotencyKey,
    LedgerAccount,
    LedgerTransaction,
    Posting,
)

__all__ = [
    "AuditEntry",
    "AuthToken",
    "Base",
    "DepositRequest",
    "IdempotencyKey",
    "LedgerAccount",
    "LedgerTransaction",
    "PlayerLimit",
    "Posting",
    "RealityCheck",
    "Round",
    "RoundPlayer",
    "RoundVoid",
    "RtpAlert",
    "RtpStream",
    "SelfExclusion",
    "TableLease",
    "TableRow",
    "User",
    "UserChannel",
]
