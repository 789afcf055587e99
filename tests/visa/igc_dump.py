"""Run Intel's OpenCL compiler (ocloc, IGC 1.0.12504) on OpenCL C with IGC's shader dumps on and
read back, per kernel, the SIMD width IGC chose, its vISA inputs and text, and which bufferOffset
implicit arguments its code uses. ``python -m tests.visa.igc_dump`` regenerates tests/visa/igc/
(inputs.json and the tgllp texts).
"""

from __future__ import annotations

import functools
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
CORPUS = HERE.parent / "corpus"
IGC_DIR = HERE / "igc"
# corpus files whose IGC objects the simulator runs; the others need what the vISA does not carry (IGC's
# constant and global data segments, printf strings) or kernelkit refuses them (images, pipes, queues)
SIMULATED_FILES = ("address_spaces", "atomics", "atomics_c11", "attributes", "control_flow", "conversions",
                   "qualifiers", "reductions", "workgroup_cl20")
PLATFORMS = {"skl": "skl", "icllp": "icllp", "tgllp": "tgllp", "dg2": "dg2"}


def ocloc_dump(source: Path, device: str, options: str = "") -> dict | None:
    """{kernel: {"simd", "inputs": [[offset, size, type], ...], "buffer_offsets": [i, ...],
    "visaasm"}} for every kernel IGC compiles, or None when ocloc refuses the file."""
    from kernelkit.errors import FormatError
    from kernelkit.formats.visa import parse_visaasm
    from kernelkit.formats.visa.tables import TYPES

    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, IGC_ShaderDumpEnable="1", IGC_DumpToCustomDir=f"{tmp}/dump")
        cmd = ["ocloc", "compile", "-file", str(source), "-device", device, "-q", "-out_dir", f"{tmp}/out"]
        if options:
            cmd += ["-options", options]
        done = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            return None
        dump = Path(tmp) / "dump"
        codegen = "\n".join(p.read_text() for p in dump.glob("*_codegen.ll"))
        out: dict = {}
        for path in sorted(dump.glob("*.visaasm")):
            text = path.read_text()
            try:
                routine = parse_visaasm(text).kernels[0]
            except FormatError as exc:             # image messages: kernelkit refuses images
                name = re.search(r'^\.kernel "([^"]+)"', text, re.M)
                out[name.group(1) if name else path.stem] = {"unread": exc.message}
                continue
            simd = next((a.as_int() for a in routine.attributes if a.name == "SimdSize"), 0)
            inputs = []
            for inp in routine.inputs:
                var = routine.variable(inp.id) if inp.category == 0 else None
                inputs.append([inp.offset, inp.size, TYPES[var.type][0] if var else "state"])
            out[routine.name] = {"simd": simd, "inputs": sorted(inputs),
                                 "buffer_offsets": _used_buffer_offsets(codegen, routine.name),
                                 "visaasm": text}
        return out


def _used_buffer_offsets(codegen: str, kernel: str) -> list[int]:
    """Indices (among the bufferOffset parameters) of those the kernel's final LLVM IR uses."""
    m = re.search(r"define spir_kernel void @" + re.escape(kernel) + r"\((.*?)\) #\d+ \{(.*?)\n\}", codegen, re.S)
    if not m:
        return []
    names = re.findall(r"%(bufferOffset\d*)\b", m.group(1))
    return [i for i, name in enumerate(names) if re.search("%" + name + r"\b", m.group(2))]


@functools.cache
def _manifest() -> dict:
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load((CORPUS / "manifest.yaml").read_text(), Loader=loader)


def corpus_std(name: str) -> str:
    return _manifest()["files"].get(name, {}).get("cl_std", "CL1.2")


def regenerate() -> None:
    """tests/visa/igc/inputs.json: IGC's inputs for every corpus kernel on every platform."""
    table: dict = {}
    for platform, device in PLATFORMS.items():
        for source in sorted(CORPUS.glob("*.cl")):
            found = ocloc_dump(source, device, f"-cl-std={corpus_std(source.name)}")
            key = f"{platform}/{source.stem}"
            if found is None:
                table[key] = None
                continue
            table[key] = {k: {f: v[f] for f in ("simd", "inputs", "buffer_offsets", "unread") if f in v}
                          for k, v in found.items()}
            print(key, len(found), file=sys.stderr)
    write_table(table)


def write_table(table: dict) -> None:
    """One line per platform/file, keys sorted."""
    lines = [f"{json.dumps(key)}: {json.dumps(table[key], sort_keys=True)}" for key in sorted(table)]
    (IGC_DIR / "inputs.json").write_text("{\n" + ",\n".join(lines) + "\n}\n")


def strip_comments(text: str) -> str:
    """IGC's vISA text without its comment lines and ``/// $n`` instruction tags."""
    lines = [re.sub(r"\s*///.*$", "", line) for line in text.splitlines() if not line.startswith("//")]
    return "\n".join(line for line in lines if line.strip()) + "\n"


def regenerate_visaasm(platform: str = "tgllp") -> None:
    """tests/visa/igc/<platform>/<file>.visaasm: IGC's text of every kernel of a corpus file it builds
    and kernelkit reads (comments stripped), the kernels the simulator tests run."""
    folder = IGC_DIR / platform
    folder.mkdir(exist_ok=True)
    for source in sorted(CORPUS.glob("*.cl")):
        if source.stem not in SIMULATED_FILES:
            continue
        found = ocloc_dump(source, PLATFORMS[platform], f"-cl-std={corpus_std(source.name)}") or {}
        texts = [strip_comments(v["visaasm"]) for _k, v in sorted(found.items()) if "visaasm" in v]
        if texts:
            (folder / f"{source.stem}.visaasm").write_text("".join(texts))


if __name__ == "__main__":
    regenerate()
    regenerate_visaasm()
