; Hand-written LLVM 22 IR covering constructs the corpus may not reach.
source_filename = "constructs.ll"
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-G1"
target triple = "spir64-unknown-unknown"

%struct.Pair = type { i32, float }
%struct.Packed = type <{ i8, i32, <2 x half> }>
%struct.Opaque = type opaque
%"struct.odd name" = type { [2 x %struct.Pair], ptr addrspace(1) }

$grp = comdat any

@table = internal addrspace(2) constant [3 x %struct.Pair] [%struct.Pair { i32 1, float 0x3FB99999A0000000 }, %struct.Pair { i32 -2, float 2.500000e+00 }, %struct.Pair zeroinitializer], align 4
@packed = hidden addrspace(1) global %struct.Packed <{ i8 7, i32 -1, <2 x half> <half 0xH3C00, half 0xHBC00> }>, section ".data.k", align 1
@bytes = private unnamed_addr addrspace(2) constant [6 x i8] c"a\22b\\\0A\00", align 1
@ptrs = addrspace(1) global [3 x ptr addrspace(4)] [ptr addrspace(4) addrspacecast (ptr addrspace(1) @packed to ptr addrspace(4)), ptr addrspace(4) addrspacecast (ptr addrspace(2) getelementptr inbounds nuw (i8, ptr addrspace(2) @table, i64 8) to ptr addrspace(4)), ptr addrspace(4) null], align 8
@asint = addrspace(1) global i64 ptrtoint (ptr addrspace(1) @packed to i64), comdat($grp), align 8
@tls = thread_local(initialexec) global i32 0, align 4
@weakv = weak_odr dso_local addrspace(3) global <4 x float> poison, align 16
@ext = external addrspace(1) global i32, align 4
@dbl = addrspace(1) global { double, bfloat, i1 } { double 0x7FF8000000000000, bfloat 0xR3F80, i1 true }, align 8
@"quoted global" = addrspace(1) global i32 42
@alias = internal alias i32, ptr addrspace(1) @"quoted global"
@vecs = addrspace(1) global <4 x i32> splat (i32 3)

define spir_func float @arith(float %a, float %b, i32 %x, i32 %y, <4 x float> %v) #0 {
entry:
  %s = fadd fast float %a, %b
  %m = fmul nnan ninf nsz float %s, 0x3FF8000000000000
  %n = fneg contract float %m
  %d = fdiv arcp afn reassoc float %n, %b
  %r = frem float %d, 2.000000e+00
  %i1 = add nuw nsw i32 %x, %y
  %i2 = sub nsw i32 %i1, 1
  %i3 = mul nuw i32 %i2, %i2
  %i4 = udiv exact i32 %i3, 4
  %i5 = sdiv i32 %i4, -3
  %i6 = urem i32 %i5, 7
  %i7 = srem i32 %i6, 5
  %i8 = shl nuw nsw i32 %i7, 2
  %i9 = lshr exact i32 %i8, 1
  %i10 = ashr i32 %i9, 1
  %i11 = and i32 %i10, 255
  %i12 = or disjoint i32 %i11, 256
  %i13 = xor i32 %i12, -1
  %c1 = icmp samesign ult i32 %i13, %x
  %c2 = fcmp fast olt float %r, %a
  %c3 = and i1 %c1, %c2
  %t = trunc nuw nsw i32 %i13 to i16
  %z = zext nneg i16 %t to i64
  %sx = sext i16 %t to i32
  %f1 = uitofp nneg i64 %z to float
  %f2 = sitofp i32 %sx to double
  %f3 = fptrunc fast double %f2 to half
  %f4 = fpext half %f3 to float
  %u = fptoui float %f4 to i32
  %sg = fptosi float %f1 to i8
  %bc = bitcast <4 x float> %v to <2 x i64>
  %fr = freeze i32 %u
  %sel = select nnan i1 %c3, float %r, float %f1
  %e = extractelement <4 x float> %v, i64 2
  %ins = insertelement <4 x float> %v, float %sel, i32 0
  %sh = shufflevector <4 x float> %ins, <4 x float> poison, <8 x i32> <i32 0, i32 1, i32 poison, i32 3, i32 0, i32 0, i32 2, i32 1>
  %sh2 = shufflevector <4 x float> %ins, <4 x float> %v, <4 x i32> zeroinitializer
  %vc = fcmp oeq <4 x float> %sh2, splat (float 1.000000e+00)
  %any = call i1 @llvm.vector.reduce.or.v4i1(<4 x i1> %vc)
  %res = select i1 %any, float %e, float %sel
  %frz = sext i8 %sg to i32
  %sum = add i32 %frz, %fr
  ret float %res
}

