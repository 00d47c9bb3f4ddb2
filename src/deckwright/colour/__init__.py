"""Colour for print shops: a CMYK ICC profile (`profile`) and the conversion of deckwright's
sRGB drawings into it (`convert`: raster images and vector PDFs, through littleCMS).

deckwright draws in sRGB (SVG, cairo). A press wants CMYK, made with the profile of its press
and paper, within its total ink limit; a service names that profile or hands out its own
(`--icc FILE`). Without one, deckwright builds a free default from the FOGRA39 characterisation
data (coated offset paper, ISO 12647-2) that Debian ships in icc-profiles-free, with ArgyllCMS.
"""
