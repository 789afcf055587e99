"""Real sub-groups on the host (issue 10, point 4): in a vectorised kernel a sub-group is a packet of
W consecutive work-items along x (W = the vector width); where the kernel runs scalar (a group whose
x size is not a multiple of W) a sub-group is one work-item. The builtins run across the packet's
lanes; spec 003's kernel queries answer the same sizes; intel_reqd_sub_group_size is honoured for W
and 1 and refused otherwise. Oracle: numpy over the sub-group partition the queries describe."""

from __future__ import annotations

import numpy as np
import pytest

import kernelkit
from kernelkit.targets.host.passes.vectorise import host_vector_width

W = host_vector_width()

SRC = """
kernel void groups(global const int *in, global int *out, global float *fout) {
  size_t g = get_global_id(0);
  int v = in[g];
  float f = (float)v * 0.5f;
  uint l = get_sub_group_local_id();
  out[g * 12 + 0] = sub_group_reduce_add(v);
  out[g * 12 + 1] = sub_group_reduce_max(v);
  out[g * 12 + 2] = sub_group_reduce_min(v);
  out[g * 12 + 3] = sub_group_scan_inclusive_add(v);
  out[g * 12 + 4] = sub_group_scan_exclusive_max(v);
  out[g * 12 + 5] = sub_group_broadcast(v, get_sub_group_size() - 1);
  out[g * 12 + 6] = sub_group_any(v > 6) + 2 * sub_group_all(v > -6);
  out[g * 12 + 7] = get_sub_group_size();
  out[g * 12 + 8] = get_num_sub_groups();
  out[g * 12 + 9] = get_sub_group_id();
  out[g * 12 + 10] = l;
  out[g * 12 + 11] = sub_group_shuffle(v, (l + 3) % get_sub_group_size());
  fout[g] = sub_group_reduce_add(f);
}
"""


def _expect(data: np.ndarray, local: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    out = np.zeros((len(data), 12), np.int64)
    fout = np.zeros(len(data), np.float64)
    for start in range(0, len(data), local):
        group = data[start:start + local]
        for s in range(0, len(group), size):
            v = group[s:s + size].astype(np.int64)
            rows = out[start + s:start + s + len(v)]
            rows[:, 0] = v.sum()
            rows[:, 1] = v.max()
            rows[:, 2] = v.min()
            rows[:, 3] = np.cumsum(v)
            rows[:, 4] = np.concatenate([[np.iinfo(np.int32).min], np.maximum.accumulate(v)[:-1]])
            rows[:, 5] = v[-1]
            rows[:, 6] = int((v > 6).any()) + 2 * int((v > -6).all())
            rows[:, 7] = size
            rows[:, 8] = len(group) // size
            rows[:, 9] = s // size
            rows[:, 10] = np.arange(len(v))
            rows[:, 11] = v[(np.arange(len(v)) + 3) % size]
            fout[start + s:start + s + len(v)] = (v * 0.5).sum()
    return out, fout


def host_kernel(source: str, name: str, options=("-cl-std=CL3.0",)):
    """The spec 003 host compiler::Kernel of `name` (the queries' oracle is the launch itself)."""
    from kernelkit.mux import Context
    from kernelkit.mux.registry import find_compiler

    target = find_compiler("host").create_target(Context(), None)
    target.init_with_builtins(None)
    module = target.create_module()
    module.compile_opencl_c(source, list(options))
    module.finalize()
    return module.get_kernel(name)


@pytest.mark.parametrize("local", [W, 4 * W, W + 4 if W > 4 else 3])
def test_sub_group_builtins_match_the_queried_partition(local):
    prog = kernelkit.Program(SRC, ["-cl-std=CL3.0"]).build()
    assert prog._binary.kernel("groups").vector_width == W, prog.build_log
    size = host_kernel(SRC, "groups").query_sub_group_size_for_local_size(local, 1, 1)
    assert size == (W if local % W == 0 else 1)
    n = local * 3
    data = np.random.default_rng(local).integers(-10, 10, n).astype(np.int32)
    out = np.zeros(n * 12, np.int32)
    fout = np.zeros(n, np.float32)
    prog.kernel("groups")(data, out, fout, global_size=(n,), local_size=(local,))
    want, fwant = _expect(data, local, size)
    np.testing.assert_array_equal(out.reshape(n, 12), want)
    np.testing.assert_allclose(fout, fwant, rtol=1e-6)


def test_spec003_queries_give_the_real_sizes():
    kernel = host_kernel(SRC, "groups")
    assert kernel.get_sub_group_size() == W
    assert kernel.query_sub_group_size_for_local_size(2 * W, 3, 1) == W
    assert kernel.query_sub_group_size_for_local_size(W + 1, 1, 1) == 1
    assert kernel.query_local_size_for_sub_group_count(3) == (3 * W, 1, 1)
    assert kernel.query_max_sub_group_count() >= 1024 // W
    fixed = host_kernel("__attribute__((reqd_work_group_size(32, 2, 1))) kernel void k(global int *o) {"
                        " o[get_global_id(0)] = get_sub_group_id(); }", "k")
    w = fixed.get_sub_group_size()
    assert fixed.query_max_sub_group_count() == 64 // w
    assert fixed.query_local_size_for_sub_group_count(64 // w) == (0, 0, 0) or w == 1


def test_required_sub_group_size():
    src = ("__attribute__((intel_reqd_sub_group_size({n}))) kernel void k(global int *o) {{"
           " o[get_global_id(0)] = get_sub_group_size(); }}")
    out = np.zeros(2 * W, np.int32)
    kernelkit.Program(src.format(n=W), ["-cl-std=CL3.0"]).build().kernel("k")(out, global_size=(2 * W,),
                                                                               local_size=(2 * W,))
    np.testing.assert_array_equal(out, W)
    kernelkit.Program(src.format(n=1), ["-cl-std=CL3.0"]).build().kernel("k")(out, global_size=(2 * W,),
                                                                               local_size=(2 * W,))
    np.testing.assert_array_equal(out, 1)
    for n in (2 * W, 4):   # another packet width than the CPU's: honoured too, even with -cl-wfv=never
        prog = kernelkit.Program(src.format(n=n), ["-cl-std=CL3.0", "-cl-wfv=never"]).build()
        assert prog._binary.kernel("k").vector_width == n
        wide = np.zeros(2 * n, np.int32)
        prog.kernel("k")(wide, global_size=(2 * n,), local_size=(2 * n,))
        np.testing.assert_array_equal(wide, n)
    with pytest.raises(kernelkit.CompileError, match=r"intel_reqd_sub_group_size\(3\) is not a host sub-group"):
        kernelkit.Program(src.format(n=3), ["-cl-std=CL3.0"]).build()
