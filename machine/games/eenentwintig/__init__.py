"""Eenentwintig, the Dutch "21" of seed 000 (shared/spec/other-games.md), as a game of the cabinet.

Owns the game's pure rules and nothing of the cabinet: its settings (``rules``), the rules of
play written once as plain-int functions that the engine, the exact analysis and the compiled
simulator share (``scoring``), the round as a state machine (``round``: the deal of a closed
and an open card, the bets after the open card, the turned cards, wash, split, buy and pass,
the bank's turn and the settlement), its events (``events``), the finished round as data
(``result``) and the game as the cabinet hosts it (``game``). Never does I/O, reads a clock or
draws a random number; never imports the game math (Auto comes in injected).
"""
