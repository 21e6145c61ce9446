"""The sentences every tool description is made of: when to ask, when not to, how to offer
options, and what a dismiss or a timeout means. Each dialect puts them in its own terms.
"""

from __future__ import annotations

from typing import Final

from ...contract import NO_PREFERENCE

WHEN: Final = (
    "Use it only when the answer changes what you do next: a decision between real alternatives (an "
    "approach, a trade-off, the scope, a costly or risky step) or a fact only the person knows. Do not ask "
    "for what you can infer from the request and the context or find out yourself (read the data, files, "
    "docs or code), and do not ask for a simple go-ahead or to confirm what you were already told."
)
BATCH: Final = "Ask related questions together in one call (1-4 questions) instead of one after another."
NO_OTHER: Final = "Do not add an 'Other' option: the person can always type their own answer."
RECOMMENDED: Final = "If you recommend an option, put it first and end its label with '(Recommended)'."
OPTIONS: Final = (
    "Give each question 2-4 short, distinct options (1-5 words each) with a description of what the choice "
    f"implies. {NO_OTHER} {RECOMMENDED}"
)
MULTI: Final = (
    f"Several choices of a multi-select question are joined with ', '; '{NO_PREFERENCE}' means the person "
    "left that question empty."
)
SILENCE: Final = (
    "If the person dismisses the question or no one answers in time, there is no answer, and that is not "
    "consent: do not assume one; continue only with what you know and say what you assumed, or stop. If the "
    "result says no one can answer here, do not call this tool again in this run."
)
