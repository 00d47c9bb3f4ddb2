"""sRGB to CMYK with littleCMS (Pillow's ImageCms): colours, images, and whole vector PDFs.

A vector PDF is converted in place, object by object, rather than by Ghostscript: Ghostscript
10.00's pdfwrite (Debian bookworm) ignores -sOutputICCProfile with ColorConversionStrategy=CMYK
and always separates with its built-in default_cmyk.icc (measured: the same CMYK numbers for
our FOGRA39 profile and for that one, 295 % for black, over DriveThruCards' 240 % limit). The
colour arithmetic is littleCMS's; this module only finds the colours cairo writes:

- fill and stroke colours (`rg`/`RG`, DeviceRGB `sc`/`scn`) become `k`/`K`;
- **black text stays 100 % K**: a text object (BT .. ET) filled with pure black is filled with
  0 0 0 1 k, not the profile's rich black (four inks misregister on small type);
- DeviceRGB images are separated pixel by pixel (their soft masks stay as they are);
- axial and radial shadings (gradients) have their end colours separated (interpolation then
  runs in CMYK, within a few per cent of the sRGB ramp for the gradients cards use);
- transparency groups blend in DeviceCMYK; luminosity soft masks are left alone (a mask is
  not ink).
Gray (`g`/`G`) is left as it is: DeviceGray prints on the black plate alone. The result gets
the profile as its output intent (/OutputIntents, GTS_PDFX).
"""

from __future__ import annotations

import io
import zlib
from collections.abc import Iterable

from PIL import Image, ImageCms

from .profile import REGISTRY, CmykProfile

PERCEPTUAL = ImageCms.Intent.PERCEPTUAL
TEXT_BLACK = (0.0, 0.0, 0.0, 1.0)


class ConversionError(Exception):
    pass


class Separator:
    """sRGB -> the profile's CMYK, one transform, colours remembered."""

    def __init__(self, profile: CmykProfile) -> None:
        self.profile = profile
        target = ImageCms.ImageCmsProfile(io.BytesIO(profile.data))
        self.transform = ImageCms.buildTransform(
            ImageCms.createProfile("sRGB"), target, "RGB", "CMYK", renderingIntent=PERCEPTUAL
        )
        self._colours: dict[tuple[int, int, int], tuple[float, float, float, float]] = {}

    def colour(self, rgb: Iterable[float]) -> tuple[float, float, float, float]:
        """A colour given as 0..1 sRGB components, as 0..1 CMYK (rounded to 1/255, as littleCMS
        gives 8-bit values)."""
        key = tuple(max(0, min(255, round(float(v) * 255))) for v in rgb)
        if key not in self._colours:
            pixel = ImageCms.applyTransform(Image.new("RGB", (1, 1), key), self.transform).getpixel((0, 0))
            self._colours[key] = tuple(round(v / 255, 4) for v in pixel)
        return self._colours[key]

    def image(self, image: Image.Image) -> Image.Image:
        return ImageCms.applyTransform(image.convert("RGB"), self.transform)


# ---- vector PDFs ---------------------------------------------------------------------------


def pdf_to_cmyk(data: bytes, profile: CmykProfile) -> bytes:
    """The PDF with every sRGB colour separated into the profile's CMYK, and its output intent."""
    from pypdf import PdfReader, PdfWriter

    reader = PdfReader(io.BytesIO(data))
    writer = PdfWriter(clone_from=reader)
    job = _PdfJob(writer, Separator(profile))
    for page in writer.pages:  # every soft mask first: a mask's group may be met as a form before
        job.find_masks(page.get("/Resources"))
    for page in writer.pages:
        job.page(page)
    _output_intent(writer, profile)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


