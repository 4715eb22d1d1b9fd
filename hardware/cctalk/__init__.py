"""ccTalk: codec and headers (pure), host and drivers (acceptor, hopper), simulated devices.

Modules: ``codec`` (frames, checksums, parser), ``headers`` (header numbers and data formats),
``host`` (sans-I/O exchange and the blocking ``CctalkBus``), ``acceptor`` and ``hopper``
(drivers), ``ledger`` (what a payout reports), ``devices`` and ``simbus`` (the simulated side).
"""
