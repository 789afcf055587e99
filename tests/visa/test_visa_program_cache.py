"""vISA programs built through the API (``Program(src).build("visa:<platform>")``) are compiled by
the builder in a worker process and served from the whole-binary cache like every other target's
(kernelkit.builder.build_visa_program): the cached entry is the VisaBinary container, which reads
back as the very program compile_visa_program makes (round trip), and its key holds the source,
the options (``--simd`` among them), the platform, the toolchain and every included file."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit.builder import build_visa_program
from kernelkit.errors import FormatError
from kernelkit.targets.visa.module import VISA_BINARY_MAGIC, compile_visa_program, read_visa_binary

# a constant table (a data segment), private memory, printf and a kernel TGLLP refuses (no fp64)
SOURCE = """#include "scale.h"
__constant int table[4] = {3, 5, 7, 11};
__kernel void scale(__global int *out, __global const int *in) {
    size_t i = get_global_id(0);
    int tmp[4];
    for (int j = 0; j < 4; j++) tmp[j] = in[i] * table[j];
    out[i] = tmp[i % 4] + SCALE_BIAS;
    if (i == 0) printf("first %d\\n", out[0]);
}
__kernel void twice(__global double *d) { d[get_global_id(0)] *= 2.0; }
"""


@pytest.fixture
def include_dir(tmp_path):
    (tmp_path / "scale.h").write_text("#define SCALE_BIAS 1\n")
    return tmp_path


def test_the_container_reads_back_as_the_program(include_dir):
    program = compile_visa_program(SOURCE, "tgllp", [f"-I{include_dir}"], "scale.cl")
    assert [k.signature.name for k in program.kernels] == ["scale", "twice"]
    scale, twice = program.kernels
    assert scale.segments and scale.private_bytes and scale.printf_strings == ["first %d\n"]
    assert twice.error and "uses double" in twice.error and twice.payload is None
    assert str(include_dir / "scale.h") in [path for path, _ in program.deps]
    data = program.to_bytes()
    assert data.startswith(VISA_BINARY_MAGIC)
    program.deps = []      # the cache entry keeps them, not the container
    assert read_visa_binary(data) == program


def test_a_damaged_container_is_a_format_error():
    with pytest.raises(FormatError) as exc:
        read_visa_binary(b"KKHOST\x00\x01")
    assert exc.value.field == "magic"
    with pytest.raises(FormatError) as exc:
        read_visa_binary(VISA_BINARY_MAGIC + b"\x93\x01")          # a truncated msgpack array
    assert exc.value.offset == len(VISA_BINARY_MAGIC)
    with pytest.raises(FormatError) as exc:   # msgpack {"version": 1, "platform": "tgllp", "kernels": [{}]}
        read_visa_binary(VISA_BINARY_MAGIC + b"\x83\xa7version\x01\xa8platform\xa5tgllp\xa7kernels\x91\x80")
    assert exc.value.field == "kernels.signature"


def test_api_builds_are_cached_under_source_options_platform_and_includes(include_dir, isolated_cache):
    options = [f"-I{include_dir}"]
    first = build_visa_program(SOURCE, "visa:tgllp", options, filename="scale.cl")
    again = build_visa_program(SOURCE, "visa:tgllp", options, filename="scale.cl")
    assert (first.from_cache, again.from_cache) == (False, True) and again.binary == first.binary
    simd16 = build_visa_program(SOURCE, "visa:tgllp", [*options, "--simd=16"], filename="scale.cl")
    assert not simd16.from_cache and read_visa_binary(simd16.binary).kernels[0].payload.simd == 16
    skl = build_visa_program(SOURCE, "visa:skl", options, filename="scale.cl")
    assert not skl.from_cache and read_visa_binary(skl.binary).platform == "skl"
    assert read_visa_binary(skl.binary).kernels[1].error is None     # SKL has fp64

    (include_dir / "scale.h").write_text("#define SCALE_BIAS 100\n")   # an included file changed: a miss
    program = kernelkit.Program(SOURCE, options, filename="scale.cl").build("visa:tgllp")
    assert program.binary == read_visa_binary(
        build_visa_program(SOURCE, "visa:tgllp", options, filename="scale.cl").binary).isa_of_built()
    data = np.arange(8, dtype=np.int32)
    out = np.zeros(8, dtype=np.int32)
    printed = program.kernel("scale")(out, data, global_size=(8,))
    np.testing.assert_array_equal(out, data * np.array([3, 5, 7, 11] * 2) + 100)
    assert printed == "first 100\n"
