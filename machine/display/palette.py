"""The player screens' colours, shared by every module that paints them.

Owns: the felt, the text and the lamps' colours (RGB). Never draws and imports nothing, so
``draw.py`` and the layouts it calls (``places.py``, ``tournament.py``) all take them from here
without importing one another in a circle.
"""

from __future__ import annotations

FELT = (12, 92, 52)
FELT_DARK = (6, 60, 34)
GOLD = (236, 196, 80)
WHITE = (245, 245, 240)
DIM = (170, 190, 175)
RED = (210, 40, 40)
LAMP_ON = (255, 214, 90)  # a lit button: bright amber, its legend near black
LAMP_ON_EDGE = (255, 244, 196)
LAMP_ON_INK = (40, 26, 0)
LAMP_OFF = (22, 30, 26)  # an unlit one: dark, its legend dim, so lit and unlit never read alike
LAMP_OFF_EDGE = (64, 78, 70)
LAMP_OFF_INK = (104, 118, 110)
METER_INK = (255, 236, 150)  # the meters' digits
