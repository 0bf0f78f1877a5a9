"""One row per run for its log (``run_log``) instead of one row per entry (``log``), and the run table's
summary on ``result`` (entry count, keys, last entry, the error of an unreadable log file, the args
file's stat to skip unchanged ones); ``run_log`` also holds the numbers by key for the charts.

At 1,000 runs of 10,000 entries the per-entry table held ten million rows that every chart read one by
one; a run's log is read and written whole anyway (the crawler replaces it when the file changes).
The upgrade moves each run's entries over and keeps them; the downgrade moves them back.

Revision ID: 0002
Revises: 0001
"""
import json

import sqlalchemy as sa
from alembic import op

from kusari.ui.store import encode_columns

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

_log = sa.table("log", sa.column("result_id", sa.Integer), sa.column("index", sa.Integer),
                sa.column("data", sa.Text))
_run_log = sa.table("run_log", sa.column("result_id", sa.Integer), sa.column("columns", sa.LargeBinary),
                    sa.column("entries", sa.Text))
_result = sa.table("result", sa.column("id", sa.Integer), sa.column("log_count", sa.Integer),
                   sa.column("log_keys", sa.Text), sa.column("log_last", sa.Text))


def upgrade():
    op.create_table("run_log",
                    sa.Column("result_id", sa.Integer, sa.ForeignKey("result.id"), primary_key=True),
                    sa.Column("columns", sa.LargeBinary),   # before the JSON: read without walking it
                    sa.Column("entries", sa.Text, nullable=False))
    with op.batch_alter_table("result") as batch:
        batch.add_column(sa.Column("args_mtime_ns", sa.BigInteger))
        batch.add_column(sa.Column("args_size", sa.BigInteger))
        batch.add_column(sa.Column("log_count", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("log_keys", sa.Text))
        batch.add_column(sa.Column("log_last", sa.Text))
        batch.add_column(sa.Column("log_error", sa.Text))
    bind = op.get_bind()
    runs = {}
    for result_id, data in bind.execute(sa.select(_log.c.result_id, _log.c.data)
                                        .order_by(_log.c.result_id, _log.c.index)):
        runs.setdefault(result_id, []).append(json.loads(data))
    for result_id, entries in runs.items():
        keys = list(dict.fromkeys(k for entry in entries for k in entry))
        bind.execute(_run_log.insert().values(result_id=result_id, columns=encode_columns(entries, keys),
                                              entries=json.dumps(entries)))
        bind.execute(_result.update().where(_result.c.id == result_id).values(
            log_count=len(entries), log_keys=json.dumps(keys), log_last=json.dumps(entries[-1])))
    op.drop_table("log")


def downgrade():
    op.create_table("log",
                    sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("result_id", sa.Integer, sa.ForeignKey("result.id"), nullable=False),
                    sa.Column("index", sa.Integer, nullable=False),
                    sa.Column("data", sa.Text, nullable=False))
    op.create_index("ix_log_result_id", "log", ["result_id"])
    bind = op.get_bind()
    for result_id, entries in bind.execute(sa.select(_run_log.c.result_id, _run_log.c.entries)).all():
        rows = [{"result_id": result_id, "index": i, "data": json.dumps(e)} for i, e in enumerate(json.loads(entries))]
        if rows:
            bind.execute(_log.insert(), rows)
    op.drop_table("run_log")
    with op.batch_alter_table("result") as batch:
        for name in ("log_error", "log_last", "log_keys", "log_count", "args_size", "args_mtime_ns"):
            batch.drop_column(name)
