"""What the devices report to the scoreboard: each device's status line, and the board as the
camera last read it. A part of the session (:mod:`tabletop.session.parts`); not journalled
(a resumed game hears from its devices again).

>>> class Core:
...     import threading
...     lock = threading.RLock()
...     published = []
...     def publish(self, message): self.published.append(message)
>>> status = DeviceStatus(Core())
>>> status.set("camera", "board found")
>>> status.devices, len(status.core.published)
({'camera': 'board found'}, 1)
"""

from __future__ import annotations

from typing import Any

from tabletop.session.parts import Part


class DeviceStatus(Part):
    """Device name -> its status line, and the camera's latest still read of the board."""

    def __init__(self, core: Any):
        super().__init__(core)
        self.devices: dict[str, str] = {}
        self.board_read: list[str] | None = None

    def set(self, name: str, status: str) -> None:
        """A device reports its status (camera: 'hand over the board', buzzer box: 'connected'...)."""
        with self.core.lock:
            if self.devices.get(name) == status:
                return
            self.devices[name] = status
        self.core.publish({"kind": "device", "device": name, "status": status})

    def set_board_read(self, rows: list[str]) -> None:
        """The camera's latest still read of the board (letters the game does not count show as stale)."""
        with self.core.lock:
            if rows == self.board_read:
                return
            self.board_read = list(rows)
        self.core.publish({"kind": "device", "device": "camera"})
