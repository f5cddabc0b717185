"""The round rows under their old name: :mod:`croupier.server.rounds.models` itself. Round
data lives below the tables since issue 26; new code imports it from there."""

import sys

from croupier.server.rounds import models

sys.modules[__name__] = models
