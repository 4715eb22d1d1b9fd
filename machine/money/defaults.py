"""Where the machine's memory lives when the configuration does not say: the key file and the
head store folder, outside the data folder.

Owns those two default paths only, so that the command line's help and the configuration's
defaults can name them without loading the journal (``memory.py`` uses them). Never opens a
file.
"""

DEFAULT_KEY_FILE = "~/.config/cabinet/machine.key"
DEFAULT_HEAD_STORE = "~/.local/state/cabinet"
