"""Build the AVR firmware and the simavr harness once per session, into a temporary directory."""

from __future__ import annotations

import time

import pytest

from firmware_bridge.link import BuzzerLink
from firmware_bridge.simbox import SimBox


def wait_for(condition, timeout=3.0):
    """Poll ``condition`` until it holds or ``timeout`` seconds pass; whether it held."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


@pytest.fixture(scope="session")
def firmware_build(tmp_path_factory):
    """(elf, harness) built from firmware_bridge/firmware with make, avr-gcc and libsimavr."""
    return SimBox.build(tmp_path_factory.mktemp("firmware-build"))


@pytest.fixture
def simbox(firmware_build):
    with SimBox(*firmware_build) as box:
        yield box


@pytest.fixture
def link(simbox):
    with BuzzerLink.open(simbox.path, hello_timeout=5) as link:
        yield link
