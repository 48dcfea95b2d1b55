"""The browser tests' fixture (:mod:`tests.browser.pages`)."""

from tests.browser.pages import pages

__all__ = ["pages"]
