"""The words every integration shows the person or sends the model, said once.

A framework that needs a variant says why beside it; everything else reads these, so the same
situation reads the same in every framework.
"""

from __future__ import annotations

from typing import Final

__all__ = ["ALWAYS", "INTERRUPTED", "INTERRUPTED_TOOL", "JUST_ONCE", "REMEMBER", "REPLY"]

#: Why a run stopped on a kernel interrupt while nbask waited for the person.
INTERRUPTED: Final = "The person interrupted the run while nbask was waiting for them; the run stops here."
#: The same, where the framework sends it to the model as a tool's result (the tool did not run).
INTERRUPTED_TOOL: Final = (
    "The person interrupted the run while this was waiting for them: the tool did not run. Stop here."
)
#: The reply form's one field (a framework's free reply to an agent).
REPLY: Final = "reply"
#: The first option of the question that follows a second decision on the same tool: this call only.
JUST_ONCE: Final = "Just this once (Recommended)"
#: The option that keeps the decision for the rest of the run (the framework's own scope).
ALWAYS: Final = "Always in this run"
#: The option that turns the framework's suggested permission rules on (Claude Code's).
REMEMBER: Final = "Don't ask again"
