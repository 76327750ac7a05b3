"""Table devices as pluggable inputs and outputs, each with a simulated twin (one module each).

Inputs turn into session calls: :class:`SerialBuzzers` (the USB buzzer box, through
:mod:`firmware_bridge`; its twin is the box emulator on a pty), :class:`GpioPanel` (the Pi's
buttons through :mod:`hardware`, mock pins off a Pi), :class:`CameraInput` (frames through
:mod:`vision`'s tracker) with :class:`SyntheticCamera` as the camera's twin.
Outputs follow the session: :class:`TableOutputs` lights the answering player's LED, runs the
sand timer on the game's current countdown and sounds the buzzer on a refusal.

Device callbacks never call the session on the device's own thread (a device thread waiting for
the session while the session waits for the device would deadlock): presses go through a queue
to a dispatcher thread.
"""

from tabletop.session.devices.buzzers import HOST_BUTTONS, GpioPanel, SerialBuzzers, host_button
from tabletop.session.devices.camera_input import CameraInput
from tabletop.session.devices.cameras import (OpenCVCamera, PiCamera, SyntheticCamera, SyntheticChipCamera,
                                              SyntheticDiceCamera, SyntheticTileCamera, open_camera)
from tabletop.session.devices.chip_input import ChipCameraInput
from tabletop.session.devices.dice_input import DiceCameraInput
from tabletop.session.devices.dispatch import Dispatcher
from tabletop.session.devices.outputs import TableOutputs, sand_timer_on_mock_pins
from tabletop.session.devices.presses import PressOrderer
from tabletop.session.devices.tile_input import TileCameraInput

__all__ = ["HOST_BUTTONS", "CameraInput", "ChipCameraInput", "DiceCameraInput", "Dispatcher", "GpioPanel", "OpenCVCamera", "PiCamera", "PressOrderer",
           "SerialBuzzers", "SyntheticCamera", "SyntheticChipCamera", "SyntheticDiceCamera", "SyntheticTileCamera",
           "TableOutputs", "TileCameraInput", "host_button", "open_camera", "sand_timer_on_mock_pins"]
