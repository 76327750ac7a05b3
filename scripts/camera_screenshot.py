"""The camera page's screenshot for the README (docs/img/page-camera-phone.jpg): a phone (390x844)
whose camera is a video of the scene simulator (Chromium's fake camera playing a .y4m): the
empty board, a hand writing APPLE, then the board with APPLE, read by the table.

    .venv/bin/python scripts/camera_screenshot.py [OUT_FILE]
"""

from __future__ import annotations

import pathlib
import sys
import tempfile

import cv2
from playwright.sync_api import sync_playwright

from rules.game import GameSetup
from rules.lexicon import Lexicon
from rules.squares import Square
from tabletop.session import Journal, Session, TableClock
from tabletop.web import WebServer
from vision.synth.scene import render_scene
from vision.synth.video import write_y4m

CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
APPLE = {Square(6, 4 + i): ch for i, ch in enumerate("APPLE")}


def main(out: pathlib.Path) -> int:
    folder = pathlib.Path(tempfile.mkdtemp())
    session = Session.create(Journal(folder / "j.sqlite"), GameSetup("extradiction", ("Ann", "Ben"), variant="level3"),
                             "extradiction", lexicon=Lexicon(["apple", "star"]), clock=TableClock())

    def scene(letters, hand=False):
        frame = render_scene(session.board, letters, seed=3, tilt_deg=12, glare=False, hand=hand)
        return cv2.resize(frame, (960, 540), interpolation=cv2.INTER_AREA)

    video = folder / "game.y4m"
    with open(video, "wb") as file:
        write_y4m(file, [(scene({}), 2), (scene(APPLE, hand=True), 2), (scene(APPLE), 40)])
    server = WebServer(session).start()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path="/usr/bin/chromium",
                                        args=CHROMIUM_ARGS + [f"--use-file-for-fake-video-capture={video}"])
            context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1.5,
                                          is_mobile=True, has_touch=True)
            page = context.new_page()
            page.set_default_timeout(30_000)
            page.goto(server.links()["camera"])
            page.wait_for_selector("#word:has-text('APPLE')")
            page.wait_for_timeout(2000)
            page.screenshot(path=str(out), type="jpeg", quality=85, clip={"x": 0, "y": 0, "width": 390, "height": 470})
            print(f"wrote {out}")
            browser.close()
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "docs/img/page-camera-phone.jpg")))
