"""The docstring examples of the arbiter run as written."""

import doctest

import rules.arbitration


def test_docstring_examples():
    assert doctest.testmod(rules.arbitration).failed == 0
