"""A round's data, below the tables (issue 26): the rows of rounds, who played them and their
voids (:mod:`.models`), and what is written and read of them (:mod:`.store`: a round opened
with its commitment, stakes held in its escrow, settled or voided, recalled by a player), and
what a settled round is worth in theory (:mod:`.theory`: the types each game's theory answers
with, which the tables' descriptors provide).

The tables write rounds through it; responsible gaming, the reports and the wallet read them
here without importing the table layer.
"""