define spir_func { i32, float } @aggregates(%struct.Pair %p, ptr addrspace(1) %q) {
  %a = extractvalue %struct.Pair %p, 0
  %b = extractvalue %struct.Pair %p, 1
  %agg0 = insertvalue { i32, float } undef, i32 %a, 0
  %agg1 = insertvalue { i32, float } %agg0, float %b, 1
  %g = getelementptr inbounds %"struct.odd name", ptr addrspace(1) %q, i64 1, i32 0, i64 1, i32 1
  %g2 = getelementptr nusw nuw [3 x %struct.Pair], ptr addrspace(2) @table, i64 0, i64 2
  store float %b, ptr addrspace(1) %g, align 4
  %vg = getelementptr i32, ptr addrspace(1) %q, <2 x i64> <i64 0, i64 1>
  ret { i32, float } %agg1
}

define spir_kernel void @memory(ptr addrspace(1) noalias %p, ptr addrspace(3) %l, i32 %v) #1 !kernel_arg_addr_space !0 !kernel_arg_name !1 {
entry:
  %slot = alloca i32, align 4
  %arr = alloca [4 x i32], i32 2, align 16
  %priv = alloca i64, align 8, addrspace(5)
  store volatile i32 %v, ptr %slot, align 4
  %x = load volatile i32, ptr %slot, align 4, !noundef !2
  store atomic i32 %x, ptr addrspace(1) %p syncscope("workgroup") release, align 4
  %y = load atomic i32, ptr addrspace(1) %p syncscope("agent") acquire, align 4
  store atomic volatile i32 %y, ptr addrspace(3) %l seq_cst, align 4
  %o1 = atomicrmw add ptr addrspace(1) %p, i32 1 syncscope("device") monotonic, align 4
  %o2 = atomicrmw volatile xchg ptr addrspace(3) %l, i32 %o1 seq_cst, align 4
  %o3 = atomicrmw fadd ptr addrspace(1) %p, float 1.000000e+00 syncscope("workgroup") acq_rel, align 4
  %o4 = atomicrmw umax ptr addrspace(1) %p, i32 %o2 seq_cst, align 4
  %o5 = atomicrmw uinc_wrap ptr addrspace(1) %p, i32 9 monotonic, align 4
  %cx = cmpxchg ptr addrspace(1) %p, i32 %o4, i32 %o5 syncscope("device") acq_rel monotonic, align 4
  %cx2 = cmpxchg weak volatile ptr addrspace(3) %l, i32 0, i32 1 seq_cst seq_cst, align 4
  %ok = extractvalue { i32, i1 } %cx, 1
  fence syncscope("workgroup") acq_rel
  fence seq_cst
  br i1 %ok, label %then, label %5

then:                                             ; preds = %entry
  %call = call spir_func i32 (ptr addrspace(2), ...) @printf(ptr addrspace(2) @bytes, i32 %y) #2
  %tc = tail call spir_func float @arith(float 1.000000e+00, float 2.000000e+00, i32 1, i32 2, <4 x float> zeroinitializer)
  %nt = notail call spir_func { i32, float } @aggregates(%struct.Pair { i32 1, float 2.000000e+00 }, ptr addrspace(1) %p)
  %tok = call token @llvm.experimental.convergence.anchor()
  call void @llvm.lifetime.start.p0(ptr %slot)
  call void @llvm.lifetime.end.p0(ptr %slot)
  call void @use.token() [ "convergencectrl"(token %tok) ]
  switch i32 %y, label %5 [
    i32 0, label %then
    i32 -7, label %last
  ]

5:                                                ; preds = %entry, %then
  %ph = phi i32 [ %x, %entry ], [ %y, %then ]
  %ph2 = phi fast float [ 0.000000e+00, %entry ], [ %tc, %then ]
  br label %last

last:
  %ph3 = phi i32 [ %ph, %5 ], [ 0, %then ]
  %asm = call i32 asm sideeffect "mov $0, $1", "=r,r"(i32 %ph3)
  ret void

dead:                                             ; No predecessors!
  unreachable
}

define internal void @personality_user() section ".text.x" align 16 personality ptr @personality_fn {
  ret void
}

define spir_func i32 @numbered(i32 %0, i32) {
  %3 = add i32 %0, %1
  br label %4

4:
  %5 = add i32 %3, 1
  ret i32 %5
}

declare spir_func i32 @printf(ptr addrspace(2), ...)
declare i32 @personality_fn(...)
declare void @use.token() convergent
declare token @llvm.experimental.convergence.anchor()
declare void @llvm.lifetime.start.p0(ptr captures(none))
declare void @llvm.lifetime.end.p0(ptr captures(none))
declare i1 @llvm.vector.reduce.or.v4i1(<4 x i1>)
declare void @uses_target_type(target("spirv.Image", void, 1, 0, 0, 0, 0, 0, 0), <vscale x 4 x i32>, x86_fp80, fp128)

attributes #0 = { nounwind "frame-pointer"="none" memory(argmem: readwrite, inaccessiblemem: read) }
attributes #1 = { convergent norecurse "uniform-work-group-size"="true" }
attributes #2 = { nobuiltin }

!llvm.ident = !{!3, !3}
!opencl.ocl.version = !{!4}

!0 = !{i32 1, i32 3, i32 0}
!1 = !{!"p", !"l", !"v"}
!2 = !{}
!3 = !{!"kernelkit \E2\9C\93 test"}
!4 = distinct !{i32 2, null, !4, !"self"}
