"""The typefaces of letter tiles (training and test scenes only).

Commercial letter tiles are printed or engraved in a bold sans (or now and then a bold serif);
the synthetic tiles of :mod:`vision.synth.tilescene` are drawn in the bold faces of Debian's font
packages (``scripts/apt-packages.txt``). They are split in two fixed halves: the tile network
learns from :data:`TRAINING` only and the benchmark's commercial-style boards use
:data:`HELD_OUT` only, so the benchmark measures typefaces the network never saw.

A face counts only if it draws every letter of both alphabets (a face without Cyrillic
is kept for English only).

>>> faces = available("en", HELD_OUT)
>>> all(f.exists() for f in faces)
True
"""

from __future__ import annotations

import functools
import pathlib

from PIL import Image, ImageDraw, ImageFont

_ROOT = pathlib.Path("/usr/share/fonts")

#: the typefaces the tile network is trained on (paths under /usr/share/fonts)
TRAINING = (
    "truetype/dejavu/DejaVuSans-Bold.ttf",
    "truetype/dejavu/DejaVuSansCondensed-Bold.ttf",
    "truetype/dejavu/DejaVuSerif-Bold.ttf",
    "truetype/liberation2/LiberationSans-Bold.ttf",
    "truetype/liberation2/LiberationSerif-Bold.ttf",
    "truetype/freefont/FreeSansBold.ttf",
    "truetype/freefont/FreeSerifBold.ttf",
    "truetype/open-sans/OpenSans-Bold.ttf",
    "truetype/open-sans/OpenSans-Semibold.ttf",
    "truetype/roboto/unhinted/RobotoTTF/Roboto-Bold.ttf",
    "truetype/roboto/unhinted/RobotoCondensed-Bold.ttf",
    "opentype/urw-base35/NimbusSans-Bold.otf",
    "opentype/urw-base35/NimbusSansNarrow-Bold.otf",
    "opentype/urw-base35/URWBookman-Demi.otf",
    "opentype/urw-base35/C059-Bold.otf",
    "truetype/lato/Lato-Black.ttf",
    "opentype/cantarell/Cantarell-ExtraBold.otf",
    "opentype/urw-base35/URWGothic-Demi.otf",       # geometric: Д and Л drawn like a Greek lambda
    "opentype/inter/Inter-Bold.otf",
    "truetype/play/Play-Bold.ttf",
    "truetype/andika/Andika-Bold.ttf",
    "truetype/paratype/PTS75F.ttf",                  # PT Sans Bold
    "opentype/jura/Jura-Bold.otf",
    "opentype/league-spartan/LeagueSpartan-Bold.otf",
    "truetype/quicksand/Quicksand-Bold.ttf",
    "opentype/dosis/Dosis-Bold.otf",
    # medium and regular weights: many boxed sets print their letters lighter than bold
    "opentype/inter/Inter-Medium.otf",
    "opentype/urw-base35/URWGothic-Book.otf",
    "opentype/urw-base35/NimbusSans-Regular.otf",
    "opentype/urw-base35/C059-Roman.otf",
    "truetype/open-sans/OpenSans-Regular.ttf",
)

#: typefaces kept out of training, for the benchmark's commercial-style boards
HELD_OUT = (
    "truetype/comfortaa/Comfortaa-Bold.ttf",         # geometric, a lambda-like Д and Л of its own
    "truetype/oxygen/Oxygen-Sans-Bold.ttf",
    "truetype/croscore/Arimo-Bold.ttf",
    "truetype/croscore/Tinos-Bold.ttf",
    "opentype/urw-base35/P052-Bold.otf",
    "truetype/lato/Lato-Bold.ttf",
)

LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
CYRILLIC = "АБВГҐДЕЄЖЗИІЇЙКЛМНОПРСТУФХЦЧШЩЬЮЯ"


class NoTileFonts(FileNotFoundError):
    """None of the tile typefaces is installed (``./tabletop.sh setup`` installs them)."""


@functools.lru_cache(maxsize=None)
def _draws(path: pathlib.Path, letters: str) -> bool:
    """Whether the face at ``path`` has a glyph of its own for every one of ``letters``
    (a missing glyph comes out as the face's "no such glyph" box)."""
    try:
        font = ImageFont.truetype(str(path), 40)
    except OSError:
        return False
    drawn = {ch: _picture(font, ch) for ch in letters}
    missing = _picture(font, "\uffff")
    return all(picture != missing for picture in drawn.values()) and len(set(drawn.values())) == len(letters)


def _picture(font: ImageFont.FreeTypeFont, text: str) -> bytes:
    image = Image.new("L", (64, 64))
    ImageDraw.Draw(image).text((8, 4), text, fill=255, font=font)
    return image.tobytes()


def available(language: str, faces: tuple[str, ...] = TRAINING) -> list[pathlib.Path]:
    """The installed faces of ``faces`` that draw every letter of ``language`` (en or uk);
    :class:`NoTileFonts` when there are none."""
    letters = LATIN if language == "en" else CYRILLIC
    found = [p for p in (_ROOT / f for f in faces) if p.exists() and _draws(p, letters)]
    if not found:
        raise NoTileFonts(f"no tile typeface for {language} under {_ROOT}: run ./tabletop.sh setup")
    return found
