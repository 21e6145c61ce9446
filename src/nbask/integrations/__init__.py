"""Each agent framework's own human-in-the-loop, answered in the cell: one module per framework,
each importing only its framework, loaded when first used (``nbask.integrations.langgraph``
works after a plain ``import nbask``).

- ``claude_agent_sdk``: ``can_use_tool`` for ``ClaudeAgentOptions(can_use_tool=...)``;
  ``can_use_tool_with(timeout=..., approvers=..., allow=..., deny=...)`` makes one with settings and rules.
- ``openai_agents``: ``run`` / ``run_sync`` / ``run_streamed(agent, input)`` answer every
  interruption; ``resolve(result)`` / ``resolve_sync`` answer one batch.
- ``pydantic_ai``: ``handle_deferred`` (or ``handle_deferred_with(timeout=..., approvers=..., external=...)``) for
  ``HandleDeferredToolCalls``; ``run`` / ``run_sync(agent, prompt)`` answer every pause's
  approvals; ``resolve(requests)`` / ``resolve_sync``.
- ``langgraph``: ``run`` / ``run_sync(graph, input, config)`` answer every interrupt;
  ``resolve`` / ``resolve_sync`` build the ``Command`` for one batch.
- ``google_adk``: ``run(runner, ...)`` answers confirmations and input requests between events;
  ``resolve(calls)`` / ``resolve_sync`` answer one pause's calls.
- ``agno``: ``run`` / ``run_sync(agent, input)`` answer every paused run's requirements;
  ``resolve(paused)`` / ``resolve_sync`` answer one pause.
- ``autogen``: ``input_func`` for ``UserProxyAgent``, ``approval_func`` for ``CodeExecutorAgent``
  (``input_func_with`` / ``approval_func_with`` take ``timeout=`` and ``approvers=``); ``run`` / ``run_sync(team,
  task)`` resume handoffs to the user.
- ``llama_index``: ``run`` / ``run_sync(workflow_or_handler)`` answer every
  ``InputRequiredEvent``; ``resolve(events)`` / ``resolve_sync`` build the responses for events
  streamed by the caller.
- ``semantic_kernel``: ``approval_filter`` (or ``approval_filter_with(timeout=..., tools=...)``)
  for ``kernel.add_filter``; ``human_response_function`` for the orchestrations.
- ``strands``: the ``Approvals()`` hook provider; ``run`` / ``run_sync(agent, prompt)`` answer a
  result's interrupts together; ``resolve`` / ``resolve_sync``; ``ask`` for ``HumanInTheLoop``.
- ``crewai``: flows' human feedback and ``Flow.ask``, ``Task(human_input=True)`` and tool calls.
- ``agent_framework``: ``run`` / ``run_sync(agent_or_workflow, input)`` answer function approvals
  and ``request_info``; ``middleware()`` carries edits; ``resolve`` / ``resolve_sync``.
- ``ag2``: ``hitl_hook`` (or ``hitl_hook_with(timeout=...)``) for ``Agent(hitl_hook=...)``;
  ``requires_approval(fn)`` and ``approval_required()`` gate tools; ``run`` / ``run_sync(agent,
  message)``.
- ``haystack``: ``confirmation_hook(tools=...)`` for ``Agent(hooks=...)``; ``AskInCell`` (a
  confirmation strategy) and ``CellConfirmationUI`` (a confirmation UI).
- ``smolagents``: ``approving(agent_tools, tools=...)`` gates the named tools;
  ``UserInputTool()`` answers ``user_input``; ``run(agent, task)``.
- ``acp``: ``prompt(command, text)`` / ``Session(command)`` start and prompt any Agent Client
  Protocol agent, its permission requests asked with its own options.
- ``a2a``: ``send`` / ``send_sync(client_or_url, text)`` talk to an A2A agent, answering each
  ``input-required`` turn; ``resolve`` / ``resolve_sync`` for a stream read by the caller.

They map the framework's pause onto nbask's questions, approvals and forms through one seam
(``_seam``), so history, ``answered_by`` and the headless policies apply unchanged. The
convention each module keeps:

- every entry point and callback factory takes ``timeout=`` and ``approvers=`` (who alone may
  answer what it asks; ``_seam.answerable_by``, which ``twins`` applies to a program's own);
- ``run(...)`` drives the framework's loop to its end, answering every pause;
- ``resolve(...)`` answers one batch of pending requests and returns what the framework resumes
  with; a framework's own callback keeps the framework's name for it;
- a sync twin (``run_sync``, ``resolve_sync``) is the same ``Asking`` driven blocking; an entry
  point that also runs the framework is one program that yields the framework's calls as
  ``Work`` between its requests, and ``_seam.twins`` makes both public functions from it;
- a framework's own callback keeps the framework's name; its options go to
  ``<callback>_with(timeout=..., tools=...)``; ``tools=`` names the tools asked about (tool
  objects read for their schemas are ``tool_definitions=``); ``resume_type=`` is what a plain
  prompt resumes with;
- no one to ask (no front end, the ``error`` policy, ``nbask.no_questions()``) is the
  framework's own refusal with nbask's reason, recorded in ``nbask.history()``; a replay miss
  raises ``nbask.ReplayMissing``; an unattended run that asks again what a policy decided stops
  with ``nbask.AskedAgain``; every exception is an ``nbask.NbaskError``;
- a framework of more than one file is a package (its helpers inside); what it reads of the
  framework's internals is in its ``_compat`` module, checked by a test.
"""

