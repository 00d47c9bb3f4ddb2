"""Preflight: what a print shop's checks would say about a PDF, page by page.

`preflight(data, rules)` reads the PDF (pypdf) and reports, with page numbers:
- the colour spaces each page uses (an error where the rules want CMYK and a page uses RGB);
- total ink coverage above the rules' limit (pages rendered in CMYK by Ghostscript);
- missing bleed (no TrimBox/BleedBox, or less bleed than the rules ask for);
- fonts not embedded;
- the page boxes;
- images whose effective resolution, as placed, is below 300 ppi.
`deckwright preflight FILE.pdf [--service NAME]` prints the report; every press PDF a build
makes is checked the same way.
"""

from .checks import Finding, Report, Rules, preflight

__all__ = ["Finding", "Report", "Rules", "preflight"]
