"""The shared scenarios (tests/scenarios/basic.py) in JupyterLab and in Jupyter Notebook 7."""

from __future__ import annotations

import pytest
from hosts import JupyterHost
from scenarios.basic import (
    test_approve_round_trip,
    test_every_field_type_filled_by_role_reaches_the_kernel_typed,
    test_interrupt_cancels_and_the_next_cell_runs,
    test_reject_with_reason_round_trip,
    test_single_select_submit_prints_answer,
)

pytestmark = pytest.mark.browser

#: The shared scenarios this suite runs (imported, so pytest collects them here).
__all__ = [
    "test_approve_round_trip",
    "test_every_field_type_filled_by_role_reaches_the_kernel_typed",
    "test_interrupt_cancels_and_the_next_cell_runs",
    "test_reject_with_reason_round_trip",
    "test_single_select_submit_prints_answer",
]


@pytest.fixture
def host(open_notebook, frontend: str) -> JupyterHost:
    return JupyterHost(open_notebook, frontend)
