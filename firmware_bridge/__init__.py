"""Both ends of the USB-serial buzzer box link: framing, protocol, host driver, device emulator.

The wire format is specified in ``firmware_bridge/PROTOCOL.md``; the C firmware for the box is
in ``firmware_bridge/firmware/``. This package imports nothing from ``tabletop``, ``vision`` or
``hardware``.

>>> from firmware_bridge.protocol import Ping, encode_frame, FrameDecoder
>>> FrameDecoder().feed(encode_frame(Ping(seq=3)))
[Ping(seq=3)]
"""
