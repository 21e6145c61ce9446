"""Scenarios written once and run on every host where they apply (see hosts.py). Each suite
collects them through a thin module of its own (browser/test_scenarios.py,
vscode/test_scenarios.py, lite/test_scenarios.py) whose `host` fixture is that suite's adapter.

SCHEMA is the typed form every front end's form tests fill: one field of each kind.
"""

from __future__ import annotations

from typing import Any

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "title": "Service name", "minLength": 2, "default": "web"},
        "owner": {"type": "string", "title": "Owner", "format": "email", "description": "Who gets paged."},
        "docs": {"type": "string", "title": "Docs page", "format": "uri"},
        "day": {"type": "string", "title": "Day", "format": "date"},
        "at": {"type": "string", "title": "Window opens", "format": "date-time"},
        "replicas": {"type": "integer", "title": "Replicas", "minimum": 1, "maximum": 10, "default": 2},
        "ratio": {"type": "number", "title": "Traffic share", "minimum": 0, "maximum": 1},
        "canary": {"type": "boolean", "title": "Canary first", "default": True},
        "region": {"type": "string", "title": "Region", "enum": ["eu", "us"], "enumNames": ["Europe", "America"]},
        "tier": {
            "type": "string",
            "title": "Tier",
            "oneOf": [{"const": "s", "title": "Small"}, {"const": "l", "title": "Large"}],
        },
        "checks": {
            "type": "array",
            "title": "Checks",
            "items": {"anyOf": [{"const": "lint", "title": "Lint"}, {"const": "unit", "title": "Unit tests"}]},
            "default": ["unit"],
        },
    },
    "required": ["name", "replicas", "region"],
}
#: What a form cell prints for the test to read the kernel's typed values.
PRINT_FORM = (
    'print("FORM " + json.dumps({"status": f.status, "action": f.action, "values": f.values, '
    '"types": {k: type(v).__name__ for k, v in f.values.items()}, "by": f.answered_by}, sort_keys=True), flush=True)'
)
