"""Recurrent links: LSTM, GRU, MGU, Tree-LSTM cells and the stacked NStep RNNs."""
