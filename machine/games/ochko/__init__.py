"""Ochko (seed 004, the Russian "21") as a game of the cabinet.

Owns: the game and nothing else — its settings and rules (``rules``), one round as a state
machine (``round``), its events (``events``), the finished round as data (``result``) and the
``Game`` the cabinet hosts (``game``). The machine is the banker: it puts up a bank of points
that carries from round to round (the round's ``carry``), seats play one at a time against it,
exactly 21 is paid at once, and the banker plays last against the seats still waiting. Pure, as
every game: no I/O, clock or random number; imports only ``machine.games`` and the button names.
The rules page is ``shared/spec/other-games.md``, section "ochko".
"""
