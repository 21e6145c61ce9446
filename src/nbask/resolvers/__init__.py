"""Who resolves a request: the live widget in the cell (``live``), the terminal prompt
(``console``), or a headless policy (``policies``, which also makes the choice).
"""
