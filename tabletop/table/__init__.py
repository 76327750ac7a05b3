"""Running a table, above the games, the session and the pages: the live table
(:mod:`tabletop.table.live`: devices from the config, the pages, the clock, the host's keyboard)
and the simulated one (:mod:`tabletop.table.demo`, carried out by :mod:`tabletop.table.runner`).
Nothing below this package imports it.
"""