from __future__ import annotations

import importlib
from types import ModuleType

#: The framework modules, each loaded on first use (importing one imports its framework).
FRAMEWORKS = (
    "a2a",
    "acp",
    "ag2",
    "agent_framework",
    "agno",
    "autogen",
    "claude_agent_sdk",
    "crewai",
    "google_adk",
    "haystack",
    "langgraph",
    "llama_index",
    "openai_agents",
    "pydantic_ai",
    "semantic_kernel",
    "smolagents",
    "strands",
)

#: Each framework's public entry points by role, the convention above as a table (the docs'
#: frameworks index shows the same; ``tests/integrations/test_convention.py`` holds every module
#: to it):
#:
#: - ``run``: drives the framework's loop to its end, answering every pause (``<name>_sync``
#:   beside an awaited one); a framework whose own word for it is another keeps it (A2A ``send``,
#:   ACP ``prompt``);
#: - ``resolve``: answers one batch and returns what the framework resumes with;
#: - ``callbacks``: the framework's own callback (or hook class), ready made, under the
#:   framework's name; a callback's options go to ``<callback>_with(timeout=..., tools=...)``;
#: - ``gates``: puts named tools behind an approval (``tools=`` names them);
#: - ``own``: the framework's own words for what it does besides.
ROLES: dict[str, dict[str, tuple[str, ...]]] = {
    "a2a": {"run": ("send", "send_sync"), "resolve": ("resolve", "resolve_sync")},
    "acp": {"run": ("prompt",), "own": ("Session",)},
    "ag2": {
        "run": ("run", "run_sync"),
        "callbacks": ("hitl_hook",),
        "gates": ("requires_approval", "approval_required"),
    },
    "agent_framework": {"run": ("run", "run_sync"), "resolve": ("resolve", "resolve_sync"), "own": ("middleware",)},
    "agno": {"run": ("run", "run_sync"), "resolve": ("resolve", "resolve_sync")},
    "autogen": {"run": ("run", "run_sync"), "callbacks": ("input_func", "approval_func")},
    "claude_agent_sdk": {"callbacks": ("can_use_tool",), "own": ("query",)},
    "crewai": {"callbacks": ("FeedbackProvider", "InputProvider")},
    "google_adk": {"run": ("run",), "resolve": ("resolve", "resolve_sync")},
    "haystack": {"callbacks": ("AskInCell", "CellConfirmationUI"), "gates": ("confirmation_hook",)},
    "langgraph": {"run": ("run", "run_sync"), "resolve": ("resolve", "resolve_sync")},
    "llama_index": {"run": ("run", "run_sync"), "resolve": ("resolve", "resolve_sync"), "own": ("stream",)},
    "openai_agents": {"run": ("run", "run_sync", "run_streamed"), "resolve": ("resolve", "resolve_sync")},
    "pydantic_ai": {
        "run": ("run", "run_sync"),
        "resolve": ("resolve", "resolve_sync"),
        "callbacks": ("handle_deferred",),
    },
    "semantic_kernel": {"callbacks": ("approval_filter", "human_response_function")},
    "smolagents": {"callbacks": ("UserInputTool", "ApprovalGate"), "gates": ("approving",)},
    "strands": {
        "run": ("run", "run_sync"),
        "resolve": ("resolve", "resolve_sync"),
        "callbacks": ("Approvals",),
        "own": ("ask",),
    },
}

__all__ = ["FRAMEWORKS", "ROLES", *list(FRAMEWORKS)]  # noqa: PLE0604 - the names of FRAMEWORKS are strings


def __getattr__(name: str) -> ModuleType:
    if name in FRAMEWORKS:
        return importlib.import_module(f".{name}", __name__)
    msg = f"module {__name__!r} has no attribute {name!r}"
    raise AttributeError(msg)


def __dir__() -> list[str]:
    return sorted({*globals(), *FRAMEWORKS})
