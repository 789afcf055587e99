"""`kernelkit run`, `kernelkit build -t host` + `inspect`, `kernelkit layout -t host`, the mux API."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from kernelkit.cli import main

SAXPY = "kernel void saxpy(float a, global const float *x, global float *y) {\n" \
        "  size_t i = get_global_id(0); y[i] = a * x[i] + y[i]; }\n"


@pytest.fixture()
def saxpy(tmp_path):
    p = tmp_path / "saxpy.cl"
    p.write_text(SAXPY)
    return p


def test_run_prints_results(saxpy, capsys):
    assert main(["run", str(saxpy), "-k", "saxpy", "--global", "8", "--arg", "2.0", "--arg", "x:[8]=arange",
                 "--arg", "y:[8]=ones", "--print", "y"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("y = array([ 1.,  3.,  5.,  7.,  9., 11., 13., 15.]")


def test_run_saves_and_checks(saxpy, tmp_path, capsys):
    npz = tmp_path / "out.npz"
    np.save(tmp_path / "x.npy", np.full(4, 3, np.float32))
    assert main(["run", str(saxpy), "-g", "4", "-a", "0.5", "-a", f"@{tmp_path / 'x.npy'}", "-a", "[4]=2",
                 "--save", str(npz)]) == 0
    np.testing.assert_array_equal(np.load(npz)["y"], [3.5] * 4)
    assert main(["run", str(saxpy), "-g", "8", "-a", "1", "-a", "[8]", "-a", "[4]", "--check"]) == 1
    assert "out-of-bounds read of 4 bytes at address 0x" in capsys.readouterr().err  # y[4] is read first


def test_run_reports_wrong_arguments(saxpy, capsys):
    assert main(["run", str(saxpy), "-g", "8", "-a", "1"]) == 1
    assert "takes 3 argument(s) (float a, float* x, float* y); 1 --arg given" in capsys.readouterr().err
    assert main(["run", str(saxpy), "-g", "8", "-a", "z:1", "-a", "[8]", "-a", "[8]"]) == 1
    assert "named 'a', not 'z'" in capsys.readouterr().err


def test_build_inspect_layout_and_run_binary(saxpy, tmp_path, capsys):
    binary = tmp_path / "saxpy.kkh"
    assert main(["build", str(saxpy), "-t", "host", "-o", str(binary)]) == 0
    assert main(["inspect", str(binary), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert [k["name"] for k in info["kernels"]] == ["saxpy"] and info["entries"] == ["kk.run.saxpy"]
    assert main(["layout", str(saxpy), "-t", "host", "-k", "saxpy", "--json"]) == 0
    lay = json.loads(capsys.readouterr().out)
    assert [(a["slot_offset"], a["value_size"]) for a in lay["args"]] == [(0, 4), (8, 8), (16, 8)]
    assert main(["run", str(binary), "-g", "4", "-a", "2", "-a", "[4]=1", "-a", "[4]=1", "--print"]) == 0
    assert "y = array([3., 3., 3., 3.]" in capsys.readouterr().out


def test_mux_classes_and_registry():
    from kernelkit.mux.context import Context
    from kernelkit.mux.registry import find_compiler
    from kernelkit.targets.host.info import get_compilers

    info = get_compilers()[0]
    assert info.name == "host" and info.supports_deferred_compilation
    target = info.create_target(Context())
    module = target.create_module()
    module.compile_opencl_c(SAXPY)
    module.finalize()
    kernel = module.get_kernel("saxpy")
    assert kernel.get_sub_group_size() == 1 and kernel.get_dynamic_work_width(8, 1, 1) == 1
    assert module.create_binary()[:6] == b"KKHOST"
    assert find_compiler("host").name == "host"


def test_threads_env_reaches_the_runtime(saxpy):
    code = ("import numpy as np, kernelkit\n"
            f"k = kernelkit.Program({SAXPY!r}).build().kernel('saxpy')\n"
            "import kernelkit.runtime.launch as L\n"
            "print(L.thread_count())\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={"KERNELKIT_THREADS": "5", "PATH": "/usr/bin:/bin"}, check=True)
    assert out.stdout.strip() == "5"
