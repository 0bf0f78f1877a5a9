"""Chemistry benchmark: kusari.chem's GGNN against chemprop 2.3.1's D-MPNN on ESOL (issue 14, item 6).

``python -m bench.chem`` trains both on one fixed random 80/10/10 split of ESOL, given to both as index
lists, each run in its own process with one thread, and compares the test RMSE and the CPU time of the
whole run (interpreter start, imports and featurization included). It also times the featurization of
all of Lipophilicity on both sides and kusari's GGNN epochs per second. kusari runs in the current
interpreter; chemprop in the ``chemprop`` environment of :mod:`bench.environments`.
"""
