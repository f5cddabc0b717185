"""The round data's store under its old name: :mod:`croupier.server.rounds.store` itself (the
same module object, so what patches one patches the other). Round data lives below the
tables since issue 26; new code imports it from there."""

import sys

from croupier.server.rounds import store

sys.modules[__name__] = store
