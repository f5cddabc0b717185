"""Users, roles, passwords (argon2) and session tokens."""
