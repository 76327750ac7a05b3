"""Typed, readable errors of the buzzer-box link."""

from __future__ import annotations


class LinkError(Exception):
    """Base class: something went wrong talking to the buzzer box."""


class FrameError(LinkError):
    """A frame could not be decoded (bad COBS, bad CRC, unknown type, wrong length)."""


class HandshakeTimeout(LinkError):
    """The box did not say HELLO in time (wrong port, no firmware, wrong baud rate?)."""


class VersionMismatch(LinkError):
    """The box speaks another protocol version than this host."""


class CommandTimeout(LinkError):
    """A command was sent and retried, and the box never acknowledged it."""


class CommandRejected(LinkError):
    """The box acknowledged a command with an error status."""


class Disconnected(LinkError):
    """The link is down (unplugged) and a command could not be delivered."""
