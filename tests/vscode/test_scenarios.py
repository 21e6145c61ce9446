"""The shared scenarios (tests/scenarios/basic.py) in the VS Code host, on every ipykernel."""

from __future__ import annotations

import pytest
from hosts import VSCodeWidgetHost
from scenarios.basic import (
    test_approve_round_trip,
    test_every_field_type_filled_by_role_reaches_the_kernel_typed,
    test_interrupt_cancels_and_the_next_cell_runs,
    test_reject_with_reason_round_trip,
    test_single_select_submit_prints_answer,
)

from .conftest import ALL_KERNELS

pytestmark = pytest.mark.vscode

#: The shared scenarios this suite runs (imported, so pytest collects them here).
__all__ = [
    "test_approve_round_trip",
    "test_every_field_type_filled_by_role_reaches_the_kernel_typed",
    "test_interrupt_cancels_and_the_next_cell_runs",
    "test_reject_with_reason_round_trip",
    "test_single_select_submit_prints_answer",
]


@pytest.fixture(params=ALL_KERNELS)
def kernel_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def host(open_host) -> VSCodeWidgetHost:
    return VSCodeWidgetHost(open_host)
