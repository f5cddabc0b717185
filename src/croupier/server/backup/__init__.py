"""Backups and restores of the casino's database (issue 30): SQLite online backups, PostgreSQL base backups with WAL archiving and point-in-time restore."""
