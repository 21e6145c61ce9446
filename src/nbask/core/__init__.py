"""The interaction core, with no widget and no kind in it: the lifecycle of one request
(``lifecycle``), the records of ended ones and their files (``history``), and the manager that
keeps one request pending at a time and the history (``manager``).
"""
