"""ccTalk: codec and headers (pure), the host, and the drivers of the coin acceptor and hopper.

Modules: ``codec`` (frames, checksums, parser), ``headers`` (header numbers and data formats),
``host`` (sans-I/O exchange and the blocking ``CctalkBus``), ``acceptor`` (driver and its pure
event tracker), ``payout`` (the hopper's procedures without I/O) and ``hopper`` (the thin
driver running them), ``ledger`` (what a payout reports), ``scan`` (finding devices). The
simulated devices are in ``hardware.sim`` (``cctalk_devices``, ``cctalk_bus``).
"""
