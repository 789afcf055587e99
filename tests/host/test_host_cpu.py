"""Portable host binaries: ``-mcpu=`` / ``build("host", cpu=...)`` / ``kernelkit build --mcpu``.

Oracles: numpy for results; the x86-64 psABI's microarchitecture levels (x86-64 psABI 1.0, s3.1.1)
for the features a level implies; /proc/cpuinfo (the kernel's view of this CPU) for what this
machine lacks.
"""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from kernelkit.errors import CompileError, LaunchError
from kernelkit.runtime.program import Program
from kernelkit.targets.host.binary import read_host_binary
from kernelkit.targets.host.passes.vectorise import packet_width


def _weigh_lanes(register_bits: int) -> int:
    """f32 lanes of weigh's vectorised copy: a register's float lanes, times the registers per packet that
    the vectoriser's policy gives a kernel with a loop (vectorise.packet_width)."""
    return packet_width(register_bits // 32, has_barriers=False, uses_sub_groups=False, has_loops=True)

SOURCE = """
__kernel void weigh(__global float* out, __global const float* x, int n) {
    size_t i = get_global_id(0);
    float s = 0.0f;
    for (int k = 0; k < n; ++k)
        s += x[i] * (float)(k + 1);
    out[i] = s + sqrt(x[i]);
}
"""

# x86-64 psABI s3.1.1: the features each level adds (LLVM spelling; LAHF-SAHF is LLVM's sahf)
PSABI_LEVELS = {
    "x86-64": {"fxsr", "mmx", "sse", "sse2"},
    "x86-64-v2": {"cx16", "sahf", "popcnt", "sse3", "sse4.1", "sse4.2", "ssse3"},
    "x86-64-v3": {"avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave"},
    "x86-64-v4": {"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"},
}
# /proc/cpuinfo flag of an LLVM feature name, where they differ
CPUINFO_FLAG = {"sse3": "pni", "sse4.1": "sse4_1", "sse4.2": "sse4_2", "sahf": "lahf_lm", "lzcnt": "abm",
                "bmi": "bmi1"}


def _cpuinfo_flags() -> set[str]:
    with open("/proc/cpuinfo", encoding="utf-8") as f:
        for line in f:
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    raise AssertionError("no flags line in /proc/cpuinfo")


def _has(feature: str) -> bool:
    return CPUINFO_FLAG.get(feature, feature.replace(".", "_")) in _cpuinfo_flags()


def _level_features(level: str) -> set[str]:
    names = list(PSABI_LEVELS)
    return set().union(*(PSABI_LEVELS[n] for n in names[:names.index(level) + 1]))


def _run(prog: Program) -> tuple[np.ndarray, np.ndarray]:
    x = np.random.default_rng(5).random(1000, dtype=np.float32) + 0.5
    out = np.zeros_like(x)
    prog.weigh(out, x, np.int32(7), global_size=(1000,), local_size=(40,))
    expected = x * np.float32(sum(range(1, 8))) + np.sqrt(x)
    return out, expected


def test_baseline_x86_64_binary_runs_here_and_records_its_cpu():
    prog = Program(SOURCE).build("host", cpu="x86-64")
    binary = read_host_binary(prog.binary)
    assert binary.cpu == "x86-64"
    assert _level_features("x86-64") <= set(binary.features)
    assert not {"avx", "sse3", "popcnt"} & set(binary.features)   # not in the baseline level
    # SSE2's 128-bit registers: 4 float lanes for the whole-function vectoriser
    assert binary.kernel("weigh").vector_width == _weigh_lanes(128)
    out, expected = _run(prog)
    np.testing.assert_allclose(out, expected, rtol=1e-5)


def test_psabi_level_v3_records_its_features():
    level = "x86-64-v3"
    prog = Program(SOURCE).build("host", cpu=level)
    binary = read_host_binary(prog.binary)
    assert binary.cpu == level
    assert _level_features(level) <= set(binary.features)
    assert "avx512f" not in binary.features
    assert binary.kernel("weigh").vector_width == _weigh_lanes(256)     # AVX: 256-bit registers
    if all(_has(f) for f in _level_features(level)):
        out, expected = _run(prog)
        np.testing.assert_allclose(out, expected, rtol=1e-5)
    else:
        with pytest.raises(LaunchError, match="lacks"):
            _run(prog)


def test_avx512_binary_is_refused_on_a_cpu_without_it():
    prog = Program(SOURCE).build("host", cpu="x86-64-v4")
    binary = read_host_binary(prog.binary)
    assert _level_features("x86-64-v4") <= set(binary.features)
    assert binary.kernel("weigh").vector_width == _weigh_lanes(512)
    if all(_has(f) for f in _level_features("x86-64-v4")):
        out, expected = _run(prog)
        np.testing.assert_allclose(out, expected, rtol=1e-5)
    else:
        with pytest.raises(LaunchError, match=r"x86-64-v4.*avx512f"):
            _run(prog)


def test_a_binary_needing_a_feature_this_cpu_lacks_is_a_launch_error():
    """Whatever this machine is: a native binary whose record names a feature /proc/cpuinfo does not
    list (as one built on another machine would) is refused before its code is loaded."""
    candidates = ["avx512f", "avx512vp2intersect", "amx-tile", "avx10.1", "sm4"]
    lacking = next(f for f in candidates if not _has(f.replace("-", "_")))
    binary = read_host_binary(Program(SOURCE).build("host").binary)
    binary.features = sorted({*binary.features, lacking})
    prog = Program.from_binary(binary.to_bytes())
    with pytest.raises(LaunchError, match=lacking):
        _run(prog)


def test_unknown_cpu_is_a_compile_error_naming_it():
    with pytest.raises(CompileError, match="not-a-cpu"):
        Program(SOURCE).build("host", cpu="not-a-cpu")


def test_cli_mcpu(tmp_path):
    src = tmp_path / "weigh.cl"
    src.write_text(SOURCE)
    out = tmp_path / "weigh.kkhost"
    done = subprocess.run([sys.executable, "-m", "kernelkit", "build", str(src), "-t", "host", "--mcpu", "x86-64-v2",
                           "-o", str(out)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    binary = read_host_binary(out.read_bytes())
    assert binary.cpu == "x86-64-v2" and _level_features("x86-64-v2") <= set(binary.features)
    shown = subprocess.run([sys.executable, "-m", "kernelkit", "inspect", str(out)], capture_output=True, text=True)
    assert "(x86-64-v2)" in shown.stdout and "sse4.2" in shown.stdout
    refused = subprocess.run([sys.executable, "-m", "kernelkit", "build", str(src), "-t", "gfx90a", "--mcpu",
                              "x86-64", "-o", str(tmp_path / "x.hsaco")], capture_output=True, text=True)
    assert refused.returncode != 0
    assert "--mcpu" in refused.stderr and "Traceback" not in refused.stderr
