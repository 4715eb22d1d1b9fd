"""The player screens: a pure view model (``view``) and the pygame drawing (``draw``)."""
