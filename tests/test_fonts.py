"""The shipped fonts: registry, strict resolution, glyph coverage, fontconfig isolation.

Anything that draws runs in a fresh Python process: fontconfig reads its configuration once per
process, and other tests may already have loaded cairo with the system configuration.
"""

from __future__ import annotations

import base64
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from deckwright.diagnostics import Diagnostics
from deckwright.fonts.fontconfig import FONTCONFIG_NAME, fontconfig_xml, write_fontconfig
from deckwright.fonts.metrics import describe_chars
from deckwright.fonts.registry import FontError
from deckwright.readers.fonts import load_registry
from deckwright.render.card.textfit import measure

FONTS = Path(__file__).resolve().parents[1] / "fonts"
GAMALIEL = FONTS / "gamaliel" / "Gamaliel.ttf"


@pytest.fixture(scope="module")
def registry():
    diags = Diagnostics()
    reg = load_registry(FONTS, diags)
    assert [str(d) for d in diags] == []
    return reg


def test_shipped_fonts_cover_the_needed_looks(registry):
    assert set(registry.fonts) == {
        "eb-garamond",
        "libertine",
        "inter",
        "dejavu-sans-mono",
        "gamaliel",
        "quattrocento",
        "cabin",
    }
    for family in ("EB Garamond", "Inter", "DejaVu Sans Mono"):
        for weight, style in (("regular", "normal"), ("regular", "italic"), ("bold", "normal")):
            assert registry.face(family, weight, style).path.is_file()


def test_every_font_has_its_licence_and_source(registry):
    for font in registry.fonts.values():
        assert font.licence_file.is_file() and font.licence_file.stat().st_size > 500
        assert font.source["package"].startswith("fonts-")
    readme = (FONTS / "README.md").read_text(encoding="utf-8")
    for font in registry.fonts.values():
        assert font.family in readme


def test_the_fonts_folder_stays_small():
    total = sum(p.stat().st_size for p in FONTS.rglob("*") if p.is_file())
    assert total < 15 * 1024 * 1024


def test_resolution_is_by_name_as_fontconfig_compares_names(registry):
    assert registry.face("EB Garamond", "bold").path.name == "EBGaramond12-Bold.otf"
    assert registry.face("ebgaramond").path.name == "EBGaramond12-Regular.otf"
    assert registry.face("eb-garamond", 400, "italic").path.name == "EBGaramond12-Italic.otf"
    assert registry.face("serif").family == "EB Garamond"
    assert registry.face("sans-serif", "bold").family == "Inter"
    # CairoSVG draws "oblique" with the italic (or oblique) face.
    oblique = registry.face("DejaVu Sans Mono", "700", "oblique")
    assert oblique.path.name == "DejaVuSansMono-BoldOblique.ttf"
    assert (oblique.svg_weight, oblique.svg_style) == ("bold", "italic")


@pytest.mark.parametrize(
    ("family", "weight", "style", "message"),
    [
        ("Arial", "regular", "normal", "'Arial' is not shipped"),
        ("DejaVu Sans", "regular", "normal", "not shipped"),
        ("EB Garamond", "bold", "italic", "no bold italic face"),
        ("Quattrocento", "bold", "normal", "no bold face"),
        ("Inter", 300, "normal", "font weight 300"),
        ("Inter", "regular", "slanted", "font style 'slanted'"),
        ("EB Garamond, serif", "regular", "normal", "is a list"),
    ],
)
def test_anything_not_shipped_is_an_error(registry, family, weight, style, message):
    with pytest.raises(FontError, match=message):
        registry.face(family, weight, style)


def test_missing_glyphs_are_named(registry):
    bold = registry.face("EB Garamond", "bold")
    assert bold.missing_glyphs("Judas’ Kiss — “x” Judas") == ("’", "—", "“", "”")
    assert registry.face("EB Garamond").missing_glyphs("Judas’ Kiss — “x”") == ()
    assert "U+2019 RIGHT SINGLE QUOTATION MARK" in describe_chars(bold.missing_glyphs("Judas’"))


# ---- fonts.yaml problems ------------------------------------------------------------------------


def _fonts_dir(tmp_path: Path, yaml_text: str) -> Path:
    folder = tmp_path / "fonts"
    (folder / "gamaliel").mkdir(parents=True)
    shutil.copy(GAMALIEL, folder / "gamaliel" / "Gamaliel.ttf")
    (folder / "gamaliel" / "LICENSE").write_text("OFL-1.1\n")
    (folder / "fonts.yaml").write_text(yaml_text)
    return folder


def _messages(folder: Path) -> list[str]:
    diags = Diagnostics()
    load_registry(folder, diags, display=lambda p: str(p.relative_to(folder.parent)))
    return [str(d) for d in diags.sorted()]


def test_registry_problems_are_located(tmp_path):
    folder = _fonts_dir(
        tmp_path,
        """fonts:
  gamaliel:
    family: Gamaliel
    faces:
      regular: gamaliel/Gamaliel.ttf
      bold: gamaliel/Missing.ttf
      heavy: gamaliel/Gamaliel.ttf
    licence: {name: OFL-1.1, file: gamaliel/LICENSE}
    colour: black
generic:
  serif: garamond
""",
    )
    assert _messages(folder) == [
        "fonts/fonts.yaml:6:13: error: font 'gamaliel' face 'bold': file 'gamaliel/Missing.ttf' not found",
        "fonts/fonts.yaml:7:7: error: font 'gamaliel': unknown face 'heavy' "
        "(regular, italic, bold, bold-italic)",
        "fonts/fonts.yaml:9:5: error: unknown key 'colour' in font 'gamaliel' "
        "(accepted: family, use, faces, licence, source, note)",
        "fonts/fonts.yaml:11:10: error: generic 'serif': no shipped font 'garamond'",
    ]


