"""table leases with fencing tokens (issue 18)

Revision ID: 0006_leases
Revises: 0005_tables
Create Date: 2026-11-24

In a cluster each table is owned by one process at a time: ``table_leases`` holds its owner,
the lease's end and a fencing token that grows by one at every change of owner.

On PostgreSQL the database itself refuses a stale owner (spec: issue 18, "a stale owner's
writes are refused by the database"):

- ``croupier_fence(table, token)``, which an owner's every transaction calls first, locks the
  lease row (``FOR SHARE``: a takeover's update waits for the transaction to end) and raises
  unless ``token`` is still the table's, then notes the fence in the transaction
  (``croupier.fence``);
- a trigger on ``rounds`` refuses any insert or update of a leased table's round from a
  transaction without the current fence: even code that forgot to call the function cannot
  open, settle or void a round of a table it no longer owns.

A table without a lease row (one process, SQLite) is not fenced.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_leases"
down_revision: str | None = "0005_tables"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

_FENCE = """
CREATE OR REPLACE FUNCTION croupier_fence(p_table text, p_token bigint) RETURNS void AS $$
DECLARE
    current_token bigint;
BEGIN
    SELECT token INTO current_token FROM table_leases WHERE table_name = p_table FOR SHARE;
    IF NOT FOUND OR current_token <> p_token THEN
        RAISE EXCEPTION 'fenced: table % is leased under token %, not %',
            p_table, current_token, p_token USING ERRCODE = 'CF001';
    END IF;
    PERFORM set_config('croupier.fence', p_table || ':' || p_token, true);
END;
$$ LANGUAGE plpgsql;
"""

_TRIGGER_FUNCTION = """
CREATE OR REPLACE FUNCTION croupier_rounds_fenced() RETURNS trigger AS $$
DECLARE
    current_token bigint;
    given text;
BEGIN
    SELECT token INTO current_token FROM table_leases WHERE table_name = NEW.table_name;
    IF NOT FOUND THEN
        RETURN NEW;
    END IF;
    given := current_setting('croupier.fence', true);
    IF given IS NULL OR given <> NEW.table_name || ':' || current_token THEN
        RAISE EXCEPTION 'fenced: a write to a round of table % without its lease (token %)',
            NEW.table_name, current_token USING ERRCODE = 'CF001';
    END IF;
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;
"""


def upgrade() -> None:
    op.create_table(
        "table_leases",
        sa.Column("table_name", sa.String(length=64), nullable=False),
        sa.Column("owner", sa.String(length=128), nullable=False),
        sa.Column("token", sa.BigInteger(), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("acquired_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("table_name", name=op.f("pk_table_leases")),
    )
    if op.get_bind().dialect.name == "postgresql":
        op.execute(_FENCE)
        op.execute(_TRIGGER_FUNCTION)
        op.execute(
            "CREATE TRIGGER rounds_fenced BEFORE INSERT OR UPDATE ON rounds "
            "FOR EACH ROW EXECUTE FUNCTION croupier_rounds_fenced()"
        )


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS rounds_fenced ON rounds")
        op.execute("DROP FUNCTION IF EXISTS croupier_rounds_fenced()")
        op.execute("DROP FUNCTION IF EXISTS croupier_fence(text, bigint)")
    op.drop_table("table_leases")
