"""The simulated players: what they do (:mod:`tabletop.players.synthetic`'s actions) and how
they choose a word's place (:mod:`tabletop.players.planner`). The games' demo scripts
(:mod:`tabletop.games`) use them; they know nothing of the session or the devices.
"""
