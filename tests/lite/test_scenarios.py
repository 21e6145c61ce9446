"""The shared scenarios (tests/scenarios/basic.py) in JupyterLite, on the module's one Pyodide
kernel (JupyterLite's kernel is not interrupted from the page: that scenario is not here).
"""

from __future__ import annotations

import pytest
from hosts import LiteHost
from scenarios.basic import (
    test_approve_round_trip,
    test_every_field_type_filled_by_role_reaches_the_kernel_typed,
    test_reject_with_reason_round_trip,
    test_single_select_submit_prints_answer,
)

from .lite_page import LitePage

pytestmark = [pytest.mark.lite, pytest.mark.browser]

#: The shared scenarios this suite runs (imported, so pytest collects them here).
__all__ = [
    "test_approve_round_trip",
    "test_every_field_type_filled_by_role_reaches_the_kernel_typed",
    "test_reject_with_reason_round_trip",
    "test_single_select_submit_prints_answer",
]


@pytest.fixture
def host(lite: LitePage) -> LiteHost:
    return LiteHost(lite)


def test_no_request_left_the_machine(lite: LitePage):
    assert lite.offsite == []
