"""Every docstring example in the rules core and the application's plain modules runs and holds."""

import doctest
import importlib
import pkgutil

import pytest

import rules

MODULES = sorted(f"rules.{m.name}" for m in pkgutil.iter_modules(rules.__path__)) + [
    "tabletop.cli", "tabletop.errors", "tabletop.files", "tabletop.lexicons", "tabletop.resources",
    "tabletop.decks", "tabletop.benchmarks.vision", "tabletop.benchmarks.outsider",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"
