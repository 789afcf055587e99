"""What the host lowering leaves in the IR, per spec 003 ("Metadata", "Function Attributes")."""

from __future__ import annotations

import re

from kernelkit.targets.host import codegen

SRC = r"""
kernel void k(global float *a, local float *l) {
  local float t[16];
  t[get_local_id(0)] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  a[get_global_id(0)] = t[15 - get_local_id(0)];
}
kernel void plain(global float *a) { a[get_global_id(0)] *= 2.0f; }
"""


def _mux_form(source: str) -> str:
    """The module after the mux pipeline (what the host's late passes receive)."""
    from kernelkit.mux.context import Context
    from kernelkit.targets.host.info import get_compilers

    module = get_compilers()[0].create_target(Context()).create_module()
    module.compile_opencl_c(source, ["-cl-std=CL2.0"])
    module.finalize()
    return str(module.finalized_llvm_module)


def test_scheduling_metadata_and_entry_attributes():
    ir = _mux_form(SRC)
    assert "@__mux_get_global_id(" in ir and "@__mux_work_group_barrier(" in ir
    lowered, kernels, local_globals, _, _ = codegen.lower_to_host_ir(codegen.link_builtin_library(ir))
    assert sorted(kernels) == ["k", "plain"] and local_globals == ["k.t"]
    # !mux-scheduling-params names the two parameters, !mux_scheduled_fn gives their indices
    params = re.search(r"^!mux-scheduling-params = !\{!(\d+)\}", lowered, re.M)
    assert params and f'!{params.group(1)} = !{{!"MuxWorkItemInfo", !"MuxWorkGroupInfo"}}' in lowered
    header = re.search(r"^define .*@plain\((.*)\) .*!mux_scheduled_fn !(\d+)", lowered, re.M)
    assert header.group(1).endswith("ptr noalias %kk.wi, ptr noalias %kk.wg")
    assert f"!{header.group(2)} = !{{i32 1, i32 2}}" in lowered
    assert re.search(r"@__mux_get_global_id\(i32 (noundef )?0, ptr %kk.wi, ptr %kk.wg\)", lowered)
    codegen.compile_host(ir, local_mem={"k": 64}, keep_ir=True)
    final = codegen._LAST_IR["text"]

    def attributes_of(fn: str) -> str:
        line = re.search(rf"^define void @{re.escape(fn)}\(.*$", final, re.M).group(0)
        groups = [re.search(rf"^attributes #{g} = \{{(.*)\}}", final, re.M).group(1)
                  for g in re.findall(r"#(\d+)", line)]
        return " ".join([line, *groups])

    entry = attributes_of("kk.run.k")
    assert '"mux-kernel"="entry-point"' in entry
    for attr in ('"mux-orig-fn"="k"', '"mux-base-fn-name"="k"', '"mux-work-item-order"="xyz"',
                 '"mux-barrier-schedule"="linear"', '"mux-local-mem-usage"="64"'):
        assert attr in entry
    plain = attributes_of("kk.run.plain")
    assert '"mux-kernel"="entry-point"' in plain and "mux-barrier-schedule" not in plain
