"""Connection links: layers that connect inputs to outputs through learned weights."""
