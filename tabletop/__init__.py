"""Tabletop: the application that wires the camera, the buzzers and the sand timer to the rules core.

Only this package imports all of ``rules``, ``vision``, ``hardware`` and ``firmware_bridge``.
"""

import os

# One BLAS thread: the table computer's cores are shared by the camera loop, the web server and
# the referee, and a multithreaded matrix product on a busy core is several times slower (the
# letter reader's budgets are per core). Set before NumPy is first imported; an explicit
# OPENBLAS_NUM_THREADS in the environment wins.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

__version__ = "0.1.0"
