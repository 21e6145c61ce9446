"""Check the built wheel as a new user gets it: it ships the front end, the wire contract and
``py.typed``, and, installed alone in a fresh virtual environment (only its declared
dependencies, so no Jupyter, no ipykernel, no pyzmq), ``import nbask`` works and a headless
ask, an approval and a tool call are answered there under a policy.

    python scripts/check_wheel.py WHEEL_DIR

Prints one line saying what was checked; exits non-zero with the reason otherwise.
"""

from __future__ import annotations

import json
import pathlib
import subprocess
import sys
import tempfile
import textwrap
import venv
import zipfile

REQUIRED = {
    "nbask/static/widget-question.js",  # each kind's widget module (nbask.widget.bundle)
    "nbask/static/widget-approval.js",
    "nbask/static/widget-form.js",
    "nbask/static/widget.css",
    "nbask/static/inbox.js",  # the server's inbox page (nbask.server_extension.inbox_page)
    "nbask/static/inbox.css",
    "nbask/contract.json",
    "nbask/py.typed",
}
#: Installed into share/jupyter/labextensions: the launcher item that opens the inbox page.
LAB_EXTENSION = "/data/share/jupyter/labextensions/nbask/static/remoteEntry.js"

SCRIPT = textwrap.dedent(
    """
    import importlib.util, json, sys
    missing_kernel = [m for m in ("zmq", "ipykernel", "jupyter_client") if importlib.util.find_spec(m) is None]
    import nbask
    nbask.configure(policy="recommended")
    answer = nbask.ask_sync("Which database?", ["SQLite", "Postgres (Recommended)"])
    decision = nbask.approve_sync("Drop table", "users")
    form = nbask.ask_form_sync("Settings?", {"type": "object", "required": ["n"],
                               "properties": {"n": {"type": "integer", "default": 3}}})
    arguments = {"questions": [{"question": "Go on?", "header": "Go",
                 "options": [{"label": "Yes (Recommended)"}, {"label": "No"}], "multiSelect": False}]}
    result = nbask.tools.call_sync(json.dumps(arguments))
    definition = nbask.tools.definition(format="anthropic")
    print(json.dumps({
        "not installed": missing_kernel,
        "answer": answer.answers,
        "decision": decision.decision,
        "form": form.values,
        "tool error": result.is_error,
        "tool output": result.output,
        "tool name": definition["name"],
    }))
    """
)


def main() -> None:
    """Check the wheel in sys.argv[1]; exit with the reason when a check fails."""
    wheel = next(pathlib.Path(sys.argv[1]).glob("nbask-*.whl"), None)
    if wheel is None:
        sys.exit(f"no nbask wheel in {sys.argv[1]}")
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = REQUIRED - names
    if missing:
        sys.exit(f"{wheel.name} lacks {sorted(missing)}")
    if not any(name.endswith(LAB_EXTENSION) for name in names):
        sys.exit(f"{wheel.name} lacks the JupyterLab extension ({LAB_EXTENSION} in its data)")
    with tempfile.TemporaryDirectory(prefix="nbask-wheel-") as folder:
        env = pathlib.Path(folder) / "venv"
        venv.create(env, with_pip=True)
        python = str(env / "bin" / "python")
        install = subprocess.run(  # noqa: S603 - fixed arguments
            [python, "-m", "pip", "install", "-q", "--disable-pip-version-check", str(wheel)],
            capture_output=True,
            text=True,
            check=False,
        )
        if install.returncode:
            sys.exit(f"pip install {wheel.name} into a fresh venv failed:\n{install.stderr[-2000:]}")
        run = subprocess.run(  # noqa: S603 - fixed arguments
            [python, "-c", SCRIPT], capture_output=True, text=True, check=False, cwd=folder
        )
        if run.returncode:
            sys.exit(f"in a fresh venv with only {wheel.name} and its dependencies:\n{run.stderr[-3000:]}")
        seen = json.loads(run.stdout)
        if seen["not installed"] != ["zmq", "ipykernel", "jupyter_client"]:
            sys.exit(f"the declared dependencies now bring kernel packages, so this proves nothing: {seen}")
        if (
            seen["answer"] != {"Which database?": "Postgres (Recommended)"}
            or seen["decision"] != "reject"
            or seen["form"] != {"n": 3}
        ):
            sys.exit(f"unexpected headless outcome: {seen}")
        if seen["tool error"] or "Yes (Recommended)" not in seen["tool output"]:
            sys.exit(f"unexpected tool result: {seen}")
    print(
        f"{wheel.name}: ships the bundle, contract.json and py.typed; alone in a fresh venv "
        "(no pyzmq, no ipykernel) it asks, approves, fills a form and answers a tool call headless"
    )


if __name__ == "__main__":
    main()
