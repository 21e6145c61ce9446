"""Semantic Kernel's names the README's Semantic Kernel lines use (``FilterTypes``,
``GroupChatManager``), and ``kernel``: SK's ``Kernel`` with the tests' offline scripted chat
service (tests/integrations/semantic_kernel_scripted.py) and a ``Files`` plugin; ``service``,
another such chat service for a page's example.

SK's own ``GroupChatManager`` is abstract: the one a caller constructs is a subclass of it, here
SK's ``RoundRobinGroupChatManager`` asking for the person's input after every agent's message.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

from semantic_kernel import Kernel
from semantic_kernel.agents import RoundRobinGroupChatManager
from semantic_kernel.agents.orchestration.group_chat import BooleanResult
from semantic_kernel.contents import ChatHistory
from semantic_kernel.filters import FilterTypes
from semantic_kernel.functions import kernel_function

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "integrations"))
from semantic_kernel_scripted import ScriptedChat

__all__ = ["FilterTypes", "GroupChatManager", "kernel", "service"]


class Files:
    """An SK plugin; ``deleted`` keeps what it really deleted."""

    def __init__(self) -> None:
        self.deleted: list[str] = []

    @kernel_function(description="Delete a file.")
    def delete_file(self, path: Annotated[str, "The file to delete."]) -> str:
        self.deleted.append(path)
        return f"deleted {path}"


class GroupChatManager(RoundRobinGroupChatManager):
    """The caller's manager: SK's round robin, asking the person after every agent's message."""

    async def should_request_user_input(self, chat_history: ChatHistory) -> BooleanResult:
        return BooleanResult(result=bool(chat_history.messages), reason="The person reads every answer.")


kernel = Kernel(services=[ScriptedChat([("Files-delete_file", {"path": "a.txt"})], "done")])
kernel.add_plugin(Files(), plugin_name="Files")

#: The page's example's chat service: calls Files-delete_file once, then answers.
service = ScriptedChat([("Files-delete_file", {"path": "a.txt"})], "done")