class _PdfJob:
    def __init__(self, writer, separator: Separator) -> None:
        from pypdf import generic

        self.g = generic
        self.writer = writer
        self.sep = separator
        self.done: set[int] = set()  # object numbers converted (shared forms, images, shadings)
        self.masks: set[int] = set()  # soft-mask groups: left alone

    def find_masks(self, resources, seen: set[int] | None = None) -> None:
        """Note the groups of all soft masks reachable from `resources` (forms, patterns)."""
        seen = set() if seen is None else seen
        if resources is None:
            return
        resources = resources.get_object()
        for state in (resources.get("/ExtGState") or {}).values():
            mask = state.get_object().get("/SMask")
            mask = mask.get_object() if mask is not None and hasattr(mask, "get_object") else mask
            if isinstance(mask, self.g.DictionaryObject) and "/G" in mask:
                self.masks.add(mask.raw_get("/G").idnum)
        for ref in [*(resources.get("/XObject") or {}).values(), *(resources.get("/Pattern") or {}).values()]:
            number = getattr(ref, "idnum", None)
            if number is None or number in seen:
                continue
            seen.add(number)
            inner = ref.get_object().get("/Resources")
            if inner is not None:
                self.find_masks(inner, seen)

    def page(self, page) -> None:
        from pypdf.generic import ContentStream

        resources = page.get("/Resources")
        if resources is not None:
            self.resources(resources.get_object())
        self._group(page)
        content = page.get_contents()
        if content is None:
            return
        stream = ContentStream(content, self.writer)
        stream.operations = self.operations(stream.operations)
        page.replace_contents(stream)

    def resources(self, resources) -> None:
        for ref in (resources.get("/XObject") or {}).values():
            self.xobject(ref)
        for ref in (resources.get("/Pattern") or {}).values():
            pattern = ref.get_object()
            if pattern.get("/PatternType") == 2:
                self.shading(pattern.raw_get("/Shading"))
            elif pattern.get("/PatternType") == 1:
                self.form(ref)
        for ref in (resources.get("/Shading") or {}).values():
            self.shading(ref)
        spaces = resources.get("/ColorSpace")
        if spaces is not None:
            spaces = spaces.get_object()
            for name, space in list(spaces.items()):
                if space == "/DeviceRGB":
                    spaces[self.g.NameObject(name)] = self.g.NameObject("/DeviceCMYK")

    def xobject(self, ref) -> None:
        number = getattr(ref, "idnum", None)
        if number is not None and (number in self.done or number in self.masks):
            return
        obj = ref.get_object()
        subtype = obj.get("/Subtype")
        if subtype == "/Form":
            self.form(ref)
        elif subtype == "/Image":
            if number is not None:
                self.done.add(number)
            self.image(obj)

    def form(self, ref) -> None:
        from pypdf.generic import ContentStream

        number = getattr(ref, "idnum", None)
        if number is not None:
            if number in self.done or number in self.masks:
                return
            self.done.add(number)
        form = ref.get_object()
        resources = form.get("/Resources")
        if resources is not None:
            self.resources(resources.get_object())
        self._group(form)
        stream = ContentStream(form, self.writer)
        operations = self.operations(stream.operations)
        stream.operations = operations
        form.set_data(stream.get_data())

    def _group(self, obj) -> None:
        group = obj.get("/Group")
        if group is not None:
            group = group.get_object()
            if group.get("/CS") == "/DeviceRGB":
                group[self.g.NameObject("/CS")] = self.g.NameObject("/DeviceCMYK")

    def image(self, image) -> None:
        g = self.g
        space = image.get("/ColorSpace")
        space = space.get_object() if space is not None else None
        rgb = space == "/DeviceRGB" or (
            isinstance(space, g.ArrayObject)
            and space[0] == "/ICCBased"
            and space[1].get_object().get("/N") == 3
        )
        if not rgb or image.get("/BitsPerComponent") != 8:
            return
        decoded = image.decode_as_image()  # its soft mask stays a separate object in the PDF
        if decoded is None:
            return
        cmyk = self.sep.image(decoded)
        image.set_data(b"")  # drop the old filter chain before writing the new data
        for key in ("/DecodeParms", "/Decode"):
            if key in image:
                del image[key]
        image[g.NameObject("/Filter")] = g.NameObject("/FlateDecode")
        image._data = zlib.compress(cmyk.tobytes(), 6)
        image[g.NameObject("/Length")] = g.NumberObject(len(image._data))
        image[g.NameObject("/ColorSpace")] = g.NameObject("/DeviceCMYK")

    def shading(self, ref) -> None:
        number = getattr(ref, "idnum", None)
        if number is not None:
            if number in self.done:
                return
            self.done.add(number)
        shading = ref.get_object()
        if shading.get("/ColorSpace") != "/DeviceRGB" or shading.get("/ShadingType") not in (2, 3):
            return
        function = shading.get("/Function")
        if function is None or not self.function(function):
            return
        shading[self.g.NameObject("/ColorSpace")] = self.g.NameObject("/DeviceCMYK")

    def function(self, ref) -> bool:
        """Separate a shading's function in place, once: cairo shares functions between the
        shadings of a file (a second pass would take CMYK numbers for sRGB)."""
        g = self.g
        number = getattr(ref, "idnum", None)
        if number is not None:
            if number in self.done:
                return True
            self.done.add(number)
        function = ref.get_object()
        if isinstance(function, g.ArrayObject):
            return False  # one function per component: cairo does not write these
        kind = function.get("/FunctionType")
        if kind == 2:
            for key in ("/C0", "/C1"):
                values = function.get(key) or ([0, 0, 0] if key == "/C0" else [1, 1, 1])
                function[g.NameObject(key)] = _numbers(self.sep.colour(values))
            return True
        if kind == 3:
            return all(self.function(f) for f in function["/Functions"])
        return False

    def operations(self, operations: list) -> list:
        """Colour operators separated; black text set to 100 % K."""
        out: list = []
        fill_black = False  # the current fill is pure black (rg 0 0 0 or g 0)
        in_text = False
        rgb_fill = rgb_stroke = False  # the current cs / CS is DeviceRGB
        black = self.sep.colour((0, 0, 0))
        name = self.g.NameObject
        for operands, op in operations:
            if op == b"rg":
                fill_black = all(float(v) == 0 for v in operands)
                cmyk = TEXT_BLACK if fill_black and in_text else self.sep.colour(operands)
                out.append((_numbers(cmyk), b"k"))
            elif op == b"RG":
                out.append((_numbers(self.sep.colour(operands)), b"K"))
            elif op in (b"cs", b"CS"):
                rgb = operands[0] == "/DeviceRGB"
                if op == b"cs":
                    rgb_fill = rgb
                else:
                    rgb_stroke = rgb
                out.append(([name("/DeviceCMYK")] if rgb else operands, op))
            elif op in (b"sc", b"scn") and rgb_fill and len(operands) == 3:
                fill_black = all(float(v) == 0 for v in operands)
                cmyk = TEXT_BLACK if fill_black and in_text else self.sep.colour(operands)
                out.append((_numbers(cmyk), op))
            elif op in (b"SC", b"SCN") and rgb_stroke and len(operands) == 3:
                out.append((_numbers(self.sep.colour(operands)), op))
            elif op == b"g":
                fill_black = float(operands[0]) == 0
                out.append((operands, op))
            elif op == b"k":
                fill_black = False
                out.append((operands, op))
            elif op == b"BT":
                in_text = True
                out.append((operands, op))
                if fill_black:
                    out.append((_numbers(TEXT_BLACK), b"k"))
            elif op == b"ET":
                in_text = False
                out.append((operands, op))
                if fill_black:
                    out.append((_numbers(black), b"k"))
            else:
                out.append((operands, op))
        return out


def _numbers(values: Iterable[float]):
    from pypdf.generic import ArrayObject, FloatObject

    return ArrayObject(FloatObject(round(float(v), 4)) for v in values)


def _output_intent(writer, profile: CmykProfile) -> None:
    from pypdf.generic import (
        ArrayObject,
        DictionaryObject,
        NameObject,
        NumberObject,
        StreamObject,
        TextStringObject,
    )

    stream = StreamObject()
    stream[NameObject("/N")] = NumberObject(4)
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    stream._data = zlib.compress(profile.data, 9)
    intent = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/OutputIntent"),
            NameObject("/S"): NameObject("/GTS_PDFX"),
            NameObject("/OutputConditionIdentifier"): TextStringObject(profile.condition),
            NameObject("/OutputCondition"): TextStringObject(profile.description),
            NameObject("/Info"): TextStringObject(profile.description),
            NameObject("/RegistryName"): TextStringObject(REGISTRY),
            NameObject("/DestOutputProfile"): writer._add_object(stream),
        }
    )
    writer._root_object[NameObject("/OutputIntents")] = ArrayObject([writer._add_object(intent)])
