"""Alembic migrations, applied at start by :func:`croupier.server.db.migrate`."""
