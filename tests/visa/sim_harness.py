"""Run a vISA routine on kernelkit's simulator with the payload kernelkit.abi.visa lays out for its
OpenCL C source (used by the simulator tests on IGC's own objects and on kernelkit's)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from kernelkit import ir
from kernelkit.abi.signature import signatures_from_ir
from kernelkit.abi.visa import _compile, implicit_inputs, lay_out
from kernelkit.formats.visa import parse_visaasm
from kernelkit.sim.visa import decode, launch
from tests.visa.igc_dump import CORPUS, IGC_DIR, corpus_std


@cache
def corpus_module(stem: str):
    options = [f"-cl-std={corpus_std(stem + '.cl')}"]
    path = str(CORPUS / f"{stem}.cl")
    module = ir.parse(_compile(path, options).ir_text)
    unoptimised = ir.parse(_compile(path, options + ["-O0"]).ir_text)
    return ({f.name: f for f in module.functions}, {f.name: f for f in unoptimised.functions},
            {s.name: s for s in signatures_from_ir(module)})


@cache
def igc_program(platform: str, stem: str, kernel: str, text_path: Path | None = None):
    """IGC's routine for ``kernel`` (decoded) and its SIMD width."""
    text = (text_path or IGC_DIR / platform / f"{stem}.visaasm").read_text()
    routine = next(k for k in parse_visaasm(text).kernels if k.name == kernel)
    simd = next(a.as_int() for a in routine.attributes if a.name == "SimdSize")
    return decode(routine), simd


def run_igc(platform: str, stem: str, kernel: str, args: list, global_size, local_size=None, *,
            buffer_offsets=(), slm_bytes=None, text_path: Path | None = None):
    functions, unoptimised, sigs = corpus_module(stem)
    program, simd = igc_program(platform, stem, kernel, text_path)
    sig = sigs[kernel]
    payload = lay_out(sig, simd, platform, implicit_inputs(functions[kernel], unoptimised.get(kernel), platform),
                      buffer_offsets)
    return launch(program, payload, args, global_size, local_size, signature=sig,
                  static_slm=sig.static_local_mem, slm_bytes=slm_bytes)
