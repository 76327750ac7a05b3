"""The examples in the vision modules' docstrings run."""

import doctest
import importlib
import pkgutil

import pytest

import vision

pytestmark = pytest.mark.vision
MODULES = sorted(["vision"] + [f"vision.{m.name}" for m in pkgutil.iter_modules(vision.__path__)])


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
