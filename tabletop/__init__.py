"""Tabletop: the application that wires the camera, the buzzers and the sand timer to the rules core.

Only this package imports all of ``rules``, ``vision``, ``hardware`` and ``firmware_bridge``.
"""

__version__ = "0.1.0"
