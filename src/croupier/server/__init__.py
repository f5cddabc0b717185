"""The table server: accounts, wallet ledger, database, WebSocket tables (needs the ``server`` extra)."""
