"""Build the AVR firmware and the simavr harness once per session, into a temporary directory."""

from __future__ import annotations


import pytest

from firmware_bridge.link import BuzzerLink
from firmware_bridge.simbox import SimBox


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
