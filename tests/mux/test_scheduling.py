"""AddSchedulingParametersPass: signatures, call arguments and the spec's metadata, verified by llvmlite."""

from __future__ import annotations

import re

import llvmlite.binding as llvm
import pytest

from kernelkit.frontend import compile_opencl
from kernelkit.ir import parse
from kernelkit.ir import types as T
from kernelkit.mux.passes.kernel_attributes import mark_kernels
from kernelkit.mux.passes.lower_builtins import lower_opencl_builtins
from kernelkit.mux.passes.scheduling import (
    SchedulingParameter,
    add_scheduling_parameters,
    scheduled_parameter_indices,
)

SRC = """
size_t leaf(void) { return get_local_id(0); }
size_t middle(int x) { return leaf() + x; }
float pure(float x) { return x * 2.0f; }
int recursive_free(int x) { return x + 1; }
kernel void k(global ulong *o, global float *f) {
  o[middle(1)] = get_group_id(0);
  f[0] = pure(f[1]);
  barrier(CLK_LOCAL_MEM_FENCE);
}
kernel void plain(global float *f) { f[0] = pure(f[1]); mem_fence(CLK_GLOBAL_MEM_FENCE); }
"""
PARAMS = [SchedulingParameter("MuxWorkItemInfo", T.pointer(0)), SchedulingParameter("MuxWorkGroupInfo", T.pointer(0))]


@pytest.fixture(scope="module", params=["-O0", "-O1"])
def scheduled(request):
    module = parse(compile_opencl(SRC, ["-cl-std=CL2.0", request.param]).ir_text)
    lower_opencl_builtins(module)
    mark_kernels(module)
    changed = add_scheduling_parameters(module, PARAMS)
    text = str(module)
    ref = llvm.parse_assembly(text)
    ref.verify()
    return module, changed, text, ref


def test_only_functions_reaching_scheduled_builtins_change(scheduled):
    module, changed, text, ref = scheduled
    names = {f.name for f in changed}
    assert "k" in names and "__mux_get_group_id" in names and "__mux_work_group_barrier" in names
    assert "plain" not in names and "__mux_mem_barrier" not in names
    for fn in ("pure", "recursive_free"):
        f = module.get_function(fn)
        assert f is None or fn not in names
    for f in changed:
        assert [str(t) for t in f.function_type.params[-2:]] == ["ptr", "ptr"]
        assert [a.name for a in f.args[-2:]] == ["MuxWorkItemInfo", "MuxWorkGroupInfo"]
    # llvmlite sees the new parameter types
    assert [str(a.type) for a in ref.get_function("k").arguments][-2:] == ["ptr", "ptr"]


def test_calls_pass_the_callers_parameters(scheduled):
    module, changed, text, _ = scheduled
    for fn in changed:
        if fn.is_declaration:
            continue
        wi, wg = fn.args[-2:]
        for inst in fn.instructions():
            callee = getattr(inst, "called_function", None)
            if callee is not None and callee in changed:
                assert inst.args[-2:] == [wi, wg]
    assert "poison" not in text


def test_spec_metadata(scheduled):
    module, changed, text, _ = scheduled
    m = re.search(r"^!mux-scheduling-params = !\{(![0-9]+)\}$", text, flags=re.M)
    assert m and re.search(rf'^{m.group(1)} = !{{!"MuxWorkItemInfo", !"MuxWorkGroupInfo"}}$', text, flags=re.M)
    for fn in changed:
        if fn.is_declaration:
            continue
        n = len(fn.args)
        assert scheduled_parameter_indices(fn) == [n - 2, n - 1]
        assert re.search(rf"define [^\n]*@{re.escape(fn.name)}\([^\n]*!mux_scheduled_fn ", text)


def test_second_run_is_refused():
    module = parse(compile_opencl(SRC, ["-cl-std=CL2.0", "-O0"]).ir_text)
    lower_opencl_builtins(module)
    add_scheduling_parameters(module, PARAMS)
    with pytest.raises(ValueError):
        add_scheduling_parameters(module, PARAMS)
