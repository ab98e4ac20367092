; A host module in the shape clang gives a CUDA file's host side: two
; kernels registered under their device names, launched through
; cudaLaunchKernel (grid and block as (x | y << 32, z)), and stand-ins for
; the CUDA runtime so that lli can run it: cudaLaunchKernel prints the
; dynamic shared bytes it is given, cudaFuncSetAttribute the carveouts it is
; asked for, and the device is an H100's shape (132 SMs, 228 KiB of shared
; memory each, as many resident blocks as 2048 threads make, at most 32).
; `sized` has a launch-sized line buffer in the report the test gives;
; `plain` has none.
target triple = "x86_64-unknown-linux-gnu"

@sized.name = private unnamed_addr constant [10 x i8] c"_Z5sizedv\00"
@plain.name = private unnamed_addr constant [10 x i8] c"_Z5plainv\00"
@format = private unnamed_addr constant [12 x i8] c"shared %ld\0A\00"
@carveout = private unnamed_addr constant [13 x i8] c"carveout %d\0A\00"

declare i32 @printf(ptr, ...)

define i32 @cudaLaunchKernel(ptr %handle, i64 %grid.xy, i32 %grid.z, i64 %block.xy, i32 %block.z, ptr %args, i64 %shared, ptr %stream) {
  %r = call i32 (ptr, ...) @printf(ptr @format, i64 %shared)
  ret i32 0
}

define i32 @cudaGetDevice(ptr %device) {
  store i32 0, ptr %device
  ret i32 0
}

define i32 @cudaDeviceGetAttribute(ptr %value, i32 %attr, i32 %device) {
  %sms = icmp eq i32 %attr, 16
  %v = select i1 %sms, i32 132, i32 233472
  store i32 %v, ptr %value
  ret i32 0
}

define i32 @cudaOccupancyMaxActiveBlocksPerMultiprocessor(ptr %blocks, ptr %handle, i32 %threads, i64 %shared) {
  %n = udiv i32 2048, %threads
  %few = icmp ult i32 %n, 32
  %m = select i1 %few, i32 %n, i32 32
  store i32 %m, ptr %blocks
  ret i32 0
}

define i32 @cudaFuncSetAttribute(ptr %handle, i32 %attr, i32 %value) {
  %r = call i32 (ptr, ...) @printf(ptr @carveout, i32 %value)
  ret i32 0
}

define i32 @__cudaRegisterFunction(ptr %fatbin, ptr %handle, ptr %device, ptr %name, i32 %limit, ptr %a, ptr %b, ptr %c, ptr %d, ptr %e) {
  ret i32 0
}

define void @_Z20__device_stub__sizedv(i64 %grid.xy, i64 %block.xy, i32 %block.z, i64 %shared) {
  %r = call i32 @cudaLaunchKernel(ptr @_Z20__device_stub__sizedv, i64 %grid.xy, i32 1, i64 %block.xy, i32 %block.z, ptr null, i64 %shared, ptr null)
  ret void
}

define void @_Z20__device_stub__plainv(i64 %block.xy, i32 %block.z, i64 %shared) {
  %r = call i32 @cudaLaunchKernel(ptr @_Z20__device_stub__plainv, i64 4294967298, i32 1, i64 %block.xy, i32 %block.z, ptr null, i64 %shared, ptr null)
  ret void
}

define internal void @__cuda_register_globals(ptr %fatbin) {
  %1 = call i32 @__cudaRegisterFunction(ptr %fatbin, ptr @_Z20__device_stub__sizedv, ptr @sized.name, ptr @sized.name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %2 = call i32 @__cudaRegisterFunction(ptr %fatbin, ptr @_Z20__device_stub__plainv, ptr @plain.name, ptr @plain.name, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

define i32 @main() {
  call void @__cuda_register_globals(ptr null)
  ; sized<<<2, 6>>>, sized<<<2, dim3(32, 32)>>>, sized<<<2, 6, 50000>>>
  call void @_Z20__device_stub__sizedv(i64 4294967298, i64 4294967302, i32 1, i64 0)
  call void @_Z20__device_stub__sizedv(i64 4294967298, i64 137438953504, i32 1, i64 0)
  call void @_Z20__device_stub__sizedv(i64 4294967298, i64 4294967302, i32 1, i64 50000)
  ; sized<<<2, dim3(4, 2, 3), 100>>>
  call void @_Z20__device_stub__sizedv(i64 4294967298, i64 8589934596, i32 3, i64 100)
  ; sized<<<dim3(33, 16), 128>>>: 4 blocks an SM; sized<<<264000, 128>>>:
  ; more than the 16 that fit
  call void @_Z20__device_stub__sizedv(i64 68719476769, i64 4294967424, i32 1, i64 0)
  call void @_Z20__device_stub__sizedv(i64 4295231296, i64 4294967424, i32 1, i64 0)
  ; plain<<<2, 6>>>
  call void @_Z20__device_stub__plainv(i64 4294967302, i32 1, i64 0)
  ret i32 0
}
