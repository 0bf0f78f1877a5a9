"""A run's images (ChainerUI's assets): the PNG, JPEG, GIF and WebP files at the top of its folder, as
PlotReport (``plot.png``) and kusari.vision's DetectionVisReport (``detection_iter=100_idx=0.jpg``) write
them, grouped by the iteration or epoch that their names carry."""
import os
import re
import stat

from sqlalchemy import orm

from kusari.ui.store import AssetFile, Result

MEDIA_TYPES = {".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif",
               ".webp": "image/webp"}
# the step in a file name: "iter=100", "iter_100", "iteration-100", "epoch=3" (not inside a word: "filter_3"),
# with the separator before it, which the tag drops too
_STEP = re.compile(r"[_.=-]?(?<![A-Za-z])(?P<key>iteration|iter|epoch)[=_-]?(?P<value>\d+)", re.IGNORECASE)


def image_files(run_dir: str) -> dict[str, os.stat_result]:
    """The image files at the top of ``run_dir`` by name, with their stat: regular files only (a link
    could point anywhere), hidden ones left out (atomic writes' temporary files start with a dot)."""
    found = {}
    try:
        entries = os.scandir(run_dir)
    except FileNotFoundError:
        return found
    with entries:
        for entry in entries:
            if entry.name.startswith(".") or os.path.splitext(entry.name)[1].lower() not in MEDIA_TYPES:
                continue
            st = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(st.st_mode):
                found[entry.name] = st
    return found


def describe(name: str) -> tuple[dict, str]:
    """The step a file name carries and its tag, the name without the step and the extension (the same
    for one kind of image across steps): ``({"iteration": 100}, "detection_idx=0")`` for
    ``detection_iter=100_idx=0.jpg``, ``({}, "plot")`` for ``plot.png``."""
    stem = os.path.splitext(name)[0]
    info = {}
    for match in _STEP.finditer(stem):
        info.setdefault("epoch" if match["key"].lower() == "epoch" else "iteration", int(match["value"]))
    return info, _STEP.sub("", stem).strip("_.=-") or stem


def collect(session: orm.Session, result: Result) -> list[tuple[AssetFile, os.stat_result]]:
    """Register ``result``'s new image files (commits when there are any) and return each one present
    with its stat, in the order they were registered."""
    files = image_files(result.path_name)
    known = {asset.name for asset in result.asset_files}
    new = sorted(name for name in files if name not in known)
    for name in new:
        result.asset_files.append(AssetFile(name=name))
    if new:
        session.commit()
    return [(asset, files[asset.name]) for asset in result.asset_files if asset.name in files]


def serialize(project_id: int, result_id: int, files: list[tuple[AssetFile, os.stat_result]]) -> list[dict]:
    """ChainerUI's assets shape: ``[{"train_info": {...}, "contents": [{"id", "name", "tag", "note",
    "uri", "file_modified_at"}]}]``, one asset per step (images without a step first, then by iteration
    and epoch), its contents by name; ``file_modified_at`` (seconds since the epoch) changes when a file
    is rewritten, as PlotReport does at each trigger."""
    groups = {}
    for asset, st in files:
        info, tag = describe(asset.name)
        groups.setdefault(tuple(sorted(info.items())), []).append({
            "id": asset.id, "name": asset.name, "tag": tag, "note": None,
            "uri": f"/api/v1/projects/{project_id}/results/{result_id}/assets/{asset.id}",
            "file_modified_at": st.st_mtime})
    order = sorted(groups, key=lambda k: (dict(k).get("iteration", -1), dict(k).get("epoch", -1)))
    return [{"train_info": dict(k), "contents": sorted(groups[k], key=lambda c: c["name"])} for k in order]
