"""The table's configuration: a TOML file (pins, camera, serial port, language, voice, web, journal).

Looked up in ``--config FILE``, else ``$TABLETOP_CONFIG``, else ``~/.config/tabletop/config.toml``,
else ``/etc/tabletop/config.toml``; a missing file means the defaults below (everything
simulated or automatic). ``deploy/config.example.toml`` documents every key.

>>> config = load_config(None, search=False)
>>> config["camera"]["kind"], config["buzzers"]["kind"], config["table"]["voice"]
('auto', 'auto', True)
"""

from __future__ import annotations

import copy
import os
import pathlib
import tomllib

from tabletop.errors import UserError

DEFAULTS: dict = {
    "table": {"language": "en", "voice": True, "voice_name": "", "speed": 160, "journal": ""},
    "camera": {"kind": "auto", "index": 0, "fps": 8.0},          # auto | pi | usb | synthetic | none
    "buzzers": {"kind": "auto", "serial_port": ""},              # auto | gpio | serial | none
    "web": {"host": "0.0.0.0", "port": 8080},
    "pins": {},                                                   # hardware.config layout; {} = WIRING.md defaults
    "room": {"url": "", "table": "", "credentials": "", "ca_file": ""},   # a room of tables (docs/room.md)
}
SECTIONS = {"table", "camera", "buzzers", "web", "pins", "room"}


def config_paths() -> list[pathlib.Path]:
    paths = []
    if os.environ.get("TABLETOP_CONFIG"):
        paths.append(pathlib.Path(os.environ["TABLETOP_CONFIG"]))
    paths.append(pathlib.Path.home() / ".config" / "tabletop" / "config.toml")
    paths.append(pathlib.Path("/etc/tabletop/config.toml"))
    return paths


def load_config(path: str | os.PathLike | None = None, *, search: bool = True) -> dict:
    """The merged configuration (defaults overlaid by the file); a bad file is a :class:`UserError`."""
    config = copy.deepcopy(DEFAULTS)
    candidates = [pathlib.Path(path)] if path else (config_paths() if search else [])
    for candidate in candidates:
        if not candidate.exists():
            if path:
                raise UserError(f"config file not found: {candidate}")
            continue
        try:
            data = tomllib.loads(candidate.read_text(encoding="utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
            raise UserError(f"config file {candidate} is not valid TOML: {error}") from None
        unknown = set(data) - SECTIONS
        if unknown:
            raise UserError(f"config file {candidate}: unknown section(s) {', '.join(sorted(unknown))}; "
                            f"the sections are {', '.join(sorted(SECTIONS))}")
        for section, values in data.items():
            if not isinstance(values, dict):
                raise UserError(f"config file {candidate}: [{section}] must be a table")
            if section == "pins":
                config["pins"] = values
                continue
            for key, value in values.items():
                if key not in DEFAULTS[section]:
                    raise UserError(f"config file {candidate}: unknown key {key!r} in [{section}]; "
                                    f"known: {', '.join(DEFAULTS[section])}")
                config[section][key] = value
        config["source"] = str(candidate)
        break
    return config
