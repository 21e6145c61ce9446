"""A small MCP server for notebooks/03_mcp.ipynb: its `deploy` tool asks the person, through the
client's elicitation, how to deploy a service, and reports what it would do.

Run by the notebook over stdio (`python deploy_server.py`); written with the MCP SDK's MCPServer.
"""

from __future__ import annotations

from typing import Annotated, Literal

from mcp.server.mcpserver import Elicit, ElicitationResult, MCPServer, Resolve
from pydantic import BaseModel, Field

server = MCPServer("deploy")


class Settings(BaseModel):
    """What the server needs to know before it deploys."""

    replicas: int = Field(default=2, ge=1, le=20, title="Replicas", description="How many instances to run.")
    region: Literal["eu-west", "us-east"] = Field(default="eu-west", title="Region")
    canary: bool = Field(default=True, title="Canary first", description="Send 5% of traffic to it first.")
    notify: str = Field(default="ops@example.com", title="Notify", json_schema_extra={"format": "email"})


def ask_settings(service: str) -> Elicit[Settings]:
    """The form the person fills in before anything is deployed."""
    return Elicit(f"How should {service} be deployed?", Settings)


@server.tool()
def deploy(service: str, settings: Annotated[ElicitationResult[Settings], Resolve(ask_settings)]) -> str:
    """Deploy a service, after asking how."""
    if settings.action != "accept":
        return f"Nothing deployed: the person chose {settings.action!r}."
    s = settings.data
    first = "a canary, then " if s.canary else ""
    return f"Deploying {service}: {first}{s.replicas} replicas in {s.region}; {s.notify} will be told."


if __name__ == "__main__":
    server.run("stdio")
