"""What a build's client process imports before its compile goes to a worker or the build server
(#18: a cold build's client is mostly start-up; nothing heavy is imported for a build that a
worker or the server serves). The oracle is the interpreter's own ``sys.modules`` in a fresh process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _modules_after(code: str) -> set[str]:
    """The modules ``code`` loads in a fresh interpreter beyond those its start-up (site) loads."""
    probe = "import sys, json\nbefore = set(sys.modules)\n" + code + \
        "\nprint(json.dumps(sorted(set(sys.modules) - before)))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.splitlines()[-1]))


def test_program_class_needs_no_ir_or_llvm():
    """``kernelkit.Program`` (what a first host build starts with) loads no IR object model, no IR
    analysis and no LLVM: the compile runs elsewhere, the reach analysis is read when a kernel is."""
    loaded = _modules_after("import kernelkit\nkernelkit.Program")
    heavy = [m for m in loaded if m == "kernelkit.ir" or m.startswith(("kernelkit.ir.", "llvmlite", "kernelkit.mux",
                                                                      "kernelkit.frontend"))]
    assert heavy == []
    assert "kernelkit.runtime.program" in loaded


def test_build_client_starts_no_subprocess_module():
    """The build client (``kernelkit.builder`` and its worker pool, as a CLI build through the build
    server uses them) imports neither subprocess nor the compile chain; only a plain worker needs
    subprocess, and it imports it when it starts one."""
    loaded = _modules_after("import kernelkit.builder, kernelkit.builder.pool, kernelkit.builder.server, "
                            "kernelkit.commands.build")
    assert "subprocess" not in loaded
    assert not [m for m in loaded if m.startswith(("kernelkit.ir", "kernelkit.mux", "kernelkit.targets", "llvmlite"))]
