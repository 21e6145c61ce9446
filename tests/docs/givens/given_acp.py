"""``command`` for the README's Agent Client Protocol lines: the command line of the tests' scripted
ACP agent (tests/integrations/acp_scripted_agent.py, written with the ACP SDK's own agent side and
run over stdio by nbask, offline), which streams a thought, a plan and its message, then asks
permission for an edit with four options; what it received goes to a log file of its own.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

__all__ = ["command"]

_AGENT = Path(__file__).resolve().parents[2] / "integrations" / "acp_scripted_agent.py"
_LOG = Path(tempfile.mkdtemp()) / "acp.log"

#: The agent's command line, as ``["my-agent", "--acp"]`` is in the README's prose.
command = [sys.executable, str(_AGENT), "--log", str(_LOG)]
