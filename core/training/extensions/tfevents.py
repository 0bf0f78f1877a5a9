"""TensorBoard event files without TensorBoard: TFRecord framing (masked CRC-32C) and a minimal protobuf
encoding of ``Event`` / ``Summary`` with scalar values, plus a reader for the same subset.

Record: uint64 length (LE), uint32 masked CRC-32C of the length bytes, the data, uint32 masked
CRC-32C of the data. ``Event``: wall_time (1, double), step (2, int64), file_version (3, string),
summary (5, Summary). ``Summary``: value (1, repeated Value). ``Value``: tag (1, string),
simple_value (2, float).
"""
import itertools
import os
import socket
import struct
import time


def _crc32c_table():
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_TABLE = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli) of ``data``."""
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc32c(data: bytes) -> int:
    """The CRC as TFRecord stores it: rotated right by 15 bits plus a constant."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _varint(value: int) -> bytes:
    if value < 0:
        value += 1 << 64  # int64 two's complement, as protobuf does
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _field(number: int, wire_type: int, payload: bytes) -> bytes:
    if wire_type == 2:
        payload = _varint(len(payload)) + payload
    return _varint(number << 3 | wire_type) + payload


def encode_event(wall_time: float, step: int = 0, scalars=None, file_version=None) -> bytes:
    """Serialized ``Event`` with either ``file_version`` or a Summary of ``{tag: value}`` scalars."""
    data = _field(1, 1, struct.pack("<d", wall_time)) + _field(2, 0, _varint(int(step)))
    if file_version is not None:
        data += _field(3, 2, file_version.encode("utf-8"))
    if scalars:
        summary = b"".join(
            _field(1, 2, _field(1, 2, tag.encode("utf-8")) + _field(2, 5, struct.pack("<f", float(value))))
            for tag, value in scalars.items())
        data += _field(5, 2, summary)
    return data


def frame_record(data: bytes) -> bytes:
    """``data`` framed as one TFRecord."""
    length = struct.pack("<Q", len(data))
    return (length + struct.pack("<I", masked_crc32c(length)) + data
            + struct.pack("<I", masked_crc32c(data)))


_file_counter = itertools.count()


class EventFileWriter:
    """Appends Events to a new ``events.out.tfevents.*`` file in ``logdir`` (starting with the
    ``brain.Event:2`` version record TensorBoard expects); each write is flushed."""

    def __init__(self, logdir: str, filename_suffix: str = ""):
        os.makedirs(logdir, exist_ok=True)
        name = (f"events.out.tfevents.{int(time.time())}.{socket.gethostname()}."
                f"{os.getpid()}.{next(_file_counter)}{filename_suffix}")
        self.path = os.path.join(logdir, name)
        self._file = open(self.path, "ab")
        self._write(encode_event(time.time(), 0, file_version="brain.Event:2"))

    def _write(self, data: bytes) -> None:
        self._file.write(frame_record(data))
        self._file.flush()

    def add_scalars(self, scalars: dict, step: int, wall_time: float | None = None) -> None:
        """Write one Event holding the ``{tag: float}`` scalars at ``step``."""
        self._write(encode_event(time.time() if wall_time is None else wall_time, step, scalars=scalars))

    def close(self) -> None:
        self._file.close()


def _read_varint(buf: bytes, pos: int):
    result = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        result |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return result, pos
        shift += 7


def _parse_fields(buf: bytes):
    """(field number, wire type, value) triples of a protobuf message (value: int or bytes)."""
    pos = 0
    while pos < len(buf):
        key, pos = _read_varint(buf, pos)
        number, wire_type = key >> 3, key & 7
        if wire_type == 0:
            value, pos = _read_varint(buf, pos)
        elif wire_type == 1:
            value, pos = buf[pos:pos + 8], pos + 8
        elif wire_type == 2:
            length, pos = _read_varint(buf, pos)
            value, pos = buf[pos:pos + length], pos + length
        elif wire_type == 5:
            value, pos = buf[pos:pos + 4], pos + 4
        else:
            raise ValueError(f"tfevents: unsupported protobuf wire type {wire_type}")
        yield number, wire_type, value


def _decode_event(data: bytes) -> dict:
    event = {"wall_time": None, "step": 0, "file_version": None, "scalars": {}}
    for number, _, value in _parse_fields(data):
        if number == 1:
            event["wall_time"] = struct.unpack("<d", value)[0]
        elif number == 2:
            event["step"] = value
        elif number == 3:
            event["file_version"] = value.decode("utf-8")
        elif number == 5:
            for vnum, _, vbuf in _parse_fields(value):
                if vnum != 1:
                    continue
                fields = {n: v for n, _, v in _parse_fields(vbuf)}
                if 1 in fields and 2 in fields:
                    event["scalars"][fields[1].decode("utf-8")] = struct.unpack("<f", fields[2])[0]
    return event


def read_events(path: str) -> list:
    """The Events of a file, as dicts (wall_time, step, file_version, scalars); checks every CRC."""
    events = []
    with open(path, "rb") as f:
        buf = f.read()
    pos = 0
    while pos < len(buf):
        header = buf[pos:pos + 12]
        if len(header) < 12:
            raise ValueError(f"tfevents: truncated record header at byte {pos} of {path}")
        length_bytes = header[:8]
        if struct.unpack("<I", header[8:])[0] != masked_crc32c(length_bytes):
            raise ValueError(f"tfevents: bad length CRC at byte {pos} of {path}")
        (length,) = struct.unpack("<Q", length_bytes)
        data = buf[pos + 12:pos + 12 + length]
        crc = buf[pos + 12 + length:pos + 16 + length]
        if len(data) < length or len(crc) < 4 or struct.unpack("<I", crc)[0] != masked_crc32c(data):
            raise ValueError(f"tfevents: truncated record or bad data CRC at byte {pos} of {path}")
        events.append(_decode_event(data))
        pos += 16 + length
    return events
