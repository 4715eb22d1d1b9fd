"""The blackjack family (Random Blackjack, casino blackjack and its table variants) as a game.

Owns: the game and nothing else — its settings (``rules``), its rules written once over plain
ints (``scoring``, shared with the analysis, the compiled simulator and, where their rule is
blackjack's, ochko and eenentwintig), a hand of card codes read by them (``hand``), one round as
a state machine (``round``) with the checks of its play choices (``checks``), its events
(``events``), the finished round as data (``result``) and the ``Game`` the cabinet hosts
(``game``). Pure, as every game: no I/O, clock or random number. The rules page is
``shared/spec/random-blackjack.md``.
"""
