"""Activation functions of kusari.chem."""
