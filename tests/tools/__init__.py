"""The agent-tool tests (nbask.tools): a package, so its conftest does not shadow another folder's."""
