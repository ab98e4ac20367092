// Does not compile: a missing semicolon and an undeclared name.
__global__ void broken(char *out) {
  out[threadIdx.x] = undeclared_value
}
