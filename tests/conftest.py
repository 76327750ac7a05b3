"""Shared fixtures; each test folder adds its own."""
