"""Evaluation functions of kusari.chem."""
