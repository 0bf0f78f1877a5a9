"""The image files of each run (``asset_file``), so that the ids of ChainerUI's ``.../assets/<id>``
stay fixed while a run writes more images. A new table: the upgrade and the downgrade keep every other
row as it is.

Revision ID: 0003
Revises: 0002
"""
import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table("asset_file",
                    sa.Column("id", sa.Integer, primary_key=True),
                    sa.Column("result_id", sa.Integer, sa.ForeignKey("result.id"), nullable=False),
                    sa.Column("name", sa.String(512), nullable=False),
                    sa.UniqueConstraint("result_id", "name"))
    op.create_index("ix_asset_file_result_id", "asset_file", ["result_id"])


def downgrade():
    op.drop_table("asset_file")
