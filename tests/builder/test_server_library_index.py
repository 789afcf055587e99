"""#18 item 2: the build server indexes, in a forked process, the device libraries its replay linked
whole (kernelkit.builder.server._Server._build_indexes), reads the index back through a pipe and keeps
it, so that every child it forks afterwards links only the pieces of the library a module needs instead
of the whole 2 MB library. The oracle is kernelkit's own index of the same library built in this process
(whose links equal LLVM's links of the whole library: test_library_index)."""

from __future__ import annotations

import socket
from pathlib import Path

from kernelkit.builder import server
from kernelkit.targets.amdhsa import codegen, library_index


def test_server_builds_and_adopts_the_index_of_a_library_linked_whole(monkeypatch):
    ident = (library_index.MUX_BUILTINS, "gfx90a", 6, False)
    monkeypatch.setattr(library_index, "unindexed", {ident})
    monkeypatch.setattr(library_index, "_indexes", {})
    srv = server._Server(Path("/nonexistent/kk.sock"), 1.0)
    srv.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        srv._build_indexes()
        srv._build_indexes()                        # asked again while it is being built: one builder
        assert len(srv.indexing) == 1
        while srv.indexing:
            for key, _ in srv.selector.select(timeout=60):
                srv._index_data(key.fileobj)
    finally:
        srv.listener.close()
    adopted = library_index._indexes[ident]
    assert library_index.unindexed == set()
    expected = library_index.build_index(codegen.mux_library_ir("gfx90a", 6))
    for part in ("head", "tail", "names", "texts", "refs", "always"):
        assert getattr(adopted, part) == getattr(expected, part), part
    # what a child forked now links for a module calling the work-group reduction: the same pieces
    needed = ["__mux_work_group_reduce_add_i32", "__mux_get_local_id"]
    assert adopted.text(needed) == expected.text(needed)
    assert library_index.linkable_library(*ident) is adopted
