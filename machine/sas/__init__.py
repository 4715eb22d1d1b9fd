"""The cabinet on the casino's SAS host: every configured seat an EGM (issue 25).

Owns: joining the sans-I/O SAS machine side (``hardware/sas/``) to the cabinet: the meters a
host reads, taken from the journal's own meters (``source.py``), the exceptions raised from the
journal's records (``exceptions.py``), the ROM signature (``rom.py``), the port threads
(``link.py``) and the bridge the app loop steps each frame (``bridge.py``). Never decides a rule
of the game or of the money: what the host asks of a seat goes to the cabinet core as an input.
"""
