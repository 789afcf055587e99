; blockaddress (named and numbered blocks, forward function), indirectbr, dso_local_equivalent.
@tbl = internal constant [2 x ptr] [ptr blockaddress(@f, %two), ptr blockaddress(@f, %4)]
@eq = global ptr dso_local_equivalent @g

define void @g() {
  ret void
}

define i32 @f(i32 %x) {
entry:
  %p = getelementptr [2 x ptr], ptr @tbl, i64 0, i32 %x
  %t = load ptr, ptr %p
  indirectbr ptr %t, [label %two, label %4]
two:
  ret i32 2
4:
  ret i32 4
}
