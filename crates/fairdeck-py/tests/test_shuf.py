"""fairdeck.shuf: the CLI's `shuf FILE -o OUT`, in memory and out of core."""

import pytest

import fairdeck


def lines_file(path, n):
    path.write_bytes(b"".join(b"line %d\n" % i for i in range(n)))
    return path


@pytest.mark.parametrize("memory", [None, 4096])
def test_shuf_equals_the_cli(cli_lines, tmp_path, memory):
    src = lines_file(tmp_path / "in.txt", 5000)
    out = tmp_path / "out.txt"
    stats = fairdeck.shuf(src, out, memory=memory, seed="lines")
    flags = ["--memory", "4K"] if memory else []
    assert out.read_text().splitlines() == cli_lines("shuf", "--seed", "lines", *flags, src)
    assert stats["records"] == 5000 and stats["bytes"] == src.stat().st_size
    assert stats["method"] == ("out-of-core" if memory else "in-memory (mapped)")
    assert stats["seed"] == fairdeck.Generator("lines").seed


def test_shuf_in_place_keeps_every_line(tmp_path):
    src = lines_file(tmp_path / "in.txt", 3000)
    before = sorted(src.read_bytes().splitlines())
    fairdeck.shuf(src, src, memory="8K")
    after = src.read_bytes().splitlines()
    assert sorted(after) == before and after != before


def test_shuf_bad_input(tmp_path):
    with pytest.raises(OSError, match="No such file"):
        fairdeck.shuf(tmp_path / "missing", tmp_path / "out")
    src = lines_file(tmp_path / "in.txt", 10)
    with pytest.raises(ValueError, match="invalid memory size"):
        fairdeck.shuf(src, tmp_path / "out", memory="12Q")
    with pytest.raises(TypeError, match="memory must be"):
        fairdeck.shuf(src, tmp_path / "out", memory=1.5)
    with pytest.raises(OSError):
        fairdeck.shuf(src, tmp_path / "no-such-dir" / "out")
    assert src.read_bytes() == b"".join(b"line %d\n" % i for i in range(10))
