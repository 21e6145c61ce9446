"""The waiting engine: how a running cell receives widget messages while it waits.

A Jupyter kernel normally queues every shell message behind the running cell, so a
cell that waits for a widget's answer would wait forever. This package owns the one
job of getting widget (comm) messages to their handlers while a cell waits, with one
strategy per ipykernel generation, chosen by capability. Nothing else in nbask knows
about kernel internals.

Public surface (used by nbask.widget / nbask.interaction, nothing else):

- ``await wait_for(future, timeout)`` -- await an asyncio future from inside a running
  cell while comm messages keep flowing. Raises ``TimeoutError`` after ``timeout``
  seconds (``None`` = forever) and ``KeyboardInterrupt`` when the kernel is interrupted.
  The future is resolved by its owner, from any thread, with
  ``loop.call_soon_threadsafe``.
- ``wait_blocking(done, timeout)`` -- the synchronous twin for ``ask_sync``: block the
  calling thread until the ``threading.Event`` ``done`` is set; returns ``False`` on
  timeout, raises ``KeyboardInterrupt`` on interrupt.
- ``WaitingUnsupported`` -- raised (never a hang) when no strategy fits.
- ``strategy_name()`` -- which strategy the current kernel uses, for diagnostics.
"""
