"""The docstring examples of the link layer run as written."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["firmware_bridge", "firmware_bridge.cobs", "firmware_bridge.crc", "firmware_bridge.protocol",
           "firmware_bridge.timebase", "firmware_bridge.emulator", "firmware_bridge.link"]


@pytest.mark.hardware
@pytest.mark.timeout(60)
@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
