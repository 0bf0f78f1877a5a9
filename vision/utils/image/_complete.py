"""Reading an image file's bytes and refusing a JPEG, PNG or BMP that does not hold the whole image.

Decoders fill what is missing instead of failing: OpenCV only prints "Premature end of JPEG file"
on stderr and returns the missing rows grey, and Pillow does the same when
``ImageFile.LOAD_TRUNCATED_IMAGES`` is set anywhere in the process. So the file's structure is
checked before it is decoded, with either backend.
"""
import os
import re
import zlib

# a JPEG marker: 0xFF then a code that is not stuffing (0x00), a restart marker (0xD0-0xD7)
# inside entropy-coded data, or a fill byte (0xFF)
_JPEG_MARKER = re.compile(rb"\xff[^\x00\xd0-\xd7\xff]")
_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def read_bytes(file, who: str) -> tuple[bytes, str]:
    """``(the bytes of file, its name for messages)``; ``file`` is a path or a binary file object."""
    if hasattr(file, "read"):
        return file.read(), str(getattr(file, "name", file))
    if not os.path.isfile(file):
        raise FileNotFoundError(f"{who}: no such file: {os.fspath(file)!r}")
    with open(file, "rb") as f:
        return f.read(), os.fspath(file)


def check_complete(data: bytes, name: str, who: str) -> None:
    """Raise ``ValueError`` naming ``name`` if ``data`` is a JPEG, PNG or BMP file that is truncated
    or (PNG, whose chunks carry CRCs) corrupt; other formats are left to the decoder."""
    if data[:2] == b"\xff\xd8":
        problem = _jpeg_problem(data)
    elif data[:8] == _PNG_SIGNATURE:
        problem = _png_problem(data)
    elif data[:2] == b"BM" and len(data) >= 6 and len(data) < int.from_bytes(data[2:6], "little"):
        problem = (f"truncated: its header gives {int.from_bytes(data[2:6], 'little')} bytes, "
                   f"the file has {len(data)}")
    else:
        problem = None
    if problem is not None:
        raise ValueError(f"{who}: {name} is {problem}")


def _jpeg_problem(data: bytes) -> str | None:
    """Walk the JPEG's segments and entropy-coded scans to its end-of-image marker."""
    n, pos = len(data), 2
    while True:
        marker = _JPEG_MARKER.search(data, pos)
        if marker is None:
            return f"truncated: its JPEG data ends at byte {n} before the end-of-image marker"
        code, pos = data[marker.start() + 1], marker.end()
        if code == 0xD9:
            return None
        if code == 0x01:  # TEM: no length
            continue
        if pos + 2 > n:
            return f"truncated: its JPEG data ends at byte {n} inside a segment header"
        pos += int.from_bytes(data[pos:pos + 2], "big")
        if pos > n:
            return f"truncated: its JPEG data ends at byte {n} inside a segment that ends at {pos}"


def _png_problem(data: bytes) -> str | None:
    """Walk the PNG's chunks to IEND, checking each chunk's CRC."""
    view, n, pos = memoryview(data), len(data), len(_PNG_SIGNATURE)
    while pos + 12 <= n:
        length = int.from_bytes(view[pos:pos + 4], "big")
        kind = bytes(view[pos + 4:pos + 8]).decode("latin-1")
        end = pos + 12 + length
        if end > n:
            return f"truncated: its PNG chunk {kind!r} at byte {pos} needs {end} bytes, the file has {n}"
        if zlib.crc32(view[pos + 4:end - 4]) != int.from_bytes(view[end - 4:end], "big"):
            return f"corrupt: its PNG chunk {kind!r} at byte {pos} fails its CRC"
        if kind == "IEND":
            return None
        pos = end
    return f"truncated: its PNG data ends at byte {n} before the IEND chunk"
