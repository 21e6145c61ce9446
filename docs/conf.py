"""Sphinx configuration of nbask's documentation site (built by scripts/docs.sh).

Pages are MyST Markdown; the example notebooks come in already executed (scripts/docs.sh runs
them headless under the ``recommended`` policy first), so the build itself executes nothing.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent / "src"))

project = "nbask"
author = "the nbask authors"
copyright = "2026, the nbask authors"  # noqa: A001 - Sphinx's own name for it

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "public_names",
]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "_ext", "examples/_executed/.ipynb_checkpoints"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# The notebooks are executed before the build (scripts/docs.sh), with their outputs kept.
nb_execution_mode = "off"
nb_output_stderr = "remove"
suppress_warnings = ["myst.header"]

autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_pydantic_model_show_json = False
# pydantic models document their fields from the class; their many inherited members would not help.
autodoc_inherit_docstrings = False

html_theme = "pydata_sphinx_theme"
html_title = "nbask"
html_static_path = ["_static"]
html_css_files = ["nbask-docs.css"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": ["page-toc"],
    "footer_start": ["copyright"],
    "footer_end": [],
    # The theme's search button names itself "Search" beside a visible shortcut hint, which axe
    # reports (label-content-name-mismatch): the search box sits in the sidebar instead.
    "navbar_persistent": [],
}
html_sidebars = {"**": ["search-field", "sidebar-nav-bs"]}
html_show_sourcelink = False

# The integrations import their frameworks; imported here, before the build starts, they load
# as they do in a notebook (one framework, agno, fails to build its pydantic models when first
# imported in the middle of autodoc's run). One not installed is documented from its source.
for _framework in __import__("nbask.integrations").integrations.FRAMEWORKS:
    with contextlib.suppress(ImportError):
        importlib.import_module(f"nbask.integrations.{_framework}")

# Nitpicky (-n): a reference to nbask's public API that does not resolve fails the build. Type
# hints also name third-party classes (pydantic, the frameworks, the standard library) and nbask's
# internal bases, which this site does not document: those are let through.
nitpick_ignore_regex = [
    (r"py:.*", r"(?!nbask\.).*"),
    (r"py:.*", r"nbask\.(models|widget|config|approvals|tools\.function|responses|core|kinds|forms)\..*"),
    # The integrations' private modules (the seam, helpers), flat or inside a framework's package.
    (r"py:.*", r"nbask\.integrations\.(\w+\.)?_.*"),
    (r"py:.*", r"nbask\.integrations\.ag2\.ApprovalRequired"),  # the type approval_required() returns
]
