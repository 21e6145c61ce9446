"""Each agent framework's own human-in-the-loop, answered in the cell: one module per framework,
each importing only its framework, loaded when first used.

- ``claude_agent_sdk``: ``can_use_tool`` for ``ClaudeAgentOptions(can_use_tool=...)``.
- ``openai_agents``: ``run(agent, input)`` answers every interruption; ``resolve(result)``.
- ``pydantic_ai``: ``handle_deferred`` for ``HandleDeferredToolCalls``; ``resolve(requests)``.
- ``langgraph``: ``run`` / ``run_sync(graph, input, config)`` answer every interrupt; ``resume``.
- ``google_adk``: ``run(runner, ...)`` answers confirmations and input requests between events.

They map the framework's pause onto nbask's questions, approvals and forms (``nbask.api``), so
history, ``answered_by`` and the headless policies apply unchanged.
"""

from __future__ import annotations
