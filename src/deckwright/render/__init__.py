"""Rendering: shipped fonts, text layout, SVG templates, rasterising."""
