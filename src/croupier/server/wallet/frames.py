"""The ``balance`` frame of the table protocol (docs/protocol.md), here below the tables: the
wallet's and the cashier's routers send it to a player's open table sockets when a credit or
a debit changes the wallet; :mod:`croupier.server.tables.wire` lists it with every frame."""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

__all__ = ["Balance"]


class Balance(Struct, tag_field="type", tag="balance", kw_only=True):
    """Your wallet now, in minor units: sent to all your table sockets when a cashier's credit
    or debit changes it (an operator's credit or debit, an approved deposit, a demo credit)."""

    balance: Annotated[int, Meta(description="minor units (cents)")]
