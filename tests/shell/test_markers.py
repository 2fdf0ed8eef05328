from __future__ import annotations

from swebash.shell.markers import Marker, MarkerParser, expected_echo, marker_bytes

NONCE = "abc123"


def test_marker_between_output() -> None:
    parser = MarkerParser(NONCE)
    data = b"hello\n" + marker_bytes(NONCE, 3, 1, "/tmp/x") + b"after"
    out, markers = parser.feed(data)
    assert out == b"hello\nafter" and markers == [Marker(3, 1, "/tmp/x")]


def test_marker_split_at_every_byte() -> None:
    data = b"out1" + marker_bytes(NONCE, 7, 130, "/home/u/dir; with\x07odd") + b"out2"
    for cut in range(1, len(data)):
        parser = MarkerParser(NONCE)
        out1, m1 = parser.feed(data[:cut])
        out2, m2 = parser.feed(data[cut:])
        assert out1 + out2 == b"out1out2", cut
        assert m1 + m2 == [Marker(7, 130, "/home/u/dir; with\x07odd")], cut


def test_forged_marker_without_nonce_passes_through() -> None:
    parser = MarkerParser(NONCE)
    fake = marker_bytes("wrong", 1, 0, "/etc")
    out, markers = parser.feed(fake)
    assert markers == [] and out == fake


def test_garbage_after_head_is_output() -> None:
    parser = MarkerParser(NONCE)
    out, markers = parser.feed(b"\x1b]6973;" + NONCE.encode() + b";x;y;z;" + b"A" * 40)
    assert markers == [] and out.endswith(b"A" * 40)


def test_two_markers_and_utf8_cwd() -> None:
    parser = MarkerParser(NONCE)
    data = marker_bytes(NONCE, 1, 0, "/tmp/é") + marker_bytes(NONCE, 2, 5, "/")
    out, markers = parser.feed(data)
    assert out == b"" and markers == [Marker(1, 0, "/tmp/é"), Marker(2, 5, "/")]


def test_expected_echo() -> None:
    assert expected_echo(b"ls\n") == b"ls\r\n"
    assert expected_echo(b"a\tb\x01\n") == b"a\tb^A\r\n"


def test_start_marker_is_told_apart_from_an_end_marker() -> None:
    parser = MarkerParser(NONCE)
    start = b"\x1b]6973;" + NONCE.encode() + b";4;-1;0;\x07"
    out, markers = parser.feed(start + b"output" + marker_bytes(NONCE, 4, 0, "/"))
    assert out == b"output"
    assert [m.started for m in markers] == [True, False] and markers[0].seq == 4
