"""Bytes on the wire per request: what a real ipykernel sends the page when nbask shows a
question, an approval, a form, and a batch of four approvals.

Run: ``python benchmarks/bench_wire.py`` (uses this environment's kernel). Each case runs in a
fresh kernel through jupyter_client; every ``comm_open`` and ``comm_msg`` the kernel publishes
while the cell shows its widgets is counted as the JSON of its ``content`` plus its buffers (the
websocket carries the whole message; its header, about 0.3 KB, is the same for every message
and left out). The cell shows its widgets and ends, without waiting for an answer.
"""

from __future__ import annotations

import json
import queue
import sys
from pathlib import Path

from jupyter_client.manager import start_new_kernel

STATIC = Path(__file__).resolve().parents[1] / "src" / "nbask" / "static"

SHOW = """
import nbask
from IPython.display import display
from nbask.core.lifecycle import Resolution
from nbask.kinds.form.request import form_request
from nbask.kinds.approval.request import ApprovalRequest
from nbask.models import Approval
"""

CASES = {
    "question": SHOW + "display(nbask.QuestionWidget(questions=[{'question': 'Which database?', 'header': 'DB', "
    "'options': [{'label': 'PostgreSQL', 'description': 'Server'}, {'label': 'SQLite', 'description': 'File'}]}]))",
    "approval": SHOW + "display(nbask.ApprovalWidget(action='Run shell command', details='rm -rf build/'))",
    "form": SHOW + "display(nbask.FormWidget(resolution=Resolution(form_request('Deploy settings', {'type': 'object', "
    "'properties': {'replicas': {'type': 'integer', 'minimum': 1, 'maximum': 10}, "
    "'region': {'type': 'string', 'enum': ['eu', 'us']}}}))))",
    "batch of 4": SHOW + "for i in range(4):\n"
    "    r = ApprovalRequest(approval=Approval(action=f'Drop table t{i}', details=f'DROP TABLE t{i}'))\n"
    "    r.batch_id = 'b1'\n"
    "    display(nbask.ApprovalWidget(resolution=Resolution(r)))",
}


def measure(code: str) -> dict[str, int]:
    """Run ``code`` in a fresh kernel; the bytes of its comm messages, and the models that carry the bundle."""
    manager, client = start_new_kernel(kernel_name="python3")
    try:
        msg_id = client.execute(code)
        sizes = {"comm_open": 0, "comm_msg": 0, "models": 0, "esm": 0, "css": 0}
        while True:
            try:
                msg = client.get_iopub_msg(timeout=60)
            except queue.Empty:
                sys.exit("the kernel went quiet before the cell ended")
            if msg["parent_header"].get("msg_id") != msg_id:
                continue
            kind = msg["msg_type"]
            if kind in ("comm_open", "comm_msg"):
                size = len(json.dumps(msg["content"], ensure_ascii=False).encode()) + sum(
                    len(b) for b in msg.get("buffers", [])
                )
                sizes[kind] += size
                state = msg["content"].get("data", {}).get("state", {})
                if kind == "comm_open" and "_esm" in state:
                    sizes["models"] += 1
                    sizes["esm"] += len(str(state["_esm"]).encode())
                    sizes["css"] += len(str(state.get("_css", "")).encode())
            if kind == "status" and msg["content"]["execution_state"] == "idle":
                return sizes
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def main() -> None:
    """Print the bundle's size and the table of bytes per request."""
    sizes = {path.name: path.stat().st_size for path in sorted(STATIC.glob("widget*"))}
    print("Bundle: " + ", ".join(f"{name} {size:,} bytes" for name, size in sizes.items()) + "\n")
    print("| request | nbask models | comm_open bytes | comm_msg bytes | total | of which ESM + CSS |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for name, code in CASES.items():
        s = measure(code)
        total = s["comm_open"] + s["comm_msg"]
        print(
            f"| {name} | {s['models']} | {s['comm_open']:,} | {s['comm_msg']:,} | {total:,} | {s['esm'] + s['css']:,} |"
        )


if __name__ == "__main__":
    main()
