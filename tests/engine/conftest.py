"""Engine tests: the synthetic room set of builders.py is registered for every test."""

from .builders import register_synthetic

register_synthetic()
