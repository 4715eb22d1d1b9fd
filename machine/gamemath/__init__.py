"""Game math (issue 3, issue 22): the exact analysis, Auto, the charts and the simulators.

Owns nothing itself. One package per game, named as the game (``blackjack``, ``eenentwintig``,
``eenendertigen``, ``ochko``), each offering the interface ``engines`` describes; the layers
above find a game's package through the registry (``machine.games.catalog``) and
``engines``, never by its name. Shared by several games, each a module of its own:
``simulate`` (the engine simulators' seeded chunks and their ``Tally``), ``kernels`` (the
compiled-kernel toolkit: the generator, the shoes, the chunk plans, numba's cache locator),
``cluster`` (chunks on a Dask cluster), ``tablecache`` (Auto's tables on disk), ``engines``
(the questions asked of a game's math) and ``precompile`` (every game's kernels compiled ahead).
Knows no money, cabinet, loop, screen or operator.
"""
