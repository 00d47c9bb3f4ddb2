"""The preflight checks (see the package docstring)."""

from __future__ import annotations

import io
import math
import shutil
import subprocess
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from ..geometry import Affine

MIN_PPI = 300
INK_RESOLUTION = 50  # ppi of the rendering whose pixels are summed for the ink coverage
INK_TOLERANCE = 1.0  # percent: 8-bit rounding of four separations
BOX_TOLERANCE = 0.05  # points
_PT_MM = 25.4 / 72


@dataclass(frozen=True)
class Rules:
    """What the PDF must satisfy: from a service's press block, or nothing but the basics."""

    service: str | None = None
    colour: str | None = None  # "cmyk": no RGB; None: any
    ink_limit: int | None = None  # percent
    bleed: float | None = None  # points on each side of the TrimBox


@dataclass(frozen=True)
class Finding:
    page: int | None  # 1-based; None: the whole document
    severity: str  # "error" | "warning" | "info"
    message: str

    def line(self, name: str) -> str:
        where = f"{name}: page {self.page}" if self.page else name
        return f"{where}: {self.severity}: {self.message}"


@dataclass
class Report:
    pages: int
    findings: list[Finding] = field(default_factory=list)
    colour_spaces: dict[int, set[str]] = field(default_factory=dict)
    max_ink: dict[int, float] = field(default_factory=dict)

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "error"]

    @property
    def ok(self) -> bool:
        return not self.errors

    def lines(self, name: str) -> list[str]:
        return [f.line(name) for f in self.findings]


def preflight(data: bytes, rules: Rules = Rules()) -> Report:
    import pypdf

    try:
        pdf = pypdf.PdfReader(io.BytesIO(data))
        pages = list(pdf.pages)
    except Exception as exc:  # pypdf raises many kinds for a damaged file
        report = Report(0)
        report.findings.append(Finding(None, "error", f"not a readable PDF: {exc}"))
        return report
    report = Report(len(pages))
    add = report.findings.append
    intents = pdf.trailer["/Root"].get("/OutputIntents")
    if rules.colour == "cmyk" and not intents:
        add(Finding(None, "warning", "no output intent: the CMYK values name no printing condition"))
    elif intents:
        intent = intents[0].get_object()
        add(Finding(None, "info", f"output intent: {intent.get('/OutputConditionIdentifier')}"))
    unembedded: dict[str, list[int]] = {}
    for number, page in enumerate(pages, 1):
        _boxes(page, number, rules, add)
        walk = _Walk()
        walk.page(page)
        report.colour_spaces[number] = walk.spaces
        if rules.colour == "cmyk" and walk.spaces & RGB_SPACES:
            add(
                Finding(
                    number, "error", f"RGB colour on a CMYK press page ({', '.join(sorted(walk.spaces))})"
                )
            )
        for name in walk.unembedded:
            unembedded.setdefault(name, []).append(number)
        for ppi, what in walk.images:
            if ppi < MIN_PPI - 0.5:
                add(Finding(number, "warning", f"image {what} at {ppi:.0f} ppi as placed (below {MIN_PPI})"))
    for name, numbers in sorted(unembedded.items()):
        add(Finding(numbers[0], "error", f"font {name} is not embedded (pages {_ranges(numbers)})"))
    by_set: dict[tuple[str, ...], list[int]] = {}
    for number, found in report.colour_spaces.items():
        by_set.setdefault(tuple(sorted(found)), []).append(number)
    for spaces, numbers in sorted(by_set.items(), key=lambda item: item[1][0]):
        add(Finding(None, "info", f"colour spaces {', '.join(spaces) or 'none'}: pages {_ranges(numbers)}"))
    if rules.ink_limit is not None or rules.colour == "cmyk":
        _ink(data, rules, report)
    return report


RGB_SPACES = {"DeviceRGB", "ICCBased RGB", "CalRGB"}


