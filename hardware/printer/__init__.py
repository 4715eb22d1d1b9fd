"""The ticket printer: ESC/POS (pure, ``escpos``) and the driver on a serial link (``printer``).

The simulated printer is ``hardware.sim.printer``.
"""
