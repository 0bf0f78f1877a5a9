"""Alembic's environment for kusari.ui's store: the URL comes from the Config that kusari.ui.store builds."""
from alembic import context
from sqlalchemy import engine_from_config, pool

from kusari.ui.store import Base

config = context.config
connectable = engine_from_config(config.get_section(config.config_ini_section, {}), prefix="sqlalchemy.",
                                 poolclass=pool.NullPool)
with connectable.connect() as connection:
    # batch mode: SQLite alters a table by copying it, which later revisions will need
    context.configure(connection=connection, target_metadata=Base.metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()
