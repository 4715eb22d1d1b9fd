"""Eenendertigen (seed 001, the Dutch "31") as a game of the cabinet.

Owns: the game and nothing else — its settings and scoring (``rules``), one round as a state
machine over four places in a ring of turns (``round``, with its events in ``events``), the
``Game`` the cabinet hosts (``game``) and the tournament's deck derivation (``deals``). Not a
banked game: every place plays for itself; seats sit in places 1.. and computer players, whose
strategy is injected like Auto, fill the rest and move inside the round. Pure, as every game:
no I/O, clock or random number; imports only ``machine.games`` and the button names. The rules
page is ``shared/spec/other-games.md``, section "eenendertigen".
"""