def _boxes(page, number: int, rules: Rules, add) -> None:
    media = [float(v) for v in page.mediabox]
    trim = page.get("/TrimBox")
    bleed = page.get("/BleedBox")
    if trim is None or bleed is None:
        missing = " and ".join(k for k, v in (("TrimBox", trim), ("BleedBox", bleed)) if v is None)
        add(Finding(number, "error" if rules.bleed else "warning", f"no {missing}"))
        return
    trim = [float(v) for v in trim]
    bleed = [float(v) for v in bleed]
    if not (_inside(trim, bleed) and _inside(bleed, media)):
        add(Finding(number, "error", "the boxes do not nest (TrimBox in BleedBox in MediaBox)"))
    sides = (trim[0] - bleed[0], trim[1] - bleed[1], bleed[2] - trim[2], bleed[3] - trim[3])
    if rules.bleed is not None and min(sides) < rules.bleed - BOX_TOLERANCE:
        add(
            Finding(
                number,
                "error",
                f"missing bleed: {min(sides) * _PT_MM:.2f} mm beyond the trim, "
                f"{rules.bleed * _PT_MM:.2f} mm needed",
            )
        )
    if number == 1:
        w, h = (trim[2] - trim[0]) * _PT_MM, (trim[3] - trim[1]) * _PT_MM
        add(
            Finding(
                number,
                "info",
                f"boxes: trim {w:.2f} x {h:.2f} mm, bleed {min(sides) * _PT_MM:.2f} mm, "
                f"media {(media[2] - media[0]) * _PT_MM:.2f} x {(media[3] - media[1]) * _PT_MM:.2f} mm",
            )
        )


def _inside(inner: list[float], outer: list[float]) -> bool:
    t = BOX_TOLERANCE
    return (
        inner[0] >= outer[0] - t
        and inner[1] >= outer[1] - t
        and inner[2] <= outer[2] + t
        and inner[3] <= outer[3] + t
    )


def _ranges(numbers: Iterable[int]) -> str:
    numbers = sorted(set(numbers))
    out, start = [], numbers[0]
    for a, b in zip(numbers, [*numbers[1:], None], strict=True):
        if b != a + 1:
            out.append(f"{start}" if start == a else f"{start}-{a}")
            start = b
    return ", ".join(out)


class _Walk:
    """The colour spaces, fonts and placed images of a page, its forms and patterns included."""

    def __init__(self) -> None:
        self.spaces: set[str] = set()
        self.unembedded: set[str] = set()
        self.images: list[tuple[float, str]] = []
        self._seen: set[int] = set()

    def page(self, page) -> None:
        self._group(page)
        resources = page.get("/Resources")
        resources = resources.get_object() if resources is not None else {}
        content = page.get_contents()
        self._content(content, resources, (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))

    def _group(self, obj) -> None:
        group = obj.get("/Group")
        if group is not None and group.get_object().get("/CS") is not None:
            self.spaces.add(_space_name(group.get_object()["/CS"]))

    def _content(self, content, resources, ctm) -> None:
        from pypdf.generic import ContentStream

        if content is None:
            return
        self._resources(resources)
        stack = []
        spaces = {
            "rg": "DeviceRGB",
            "RG": "DeviceRGB",
            "k": "DeviceCMYK",
            "K": "DeviceCMYK",
            "g": "DeviceGray",
            "G": "DeviceGray",
        }
        named = (resources.get("/ColorSpace") or {}) if resources else {}
        for operands, op in ContentStream(content, None).operations:
            op = op.decode("latin-1") if isinstance(op, bytes) else op
            if op in spaces:
                self.spaces.add(spaces[op])
            elif op in ("cs", "CS"):
                name = operands[0]
                self.spaces.add(_space_name(named[name]) if name in named else str(name).lstrip("/"))
            elif op == "q":
                stack.append(ctm)
            elif op == "Q" and stack:
                ctm = stack.pop()
            elif op == "cm":
                ctm = _mul(tuple(float(v) for v in operands), ctm)
            elif op == "Do":
                xobjects = resources.get("/XObject") or {}
                if operands[0] in xobjects:
                    self._xobject(xobjects[operands[0]].get_object(), str(operands[0]), ctm)
            elif op == "INLINE IMAGE":
                self.spaces.add("inline image")

    def _xobject(self, obj, name: str, ctm) -> None:
        subtype = obj.get("/Subtype")
        if subtype == "/Image":
            if obj.get("/ImageMask"):
                return
            self.spaces.add(_space_name(obj.get("/ColorSpace", "/DeviceGray")))
            width_pt = math.hypot(ctm[0], ctm[1])
            height_pt = math.hypot(ctm[2], ctm[3])
            if width_pt > 0 and height_pt > 0:
                ppi = min(float(obj["/Width"]) / (width_pt / 72), float(obj["/Height"]) / (height_pt / 72))
                self.images.append((ppi, f"{name} ({obj['/Width']} x {obj['/Height']} px)"))
        elif subtype == "/Form":
            self._group(obj)
            matrix = tuple(float(v) for v in obj.get("/Matrix", (1, 0, 0, 1, 0, 0)))
            resources = obj.get("/Resources")
            self._content(obj, resources.get_object() if resources is not None else {}, _mul(matrix, ctm))

    def _resources(self, resources) -> None:
        if not resources:
            return
        key = id(resources)
        if key in self._seen:
            return
        self._seen.add(key)
        for font in (resources.get("/Font") or {}).values():
            self._font(font.get_object())
        for ref in (resources.get("/Pattern") or {}).values():
            pattern = ref.get_object()
            if pattern.get("/PatternType") == 2:
                self.spaces.add(_space_name(pattern["/Shading"].get_object().get("/ColorSpace")))
            elif pattern.get("/PatternType") == 1:
                inner = pattern.get("/Resources")
                self._content(pattern, inner.get_object() if inner is not None else {}, (1, 0, 0, 1, 0, 0))
        for ref in (resources.get("/Shading") or {}).values():
            self.spaces.add(_space_name(ref.get_object().get("/ColorSpace")))
        for state in (resources.get("/ExtGState") or {}).values():
            mask = state.get_object().get("/SMask")
            if mask is not None and hasattr(mask, "get_object") and isinstance(mask.get_object(), dict):
                group = mask.get_object().get("/G")
                if group is not None:
                    # a soft mask's group sets transparency, not ink: its colours are not counted
                    inner = group.get_object().get("/Resources")
                    for font in ((inner.get_object() if inner else {}).get("/Font") or {}).values():
                        self._font(font.get_object())

    def _font(self, font) -> None:
        if font.get("/Subtype") == "/Type3":
            return  # glyphs drawn by the PDF itself
        descriptor_of = font
        if font.get("/Subtype") == "/Type0":
            descriptor_of = font["/DescendantFonts"][0].get_object()
        descriptor = descriptor_of.get("/FontDescriptor")
        descriptor = descriptor.get_object() if descriptor is not None else {}
        if not {"/FontFile", "/FontFile2", "/FontFile3"} & set(descriptor):
            self.unembedded.add(str(font.get("/BaseFont", "?")).lstrip("/"))


