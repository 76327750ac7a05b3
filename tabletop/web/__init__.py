"""The pages the session serves: scoreboard, host console, player pages (:mod:`tabletop.web.app`)."""

from tabletop.web.app import WebServer, make_app

__all__ = ["WebServer", "make_app"]
