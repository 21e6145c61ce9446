"""pydantic-ai's names the README's one line uses."""

from pydantic_ai import Agent
from pydantic_ai.capabilities import HandleDeferredToolCalls

__all__ = ["Agent", "HandleDeferredToolCalls"]
