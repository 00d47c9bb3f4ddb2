"""`layouts/`: the project's catalogue of products — layouts, papers and print services — read
once, in the load phase, before any game is built."""

from __future__ import annotations

from pathlib import Path

from ..diagnostics import Diagnostics
from ..model import Catalog, frozen_map
from .catalog_files import catalog_documents
from .layouts import read_layouts
from .papers import read_papers
from .services import read_services


def read_catalog(folder: Path, diags: Diagnostics, display) -> Catalog:
    documents = list(catalog_documents(folder, diags, display))
    layouts = read_layouts(documents, diags)
    papers = read_papers(documents, diags)
    services = read_services(documents, layouts, diags)
    return Catalog(frozen_map(layouts), frozen_map(papers), frozen_map(services))
