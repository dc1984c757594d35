"""The ``trainer-explorer`` command, installed by this wheel.

``find_bin()`` gives the path of the binary, for notebooks and scripts that run it with
``subprocess``; ``python -m trainer_explorer ...`` runs it like the command itself.
"""

from trainer_explorer._find import find_bin

__all__ = ["find_bin"]
