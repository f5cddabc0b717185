"""Many ``croupier serve`` processes, one casino (issue 18).

Every process is a *gateway*: it accepts WebSockets for any table, authenticates, validates
and rate-limits what clients send, and forwards it to the table's *owner*. Each table has one
owner at a time, the process holding its lease in PostgreSQL (:mod:`.lease`, with a fencing
token the database checks); the owner runs the table (:class:`croupier.server.tables.table.
Table`, unchanged) and sends what it says back to the gateways, which write it to their
sockets. Commands travel on a Redis Stream per table, frames on a Redis channel per gateway
(:mod:`.bus`, :mod:`.messages`).

One process (``croupier run``, the default) has no Redis: its gateway hands requests to its
own tables directly (:class:`.access.LocalAccess`), behind the same interface as a cluster's
(:class:`.gateway.ClusterAccess`).
"""
