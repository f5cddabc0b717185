"""The cage: an operator pays money in and out of a player's account by username (issue 16)."""
