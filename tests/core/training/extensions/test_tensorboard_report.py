import struct

import pytest

from kusari.training.extensions import TensorBoardReport, tfevents


def test_crc32c_known_values():
    # check values from RFC 3720 (iSCSI), appendix B.4, and the standard "123456789" check value
    assert tfevents.crc32c(b"123456789") == 0xE3069283
    assert tfevents.crc32c(bytes(32)) == 0x8A9136AA
    assert tfevents.crc32c(bytes([0xFF] * 32)) == 0x62A8AB43
    assert tfevents.crc32c(bytes(range(32))) == 0x46DD794E


def test_varint_encoding_matches_protobuf_spec():
    # examples from the protobuf encoding guide: 1 -> 01, 150 -> 96 01; field 1 varint 150 -> 08 96 01
    assert tfevents._varint(1) == b"\x01"
    assert tfevents._varint(150) == b"\x96\x01"
    assert tfevents._field(1, 0, tfevents._varint(150)) == b"\x08\x96\x01"
    assert tfevents._field(2, 2, b"testing") == b"\x12\x07testing"


def test_record_framing():
    record = tfevents.frame_record(b"abc")
    assert len(record) == 8 + 4 + 3 + 4
    assert struct.unpack("<Q", record[:8])[0] == 3
    assert record[12:15] == b"abc"


def test_report_writes_readable_events(fake_trainer, tmp_path):
    ext = TensorBoardReport(trigger=(2, "iteration"))
    for loss in (1.0, 2.0, 0.5, 0.25):
        fake_trainer.step(**{"main/loss": loss})
        ext(fake_trainer)
    ext.finalize()
    files = list(tmp_path.glob("events.out.tfevents.*"))
    assert len(files) == 1
    events = tfevents.read_events(str(files[0]))
    assert events[0]["file_version"] == "brain.Event:2"
    assert [e["step"] for e in events[1:]] == [2, 4]
    assert [e["scalars"]["main/loss"] for e in events[1:]] == [1.5, 0.375]
    assert events[2]["scalars"]["epoch"] == 1.0


def test_reader_detects_corruption(tmp_path):
    path = tmp_path / "events.out.tfevents.x"
    data = tfevents.frame_record(tfevents.encode_event(1.0, 3, scalars={"a": 2.0}))
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    with pytest.raises(ValueError, match="bad data CRC"):
        tfevents.read_events(str(path))


def test_tensorboard_package_reads_file(fake_trainer, tmp_path):
    loader = pytest.importorskip("tensorboard.backend.event_processing.event_file_loader")
    ext = TensorBoardReport(trigger=(1, "iteration"))
    fake_trainer.step(a=0.5)
    ext(fake_trainer)
    ext.finalize()
    path = str(next(tmp_path.glob("events.out.tfevents.*")))
    events = list(loader.EventFileLoader(path).Load())
    assert events[0].file_version == "brain.Event:2"
    values = {v.tag: v for v in events[1].summary.value}
    assert events[1].step == 1
    assert "a" in values
