"""The docstring examples of the session's plain modules run and hold."""

import doctest
import importlib

import pytest


@pytest.mark.parametrize("name", ["tabletop.session.clock", "tabletop.session.journal", "tabletop.config"])
def test_docstring_examples(name):
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
