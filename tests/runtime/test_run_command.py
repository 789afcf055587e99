"""`kernelkit run`: checked by default, the API's argument rules, one-line errors for ordinary
mistakes (issue 16.2's reproducers), --timeout (issue 19.8). Oracles: the OpenCL C type ranges
(6.1.1), numpy for results."""

from __future__ import annotations

import re

import numpy as np
import pytest

from kernelkit.cli import main

SRC = r"""
kernel void c(global char *o, char v, ulong u, float4 f) { o[get_global_id(0)] = v + (char)u + (char)f.w; }
kernel void spin(global int *a) { while (a[0] == 0) a[1]++; }
"""


@pytest.fixture(scope="module")
def source(tmp_path_factory):
    path = tmp_path_factory.mktemp("run") / "k.cl"
    path.write_text(SRC)
    return str(path)


def run(capsys, *argv) -> tuple[int, str, str]:
    rc = main(["run", *argv])
    out, err = capsys.readouterr()
    return rc, out, err


@pytest.mark.parametrize("argv,message", [
    (["-g", "4", "--arg", "[4]", "--arg", "300", "--arg", "1", "--arg", "1"],
     r"argument 1 \(v\): 300 does not fit in char \(-128..127\)"),
    (["-g", "4", "--arg", "[4]", "--arg", "-129", "--arg", "1", "--arg", "1"], r"-129 does not fit in char"),
    (["-g", str(2**64 + 1), "--arg", "[4]", "--arg", "3", "--arg", "1", "--arg", "1"], r"does not fit in size_t"),
    (["-g", "4", "--arg", "[4]", "--arg", "3", "--arg", str(2**64), "--arg", "1"],
     r"argument 2 \(u\): 18446744073709551616 does not fit in ulong"),
    (["-g", "4", "--arg", "[4]", "--arg", "3", "--arg", "1", "--arg", "1,2"], r"float4: give 1 or 4 values, got 2"),
    (["-g", "4", "--arg", "[100000000000000]", "--arg", "3", "--arg", "1", "--arg", "1"], r"larger than"),
    (["-g", "4", "--arg", "[4]", "--arg", "3", "--arg", "1", "--arg", "1", "--seed", "-5"], r"--seed must be"),
    (["-g", "4", "--arg", "[4]", "--arg", "3", "--arg", "1", "--arg", "1", "--threads", "0"], r"threads must be"),
    # checked by default: one element past the end of o
    (["-g", "5", "--arg", "[4]", "--arg", "3", "--arg", "1", "--arg", "1"],
     r"out-of-bounds write of 1 bytes .* work-item \(4, 0, 0\).*past the end of argument 0 'o'"),
])
def test_mistakes_are_one_line_errors(capsys, source, argv, message):
    rc, _, err = run(capsys, source, "-k", "c", *argv)
    assert rc == 1 and len(err.splitlines()) == 1, err
    assert re.search(message, err), err


def test_threads_environment_is_checked(capsys, source, monkeypatch):
    monkeypatch.setenv("KERNELKIT_THREADS", "abc")
    rc, _, err = run(capsys, source, "-k", "c", "-g", "4", "--arg", "[4]", "--arg", "1", "--arg", "1", "--arg", "1")
    assert rc == 1 and err.strip() == "kernelkit run: error: KERNELKIT_THREADS must be a positive integer, got 'abc'"


def test_unchecked_runs_and_values_are_right(capsys, source):
    rc, out, _ = run(capsys, source, "-k", "c", "-g", "4", "--arg", "[4]", "--arg", "-3", "--arg", "258",
                     "--arg", "1,2,3,7", "--unchecked", "--print")
    assert rc == 0
    assert out.strip() == f"o = {np.full(4, -3 + 2 + 7, np.int8)!r}"


def test_timeout_stops_an_endless_kernel(capsys, source):
    rc, _, err = run(capsys, source, "-k", "spin", "-g", "1", "--arg", "[2]", "--timeout", "0.3")
    assert rc == 1 and "spin: stopped after the launch timeout of 0.3 s" in err and len(err.splitlines()) == 1


def test_damaged_host_binary_is_a_format_error_in_run_and_inspect(capsys, tmp_path):
    import kernelkit
    from kernelkit.targets.host.binary import read_host_binary

    data = kernelkit.Program(SRC).build().binary
    obj = read_host_binary(data).object_code
    at = data.index(obj) + len(obj) // 2
    bad = tmp_path / "bad.bin"
    bad.write_bytes(data[:at] + bytes([data[at] ^ 0xFF]) + data[at + 1:])
    for argv in (["run", str(bad), "-k", "spin", "-g", "1", "--arg", "[2]"], ["inspect", str(bad)]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert len(err.splitlines()) == 1 and "does not match its SHA-256 digest" in err, err
