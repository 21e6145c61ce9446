"""The shared scenarios of how a person meets the widget (tests/scenarios/keys.py, words.py,
layout.py) in JupyterLab and in Jupyter Notebook 7.
"""

from __future__ import annotations

import pytest
from hosts import JupyterHost
from scenarios.keys import (
    test_enter_enter_on_an_untouched_question_sends_nothing,
    test_escape_or_dismiss_with_a_choice_asks_once_then_keeps_it,
    test_one_escape_on_an_untouched_approval_dismisses_it_never_rejects,
    test_one_escape_on_an_untouched_question_dismisses_it,
)
from scenarios.layout import test_a_350px_column_keeps_submit_and_dismiss_on_one_row
from scenarios.words import (
    test_a_declined_form_in_the_persons_words,
    test_a_dismissed_question_in_the_persons_words,
    test_a_rejection_with_a_reason_in_the_persons_words,
    test_a_timed_out_question_in_the_persons_words,
    test_an_answer_shows_the_label_and_the_keys_hint_matches_the_form,
    test_an_edited_approval_says_so_and_shows_the_changed_lines,
    test_an_interrupted_question_in_the_persons_words,
)

pytestmark = pytest.mark.browser

#: The shared scenarios this module runs (imported, so pytest collects them here).
__all__ = [
    "test_a_350px_column_keeps_submit_and_dismiss_on_one_row",
    "test_a_declined_form_in_the_persons_words",
    "test_a_dismissed_question_in_the_persons_words",
    "test_a_rejection_with_a_reason_in_the_persons_words",
    "test_a_timed_out_question_in_the_persons_words",
    "test_an_answer_shows_the_label_and_the_keys_hint_matches_the_form",
    "test_an_edited_approval_says_so_and_shows_the_changed_lines",
    "test_an_interrupted_question_in_the_persons_words",
    "test_enter_enter_on_an_untouched_question_sends_nothing",
    "test_escape_or_dismiss_with_a_choice_asks_once_then_keeps_it",
    "test_one_escape_on_an_untouched_approval_dismisses_it_never_rejects",
    "test_one_escape_on_an_untouched_question_dismisses_it",
]


@pytest.fixture
def host(open_notebook, frontend: str) -> JupyterHost:
    return JupyterHost(open_notebook, frontend)
