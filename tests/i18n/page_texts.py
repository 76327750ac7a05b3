"""The texts of the web pages that people see: the pages' own HTML (text, placeholder, title,
alt) and every ``T.t('...')`` of their scripts, as :mod:`tabletop.web.static` has them."""

from __future__ import annotations

import html.parser
import pathlib
import re

STATIC = pathlib.Path(__file__).resolve().parents[2] / "tabletop" / "web" / "static"
ROOM = pathlib.Path(__file__).resolve().parents[2] / "tabletop" / "room" / "static"
PAGES = ("scoreboard.html", "player.html", "host.html", "camera.html", "join.html", "../../room/static/room.html",
         "../../room/static/console.html")
SCRIPTS = ("common.js", "i18n.js", "board.js", "../../room/static/room.js")

#: a T.t call's English text: 'single' or "double" quoted, joined with + across lines
CALL = re.compile(r"""T\.t\(((?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")(?:\s*\+\s*(?:'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*"))*)""")
LITERAL = re.compile(r"""'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)\"""")


class _Texts(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self._skip += 1
        for name, value in attrs:
            if name in ("placeholder", "title", "alt") and value and re.search("[A-Za-z]{2}", value) \
                    and not value.startswith("{"):          # an example of JSON is no text
                self.texts.append(value)

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self._skip -= 1

    def handle_data(self, data):
        text = " ".join(data.split())
        if not self._skip and re.search("[A-Za-z]{2}", text):
            self.texts.append(text)


def html_texts(name: str) -> list[str]:
    """The visible texts of a page's own HTML."""
    parser = _Texts()
    parser.feed((STATIC / name).read_text(encoding="utf-8"))
    return parser.texts


def script_texts(source: str) -> list[str]:
    """The English texts a script looks up with ``T.t``."""
    out = []
    for call in CALL.finditer(source):
        out.append("".join((m.group(1) if m.group(1) is not None else m.group(2)).replace("\\'", "'")
                           for m in LITERAL.finditer(call.group(1))))
    return out


def page_texts() -> dict[str, list[str]]:
    """Every page's and script's texts, by file."""
    texts = {name: html_texts(name) + script_texts((STATIC / name).read_text(encoding="utf-8")) for name in PAGES}
    texts.update({name: script_texts((STATIC / name).read_text(encoding="utf-8")) for name in SCRIPTS})
    return texts
