"""Run every writer once and print ``{writer: sha256 of its output}`` as JSON (used by
test_determinism.py, which runs this in subprocesses under different PYTHONHASHSEED values).

    python tests/formats/writer_digests.py REFERENCE_DIR SOURCE.cl OUT_DIR
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def digests(ref: Path, source: Path, out: Path) -> dict[str, str]:
    from kernelkit.cli import main as cli
    from kernelkit.formats import elf as E
    from kernelkit.formats.amdcl2.binary import read_cl2
    from kernelkit.formats.amdgpu import llvm_yaml
    from kernelkit.formats.amdgpu import notes as N
    from kernelkit.formats.amdgpu.bundle import OffloadBundle, compress
    from kernelkit.formats.amdgpu.codeobject import CodeObject
    from kernelkit.formats.amdgpu.hostobj import host_object
    from kernelkit.formats.amdgpu.metadata_v2 import to_v2, v2_to_v3, v3_to_v2
    from kernelkit.formats.amdil.inspect import block_from_kernel_info
    from kernelkit.formats.amdil.inspect import inspect as amdil_inspect
    from kernelkit.formats.amdil.link import link
    from kernelkit.formats.amdil.program import parse_program
    from kernelkit.formats.visa.binary import read_isa, write_isa
    from kernelkit.formats.visa.text_parse import parse_visaasm
    from kernelkit.formats.visa.text_print import print_visaasm

    results: dict[str, bytes] = {}
    v4 = (ref / "amdgpu/clang19/saxpy.gfx90a.v4.hsaco").read_bytes()
    v2 = (ref / "amdgpu/clang14/struct_image.gfx803.v2.hsaco").read_bytes()
    elf = E.ElfFile.parse(v4)
    elf.layout()
    results["elf.layout+to_bytes"] = elf.to_bytes()
    results["elf.encode_notes"] = E.encode_notes([N.encode_note(N.decode_note(n)) for n in
                                                  E.ElfFile.parse(v4).all_notes()])
    co4, co2 = CodeObject.parse(v4), CodeObject.parse(v2)
    results["metadata.v3_to_v2+yaml"] = llvm_yaml.dump(to_v2(v3_to_v2(co4.metadata))).encode()
    results["metadata.v2_to_v3+msgpack"] = N.encode_note(N.MetadataV3Note(v2_to_v3(co2.metadata, 4).to_v3())).desc
    results["metadata.v2_yaml"] = llvm_yaml.dump(to_v2(co2.metadata)).encode()
    results["descriptor+kernel_code_t"] = b"".join(
        co.descriptor(k).to_bytes() for co in (co4, co2) for k in co.metadata.kernels)
    plain = OffloadBundle.parse((ref / "amdgpu/bundle/saxpy.hipv4.uncompressed.hipfb").read_bytes())
    results["bundle.to_bytes"] = plain.to_bytes(4096)
    results["bundle.compress.zstd"] = compress(results["bundle.to_bytes"], method="zstd")
    results["bundle.compress.zlib"] = compress(results["bundle.to_bytes"], method="zlib", version=2)
    results["host_object"] = host_object([results["bundle.to_bytes"], results["bundle.compress.zstd"]])
    il_text = (ref / "amdil/hlc-juniper/copyImage2D.01.unlinked.il").read_text()
    results["amdil.to_text"] = parse_program(il_text).to_text().encode()
    program = parse_program(il_text)
    results["amdil.link"] = link(il_text, program.kernels[0].source_name).encode()
    info = amdil_inspect(il_text.encode(), "x.il")
    results["amdil.metadata_block"] = "\n".join(
        "\n".join(block_from_kernel_info(k, info["version"], info["device"]).lines()) for k in info["kernels"]
    ).encode()
    for name in ("alltypes.clo.regen", "samplers4.32.clo.regen", "enqueue.clo.regen"):
        results[f"amdcl2.to_bytes.{name}"] = read_cl2((ref / "amdcl2" / name).read_bytes()).to_bytes()
    isa = read_isa((ref / "visa/tgllp_simple/simple.isa").read_bytes(), lenient=True)
    results["visa.write_isa(binary)"] = write_isa(isa)
    text = parse_visaasm((ref / "visa/tgllp_saxpy/saxpy.visaasm").read_text())
    results["visa.write_isa(text)"] = write_isa(text)
    results["visa.print_visaasm"] = print_visaasm(text).encode()
    for target, extra in (("host", []), ("gfx90a", []), ("gfx803", ["--code-object-version", "2"]),
                          ("gfx1100", ["--code-object-version", "5"]), ("amdil:juniper", []),
                          ("amdcl2:bonaire", []), ("visa:tgllp", [])):
        path = out / f"{target}.bin"
        if cli(["build", "-t", target, *extra, str(source), "-o", str(path)]) != 0:
            raise SystemExit(f"build for {target} failed")
        results[f"build -t {target} {' '.join(extra)}".strip()] = path.read_bytes()
    return {name: hashlib.sha256(data).hexdigest() for name, data in results.items()}


if __name__ == "__main__":
    print(json.dumps(digests(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])), indent=1, sort_keys=True))
