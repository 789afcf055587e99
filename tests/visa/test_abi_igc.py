"""kernelkit's vISA payload (kernelkit.abi.visa) against IGC's own objects for the same source:
every corpus kernel's input list (offsets and sizes) equals the one IGC 1.0.12504 gives it, on SKL,
ICLLP, TGLLP and DG2, at the SIMD width IGC chose — apart from the differences listed with their
reason, where the explicit arguments still sit where IGC puts them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kernelkit.abi.visa import implicit_inputs, lay_out, payloads_for_source
from kernelkit.errors import KernelkitError
from tests.conftest import require_tool
from tests.visa.igc_dump import CORPUS, IGC_DIR, corpus_std, ocloc_dump
from tests.visa.sim_harness import corpus_module

TABLE = json.loads((IGC_DIR / "inputs.json").read_text())

# (platform or "*", kernel) -> why kernelkit's list differs from IGC's
KNOWN_DIFFERENCES = {
    ("*", "move_particle"): "IGC flattens by-value structs into one input per scalar field",
    ("*", "nested_struct"): "IGC flattens by-value structs into one input per scalar field",
    ("*", "packed_sum"): "IGC flattens by-value structs into one input per scalar field",
    ("*", "scale_by_params"): "IGC flattens by-value structs into one input per scalar field",
    ("*", "math_float"): "IGC's builtin library reads constant tables (constBase)",
    ("*", "math_double"): "IGC's builtin library reads constant tables (constBase)",
    ("*", "math_integer"): "IGC's builtin library reads constant tables (constBase)",
    ("*", "math_vector"): "IGC's builtin library reads constant tables (constBase)",
    ("dg2", "calibrate"): "IGC gives some DG2 kernels a private base (stack calls it inserts)",
    ("dg2", "collatz"): "IGC gives some DG2 kernels a private base (stack calls it inserts)",
    ("dg2", "generic_pointers"): "IGC gives some DG2 kernels a private base (stack calls it inserts)",
    ("dg2", "reduce_sum"): "IGC gives some DG2 kernels a private base (stack calls it inserts)",
}
REFUSED_KINDS = ("image", "pipe", "queue")


def _cases():
    for key, kernels in sorted(TABLE.items()):
        for kernel, facts in sorted((kernels or {}).items()):
            if "unread" not in facts:
                yield key, kernel


@pytest.mark.parametrize("key,kernel", list(_cases()))
def test_inputs_equal_igc(key, kernel):
    platform, stem = key.split("/")
    facts = TABLE[key][kernel]
    functions, unoptimised, sigs = corpus_module(stem)
    if kernel not in sigs:                           # IGC's own block-invoke kernel of enqueue_kernel
        assert kernel.endswith("_dispatch_0")
        return
    sig = sigs[kernel]
    if any(a.kind in REFUSED_KINDS for a in sig.args):
        with pytest.raises(KernelkitError, match="not supported by kernelkit's vISA target"):
            lay_out(sig, facts["simd"], platform)
        return
    payload = lay_out(sig, facts["simd"], platform,
                      implicit_inputs(functions[kernel], unoptimised.get(kernel), platform), facts["buffer_offsets"])
    mine = sorted([i.offset, i.size] for i in payload.inputs)
    igc = [x[:2] for x in facts["inputs"]]
    reason = KNOWN_DIFFERENCES.get((platform, kernel)) or KNOWN_DIFFERENCES.get(("*", kernel))
    if reason is None:
        assert mine == igc, f"{key} {kernel}"
        return
    assert mine != igc, f"{key} {kernel} now matches IGC: drop its entry ({reason})"
    # what does agree: the local ids, the payload header and the explicit arguments before any aggregate
    aggregates = {a.index for a in sig.args if a.kind in ("struct", "union")}
    stop = min((i.offset for i in payload.inputs if i.arg_index in aggregates and i.kind == "argument"),
               default=1 << 30)
    agreed = [[i.offset, i.size] for i in payload.inputs
              if i.kind in ("local_id", "payload_header", "argument") and i.offset < stop]
    assert all(x in igc for x in agreed), f"{key} {kernel}: {reason}"


def test_stored_table_is_what_ocloc_gives():
    require_tool("ocloc")
    for stem in ("address_spaces",):
        found = ocloc_dump(CORPUS / f"{stem}.cl", "tgllp", f"-cl-std={corpus_std(stem + '.cl')}")
        stored = TABLE[f"tgllp/{stem}"]
        assert {k: {f: v[f] for f in ("simd", "inputs", "buffer_offsets")} for k, v in found.items()} == stored


def test_layout_command_prints_payload(capsys):
    from kernelkit.cli import main

    assert main(["layout", str(CORPUS / "address_spaces.cl"), "-t", "visa:tgllp", "-k", "two_local_buffers",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    # IGC's SIMD16 layout (tgllp/address_spaces in inputs.json is SIMD32: 3 local-id GRFs less)
    assert doc["simd"] == 16
    assert [(i["name"], i["offset"], i["size"]) for i in doc["inputs"] if i["kind"] != "local_id"] == [
        ("payload_header", 128, 32), ("a", 160, 4), ("b", 176, 4), ("data", 184, 8),
        ("enqueued_local_size", 192, 12)]


def test_unknown_platform_and_simd_are_refused():
    with pytest.raises(KernelkitError, match="unknown vISA platform"):
        payloads_for_source(str(Path(CORPUS / "address_spaces.cl")), "gen7", 16)
    functions, unoptimised, sigs = corpus_module("address_spaces")
    with pytest.raises(KernelkitError, match="SIMD width 4"):
        lay_out(sigs["copy_through_local"], 4, "tgllp")
