"""The conformance suite's adapters: ``contract.py`` says what every integration must do, and
``<framework>.py`` (one per name in ``nbask.integrations.FRAMEWORKS``) runs it with that
framework's own classes; tests/integrations/test_conformance.py holds each one to the contract.
"""