def test_a_file_must_be_the_face_it_is_listed_as(tmp_path):
    """Else we would measure one file while fontconfig hands cairo another."""
    folder = _fonts_dir(
        tmp_path,
        """fonts:
  blackletter:
    family: Fraktur
    faces: {italic: gamaliel/Gamaliel.ttf}
    licence: {name: OFL-1.1, file: gamaliel/LICENSE}
""",
    )
    assert _messages(folder) == [
        "fonts/fonts.yaml:4:21: error: font 'blackletter' face 'italic' (Gamaliel.ttf): it is not italic",
        "fonts/fonts.yaml:4:21: error: font 'blackletter' face 'italic' (Gamaliel.ttf): "
        "its family is Gamaliel, not 'Fraktur'",
    ]


def test_an_unlisted_font_file_is_an_error(tmp_path):
    folder = _fonts_dir(tmp_path, "fonts:\n  {}\n")
    messages = _messages(folder)
    assert len(messages) == 1
    assert "font file gamaliel/Gamaliel.ttf is not listed in fonts.yaml" in messages[0]


def test_a_broken_fonts_yaml_is_a_located_error(tmp_path):
    folder = _fonts_dir(tmp_path, "fonts:\n  gamaliel: [\n")
    (message,) = _messages(folder)[:1]
    assert message.startswith("fonts/fonts.yaml:3:1: error: YAML syntax error")


# ---- fontconfig -------------------------------------------------------------------------------


def test_fontconfig_names_only_the_shipped_folder(registry, tmp_path):
    xml = fontconfig_xml(registry, tmp_path / "cache")
    assert xml == fontconfig_xml(registry, tmp_path / "cache")  # deterministic
    assert xml.count("<dir") == 1 and f"<dir>{FONTS}</dir>" in xml
    assert "<include" not in xml and "/usr/" not in xml
    assert f"<cachedir>{tmp_path / 'cache'}</cachedir>" in xml
    assert "<family>serif</family><prefer><family>EB Garamond</family>" in xml
    path = write_fontconfig(registry, tmp_path / "cache")
    assert path == tmp_path / "cache" / FONTCONFIG_NAME and path.read_text() == xml
    mtime = path.stat().st_mtime_ns
    write_fontconfig(registry, tmp_path / "cache")
    assert path.stat().st_mtime_ns == mtime  # unchanged content is not rewritten


ISOLATED = r"""
import base64, json, sys
from pathlib import Path
from deckwright.diagnostics import Diagnostics
from deckwright.fonts.fontconfig import activate, fontconfig_files, isolation_problems
from deckwright.readers.fonts import load_registry
job = json.load(sys.stdin)
registry = load_registry(Path(job["fonts"]), Diagnostics())
activate(registry, Path(job["cache"]))
import cairosvg
def png(family, word):
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="300pt" height="40pt" viewBox="0 0 300 40">'
           '<rect width="300" height="40" fill="white"/>'
           f'<text x="10" y="28" font-family="{family}" font-size="20">{word}</text></svg>')
    return base64.b64encode(cairosvg.svg2png(bytestring=svg.encode(), dpi=144)).decode()
json.dump({
    "files": fontconfig_files(),
    "problems": isolation_problems(registry),
    "shipped": {f: png(f, job["word"]) for f in registry.families},
    "foreign": {f: png(f, job["word"]) for f in job["foreign"]},
}, sys.stdout)
"""


@pytest.fixture(scope="module")
def isolated(tmp_path_factory):
    job = {
        "fonts": str(FONTS),
        "cache": str(tmp_path_factory.mktemp("fontconfig")),
        "word": "Hamburgefonstiv",
        "foreign": ["DejaVu Sans", "Liberation Serif", "Noto Sans", "No Such Family"],
    }
    done = subprocess.run(
        [sys.executable, "-c", ISOLATED], input=json.dumps(job), capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _ink_width(png_b64: str) -> float:
    image = Image.open(io.BytesIO(base64.b64decode(png_b64))).convert("L")
    left, _, right, _ = image.point(lambda v: 255 if v < 250 else 0).getbbox()
    return (right - left) * 72 / 144


def test_cairo_sees_only_the_shipped_fonts(isolated, registry):
    shipped = sorted(str(p) for f in registry.fonts.values() for p in f.faces.values())
    assert isolated["files"] == shipped
    assert isolated["problems"] == []


def test_cairo_draws_each_family_from_our_file(isolated, registry):
    widths = {family: _ink_width(png) for family, png in isolated["shipped"].items()}
    assert len(set(widths.values())) == len(widths)  # seven families, seven different drawings
    for family, width in widths.items():
        advance = measure("Hamburgefonstiv", registry.face(family), 20)
        assert abs(width - advance) < 0.06 * advance, family  # ink is the advance less bearings


def test_a_family_we_do_not_ship_never_reaches_a_system_font(isolated):
    drawings = set(isolated["shipped"].values())
    for family, png in isolated["foreign"].items():
        assert png in drawings, f"{family} was drawn with a font we do not ship"


LATE = r"""
import sys
from pathlib import Path
import cairocffi
from deckwright.diagnostics import Diagnostics
from deckwright.fonts.fontconfig import activate
from deckwright.fonts.registry import FontError
from deckwright.readers.fonts import load_registry
registry = load_registry(Path(sys.argv[1]), Diagnostics())
try:
    activate(registry, Path(sys.argv[2]))
except FontError as exc:
    print(exc)
"""


def test_activating_after_cairo_is_loaded_is_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, "-c", LATE, str(FONTS), str(tmp_path)],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "FONTCONFIG_FILE"},
    )
    assert "fonts must be activated before cairocffi is imported" in done.stdout, done.stderr
