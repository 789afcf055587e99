"""Run corpus kernels (tests/corpus/manifest.yaml ``run`` entries) on the host and on PoCL."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
from conftest import corpus_manifest

CORPUS = Path(__file__).resolve().parent.parent / "corpus"

DTYPES = {
    "char": np.int8, "uchar": np.uint8, "short": np.int16, "ushort": np.uint16, "int": np.int32,
    "uint": np.uint32, "long": np.int64, "ulong": np.uint64, "half": np.float16, "float": np.float32,
    "double": np.float64,
}


def manifest() -> dict:
    """tests/corpus/manifest.yaml (a copy: the YAML is parsed once per test run)."""
    return corpus_manifest()


@dataclass
class Case:
    file: str
    cl_std: str
    kernel: dict

    @property
    def name(self) -> str:
        return self.kernel["name"]

    @property
    def id(self) -> str:
        return f"{self.file}:{self.name}"

    @property
    def run(self) -> dict:
        return self.kernel["run"]

    @property
    def source(self) -> str:
        return (CORPUS / self.file).read_text()

    @property
    def options(self) -> list[str]:
        return [f"-cl-std={self.cl_std}"]

    @property
    def pocl(self) -> bool:
        return self.kernel.get("pocl", True)


def cases() -> list[Case]:
    out = []
    for file, fd in manifest()["files"].items():
        if fd.get("images"):
            continue
        for k in fd["kernels"]:
            if k.get("run"):
                out.append(Case(file, fd.get("cl_std", "CL1.2"), k))
    return out


def _vector_dtype(arg: dict):
    return DTYPES[arg["element"]]


def _buffer(spec: dict, rng: np.random.Generator, struct_dtype=None) -> np.ndarray:
    t = spec["buffer"]
    n = spec["count"]
    base = t
    width = 1
    for w in (16, 8, 4, 3, 2):
        if t.endswith(str(w)) and t[: -len(str(w))] in DTYPES:
            base, width = t[: -len(str(w))], (4 if w == 3 else w)
            break
    dt = DTYPES.get(base)
    if dt is None:
        raise KeyError(t)
    total = n * width
    init = spec.get("init", "zeros")
    if init == "zeros":
        arr = np.zeros(total, dt)
    elif init == "ones":
        arr = np.ones(total, dt)
    elif init == "arange":
        arr = np.arange(total).astype(dt)
    elif init == "random":
        if np.dtype(dt).kind == "f":
            arr = rng.random(total).astype(dt)
        else:
            arr = rng.integers(0, 100, total).astype(dt)
    else:
        vals = np.array(init, dtype=dt)
        arr = np.resize(vals, total).astype(dt)
    return arr


def struct_dtype(arg: dict, fields: dict):
    """A numpy dtype for a struct argument, inferred from the field values (C layout)."""
    names, formats = [], []
    for k, v in fields.items():
        names.append(k)
        formats.append(np.float32 if isinstance(v, float) else np.int32)
    return np.dtype({"names": names, "formats": formats}, align=True)


def make_args(case: Case, seed: int = 1234):
    """(list of argument values for kernelkit, list of (index, array) outputs)."""
    import kernelkit

    rng = np.random.default_rng(seed)
    spec = case.run["args"]
    values, outs = [], []
    for i, arg in enumerate(case.kernel["args"]):
        s = spec[arg["name"]]
        if isinstance(s, dict) and "buffer" in s:
            arr = _buffer(s, rng)
            values.append(arr)
            if s.get("out"):
                outs.append((i, arr))
        elif isinstance(s, dict) and "local" in s:
            t = s["local"]
            size = np.dtype(DTYPES.get(t.rstrip("0123456789"), np.float32)).itemsize
            w = t[len(t.rstrip("0123456789")):]
            size *= (4 if w == "3" else int(w)) if w else 1
            values.append(kernelkit.LocalMemory(size * s["count"]))
        elif arg["kind"] in ("struct", "union"):
            values.append(None)   # built by the test from the signature
        elif arg["kind"] == "vector":
            dt = _vector_dtype(arg)
            w = arg["width"]
            vals = np.resize(np.array(s, dtype=dt), 4 if w == 3 else w)
            values.append(vals)
        else:
            values.append(np.array(s, dtype=DTYPES[arg["element"]])[()])
    return values, outs


def assert_same_outputs(case: Case, reference, candidate) -> None:
    """Corpus ``case`` launched from two builds of its program (``reference`` and ``candidate``) on the same
    inputs gives the same outputs: integers exactly, floats to rtol 2e-6 / atol 1e-6, sorted when unordered."""
    values, outs = make_args(case)
    results = []
    for program in (reference, candidate):
        vals = [v.copy() if isinstance(v, np.ndarray) else v for v in values]
        program.kernel(case.name)(*vals, global_size=case.run["global"], local_size=case.run.get("local"))
        results.append(vals)
    for index, _ in outs:
        ref, ours = results[0][index], results[1][index]
        name = case.kernel["args"][index]["name"]
        if name in case.run.get("unordered", []):
            ours, ref = np.sort(ours, axis=None), np.sort(ref, axis=None)
        if ours.dtype.kind == "f":
            np.testing.assert_allclose(ours, ref, rtol=2e-6, atol=1e-6, err_msg=f"{case.id}: {name}")
        else:
            np.testing.assert_array_equal(ours, ref, err_msg=f"{case.id}: {name}")
