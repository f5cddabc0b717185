"""The table server: accounts, wallet ledger, database, WebSocket tables (``server`` extra)."""
