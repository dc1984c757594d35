"""Where pip put the ``trainer-explorer`` binary.

A wheel's scripts land in the ``scripts`` directory of the scheme it was installed with: the
environment's (a venv, the system), the user's (``pip install --user``), or a ``bin`` folder
beside the packages (``pip install --target``). Each is looked at in that order, as ruff's and
uv's own finders do, so ``find_bin()`` answers for the copy that belongs to this package.
"""

import os
import sysconfig

_EXE = "trainer-explorer" + (sysconfig.get_config_var("EXE") or "")


def _user_scheme() -> str:
    # Python 3.10 and later (pyproject.toml's requires-python) name it.
    return sysconfig.get_preferred_scheme("user")


def _candidates():
    # The scheme this interpreter installs into (a venv's bin/, or the system's).
    yield sysconfig.get_path("scripts")
    # pip install --user.
    yield sysconfig.get_path("scripts", scheme=_user_scheme())
    # pip install --target DIR puts the package in DIR and the scripts in DIR/bin.
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    yield os.path.join(package_root, "bin")
    # The package's own folder, for a copy placed beside it.
    yield os.path.dirname(os.path.abspath(__file__))


def find_bin() -> str:
    """The path of the ``trainer-explorer`` binary this package was installed with.

    Raises ``FileNotFoundError`` naming every place looked at when there is none.
    """
    looked = []
    for folder in _candidates():
        if not folder:
            continue
        path = os.path.join(folder, _EXE)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
        looked.append(path)
    raise FileNotFoundError("trainer-explorer binary not found; looked at: " + ", ".join(looked))
