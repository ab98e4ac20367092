; A host (x86-64) module: S-L1 transforms device code only.
target triple = "x86_64-pc-linux-gnu"

define void @host_function(ptr %p) {
  store i32 1, ptr %p, align 4
  ret void
}
