"""``kernelkit build k.spv -t host`` and ``kernelkit signature k.spv`` on clang 22's SPIR-V."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "frontend"))
from spirv_corpus import clang_spirv  # noqa: E402

import kernelkit  # noqa: E402


def _kernelkit(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "kernelkit", *args], capture_output=True, text=True)


def test_build_and_signature_of_a_spirv_file(tmp_path):
    spv = tmp_path / "k.spv"
    spv.write_bytes(clang_spirv("qualifiers.cl", "CL1.2", names=True))
    sig = _kernelkit("signature", "--json", str(spv))
    assert sig.returncode == 0, sig.stderr
    saxpy = next(k for k in json.loads(sig.stdout)["kernels"] if k["name"] == "saxpy_restrict")
    source_sig = _kernelkit("signature", "--json", str(Path(__file__).parents[1] / "corpus" / "qualifiers.cl"))
    want = next(k for k in json.loads(source_sig.stdout)["kernels"] if k["name"] == "saxpy_restrict")
    assert [a["name"] for a in saxpy["args"]] == [a["name"] for a in want["args"]]
    out = tmp_path / "k.kkhost"
    built = _kernelkit("build", str(spv), "-t", "host", "-o", str(out))
    assert built.returncode == 0, built.stderr
    program = kernelkit.Program.from_binary(out.read_bytes())
    names = [a["name"] for a in saxpy["args"]]
    n = 256
    x, y = np.arange(n, dtype=np.float32), np.full(n, 0.5, np.float32)
    values = {"x": x, "y": y, "a": np.float32(3.0), "n": np.int32(n)}
    program.kernel("saxpy_restrict")(*[values[name] for name in names], global_size=(n,))
    np.testing.assert_array_equal(y, np.float32(3.0) * np.arange(n, dtype=np.float32) + np.float32(0.5))


def test_broken_spirv_is_one_readable_line(tmp_path):
    bad = tmp_path / "bad.spv"
    bad.write_bytes(bytes.fromhex("03022307") + (0x7FFF0000).to_bytes(4, "little") + bytes(12))
    for args in (("signature", str(bad)), ("build", str(bad), "-t", "host", "-o", str(tmp_path / "x"))):
        result = _kernelkit(*args)
        assert result.returncode != 0
        assert "offset 0x4, field version" in result.stderr and len(result.stderr.strip().splitlines()) == 1
