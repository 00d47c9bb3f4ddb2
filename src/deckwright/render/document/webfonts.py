"""Web fonts for a single-file HTML page: a shipped face subset to the page's characters, as a
WOFF2 data: URL.

HarfBuzz's subsetter (libharfbuzz-subset, the one WeasyPrint uses for the PDF's fonts) makes the
subset in 1-4 ms a face; fontTools' subsetter took 0.1-0.5 s, most of it decoding GSUB/GPOS in
Python. fontTools then only wraps the subset as WOFF2 (brotli). On a machine without
libharfbuzz-subset, fontTools subsets as before: the same characters, other bytes.
"""

from __future__ import annotations

import base64
import ctypes.util
import functools
import io
from pathlib import Path

_CDEF = """
typedef struct hb_blob_t hb_blob_t;
typedef struct hb_face_t hb_face_t;
typedef struct hb_set_t hb_set_t;
typedef struct hb_subset_input_t hb_subset_input_t;
typedef uint32_t hb_codepoint_t;
hb_blob_t *hb_blob_create_from_file_or_fail (const char *file_name);
void hb_blob_destroy (hb_blob_t *blob);
const char *hb_blob_get_data (hb_blob_t *blob, unsigned int *length);
hb_face_t *hb_face_create (hb_blob_t *blob, unsigned int index);
void hb_face_destroy (hb_face_t *face);
hb_blob_t *hb_face_reference_blob (hb_face_t *face);
void hb_set_add_sorted_array (hb_set_t *set, const hb_codepoint_t *codepoints, unsigned int count);
hb_subset_input_t *hb_subset_input_create_or_fail (void);
void hb_subset_input_destroy (hb_subset_input_t *input);
hb_set_t *hb_subset_input_unicode_set (hb_subset_input_t *input);
void hb_subset_input_set_flags (hb_subset_input_t *input, unsigned int value);
hb_face_t *hb_subset_or_fail (hb_face_t *source, const hb_subset_input_t *input);
"""
HB_SUBSET_FLAGS_NO_HINTING = 0x01
HB_SUBSET_FLAGS_NOTDEF_OUTLINE = 0x40
ALWAYS = range(0x20, 0x7F)  # printable ASCII, whatever the page holds


def woff2_data_url(path: Path, text: str) -> str:
    """The face subset to the characters of `text`, as a WOFF2 data: URL (deterministic)."""
    unicodes = sorted({ord(c) for c in text}.union(ALWAYS))
    sfnt = _harfbuzz_subset(path, unicodes)
    data = _woff2(sfnt) if sfnt is not None else _fonttools_woff2(path, unicodes)
    return "data:font/woff2;base64," + base64.b64encode(data).decode("ascii")


@functools.cache
def _harfbuzz():
    """(ffi, libharfbuzz, libharfbuzz-subset), or None where libharfbuzz-subset is missing."""
    from cffi import FFI

    ffi = FFI()
    ffi.cdef(_CDEF)

    def load(name: str):
        for candidate in (f"lib{name}.so.0", f"lib{name}.0.dylib", ctypes.util.find_library(name)):
            try:
                return ffi.dlopen(candidate) if candidate else None
            except OSError:
                continue
        return None

    hb, subset = load("harfbuzz"), load("harfbuzz-subset")
    return None if hb is None or subset is None else (ffi, hb, subset)


def _harfbuzz_subset(path: Path, unicodes: list[int]) -> bytes | None:
    """The face's glyphs for `unicodes` (and what GSUB reaches from them) as an OpenType font,
    without hinting; None when HarfBuzz is missing or cannot subset the file."""
    libs = _harfbuzz()
    if libs is None:
        return None
    ffi, hb, hbs = libs
    blob = hb.hb_blob_create_from_file_or_fail(str(path).encode())
    if blob == ffi.NULL:
        return None
    blob = ffi.gc(blob, hb.hb_blob_destroy)
    face = ffi.gc(hb.hb_face_create(blob, 0), hb.hb_face_destroy)
    request = ffi.gc(hbs.hb_subset_input_create_or_fail(), hbs.hb_subset_input_destroy)
    codes = ffi.new("hb_codepoint_t[]", unicodes)
    hb.hb_set_add_sorted_array(hbs.hb_subset_input_unicode_set(request), codes, len(unicodes))
    hbs.hb_subset_input_set_flags(request, HB_SUBSET_FLAGS_NO_HINTING | HB_SUBSET_FLAGS_NOTDEF_OUTLINE)
    subset = hbs.hb_subset_or_fail(face, request)
    if subset == ffi.NULL:
        return None
    subset = ffi.gc(subset, hb.hb_face_destroy)
    out = ffi.gc(hb.hb_face_reference_blob(subset), hb.hb_blob_destroy)
    length = ffi.new("unsigned int *")
    data = hb.hb_blob_get_data(out, length)
    return bytes(ffi.buffer(data, length[0])) if length[0] else None


def _woff2(sfnt: bytes) -> bytes:
    """An OpenType font as WOFF2, its tables as they are (nothing recomputed: deterministic)."""
    from fontTools.ttLib import TTFont

    font = TTFont(io.BytesIO(sfnt), recalcTimestamp=False, recalcBBoxes=False)
    font.flavor = "woff2"
    buffer = io.BytesIO()
    font.save(buffer, reorderTables=False)
    return buffer.getvalue()


def _fonttools_woff2(path: Path, unicodes: list[int]) -> bytes:
    from fontTools import subset
    from fontTools.ttLib import TTFont

    options = subset.Options()
    options.flavor = "woff2"
    options.notdef_outline = True
    options.hinting = False
    options.drop_tables += ["FFTM"]
    font = TTFont(str(path), recalcTimestamp=False)
    subsetter = subset.Subsetter(options)
    subsetter.populate(unicodes=unicodes)
    subsetter.subset(font)
    buffer = io.BytesIO()
    subset.save_font(font, buffer, options)
    return buffer.getvalue()
