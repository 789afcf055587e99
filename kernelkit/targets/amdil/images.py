"""Images and samplers in AMD IL bodies (Evergreen and Northern Islands), as the driver's
copyImage kernels do them (reference/amdil/hlc-juniper): a read-only image is resource N
(``sample_resource(N)_sampler(S)_coordtype(...)``, float coordinates; integer coordinates are
converted and floored first), a write-only image is typed UAV N (``uav_store_id(N) coord,
value``); a sampler defined in the kernel gets its own sampler id and a ``;sampler:`` record
(``unknown_<value>``, location 1); ``get_image_width/height/depth`` read the image's constants
from cb1 (spec 000 "Image Metadata": width, height, depth in its first three words)."""

from __future__ import annotations

from kernelkit.errors import CompileError
from kernelkit.mux.mangling import try_demangle
from kernelkit.targets.amdil.regs import COMP, Slot, dst_text

IMAGE_READS = ("read_imagef", "read_imagei", "read_imageui")
IMAGE_WRITES = ("write_imagef", "write_imagei", "write_imageui")
IMAGE_QUERIES = {"get_image_width": 0, "get_image_height": 1, "get_image_depth": 2}
# word of the image constants: (Evergreen and later, 7XX)
CHANNEL_QUERIES = {"get_image_channel_data_type": (3, 4), "get_image_channel_order": (7, 5)}
CLK_NORMALIZED_COORDS_TRUE = 1


class ImageOps:
    def image_call(self, inst, name: str) -> bool:
        """Select an image builtin; False when ``name`` is not one."""
        if name == "__translate_sampler_initializer":
            value = self.val(inst.args[0])[0]
            if not isinstance(value, int):
                raise CompileError("amdil: a sampler initializer must be a constant")
            self.values[id(inst)] = [("sampler", self.kernel_sampler(value), value)]
            return True
        demangled = try_demangle(name)
        if demangled is None:
            return False
        base = demangled[0]
        if base in IMAGE_READS:
            self.read_image(inst)
        elif base in IMAGE_WRITES:
            self.write_image(inst)
        elif base in IMAGE_QUERIES or base in CHANNEL_QUERIES or base == "get_image_dim":
            info = self.image_info(inst.args[0])
            out = self.result(inst)
            if base in CHANNEL_QUERIES:     # spec 000 "Image Metadata": 7XX and 8XX word index
                words = [CHANNEL_QUERIES[base][self.device.family == "7XX"]]
            elif base == "get_image_dim":
                words = [0, 1, 2][:len(out)]
            else:
                words = [IMAGE_QUERIES[base]]
            for o, w in zip(out, words, strict=False):
                self.em.emit(f"mov {dst_text(o.num, [o.comp])}, "
                             f"r{info['register'] + w // 4}.{COMP[w % 4] * 4}")
            for o in out[len(words):]:
                self.em.mov([o], [0])
        else:
            return False
        return True

    def kernel_sampler(self, value: int) -> int:
        samplers = self.layout.setdefault("samplers", [])
        if value not in samplers:
            samplers.append(value)
        return samplers.index(value)

    def argument_sampler(self, v) -> int:
        """The sampler id of a sampler kernel argument (after the kernel's own samplers:
        ``;sampler:<name>:<id>:0:0``)."""
        from kernelkit.ir.module import Argument
        if not isinstance(v, Argument):
            raise CompileError("amdil: a sampler must be a kernel argument or a constant")
        names = self.layout.setdefault("sampler_args", [])
        if v.index not in names:
            names.append(v.index)
        return 1000 + names.index(v.index)      # renumbered after the kernel's own samplers

    def image_info(self, v) -> dict:
        from kernelkit.ir.module import Argument
        if not isinstance(v, Argument) or self.layout["args"][v.index].get("kind") != "image":
            raise CompileError("amdil: an image operand must be a kernel argument")
        return self.layout["args"][v.index]

    def read_image(self, inst) -> None:
        em = self.em
        image, *rest = inst.args
        info = self.image_info(image)
        if info["access"] == "WO":
            raise CompileError("amdil: read_image on a write_only image")
        if len(rest) == 2:
            sampler, coord = rest
            s = self.val(sampler)[0]
            if isinstance(s, tuple):
                sid, value = s[1], s[2]
            else:
                sid, value = self.argument_sampler(sampler), None
        else:
            coord = rest[0]
            sid, value = self.kernel_sampler(0x10), 0x10    # unnormalised, nearest
        c = self.val(coord)
        floats = coord.type.scalar.kind == "float" if hasattr(coord.type.scalar, "kind") else False
        xyz = em.temp_slots(4)
        for k in range(4):
            src = c[k] if k < len(c) else 0
            if not floats and not isinstance(src, int):
                em.op("itof", [xyz[k]], [src])
            elif not floats:
                em.mov([xyz[k]], [_float_bits(float(src))])
            else:
                em.mov([xyz[k]], [src])
        if not floats:
            em.op("flr", xyz, xyz)
        # a kernel's own sampler fixes the coordinate type; a sampler argument's state (set
        # by the runtime from its value) decides it at run time
        coordtype = "" if value is None else \
            f"_coordtype({'normalized' if value & CLK_NORMALIZED_COORDS_TRUE else 'unnormalized'})"
        out = self.result(inst)
        tmp = em.temp_slots(4)
        em.emit(f"sample_resource({info['image_id']})_sampler({sid}){coordtype} "
                f"{dst_text(tmp[0].num, [0, 1, 2, 3])}, r{xyz[0].num}.xyzw")
        em.mov(out, tmp)

    def write_image(self, inst) -> None:
        em = self.em
        image, coord, value = inst.args
        info = self.image_info(image)
        if info["access"] != "WO":
            raise CompileError("amdil: write_image needs a write_only image")
        c = self.val(coord)
        addr = em.temp_slots(4)
        em.mov(addr, [c[k] if k < len(c) else 0 for k in range(4)])
        v = em.temp_slots(4)
        em.mov(v, self.val(value))
        em.emit(f"uav_store_id({info['image_id']}) r{addr[0].num}.xyz, r{v[0].num}")


def _float_bits(f: float) -> int:
    import struct
    return struct.unpack("<I", struct.pack("<f", f))[0]


__all__ = ["ImageOps", "Slot"]