def _space_name(space) -> str:
    if space is None:
        return "none"
    space = space.get_object() if hasattr(space, "get_object") else space
    if isinstance(space, list):
        family = str(space[0]).lstrip("/")
        if family == "ICCBased":
            n = space[1].get_object().get("/N")
            return f"ICCBased {({1: 'Gray', 3: 'RGB', 4: 'CMYK'}).get(n, n)}"
        if family == "Indexed":
            return f"Indexed {_space_name(space[1])}"
        return family
    return str(space).lstrip("/")


def _mul(a, b):
    """Matrix product of PDF matrices (a applied first), as a 6-tuple."""
    m = Affine(*b) @ Affine(*a)
    return (m.a, m.b, m.c, m.d, m.e, m.f)


# ---- ink coverage --------------------------------------------------------------------------


def _ink(data: bytes, rules: Rules, report: Report) -> None:
    """Each page rendered by Ghostscript into CMYK separations (CMYK content keeps its
    numbers), the highest sum of the four inks of any pixel compared with the limit."""
    from PIL import Image, ImageMath

    gs = shutil.which("gs")
    if gs is None:
        report.findings.append(
            Finding(None, "warning", "ink coverage not checked: Ghostscript (gs) is not installed")
        )
        return
    with tempfile.TemporaryDirectory(prefix="deckwright-preflight-") as tmp:
        source = Path(tmp) / "in.pdf"
        source.write_bytes(data)
        done = subprocess.run(
            [gs, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiff32nc", f"-r{INK_RESOLUTION}",
             "-dGraphicsAlphaBits=1", "-dTextAlphaBits=1", "-o", str(Path(tmp) / "p%05d.tif"), str(source)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            report.findings.append(
                Finding(None, "error", f"Ghostscript cannot render the PDF: {done.stderr.strip()[-200:]}")
            )
            return
        for number in range(1, report.pages + 1):
            with Image.open(Path(tmp) / f"p{number:05d}.tif") as image:
                c, m, y, k = (band.convert("I") for band in image.split())
                total = ImageMath.lambda_eval(lambda a: a["c"] + a["m"] + a["y"] + a["k"], c=c, m=m, y=y, k=k)
                peak = total.getextrema()[1] * 100 / 255
            report.max_ink[number] = peak
            if rules.ink_limit is not None and peak > rules.ink_limit + INK_TOLERANCE:
                report.findings.append(
                    Finding(
                        number, "error", f"total ink up to {peak:.0f} % (the limit is {rules.ink_limit} %)"
                    )
                )
    if report.max_ink:
        worst = max(report.max_ink, key=report.max_ink.get)
        report.findings.append(
            Finding(None, "info", f"highest total ink {report.max_ink[worst]:.0f} % (page {worst})")
        )
