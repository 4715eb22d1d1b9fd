"""The machine side of SAS 6.02 (the casino management system's protocol), sans-I/O.

Owns: the codec (``codec.py``: CRC-16/KERMIT, BCD, the table of long-poll lengths) and the
machine's state machine (``machine.py``). Never opens a port, reads a clock or knows a cabinet.
"""
