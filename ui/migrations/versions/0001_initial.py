"""The initial schema: project, result, log.

Revision ID: 0001
Revises:
"""
import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table("project",
                    sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("path_name", sa.String(1024), nullable=False, unique=True),
                    sa.Column("name", sa.String(512), nullable=False))
    op.create_table("result",
                    sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("project_id", sa.Integer, sa.ForeignKey("project.id"), nullable=False),
                    sa.Column("path_name", sa.String(1024), nullable=False, unique=True),
                    sa.Column("name", sa.String(512), nullable=False),
                    sa.Column("args", sa.Text),
                    sa.Column("log_mtime_ns", sa.BigInteger),
                    sa.Column("log_size", sa.BigInteger),
                    sa.Column("log_modified_at", sa.Float))
    op.create_index("ix_result_project_id", "result", ["project_id"])
    op.create_table("log",
                    sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("result_id", sa.Integer, sa.ForeignKey("result.id"), nullable=False),
                    sa.Column("index", sa.Integer, nullable=False),
                    sa.Column("data", sa.Text, nullable=False))
    op.create_index("ix_log_result_id", "log", ["result_id"])


def downgrade():
    op.drop_table("log")
    op.drop_table("result")
    op.drop_table("project")
