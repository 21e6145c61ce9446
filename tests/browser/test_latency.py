"""Latency from the Submit click to the cell's printed result, over 20 answers.

Measured inside the page: a MutationObserver on the cell's output area notes the time the
printed line appears, relative to the click. Printed (run pytest with -s to see it), and
only checked against a loose sanity bound: this is a measurement, not a benchmark gate.
"""

from __future__ import annotations

import statistics

import pytest

from .ask_widget import AskWidget

pytestmark = pytest.mark.browser

ROUNDS = 20
SANITY_BOUND_MS = 2000

MEASURE = """async ([root, marker]) => {
  const area = root.closest('.jp-OutputArea');
  const submit = [...root.querySelectorAll('button')].find(b => b.textContent.trim() === 'Submit');
  const seen = () => area.innerText.includes(marker);
  return await new Promise((resolve, reject) => {
    let t0 = 0;
    const observer = new MutationObserver(() => {
      if (seen()) { observer.disconnect(); resolve(performance.now() - t0); }
    });
    observer.observe(area, { childList: true, subtree: true, characterData: true });
    setTimeout(() => { observer.disconnect(); reject(new Error('no ' + marker + ' within 10 s')); }, 10000);
    t0 = performance.now();
    submit.click();
  });
}"""


def test_submit_to_printed_result_latency(open_notebook, frontend):
    nb = open_notebook(
        [
            "import nbask",
            f"for i in range({ROUNDS}):\n"
            "    ans = await nbask.ask(f'Round {i}: which one?', ['Left', 'Right'], timeout=None)\n"
            "    print(f'GOT {i} ' + ans.answers[f'Round {i}: which one?'], flush=True)",
            "print('after')",
        ]
    )
    nb.run_cell(0)
    nb.run_cell(1, wait=False)
    timings: list[float] = []
    for i in range(ROUNDS):
        ask = AskWidget.in_cell(nb, 1, i)
        ask.expect_pending()
        ask.choose(f"Round {i}: which one?", "Right")
        elapsed = nb.page.evaluate(MEASURE, [ask.root.element_handle(), f"GOT {i} Right"])
        timings.append(float(elapsed))
        ask.expect_status("answered")
    nb.wait_done(1)

    median, worst = statistics.median(timings), max(timings)
    print(
        f"\n[{frontend}] Submit click -> printed result, {ROUNDS} answers: "
        f"median {median:.1f} ms, max {worst:.1f} ms, min {min(timings):.1f} ms"
    )
    assert median < SANITY_BOUND_MS, timings
