"""Game engines: pure state machines (no I/O, no clock, no randomness but the shoe given)."""
