"""Typed forms: a flat JSON Schema in MCP's form subset, or a flat pydantic model, read into
fields (``schema``), and a reply's values checked against them (``fields``).
"""

from __future__ import annotations

from ..errors import FormSchemaError
from .fields import FieldOption, Form, FormField, check_value, check_values, defaults_of
from .schema import read_schema

__all__ = [
    "FieldOption",
    "Form",
    "FormField",
    "FormSchemaError",
    "check_value",
    "check_values",
    "defaults_of",
    "read_schema",
]
