"""Execute every notebook in notebooks/ headless, under an nbask policy, with nbclient.

    python scripts/run_notebooks.py                      # policy "recommended"
    python scripts/run_notebooks.py --policy replay --replay-file answers.jsonl
    python scripts/run_notebooks.py --out test-artifacts/notebooks notebooks/01_quickstart.ipynb

Each notebook runs in a fresh kernel with NBASK_POLICY (and NBASK_REPLAY_FILE) set, so every
nbask question is answered by the policy instead of waiting for a person. The executed copies
are written to --out (default test-artifacts/notebooks). One line per notebook, then a total;
the exit status is 1 if any notebook failed.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import sys
import time

import nbformat
from jupyter_client.kernelspec import NoSuchKernel
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError

REPO = pathlib.Path(__file__).resolve().parents[1]
POLICIES = ("interactive", "recommended", "replay", "dismiss", "error")


def main(argv: list[str] | None = None) -> int:
    """Run the notebooks; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notebooks", nargs="*", type=pathlib.Path, help="default: notebooks/*.ipynb")
    parser.add_argument("--policy", default="recommended", choices=POLICIES)
    parser.add_argument("--replay-file", type=pathlib.Path, help="the recording for --policy replay")
    parser.add_argument("--kernel", default=None, help="kernel name (default: each notebook's own)")
    parser.add_argument("--timeout", type=int, default=120, help="seconds per cell (default 120)")
    parser.add_argument("--out", type=pathlib.Path, default=REPO / "test-artifacts" / "notebooks")
    args = parser.parse_args(argv)
    if args.policy == "replay" and args.replay_file is None:
        parser.error("--policy replay needs --replay-file")

    notebooks = args.notebooks or sorted((REPO / "notebooks").glob("*.ipynb"))
    if not notebooks:
        print("run_notebooks: no notebooks found")
        return 1
    # The kernel inherits this process's environment: that is how the policy reaches it.
    os.environ["NBASK_POLICY"] = args.policy
    if args.replay_file is not None:
        os.environ["NBASK_REPLAY_FILE"] = str(args.replay_file.resolve())
    args.out.mkdir(parents=True, exist_ok=True)

    failed = 0
    # A notebook whose frameworks cannot share .venv (CrewAI, Semantic Kernel, Strands) names the
    # kernel of their own environment in its metadata ("nbask": {"kernel": ...}); its kernelspec is
    # made by scripts/make_kernel_envs.sh into .venvs/jupyter-data.
    os.environ["JUPYTER_PATH"] = os.pathsep.join(
        p for p in (str(REPO / ".venvs" / "jupyter-data"), os.environ.get("JUPYTER_PATH", "")) if p
    )
    for path in notebooks:
        nb = nbformat.read(path, as_version=4)
        kernel = args.kernel or nb.metadata.get("nbask", {}).get("kernel")
        extra = {"kernel_name": kernel} if kernel else {}
        client = NotebookClient(nb, timeout=args.timeout, resources={"metadata": {"path": str(path.parent)}}, **extra)
        start = time.monotonic()
        try:
            client.execute()
            verdict = "ok"
        except NoSuchKernel:
            failed += 1
            verdict = f"FAILED: no kernel {kernel!r} (bash scripts/make_kernel_envs.sh .venvs/jupyter-data makes it)"
        except (CellExecutionError, CellTimeoutError, DeadKernelError) as error:
            failed += 1
            last = str(error).strip().splitlines()[-1] if str(error).strip() else type(error).__name__
            verdict = f"FAILED: {last}"
        nbformat.write(nb, args.out / path.name)
        summaries = sum(
            "text/markdown" in output.get("data", {}) and "nbask" in output.get("metadata", {})
            for cell in nb.cells
            for output in cell.get("outputs", [])
        )
        print(f"{path.name}: {verdict} ({time.monotonic() - start:.1f}s, {summaries} nbask outcomes recorded)")
    print(f"run_notebooks: {len(notebooks) - failed} of {len(notebooks)} notebooks ran under policy {args.policy!r}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
